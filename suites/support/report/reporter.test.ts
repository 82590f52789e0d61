// The reporter's text for an error: a failure of a clause as it is; anything else, a vitest timeout too, in one line
// that says it is the suite's own and where to report it, never with a stack trace.
import { describe, expect, it } from 'vitest';
import { checkLine, errorText } from './reporter.ts';
import type { CheckResult } from './results.ts';

const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

describe('errorText', () => {
  it('should give a ClauseFailure its message as it is', () => {
    const message = 'STATUS-READ-1 words\n  expected: HTTP 200\n  actual:   HTTP 401';
    expect(errorText({ name: 'ClauseFailure', message, stack: `ClauseFailure: ${message}\n    at check (/x/verify.ts:1:2)` })).toBe(message);
  });

  it('should tell an error of the suite itself in one line, with where to report it', () => {
    const text = errorText({ name: 'TypeError', message: "Cannot read properties of undefined (reading 'id')", stack: "TypeError: Cannot read properties of undefined (reading 'id')\n    at fn (/x/suites/media.test.ts:10:5)" });
    expect(text).toBe("internal error of the conformance suite: TypeError: Cannot read properties of undefined (reading 'id') (please report it with reports/results.json)");
  });

  it('should tell a vitest timeout in one line, without vitest\'s advice or stack', () => {
    const message = 'Hook timed out in 30000ms.\nIf this is a long-running hook, pass a timeout value as the last argument or configure it globally with "hookTimeout".';
    const text = errorText({ name: 'Error', message, stack: `Error: ${message}\n    at beforeAll (file:///x/node_modules/@vitest/runner/dist/chunk-hooks.js:2119:26)` });
    expect(text.split('\n')).toHaveLength(1);
    expect(text).toMatch(/^internal error of the conformance suite: this group's preparation or cleanup did not end within 30 s/);
    expect(text).not.toMatch(/timed out|STACK/);
    expect(text).not.toMatch(STACK_FRAME);
  });
});

describe('checkLine', () => {
  const check = (fields: Partial<CheckResult>): CheckResult => ({
    clause: 'STATUS-READ-3', title: 'STATUS-READ-3 another user reading a private status gets 404', group: 'Statuses', file: 'suites/statuses.test.ts',
    status: 'passed', outcome: 'passed', severity: 'MUST', durationMs: 1, observations: [], ...fields,
  });

  it('should give a verbose run\'s line of a check: its outcome, its title, and why where it was neither passed nor failed', () => {
    expect(checkLine(check({}))).toBe('  passed: STATUS-READ-3 another user reading a private status gets 404');
    expect(checkLine(check({ status: 'skipped', outcome: 'skipped', skipReason: 'needs CONFORMANCE_TOKEN_B' }))).toBe('  skipped: STATUS-READ-3 another user reading a private status gets 404 (needs CONFORMANCE_TOKEN_B)');
    expect(checkLine(check({ status: 'blocked', outcome: 'blocked', blockedBy: { clause: 'STATUS-CREATE-1', summary: 's' } }))).toMatch(/ \(blocked by STATUS-CREATE-1\)$/);
  });

  it('should say "status code only" beside a pass whose title names an error text the server did not send', () => {
    const line = checkLine(check({ statusCodeOnly: { named: 'Record not found', sent: '{"error": "Not Found"}' } }));
    expect(line).toBe('  passed: STATUS-READ-3 another user reading a private status gets 404 (status code only: the server sent {"error": "Not Found"}, not "Record not found"; ERRORS-TEXT-1 judges the text)');
  });
});

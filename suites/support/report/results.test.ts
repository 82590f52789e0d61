// The text reports as data makes them: the configured release, the invariant of blocks, the ranking of root causes,
// the tiles of the clause grid and the mark of a group that judged nothing.
import { describe, expect, it } from 'vitest';
import { emptyCounts } from '../talk/counts.ts';
import { reportHtml } from './report-html.ts';
import { clauseResults, groupLine, groupMark, planLine, redactedResults, releaseSkips, runVerdict, timingLine, totalsOf, withRunTotals, type CheckResult, type RunResults } from './results.ts';
import { junitXml } from './junit.ts';
import { rankRootCauses } from './root-causes.ts';
import { sampleCheck, sampleResults } from './sample-results.ts';
import { checkLine } from './reporter.ts';
import { summaryMarkdown } from './summary-md.ts';
import { groupLines, terminalSummary } from './terminal.ts';
import { unheldBlocks, withSuiteErrors } from './blocks.ts';

const check = (clause: string, skipReason?: string): CheckResult =>
  sampleCheck(clause, skipReason ? 'skipped' : 'passed', { group: 'Statuses', file: 'suites/statuses.test.ts', ...(skipReason ? { skipReason } : {}) });

function resultsOf(checks: CheckResult[]): RunResults {
  return sampleResults(checks, { verdict: 'PASS', server: { baseUrl: 'https://social.example', embedded: false, version: '2.9.0', faults: [] }, rootCauses: rankRootCauses(checks) });
}

describe('the release in the summaries', () => {
  it('should count the checks the configured release skipped, and say so in the terminal and in summary.md', () => {
    const results = resultsOf([
      check('STATUS-READ-1'),
      check('STATUS-BOOKMARK-1', 'needs release 3.1.0 or later (CONFORMANCE_SERVER_VERSION=2.9.0)'),
      check('STATUS-CARD-2', 'needs release 3.0.0 or later (CONFORMANCE_SERVER_VERSION=2.9.0)'),
      check('STATUS-READ-3', 'needs CONFORMANCE_TOKEN_B'),
    ]);
    expect(releaseSkips(results)).toBe(2);
    const line = 'Release 2.9.0 (CONFORMANCE_SERVER_VERSION, the release of this API the server implements): 2 checks skipped for it';
    expect(terminalSummary(results).split('\n')[1]).toBe(line);
    expect(summaryMarkdown(results)).toContain(`${line}.`);
  });
});

describe('the plan against what was sent', () => {
  it('should say nothing where the run sent its plan, and name the parts that left most unsent where it sent fewer', () => {
    const results = resultsOf([check('STATUS-READ-1')]);
    const cost = (api: number, streams = 0) => ({ api, oauth: 0, files: 0, streams });
    const counted = (api: number, streams: number) => ({ ...emptyCounts(), perPath: { api }, streamConnections: streams });
    const group = results.groups[0] as RunResults['groups'][number];
    results.groups = [{ ...group, planned: cost(10, 2), counts: counted(10, 2), parts: [{ name: 'a read', planned: cost(10, 2), sent: cost(10, 2) }] }];
    expect(planLine(results)).toBeUndefined();
    results.groups = [
      {
        ...group,
        planned: cost(30, 2),
        counts: counted(21, 2),
        parts: [
          { name: 'the moves', planned: cost(20), sent: cost(14) },
          { name: 'the undos', planned: cost(10, 2), sent: cost(7, 2) },
        ],
      },
    ];
    expect(planLine(results)).toMatch(/^Sent against the plan: 23 IP access calls of the 32 planned, streams included: 9 not needed, .*; the parts that sent fewest of theirs: "the moves" 14 of 20; "the undos" 9 of 12\.$/);
  });
});

describe('connections in the summaries', () => {
  it('should say once, on the timing line of the terminal and summary.md, that the server closed connections and none was reused after', () => {
    const results = resultsOf([check('STATUS-READ-1')]);
    results.counts = { ...emptyCounts(), connectionsClosed: true, resent: 2, slowest: { ms: 40, request: 'GET /api/v1/statuses/1' } };
    const line =
      'Slowest answer: 0.0 s (GET /api/v1/statuses/1); the server closed connections right after its answers (HTTP/1.1 allows it): the run then opened a new connection for every request, and sent 2 requests that met a closed one again on a new one.';
    expect(timingLine(results)).toBe(line);
    expect(terminalSummary(results).split('\n').filter((l) => l.includes('closed connections'))).toEqual([line]);
    expect(summaryMarkdown(results).split('\n').filter((l) => l.includes('closed connections'))).toHaveLength(1);
    results.counts = { ...results.counts, connectionsClosed: false, resent: 0 };
    expect(timingLine(results)).toBe('Slowest answer: 0.0 s (GET /api/v1/statuses/1).');
  });
});

const failedAs = (clause: string, failedClause = clause): CheckResult => ({
  ...check(clause),
  status: 'failed',
  outcome: 'failed',
  failedClause,
  message: `${failedClause} words\n  expected: x\n  actual:   y`,
  failure: { clause: failedClause, expected: 'HTTP 401', actual: 'HTTP 200\n{"id":"1"}' },
  reproduce: `curl -sS -i -X GET "$CONFORMANCE_BASE_URL"'/${clause}'`,
});
const blockedBy = (clause: string, cause?: string, summary = `${cause ?? 'something'} answered HTTP 500`): CheckResult => ({
  ...check(clause),
  status: 'blocked',
  outcome: 'blocked',
  blockedBy: { ...(cause ? { clause: cause } : {}), summary, reproduce: `curl -sS -i "$CONFORMANCE_BASE_URL"'/${summary.length}'` },
});
const skippedFor = (clause: string, skipReason: string): CheckResult => ({ ...check(clause), status: 'skipped', outcome: 'skipped', skipReason });

describe('the invariant of blocks', () => {
  it('should hold a block to a cause that failed or was itself blocked in the same run, or lies outside the contract', () => {
    const checks = [
      failedAs('STATUS-CREATE-4'),
      blockedBy('STATUS-READ-2', 'STATUS-CREATE-4'),
      blockedBy('STATUS-READ-3', 'STATUS-READ-2'),
      blockedBy('STATUS-READ-4', undefined, 'the list stream is opened only with CONFORMANCE_LIST_ID'),
      failedAs('APPS-VERIFY-2', 'ERRORS-TOKEN-1'),
      blockedBy('STATUS-VIS-1', 'ERRORS-TOKEN-1'),
      // Left to another run: its check was not selected, or is in a group this run did not run.
      skippedFor('STATUS-READ-1', 'not selected (--only, --exclude)'),
      blockedBy('STATUS-VIS-2', 'STATUS-READ-1'),
      blockedBy('STATUS-VIS-3', 'MEDIA-UPLOAD-1'),
    ];
    expect(unheldBlocks(checks)).toEqual([]);
  });

  it('should report a block whose cause passed, did not run, or is no clause as an error of the suite naming the check and its cause', () => {
    const checks = [
      check('STATUS-CREATE-1'),
      blockedBy('STATUS-DELETE-1', 'STATUS-CREATE-1', 'creating a status answered HTTP 401'),
      skippedFor('STATUS-WHITELIST-1', 'needs CONFORMANCE_WHITELIST_MODE (an instance in whitelist mode)'),
      blockedBy('STATUS-READ-4', 'STATUS-WHITELIST-1'),
      blockedBy('STATUS-READ-5', 'NO-SUCH-CLAUSE-1'),
    ];
    const errors = unheldBlocks(checks).map((u) => u.error);
    expect(errors).toEqual([
      expect.stringMatching(/^internal error of the conformance suite: STATUS-DELETE-1 a check is blocked by STATUS-CREATE-1 \(creating a status answered HTTP 401\), but STATUS-CREATE-1 passed in this run \(STATUS-CREATE-1 a check\): a check may be blocked only by a clause that failed or was blocked in the same run/),
      expect.stringMatching(/STATUS-READ-4 a check is blocked by STATUS-WHITELIST-1 .*, but STATUS-WHITELIST-1 did not run \(needs CONFORMANCE_WHITELIST_MODE/),
      expect.stringMatching(/STATUS-READ-5 a check is blocked by NO-SUCH-CLAUSE-1 .*, but NO-SUCH-CLAUSE-1 is no clause of the catalogue/),
    ]);
  });

  // A forced trip of the invariant: the suite blocked a check by a clause that passed.
  it('should report a check whose block did not hold as not judged, the error of the suite beside it in every report, and leave the verdict to the server', () => {
    const checks = withSuiteErrors([check('STATUS-CREATE-1'), blockedBy('STATUS-DELETE-1', 'STATUS-CREATE-1', 'creating a status answered HTTP 401'), failedAs('STATUS-READ-3')]);
    const [, tripped] = checks;
    expect(tripped).toMatchObject({ status: 'not-judged', outcome: 'not-judged', blockedBy: { clause: 'STATUS-CREATE-1' } });
    expect(tripped?.notJudged).toMatch(/^blocked by STATUS-CREATE-1 \(creating a status answered HTTP 401\), a cause that held nowhere in this run: an error of the suite/);
    const said = /internal error of the conformance suite: STATUS-DELETE-1 a check is blocked by STATUS-CREATE-1/;
    expect(tripped?.suiteError).toMatch(said);
    const group = { name: 'Statuses', file: 'suites/statuses.test.ts', durationMs: 1, ...totalsOf(checks), errors: [] };
    const groups = withRunTotals([group], checks);
    expect(groups.map((g) => [g.errors.length, g.notJudged, g.failed])).toEqual([[0, 1, 1]]);
    // The verdict is the server's: its one failure fails the run, and without it the run passes, the error still shown.
    expect(runVerdict({ ...resultsOf(checks), groups })).toBe('FAIL');
    const passing = withSuiteErrors(checks.filter((c) => c.status !== 'failed'));
    const results = { ...resultsOf(passing), groups: withRunTotals([group], passing) };
    expect(runVerdict(results)).toBe('PASS');
    expect(terminalSummary(results)).toMatch(new RegExp(`Error of the suite beside a check not judged \\(not the server's; it decides no verdict, please report it\\): ${said.source}`));
    expect(summaryMarkdown(results)).toMatch(new RegExp(`## Errors of the suite beside checks not judged[^]*${said.source}`));
    expect(junitXml(results)).toMatch(new RegExp(`<skipped message="not judged: blocked by STATUS-CREATE-1[^"]*"/>\\s*<system-err>${said.source}`));
    expect(reportHtml(results)).toMatch(new RegExp(`<section id="suite-errors">[^]*${said.source}`));
  });

  it('should judge the blocks of merged shards again: a block that holds in the whole run is blocked, not an error of the suite', () => {
    const shard = withSuiteErrors([check('STATUS-CREATE-1'), blockedBy('STATUS-DELETE-1', 'STATUS-CREATE-1')]);
    expect(shard.map((c) => c.status)).toEqual(['passed', 'not-judged']);
    const merged = withSuiteErrors([...shard, { ...failedAs('STATUS-CREATE-1'), file: 'suites/media.test.ts' }]);
    expect(merged.map((c) => [c.status, c.suiteError])).toEqual([['passed', undefined], ['blocked', undefined], ['failed', undefined]]);
  });
});

describe('root causes', () => {
  it("should print a root cause's replay whole under its line, in the terminal and in summary.md, and a lone curl line as it is", () => {
    const replay = [`STATUS_1=$(curl -sS -X POST "$CONFORMANCE_BASE_URL"'/api/v1/statuses' | grep -o '"id"')`, `curl -sS -i -X DELETE "$CONFORMANCE_BASE_URL""/api/v1/statuses/$STATUS_1"`];
    const checks = [{ ...failedAs('STATUS-DELETE-3'), reproduce: replay.join('\n') }, failedAs('STATUS-READ-1')];
    const results = { ...resultsOf(checks), verdict: 'FAIL' as const };
    const terminal = terminalSummary(results);
    expect(terminal).toContain(`replay, to paste into sh with the CONFORMANCE_* variables set (the first lines create what the request names):\n     ${replay[0]}\n     ${replay[1]}\n`);
    expect(terminal).toContain(`\n     curl -sS -i -X GET "$CONFORMANCE_BASE_URL"'/STATUS-READ-1'\n`);
    expect(summaryMarkdown(results)).toContain(`   \`\`\`\n   ${replay[0]}\n   ${replay[1]}\n   \`\`\``);
  });

  const checks = [
    failedAs('STATUS-POLL-1'),
    failedAs('STATUS-CREATE-4'),
    blockedBy('STATUS-READ-2', 'STATUS-CREATE-4'),
    // A chain: STATUS-DELETE-1 was itself blocked by STATUS-CREATE-4, and blocks two checks of its own.
    blockedBy('STATUS-DELETE-1', 'STATUS-CREATE-4'),
    blockedBy('STATUS-DELETE-2', 'STATUS-DELETE-1'),
    blockedBy('STATUS-DELETE-4', 'STATUS-DELETE-1'),
    blockedBy('STATUS-VIS-1', undefined, 'no answer from the server'),
    blockedBy('STATUS-VIS-2', undefined, 'no answer from the server'),
    check('STATUS-READ-1'),
    // Another user's status deleted: a clause of ownership, which blocks nothing and still leads the ranking.
    failedAs('STATUS-DELETE-3'),
  ];

  it('should rank the clauses of access control, visibility and ownership first, then every cause by the checks blocked naming it', () => {
    expect(rankRootCauses(checks)).toEqual([
      expect.objectContaining({ clause: 'STATUS-DELETE-3', outcome: 'failed', blocks: 0, guards: 'ownership' }),
      { clause: 'STATUS-CREATE-4', label: 'STATUS-CREATE-4', outcome: 'failed', blocks: 2, evidence: 'expected HTTP 401; actual HTTP 200 {"id":"1"}', reproduce: `curl -sS -i -X GET "$CONFORMANCE_BASE_URL"'/STATUS-CREATE-4'` },
      { label: 'outside the contract: no answer from the server', blocks: 2, evidence: 'no answer from the server', reproduce: `curl -sS -i "$CONFORMANCE_BASE_URL"'/25'` },
      // Its own check blocked, it was still seen not doing what two checks need: a cause of its own, not STATUS-CREATE-4's.
      { clause: 'STATUS-DELETE-1', label: 'STATUS-DELETE-1', ownCheckBlockedBy: 'STATUS-CREATE-4', blocks: 2, evidence: 'STATUS-DELETE-1 answered HTTP 500', reproduce: `curl -sS -i "$CONFORMANCE_BASE_URL"'/33'` },
      expect.objectContaining({ clause: 'STATUS-POLL-1', outcome: 'failed', blocks: 0 }),
    ]);
  });

  it('should open the terminal summary and summary.md with the ranking, each cause with its evidence and curl line', () => {
    const results = resultsOf(checks);
    const terminal = terminalSummary(results).split('\n');
    // The first lines are the verdict, the release and how slow the server was (timingLine).
    expect(terminal.slice(3, 13)).toEqual([
      'Root causes, access control, visibility and ownership first, then the one that blocks most checks:',
      '  1. STATUS-DELETE-3 (failed, ownership), blocks 0 checks: expected HTTP 401; actual HTTP 200 {"id":"1"}',
      `     curl -sS -i -X GET "$CONFORMANCE_BASE_URL"'/STATUS-DELETE-3'`,
      '  2. STATUS-CREATE-4 (failed), blocks 2 checks: expected HTTP 401; actual HTTP 200 {"id":"1"}',
      `     curl -sS -i -X GET "$CONFORMANCE_BASE_URL"'/STATUS-CREATE-4'`,
      '  3. outside the contract: no answer from the server, blocks 2 checks',
      `     curl -sS -i "$CONFORMANCE_BASE_URL"'/25'`,
      '  4. STATUS-DELETE-1 (its own check blocked by STATUS-CREATE-4), blocks 2 checks: STATUS-DELETE-1 answered HTTP 500',
      `     curl -sS -i "$CONFORMANCE_BASE_URL"'/33'`,
      '  5. STATUS-POLL-1 (failed), blocks 0 checks: expected HTTP 401; actual HTTP 200 {"id":"1"}',
    ]);
    const summary = summaryMarkdown(results);
    expect(summary.indexOf('## Root causes')).toBeLessThan(summary.indexOf('## Failures by clause'));
    expect(summary).toMatch(/## Root causes\n\n.*\n\n1\. \*\*STATUS-DELETE-3\*\* \(failed, ownership\), blocks 0 checks: .*\n\n {3}`curl .*STATUS-DELETE-3'`\n2\. \*\*STATUS-CREATE-4\*\* \(failed\), blocks 2 checks: .*\n\n {3}`curl .*STATUS-CREATE-4'`\n3\. \*\*outside the contract: no answer from the server\*\*, blocks 2 checks\n/);
    // report.html and results.json keep the same order: they are made from the same ranking.
    expect([...reportHtml(results).matchAll(/<li data-cause="([^"]+)"/g)].map((m) => m[1])).toEqual(results.rootCauses.map((r) => r.label));
  });

  it('should mark a root cause on its tile with the checks it blocks, and a failure filed under another clause apart', () => {
    const tiles = clauseResults([...checks, check('ERRORS-TOKEN-1'), failedAs('APPS-VERIFY-2', 'ERRORS-TOKEN-1')]);
    expect(tiles.get('STATUS-CREATE-4')).toMatchObject({ result: 'failed', blocks: 2, filedByOthers: false });
    // Blocked itself, it still blocks two checks: its tile says so.
    expect(tiles.get('STATUS-DELETE-1')).toMatchObject({ result: 'blocked', blocks: 2 });
    expect(clauseResults([...checks, check('STATUS-DELETE-1')]).get('STATUS-DELETE-1')).toMatchObject({ result: 'passed', blocks: 2 });
    expect(tiles.get('ERRORS-TOKEN-1')).toMatchObject({ result: 'failed', filedByOthers: true, blocks: 0 });
    expect(tiles.get('APPS-VERIFY-2')).toMatchObject({ result: 'failed', filedByOthers: false });
  });
});

describe('a group that judged nothing', () => {
  it('should get its own mark, never a tick, in the terminal line and summary.md', () => {
    const checks = [blockedBy('STATUS-READ-2', 'STATUS-CREATE-4'), skippedFor('STATUS-READ-1', 'needs CONFORMANCE_TOKEN_B')];
    const group = { name: 'Authentication', file: 'suites/access.test.ts', durationMs: 1, ...totalsOf(checks), errors: [] };
    expect(groupMark(group)).toEqual({ mark: '○', meaning: 'nothing judged' });
    expect(groupLine(group)).toBe('○ Authentication: 0 passed, 0 failed, 1 blocked, 1 skipped: nothing judged');
    expect(groupMark({ ...group, ...totalsOf([check('STATUS-READ-1')]) }).mark).toBe('✓');
    expect(summaryMarkdown({ ...resultsOf(checks), groups: [group] })).toContain('## Groups\n\n- ○ Authentication: 0 passed, 0 failed, 1 blocked, 1 skipped: nothing judged\n');
  });

  it('should get a tick only where something passed and nothing failed, a warning sign where SHOULD checks or expected failures failed', () => {
    const warning = { ...sampleCheck('STATUS-READ-6', 'failed'), outcome: 'warning' as const };
    const expected = { ...sampleCheck('STATUS-READ-7', 'failed'), outcome: 'expected-failure' as const };
    const groupOf = (checks: CheckResult[]) => ({ name: 'States and transitions', file: 'suites/statuses-interactions.test.ts', durationMs: 1, ...totalsOf(checks), errors: [] });
    // A server answering 500 to everything: one SHOULD check failed, every other blocked.
    const broken = groupOf([warning, blockedBy('STATUS-FAV-1', 'STATUS-CREATE-1'), blockedBy('STATUS-FAV-2', 'STATUS-CREATE-1')]);
    expect(groupLine(broken)).toBe('⚠ States and transitions: 0 passed, 0 failed, 1 warning, 2 blocked, 0 skipped');
    expect(groupMark(groupOf([check('STATUS-READ-1'), expected])).mark).toBe('⚠');
    expect(groupMark(groupOf([check('STATUS-READ-1'), warning, sampleCheck('STATUS-READ-2', 'failed')])).mark).toBe('✗');
    expect(groupMark(groupOf([check('STATUS-READ-1'), blockedBy('STATUS-FAV-1', 'STATUS-CREATE-1')])).mark).toBe('✓');
  });
});

describe('the terminal\'s group lines', () => {
  it('should count what the reports count, the run-wide results in their owning group, and say which groups did not run', () => {
    const checks = [
      sampleCheck('STATUS-FAV-1', 'passed'),
      sampleCheck('RESOURCE-POLL-1', 'passed', { title: 'RESOURCE-POLL-1 every Poll the run met (run-wide)' }),
      skippedFor('STATUS-READ-1', 'not selected (--only, --exclude)'),
    ];
    const groups = withRunTotals([
      { name: 'States and transitions', file: 'suites/statuses-interactions.test.ts', durationMs: 1234, ...totalsOf([]), errors: [] },
      { name: 'Statuses', file: 'suites/statuses.test.ts', durationMs: 0, ...totalsOf([]), errors: [] },
    ], checks);
    const results = { ...resultsOf(checks), groups };
    expect(groupLines(results)).toEqual(['✓ States and transitions: 2 passed, 0 failed, 0 skipped (1.2 s)', '○ Statuses: 0 passed, 0 failed, 1 skipped: nothing judged (not run)']);
    expect(summaryMarkdown(results)).toContain('- ✓ States and transitions: 2 passed, 0 failed, 0 skipped\n');
  });
});

describe('checks not judged in the reports', () => {
  it('should count a check that met nothing to judge apart from passes, and list it with what went unseen', () => {
    const unjudged: CheckResult = { ...check('RESOURCE-SCHEDULED-1'), status: 'not-judged', outcome: 'not-judged', judged: 0, notJudged: 'the run met no ScheduledStatus' };
    const results = resultsOf([{ ...check('STATUS-READ-1'), judged: 1 }, unjudged]);
    expect(results.totals).toMatchObject({ passed: 1, notJudged: 1 });
    expect(terminalSummary(results)).toContain('1 passed, 0 failed, 1 not judged, 0 skipped');
    expect(terminalSummary(results)).toContain('Not judged: RESOURCE-SCHEDULED-1 a check: the run met no ScheduledStatus');
    expect(summaryMarkdown(results)).toMatch(/## Not judged\n\n.*\n\n- RESOURCE-SCHEDULED-1 a check: the run met no ScheduledStatus/);
    const html = reportHtml(results);
    expect(html).toMatch(/<section id="not-judged"><h2>Not judged: nothing met to judge \(1\)<\/h2>[\s\S]*RESOURCE-SCHEDULED-1 a check: <span class="dim">the run met no ScheduledStatus/);
    expect(html).toContain('data-judged="1"');
  });
});

describe('a pass that judged the status code only', () => {
  it('should say "status code only" beside it in summary.md and report.html, and carry it as data in results.json', () => {
    const statusCodeOnly = { named: 'Record not found', sent: '{"error": "Not Found"}' };
    const results = resultsOf([{ ...check('STATUS-READ-3'), judged: 1, statusCodeOnly }, { ...check('STATUS-READ-1'), judged: 1 }]);
    const note = 'status code only: the server sent {"error": "Not Found"}, not "Record not found"; ERRORS-TEXT-1 judges the text';
    expect(summaryMarkdown(results)).toContain(`## Passed on the status code only\n\nTheir titles name an error text that the server did not send: they judged the status code only.\n\n- STATUS-READ-3 a check: ${note}\n`);
    expect(summaryMarkdown(results)).not.toContain('- STATUS-READ-1 a check: status code only');
    expect(reportHtml(results)).toContain('(judged 1; <span class="status-code-only">status code only: the server sent {&quot;error&quot;: &quot;Not Found&quot;}');
    expect(JSON.parse(JSON.stringify(redactedResults(results))).checks[0].statusCodeOnly).toEqual(statusCodeOnly);
  });
});

describe('titles in the text reports', () => {
  it('should keep a title whose words follow "Bearer", and still mask the token a failure message carries', () => {
    const title = 'AUTH-BEARER-1 the token sent in the Authorization header as Bearer is taken: the private status answers its owner';
    const failed = sampleCheck('AUTH-BEARER-1', 'failed', { title, message: 'sent Authorization: Bearer s3cr3t-t0ken-value and got 401' });
    const results = sampleResults([failed], { rootCauses: rankRootCauses([failed]) });
    for (const text of [terminalSummary(results), summaryMarkdown(results), checkLine(failed)]) {
      expect(text).toContain(title);
      expect(text).not.toContain('s3cr3t-t0ken-value');
    }
  });
});

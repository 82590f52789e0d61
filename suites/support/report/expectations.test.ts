import { describe, expect, it } from 'vitest';
import { expectationsText, judgeRun, parseExpectations, selectionPattern, updateExpectations, type Expectation, type Judgeable } from './expectations.ts';
import type { CheckResult } from './results.ts';

const check = (title: string, status: Judgeable['status'], extra: Partial<Judgeable> = {}): Judgeable => ({
  clause: title.split(' ')[0] ?? '',
  title,
  status,
  outcome: status,
  severity: 'MUST',
  ...extra,
});

const fail = (id: string): Expectation => ({ check: id, expect: 'fail', reason: 'known' });

describe('parseExpectations', () => {
  it('should read clause ids and full check titles with their reasons', () => {
    const text = JSON.stringify({ expectations: [fail('STATUS-READ-1'), { check: 'APPS-VERIFY-2 verify_credentials without a token', expect: 'skip', reason: 'x' }] });
    expect(parseExpectations(text, 'e.json').map((e) => e.check)).toEqual(['STATUS-READ-1', 'APPS-VERIFY-2 verify_credentials without a token']);
  });

  it.each([
    ['not JSON', '{', /is not JSON/],
    ['no array', '{"expectations": {}}', /"expectations" array/],
    ['an unknown clause', '{"expectations": [{"check": "NOPE-1", "expect": "fail", "reason": "r"}]}', /names no clause/],
    ['a bad expect', '{"expectations": [{"check": "STATUS-READ-1", "expect": "pass", "reason": "r"}]}', /"fail", "skip" or a list/],
    ['a list without fail', '{"expectations": [{"check": "STATUS-READ-1", "expect": ["pass"], "reason": "r"}]}', /"fail", "skip" or a list/],
    ['a list naming an outcome twice', '{"expectations": [{"check": "STATUS-READ-1", "expect": ["fail", "fail"], "reason": "r"}]}', /"fail", "skip" or a list/],
    ['no reason', '{"expectations": [{"check": "STATUS-READ-1", "expect": "fail", "reason": ""}]}', /reason must say why/],
    ['a misspelt key', '{"expectations": [{"check": "STATUS-READ-1", "expected": "fail", "reason": "r"}]}', /unknown key expected/],
    ['a duplicate', `{"expectations": [${JSON.stringify(fail('STATUS-READ-1'))}, ${JSON.stringify(fail('STATUS-READ-1'))}]}`, /listed twice/],
  ])('should refuse %s, naming the entry', (_what, text, message) => {
    expect(() => parseExpectations(text, 'e.json')).toThrow(message);
  });
});

describe('selectionPattern', () => {
  const select = (only: string[], expectations: Expectation[], exclude: string[] = []) => {
    const source = selectionPattern({ only, exclude }, expectations);
    return (name: string) => (source ? new RegExp(source).test(name) : true);
  };

  it('should select by clause id prefix and leave out the checks the file skips', () => {
    const selected = select(['STATUS-READ'], [{ check: 'STATUS-READ-2', expect: 'skip', reason: 'r' }]);
    expect(selected('Statuses STATUS-READ-1 a public status is readable')).toBe(true);
    expect(selected('Statuses STATUS-READ-2 the owner reads')).toBe(false);
    expect(selected('Statuses STATUS-READ-22 another')).toBe(true);
    expect(selected('Statuses STATUS-CREATE-1 creating')).toBe(false);
  });

  it('should leave out the checks --exclude names, within what --only takes or among all', () => {
    const within = select(['STATUS-'], [], ['STATUS-READ']);
    expect(within('Statuses STATUS-READ-1 a public status is readable')).toBe(false);
    expect(within('Statuses STATUS-CREATE-1 creating')).toBe(true);
    const amongAll = select([], [], ['STATUS-READ-1']);
    expect(amongAll('Statuses STATUS-READ-1 a public status is readable')).toBe(false);
    expect(amongAll('OAuth OAUTH-TOKEN-1 a token')).toBe(true);
  });

  it('should skip one check by its full title', () => {
    const selected = select([], [{ check: 'STATUS-READ-1 a (public) status', expect: 'skip', reason: 'r' }]);
    expect(selected('Statuses STATUS-READ-1 a (public) status')).toBe(false);
    expect(selected('Statuses STATUS-READ-1 another check')).toBe(true);
  });

  it('should select everything when there is nothing to select or skip', () => {
    expect(selectionPattern({ only: [], exclude: [] }, [fail('STATUS-READ-1')])).toBeUndefined();
  });
});

describe('judgeRun', () => {
  it('should make an expected failure harmless and a SHOULD failure a warning', () => {
    const checks = [check('STATUS-READ-1 x', 'failed'), check('STATUS-READ-2 y', 'failed', { severity: 'SHOULD' }), check('STATUS-READ-3 z', 'failed')];
    const entries = judgeRun(checks, [fail('STATUS-READ-1')]);
    expect(checks.map((c) => c.outcome)).toEqual(['expected-failure', 'warning', 'failed']);
    expect(entries[0]?.state).toBe('failing as expected');
  });

  it('should count a failure that names the expected clause from another check as expected', () => {
    const checks = [check('STATUS-CREATE-1 x', 'failed', { failedClause: 'RESOURCE-STATUS-1' }), check('RESOURCE-STATUS-1 y', 'passed')];
    const entries = judgeRun(checks, [fail('RESOURCE-STATUS-1')]);
    expect(checks.map((c) => c.outcome)).toEqual(['expected-failure', 'passed']);
    expect(entries[0]?.state).toBe('failing as expected');
  });

  it('should report an expected failure none of whose checks fails as unexpectedly passing', () => {
    const checks = [check('STATUS-READ-1 x', 'passed'), check('STATUS-READ-1 y', 'skipped')];
    const entries = judgeRun(checks, [fail('STATUS-READ-1'), fail('STATUS-READ-4')]);
    expect(checks.map((c) => c.outcome)).toEqual(['unexpectedly-passing', 'skipped']);
    expect(entries.map((e) => e.state)).toEqual(['unexpectedly passing', 'not run']);
  });

  it('should make a failure filed under a clause whose own check failed too a warning naming that check, whichever came first', () => {
    const found = () => check('STATUS-SEQUENCE-1 moves', 'failed', { failedClause: 'STATUS-FAV-5' });
    const own = () => check('STATUS-FAV-5 explored inputs', 'failed');
    for (const checks of [[found(), own()], [own(), found()]]) {
      judgeRun(checks, []);
      const [sequence] = checks.filter((c) => c.clause === 'STATUS-SEQUENCE-1');
      expect(sequence?.outcome).toBe('warning');
      expect(sequence?.observations?.join()).toContain('"STATUS-FAV-5 explored inputs"');
      expect(checks.find((c) => c.clause === 'STATUS-FAV-5')?.outcome).toBe('failed');
    }
    // Its clause's own check passed (or the run has none): the finding is the one failure.
    const alone = [found(), check('STATUS-FAV-5 explored inputs', 'passed')];
    judgeRun(alone, []);
    expect(alone.map((c) => c.outcome)).toEqual(['failed', 'passed']);
  });

  it('should not call an expected failure whose check is still blocked unexpectedly passing', () => {
    const checks = [check('STATUS-MUTE-2 x', 'blocked'), check('STATUS-MUTE-2 y', 'passed')];
    expect(judgeRun(checks, [fail('STATUS-MUTE-2')]).map((e) => e.state)).toEqual(['blocked']);
    expect(checks.map((c) => c.outcome)).toEqual(['blocked', 'passed']);
  });
});

describe('updateExpectations', () => {
  const result = (title: string, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult => ({
    ...check(title, status),
    group: 'g',
    file: 'suites/g.test.ts',
    durationMs: 1,
    observations: [],
    ...(status === 'failed' ? { failedClause: title.split(' ')[0], failure: { clause: title.split(' ')[0] ?? '', expected: 'HTTP 404', actual: '2 distinct mismatches:\n  1. HTTP 200' } } : {}),
    ...extra,
  });
  const run = [
    result('STATUS-READ-1 x', 'failed'),
    result('STATUS-READ-2 y', 'failed'),
    result('STATUS-READ-2 z', 'passed'),
    result('APPS-VERIFY-2 w', 'failed', { failedClause: 'ERRORS-TOKEN-1' }),
    result('ERRORS-TOKEN-1 v', 'passed'),
    result('STATUS-MUTE-2 u', 'blocked', { blockedBy: { clause: 'STATUS-MUTE-1', summary: 'mute answered HTTP 404' } }),
    result('STATUS-READ-3 t', 'failed', { severity: 'SHOULD' }),
  ];

  it('should expect every failure and blocked check with the reason the run gave, keyed by the check that reported it', () => {
    const { entries, added } = updateExpectations([], run);
    expect(added).toEqual(entries);
    expect(entries).toEqual([
      { check: 'APPS-VERIFY-2 w', expect: 'fail', reason: 'as ERRORS-TOKEN-1: expected HTTP 404; actual 2 distinct mismatches: 1. HTTP 200' },
      { check: 'STATUS-MUTE-2 u', expect: 'fail', reason: 'blocked by STATUS-MUTE-1 (mute answered HTTP 404)' },
      { check: 'STATUS-READ-1 x', expect: 'fail', reason: 'expected HTTP 404; actual 2 distinct mismatches: 1. HTTP 200' },
      { check: 'STATUS-READ-2 y', expect: 'fail', reason: 'expected HTTP 404; actual 2 distinct mismatches: 1. HTTP 200' },
    ]);
  });

  it('should fail the gate when a check passing beside a blocked check of its clause (another transport) regresses', () => {
    const baseline = [result('STREAM-USER-3 muted (SSE)', 'blocked', { blockedBy: { clause: 'STREAM-SSE-1', summary: 'no event stream' } }), result('STREAM-USER-3 muted (WebSocket)', 'passed')];
    const { entries } = updateExpectations([], baseline);
    expect(entries.map((e) => e.check)).toEqual(['STREAM-USER-3 muted (SSE)']);
    const regressed = [check('STREAM-USER-3 muted (SSE)', 'blocked'), check('STREAM-USER-3 muted (WebSocket)', 'failed')];
    judgeRun(regressed, entries);
    expect(regressed.map((c) => c.outcome)).toEqual(['blocked', 'failed']);
  });

  it('should read an entry keyed by a clause alone as every check of the clause, and rewrite it per check that it held', () => {
    const clauseEntries: Expectation[] = [
      { check: 'STREAM-USER-3', expect: 'fail', reason: 'ticket 3' },
      { check: 'STATUS-READ-2', expect: 'fail', reason: 'ticket 4' },
      { check: 'ERRORS-TOKEN-1', expect: 'fail', reason: 'ticket 5' },
      { check: 'STATUS-READ-1 x', expect: 'fail', reason: 'ticket 6' },
      { check: 'STATUS-READ-1', expect: 'fail', reason: 'ticket 7' },
    ];
    const stream = [result('STREAM-USER-3 muted (SSE)', 'blocked'), result('STREAM-USER-3 muted (WebSocket)', 'passed'), result('STREAM-USER-3 muted (WebSocket) again', 'passed')];
    const checks = [...stream, ...run];
    const judged = checks.map((c) => ({ ...c }));
    expect(judgeRun(judged, clauseEntries).map((e) => e.state)).toEqual(['blocked', 'failing as expected', 'failing as expected', 'failing as expected', 'failing as expected']);
    const { entries, rewritten, widened } = updateExpectations(clauseEntries, checks);
    expect(entries.map((e) => `${e.check} ${JSON.stringify(e.expect)}: ${e.reason}`)).toEqual([
      'STREAM-USER-3 muted (SSE) "fail": ticket 3',
      'STATUS-READ-2 y "fail": ticket 4',
      'APPS-VERIFY-2 w "fail": ticket 5',
      'STATUS-READ-1 x "fail": ticket 6',
      'STATUS-MUTE-2 u "fail": blocked by STATUS-MUTE-1 (mute answered HTTP 404)',
    ]);
    expect(rewritten.map((e) => e.check)).toEqual(['STREAM-USER-3 muted (SSE)', 'STATUS-READ-2 y', 'APPS-VERIFY-2 w']);
    expect(widened).toEqual([]);
    // A clause's entry none of whose checks fails or is blocked any more: each passing check widened to either outcome.
    const fixed = updateExpectations([{ check: 'STREAM-USER-3', expect: 'fail', reason: 'ticket 3' }], stream.slice(1));
    expect(fixed.entries.map((e) => [e.check, e.expect])).toEqual([
      ['STREAM-USER-3 muted (WebSocket)', ['fail', 'pass']],
      ['STREAM-USER-3 muted (WebSocket) again', ['fail', 'pass']],
    ]);
    expect(fixed.widened).toEqual(fixed.entries);
  });

  it('should write a file that --expectations reads and under which the same run passes', () => {
    const { entries } = updateExpectations([], run);
    expect(parseExpectations(expectationsText(entries), 'e.json')).toEqual(entries);
    expect(parseExpectations(expectationsText([]), 'e.json')).toEqual([]);
    const again = run.map((c) => ({ ...c }));
    expect(judgeRun(again, entries).map((e) => e.state)).not.toContain('unexpectedly passing');
    expect(again.map((c) => c.outcome)).toEqual(['expected-failure', 'expected-failure', 'passed', 'expected-failure', 'passed', 'blocked', 'warning']);
  });

  it("should keep a person's reasons and skips and the entries this run did not judge, and widen the expected failures that now pass", () => {
    const existing: Expectation[] = [
      { check: 'STATUS-READ-1 x', expect: 'fail', reason: 'ticket 7' },
      { check: 'STATUS-MUTE-2', expect: 'skip', reason: 'no mutes here' },
      { check: 'STATUS-READ-2 z', expect: 'fail', reason: 'fixed since' },
      { check: 'APPS-VERIFY-2 w', expect: 'fail', reason: 'a failure filed under another clause keeps it' },
      { check: 'MEDIA-V2-1', expect: 'fail', reason: 'not in this run' },
    ];
    const { entries, widened } = updateExpectations(existing, run);
    expect(widened).toEqual([{ check: 'STATUS-READ-2 z', expect: ['fail', 'pass'], reason: 'fixed since' }]);
    expect(entries.map((e) => `${e.check} ${JSON.stringify(e.expect)}: ${e.reason}`)).toEqual([
      'STATUS-READ-1 x "fail": ticket 7',
      'STATUS-MUTE-2 "skip": no mutes here',
      'STATUS-READ-2 z ["fail","pass"]: fixed since',
      'APPS-VERIFY-2 w "fail": a failure filed under another clause keeps it',
      'MEDIA-V2-1 "fail": not in this run',
      'STATUS-READ-2 y "fail": expected HTTP 404; actual 2 distinct mismatches: 1. HTTP 200',
    ]);
  });

  it('should hold a check named with several outcomes whichever it has, and leave the entry as it is', () => {
    const flaky: Expectation[] = [{ check: 'STATUS-READ-1', expect: ['fail', 'pass'], reason: 'moves with the timing' }];
    const passing = [check('STATUS-READ-1 x', 'passed')];
    expect(judgeRun(passing, flaky).map((e) => e.state)).toEqual(['passing as allowed']);
    expect(passing[0]?.outcome).toBe('passed');
    const failing = [check('STATUS-READ-1 x', 'failed')];
    expect(judgeRun(failing, flaky).map((e) => e.state)).toEqual(['failing as expected']);
    expect(failing[0]?.outcome).toBe('expected-failure');
    const titled = [{ ...flaky[0]!, check: 'STATUS-READ-1 x' }];
    expect(updateExpectations(flaky, [result('STATUS-READ-1 x', 'passed')])).toEqual({ entries: titled, added: [], widened: [], intermittent: [], rewritten: titled });
    expect(updateExpectations(titled, [result('STATUS-READ-1 x', 'passed')])).toEqual({ entries: titled, added: [], widened: [], intermittent: [], rewritten: [] });
    expect(parseExpectations(expectationsText(flaky), 'e.json')).toEqual(flaky);
  });

  /** A check of a stability run, its worst repeat standing for it, with the verdict of each repeat. */
  const repeated = (title: string, statuses: CheckResult['status'][]): CheckResult => {
    const worst = (['failed', 'blocked', 'passed'] as const).find((s) => statuses.includes(s)) ?? 'passed';
    return { ...result(title, worst), repeats: statuses.map((status) => ({ status })), intermittent: true };
  };

  it('should write the entry of an intermittent check as the outcomes it showed, and widen an entry it had by them', () => {
    const checks = [repeated('STATUS-REBLOG-5 x', ['passed', 'failed', 'passed']), repeated('STATUS-REBLOG-7 y', ['blocked', 'passed']), repeated('STATUS-REBLOG-2 z', ['failed', 'blocked'])];
    const existing: Expectation[] = [{ check: 'STATUS-REBLOG-2', expect: 'fail', reason: 'ticket 9' }];
    const { entries, added, intermittent } = updateExpectations(existing, checks);
    expect(entries.map((e) => [e.check, e.expect])).toEqual([
      ['STATUS-REBLOG-2 z', ['fail', 'blocked']],
      ['STATUS-REBLOG-5 x', ['fail', 'pass']],
      ['STATUS-REBLOG-7 y', ['pass', 'blocked']],
    ]);
    expect(added.map((e) => e.check)).toEqual(['STATUS-REBLOG-5 x', 'STATUS-REBLOG-7 y']);
    expect(intermittent.map((e) => e.check)).toEqual(['STATUS-REBLOG-2 z', 'STATUS-REBLOG-5 x', 'STATUS-REBLOG-7 y']);
    expect(parseExpectations(expectationsText(entries), 'e.json')).toEqual(entries);
  });

  it('should hold a check named ["pass", "blocked"] passing or blocked, and fail the run where it fails', () => {
    const entry: Expectation[] = [{ check: 'STATUS-REBLOG-7', expect: ['pass', 'blocked'], reason: 'moves with the timing' }];
    expect(judgeRun([check('STATUS-REBLOG-7 x', 'passed')], entry).map((e) => e.state)).toEqual(['passing as allowed']);
    expect(judgeRun([check('STATUS-REBLOG-7 x', 'blocked')], entry).map((e) => e.state)).toEqual(['blocked']);
    const failing = [check('STATUS-REBLOG-7 x', 'failed')];
    expect(judgeRun(failing, entry).map((e) => e.state)).toEqual(['not run']);
    expect(failing[0]?.outcome).toBe('failed');
  });
});

// A stability run's repeats as one run, and each check's history.
import { describe, expect, it } from 'vitest';
import { emptyCounts } from '../talk/counts.ts';
import type { Expectation } from './expectations.ts';
import { reportHtml } from './report-html.ts';
import { type CheckResult, type CheckStatus, type RunResults, totalsOf } from './results.ts';
import { sampleCheck, sampleResults } from './sample-results.ts';
import { flipping, HISTORY_KEPT, mergeRepeats, withHistory } from './stability.ts';
import { summaryMarkdown } from './summary-md.ts';
import { terminalSummary } from './terminal.ts';

const FILE = 'suites/statuses-interactions.test.ts';

function check(clause: string, status: CheckStatus): CheckResult {
  return sampleCheck(clause, status, { file: FILE, ...(status === 'failed' ? { failure: { clause, expected: 'HTTP 404', actual: 'HTTP 200' }, message: `${clause} failed` } : {}) });
}

function run(checks: CheckResult[], requests = 50): RunResults {
  const counts = { ...emptyCounts(), total: requests };
  return sampleResults(checks, { groups: [{ name: 'States and transitions', file: FILE, durationMs: 900, ...totalsOf(checks), counts, errors: [] }], counts });
}

const repeats = [
  run([check('STATUS-REBLOG-5', 'passed'), check('STATUS-FAV-1', 'passed')]),
  run([check('STATUS-REBLOG-5', 'failed'), check('STATUS-FAV-1', 'passed')]),
  run([check('STATUS-REBLOG-5', 'passed'), check('STATUS-FAV-1', 'passed')]),
];

describe('mergeRepeats', () => {
  it('should report a check whose verdict differed as intermittent, its worst repeat standing for it, with each verdict and its evidence', () => {
    const merged = mergeRepeats(repeats, []);
    expect(merged.repeats).toBe(3);
    const [reblog, fav] = merged.checks;
    expect(reblog).toMatchObject({ status: 'failed', outcome: 'failed', intermittent: true });
    expect(reblog?.repeats).toEqual([{ status: 'passed' }, { status: 'failed', evidence: 'expected HTTP 404; actual HTTP 200' }, { status: 'passed' }]);
    expect(fav?.intermittent).toBeUndefined();
    expect(merged.verdict).toBe('FAIL');
    expect(merged.counts.total).toBe(150);
    expect(merged.groups).toMatchObject([{ file: FILE, durationMs: 2700, failed: 1, passed: 1, counts: { total: 150 } }]);
  });

  it('should let a gate pass whose entry lists the outcomes the check showed', () => {
    const entry: Expectation[] = [{ check: 'STATUS-REBLOG-5', expect: ['fail', 'pass'], reason: 'moves with the timing' }];
    const merged = mergeRepeats(repeats, entry);
    expect(merged.verdict).toBe('PASS');
    expect(merged.checks[0]?.outcome).toBe('expected-failure');
  });

  it('should show each intermittent check with its verdicts in the terminal, summary.md and report.html', () => {
    const merged = mergeRepeats(repeats, []);
    expect(terminalSummary(merged)).toContain('Intermittent: STATUS-REBLOG-5 a check: passed, failed, passed\n  repeat 1: passed\n  repeat 2: failed: expected HTTP 404; actual HTTP 200');
    expect(summaryMarkdown(merged)).toContain('## Intermittent (3 repeats)');
    expect(reportHtml(merged)).toContain('data-verdicts="passed, failed, passed"');
  });
});

describe('withHistory', () => {
  it("should carry each check's verdicts on from the previous results, and tell a check that keeps flipping", () => {
    const first = withHistory(run([check('STATUS-REBLOG-5', 'failed'), check('STATUS-FAV-1', 'passed')]), run([check('STATUS-REBLOG-5', 'passed'), check('STATUS-FAV-1', 'passed')]));
    const second = withHistory(run([check('STATUS-REBLOG-5', 'passed'), check('STATUS-FAV-1', 'passed')]), first);
    expect(second.checks.map((c) => c.history)).toEqual([
      ['passed', 'failed', 'passed'],
      ['passed', 'passed', 'passed'],
    ]);
    expect(second.checks.map(flipping)).toEqual([true, false]);
    // Changed once: a fix (or a regression), not a flip.
    expect(flipping({ history: ['failed', 'failed', 'passed', 'skipped', 'passed'] })).toBe(false);
    expect(terminalSummary(second)).toContain('Flipping between runs: STATUS-REBLOG-5 a check: passed, failed, passed');
    expect(reportHtml(second)).toContain('<section id="history">');
    let long = second;
    for (let i = 0; i < HISTORY_KEPT; i++) long = withHistory(run([check('STATUS-REBLOG-5', 'passed')]), long);
    expect(long.checks[0]?.history).toHaveLength(HISTORY_KEPT);
  });
});

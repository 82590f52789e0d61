// The text reports' account of the configured release: how many checks it skipped.
import { describe, expect, it } from 'vitest';
import { emptyCounts } from './counts.ts';
import { rankRootCauses, releaseSkips, summaryMarkdown, terminalSummary, totalsOf, type CheckResult, type RunResults } from './results.ts';

const check = (clause: string, skipReason?: string): CheckResult => ({
  clause,
  title: `${clause} a check`,
  group: 'Statuses',
  file: 'suites/statuses.test.ts',
  status: skipReason ? 'skipped' : 'passed',
  outcome: skipReason ? 'skipped' : 'passed',
  severity: 'MUST',
  durationMs: 1,
  ...(skipReason ? { skipReason } : {}),
  observations: [],
});

function resultsOf(checks: CheckResult[]): RunResults {
  return {
    verdict: 'PASS',
    server: { baseUrl: 'https://social.example', embedded: false, version: '2.9.0', faults: [] },
    startedAt: new Date(0).toISOString(),
    durationMs: 1000,
    totals: totalsOf(checks),
    rootCauses: rankRootCauses(checks),
    groups: [],
    checks,
    expectations: { allowUnexpectedPass: false, entries: [] },
    counts: emptyCounts(),
    leftovers: [],
    errors: [],
  };
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

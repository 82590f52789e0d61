// The text reports' account of the configured release: how many checks it skipped.
import { describe, expect, it } from 'vitest';
import { emptyCounts } from './counts.ts';
import { reportHtml } from './report-html.ts';
import { releaseSkips, summaryMarkdown, terminalSummary, totalsOf, type CheckResult, type RunResults } from './results.ts';

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

// Run results as our own tests of the reports build them: a check and a run with every field a report reads, and
// only what a test names set otherwise. Used by the report modules' tests, never by a run.
import { emptyCounts } from '../talk/counts.ts';
import { totalsOf, type CheckResult, type CheckStatus, type RunResults } from './results.ts';

/** A check of `clause` in the States and transitions group that ended as `status`, with `more` over it. */
export const sampleCheck = (clause: string, status: CheckStatus = 'passed', more: Partial<CheckResult> = {}): CheckResult => ({
  clause,
  title: `${clause} a check`,
  group: 'States and transitions',
  file: 'suites/statuses-interactions.test.ts',
  status,
  outcome: status,
  severity: 'MUST',
  durationMs: 1,
  observations: [],
  ...more,
});

/** A run of `checks` against a configured server, its verdict theirs, with `more` over it. */
export const sampleResults = (checks: CheckResult[], more: Partial<RunResults> = {}): RunResults => ({
  verdict: checks.some((c) => c.status === 'failed') ? 'FAIL' : 'PASS',
  server: { baseUrl: 'http://127.0.0.1:4010', embedded: false, version: '4.2.0', faults: [] },
  startedAt: new Date(0).toISOString(),
  durationMs: 1000,
  totals: totalsOf(checks),
  rootCauses: [],
  groups: [],
  checks,
  expectations: { allowUnexpectedPass: false, entries: [] },
  counts: emptyCounts(),
  leftovers: [],
  errors: [],
  ...more,
});

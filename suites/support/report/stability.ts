// Stability, as web-platform-tests check it (`wpt run --verify`): a stability run (--repeat N) runs the selected
// checks N times, and a check whose verdict differs between the repeats is intermittent, reported with each verdict
// and its evidence; given the previous run's results (--previous), each check carries its verdicts run after run,
// and one that keeps flipping shows as such.
import { addCounts, emptyCounts } from '../talk/counts.ts';
import { judgeRun, reasonOf, type Expectation } from './expectations.ts';
import { rankRootCauses } from './root-causes.ts';
import { type CheckResult, type CheckStatus, type GroupResult, type RepeatVerdict, type RunResults, runVerdict, totalsOf, withRunTotals } from './results.ts';

/** The verdict a repeated check reports, worst first: a failure in any repeat stands for the check, as it would alone. */
const WORST_FIRST: readonly CheckStatus[] = ['failed', 'blocked', 'not-judged', 'passed', 'skipped'];

/** The runs of a check's history kept in results.json: enough to tell a check that keeps flipping. */
export const HISTORY_KEPT = 10;

const keyOf = (c: Pick<CheckResult, 'file' | 'title'>) => `${c.file} ${c.title}`;

/** What showed a verdict other than a pass: the failure's expected and actual, the block's cause, what went unseen. */
function evidenceOf(check: CheckResult): string | undefined {
  if (check.status === 'failed' || check.status === 'blocked') return reasonOf(check);
  return check.status === 'not-judged' ? check.notJudged : undefined;
}

/** Verdicts that differ: a check skipped in one repeat (not selected, not configured) judged nothing there to differ. */
const differ = (verdicts: readonly CheckStatus[]) => new Set(verdicts.filter((v) => v !== 'skipped')).size > 1;

/** The check's verdict in each repeat of a stability run, else its one verdict. */
export const verdictsOf = (check: Pick<CheckResult, 'status' | 'repeats'>): CheckStatus[] => check.repeats?.map((r) => r.status) ?? [check.status];

/** One check over the repeats: its worst repeat, with every repeat's verdict and evidence. */
function mergedCheck(runs: readonly CheckResult[]): CheckResult {
  const worst = WORST_FIRST.find((status) => runs.some((c) => c.status === status));
  const shown = runs.find((c) => c.status === worst) as CheckResult;
  const repeats: RepeatVerdict[] = runs.map((c) => {
    const evidence = evidenceOf(c);
    return { status: c.status, ...(evidence ? { evidence } : {}) };
  });
  return { ...shown, repeats, ...(differ(runs.map((c) => c.status)) ? { intermittent: true } : {}) };
}

/** A group over the repeats: its time, requests and errors added up; its totals are the merged checks'. */
function mergedGroup(runs: readonly GroupResult[]): GroupResult {
  const first = runs[0] as GroupResult;
  const counts = runs.flatMap((g) => (g.counts ? [g.counts] : []));
  return {
    ...first,
    durationMs: runs.reduce((sum, g) => sum + g.durationMs, 0),
    ...(counts.length ? { counts: counts.reduce((sum, c) => addCounts(sum, c), emptyCounts()) } : {}),
    errors: runs.flatMap((g) => g.errors),
  };
}

/**
 * One run made of the repeats of a stability run: each check its worst repeat, carrying the verdict and evidence of
 * every repeat and marked intermittent where they differ; requests, time, what was left behind and errors added up;
 * and every check judged again against the expectations.
 */
export function mergeRepeats(repeats: readonly RunResults[], expectations: readonly Expectation[]): RunResults {
  const [first, last] = [repeats[0], repeats.at(-1)];
  if (!first || !last) throw new Error('a stability run merges one repeat at least');
  const byCheck = new Map<string, CheckResult[]>();
  for (const run of repeats) for (const c of run.checks) byCheck.set(keyOf(c), [...(byCheck.get(keyOf(c)) ?? []), c]);
  const checks = [...byCheck.values()].map(mergedCheck);
  const entries = judgeRun(checks, expectations);
  const byGroup = new Map<string, GroupResult[]>();
  for (const run of repeats) for (const g of run.groups) byGroup.set(g.file, [...(byGroup.get(g.file) ?? []), g]);
  const merged: Omit<RunResults, 'verdict'> = {
    server: first.server,
    startedAt: first.startedAt,
    durationMs: Date.parse(last.startedAt) + last.durationMs - Date.parse(first.startedAt),
    totals: totalsOf(checks),
    rootCauses: rankRootCauses(checks),
    groups: withRunTotals([...byGroup.values()].map(mergedGroup), checks),
    checks,
    expectations: { ...first.expectations, entries },
    counts: repeats.reduce((sum, run) => addCounts(sum, run.counts), emptyCounts()),
    leftovers: repeats.flatMap((run) => run.leftovers),
    errors: repeats.flatMap((run) => run.errors),
    repeats: repeats.length,
  };
  return { verdict: runVerdict(merged), ...merged };
}

/** The checks whose verdict differed between the repeats of this run. */
export const intermittentChecks = (results: Pick<RunResults, 'checks'>): CheckResult[] => results.checks.filter((c) => c.intermittent);

/**
 * The results with each check's history: its verdicts in the previous results (their own history, else their
 * repeats, else their verdict), then this run's, the last HISTORY_KEPT of them.
 */
export function withHistory(results: RunResults, previous: Pick<RunResults, 'checks'>): RunResults {
  const before = new Map(previous.checks.map((c) => [keyOf(c), c.history ?? verdictsOf(c)]));
  const checks = results.checks.map((c) => {
    const earlier = before.get(keyOf(c));
    return earlier ? { ...c, history: [...earlier, ...verdictsOf(c)].slice(-HISTORY_KEPT) } : c;
  });
  return { ...results, checks };
}

/** How often a check's verdict may change in its history before it keeps flipping: once is a fix or a regression. */
const ONE_CHANGE = 1;

/** A check whose verdict changed more than once in its history, run after run (skips aside): it keeps flipping. */
export function flipping(check: Pick<CheckResult, 'history'>): boolean {
  const judged = (check.history ?? []).filter((v) => v !== 'skipped');
  return judged.filter((v, i) => i > 0 && v !== judged[i - 1]).length > ONE_CHANGE;
}

/** The checks that keep flipping. */
export const flippingChecks = (results: Pick<RunResults, 'checks'>): CheckResult[] => results.checks.filter(flipping);

/** A check's verdicts in order, as the reports write them: "failed, passed, passed". */
export const verdictList = (verdicts: readonly CheckStatus[]): string => verdicts.join(', ');

/** How the reports introduce the intermittent checks. */
export const INTERMITTENT_SAID =
  'Their verdict differed between the repeats of this run: each verdict is true of the run it was reached in (a server whose state depends on its own timing). The check reports its worst repeat; a gate expects every outcome it showed once --write-expectations lists them.';

/** How the reports introduce the checks that keep flipping. */
export const FLIPPING_SAID = 'Their verdict changed more than once from run to run (the previous results given with --previous, then this run), oldest first: a fix or a regression changes it once.';

/** Each repeat of an intermittent check, one line each: "repeat 2: failed: expected ...; actual ...". */
export function repeatLines(check: Pick<CheckResult, 'repeats'>): string[] {
  return (check.repeats ?? []).map((r, i) => `repeat ${i + 1}: ${r.status}${r.evidence ? `: ${r.evidence}` : ''}`);
}

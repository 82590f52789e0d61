// Blocked checks as the reports give them: the invariant that a check is blocked only by a cause that held in the
// same run (a block that breaks it is an error of the suite, reported beside the check), and the blocked checks
// gathered under their cause.
import { causeLabel, findClause, RELEASE_SKIP_MARK } from '../judge/clauses.ts';
import { type RootCause } from '../act/steps.ts';
import { isStopReason } from '../judge/run-stop.ts';
import type { CheckResult, RunResults } from './results.ts';

type Judged = Pick<CheckResult, 'clause' | 'status' | 'failedClause'>;

/** The clauses that can be the cause of a block in this run: a check failed under them, or one of their own checks was blocked. */
export function heldCauses(checks: readonly Judged[]): Set<string> {
  return new Set(checks.flatMap((c) => (c.status === 'failed' ? [c.failedClause ?? c.clause] : c.status === 'blocked' ? [c.clause] : [])));
}

/** The skip reason of a check that --only or --exclude left out. */
export const NOT_SELECTED = 'not selected (--only, --exclude)';
const EXPECTATIONS_SKIP = 'expectations file: ';
/** A skip that leaves a clause's verdict to another run: not selected, skipped by the expectations file, another release, the run stopped (--max-failures). */
const leftToAnotherRun = (c: CheckResult) =>
  c.skipReason === NOT_SELECTED || (c.skipReason ?? '').startsWith(EXPECTATIONS_SKIP) || (c.skipReason ?? '').includes(RELEASE_SKIP_MARK) || isStopReason(c.skipReason);

/**
 * The invariant of blocks: a check is blocked only by a clause that failed (or was itself blocked) in the same run,
 * or by a cause outside the contract. A block naming a clause that passed, that did not run though it was selected,
 * or that the catalogue lacks, is an error of the suite: one line per such check, naming it and its cause. A clause
 * whose checks are not in the run at all (another group, another shard) or were left to another run cannot tell.
 */
export function unheldBlocks(checks: readonly CheckResult[]): Array<{ check: CheckResult; error: string }> {
  const held = heldCauses(checks);
  return checks.flatMap((check) => {
    const id = check.blockedBy?.clause;
    if (check.status !== 'blocked' || !check.blockedBy || !id || held.has(id)) return [];
    const ofCause = checks.filter((c) => c.clause === id);
    const passed = ofCause.find((c) => c.status === 'passed');
    const why = !findClause(id)
      ? `${id} is no clause of the catalogue`
      : passed
        ? `${id} passed in this run (${passed.title})`
        : ofCause.length > 0 && ofCause.every((c) => c.status === 'skipped' && !leftToAnotherRun(c))
          ? `${id} did not run (${ofCause.map((c) => c.skipReason ?? 'skipped').join('; ')})`
          : undefined;
    if (!why) return [];
    return [{ check, error: `internal error of the conformance suite: ${check.title} is blocked by ${causeLabel(check.blockedBy)}, but ${why}: a check may be blocked only by a clause that failed or was blocked in the same run (please report it with reports/results.json)` }];
  });
}

/**
 * The checks as the reports give them: a check whose block names a cause that did not hold (unheldBlocks) is not
 * judged, with the error of the suite beside it. The suite went wrong there, not the server: the check decides
 * nothing, and its error decides neither the server's verdict nor the exit code (runVerdict); every report lists it
 * and asks for it to be reported. Judged again from the blocks themselves, so that merged shards are judged as one run.
 */
export function withSuiteErrors(checks: readonly CheckResult[]): CheckResult[] {
  const asBlocked = checks.map((c) => {
    if (!c.suiteError) return c;
    const { suiteError: _error, notJudged: _unseen, ...blocked } = c;
    return { ...blocked, status: 'blocked', outcome: 'blocked' } satisfies CheckResult;
  });
  const unheld = new Map(unheldBlocks(asBlocked).map((u) => [u.check, u.error]));
  return asBlocked.map((c) => {
    const error = unheld.get(c);
    if (!error || !c.blockedBy) return c;
    const notJudged = `blocked by ${causeLabel(c.blockedBy)}, a cause that held nowhere in this run: an error of the suite, not of the server`;
    return { ...c, status: 'not-judged', outcome: 'not-judged', notJudged, suiteError: error };
  });
}

/** The errors of the suite beside checks not judged (withSuiteErrors): reported, to be reported to us; they fail nothing. */
export const suiteErrorsOf = (results: Pick<RunResults, 'checks'>): string[] => results.checks.flatMap((c) => (c.suiteError ? [c.suiteError] : []));

/** What the reports say of the errors of the suite beside checks, once. */
export const SUITE_ERRORS_SAID =
  'Beside checks not judged: the suite blocked them by a clause that held nowhere in this run. An error of the suite, not of the server: it decides neither the verdict nor the exit code. Please report it to the suite (with reports/results.json).';

export interface BlockedGroup {
  /** The root cause the checks name, as one line: "STATUS-MUTE-1 (mute answered HTTP 404)". */
  label: string;
  cause: RootCause;
  checks: CheckResult[];
}

/** Blocked checks under their root cause, the cause that blocks most first: a reader sees each cause once. */
export function blockedByCause(checks: readonly CheckResult[]): BlockedGroup[] {
  const groups = new Map<string, BlockedGroup>();
  for (const c of checks) {
    if (c.outcome !== 'blocked' || !c.blockedBy) continue;
    const label = causeLabel(c.blockedBy);
    const group = groups.get(label) ?? { label, cause: c.blockedBy, checks: [] };
    group.checks.push(c);
    groups.set(label, group);
  }
  return [...groups.values()].sort((x, y) => y.checks.length - x.checks.length || x.label.localeCompare(y.label));
}

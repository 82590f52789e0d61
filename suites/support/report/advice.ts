// The gate's advice after a run, one line for each way a gate can break: an expected failure that now passes (with
// what may explain it on a server that did not change), a check that failed though it passed when the expectations
// were written (possibly intermittent), and a check whose verdict differed between the repeats of a stability run.
// One that keeps flipping from run to run is in the summary, with its history.
import type { CheckResult, RunResults } from './results.ts';
import { intermittentChecks } from './stability.ts';

/** The stability run that learns a flaky check: its repeats show whether it is, and the file then lists what they showed. */
export const LEARNING_REPEATS = 5;

const ids = (checks: readonly CheckResult[]) => [...new Set(checks.map((c) => c.clause))].join(', ');

/**
 * The advice, given the expectations file the run gated with (if any) and whether the run wrote expectations (its
 * own line then says what changed, and no rerun is advised).
 */
export function gateAdvice(results: RunResults, expectationsFile: string | undefined, wroteExpectations: boolean): string[] {
  const lines: string[] = [];
  const learn = expectationsFile && `--expectations ${expectationsFile} --repeat ${LEARNING_REPEATS} --write-expectations ${expectationsFile}`;
  if (learn && !wroteExpectations) {
    if (results.totals.unexpectedPasses > 0) {
      lines.push(`Expected failures that now pass: remove their entries once fixed for good, or rerun with --expectations ${expectationsFile} --write-expectations ${expectationsFile} to widen them to ["fail", "pass"]`);
      // A baseline written on fresh accounts met states no later run meets, so the check passes on an unchanged server.
      lines.push(`If the server did not change, a state only the run that wrote the file met may explain it (fresh accounts: an account that has never posted answers last_status_at null, RESOURCE-ACCOUNT-1). Record every outcome such a check shows with a stability run: rerun with ${learn}`);
    }
    // No entry names them: they passed (or were not run) when the file was written. A verdict that moves between
    // runs meets a gate this way, one broken run at a time, unless a stability run learns it.
    const unforeseen = results.checks.filter((c) => c.outcome === 'failed' && !c.intermittent);
    if (unforeseen.length > 0) {
      lines.push(`Failed unexpectedly, though no entry of ${expectationsFile} expects it (it passed when the file was written): possibly intermittent: ${ids(unforeseen)}. Learn whether it is, and widen its entry to the outcomes it shows: rerun with ${learn}`);
    }
  }
  const intermittent = intermittentChecks(results);
  if (intermittent.length > 0 && !wroteExpectations) {
    lines.push(`Intermittent (their verdict differed between the ${results.repeats ?? 1} repeats): ${ids(intermittent)}. A gate expects every outcome they showed once the file lists them: rerun with --write-expectations FILE (and --expectations FILE where it exists)`);
  }
  return lines;
}

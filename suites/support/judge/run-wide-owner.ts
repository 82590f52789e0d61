// The judgement of a run-wide clause's owning check (run/checks.ts it.runWide), over what its file met (run-wide.ts).
// A module of its own: it ends checks through vitest's runner (preconditions.ts), while run-wide.ts is also loaded by
// the reporter, on the command's main thread, which then need not load vitest's runtime before the workers start
// (docs/performance.md).
import type { RootCause } from '../act/steps.ts';
import { block, countJudged, notJudged } from './preconditions.ts';
import { failureOf, metInFile, runWideClauses, type Mismatch } from './run-wide.ts';

/** The cause a mismatch of `clauseId` gives the checks it leaves nothing to judge. */
function causeOfMismatch(clauseId: string, first: Mismatch): RootCause {
  return { clause: clauseId, summary: first.actual, ...(first.exchange ? { exchange: first.exchange } : {}) };
}

/**
 * The owning check of a run-wide clause judges what its own file saw so far. With nothing to judge it is blocked:
 * by `noneMet`, the cause that left it nothing (a creation that failed), or by the clause that explains the absence
 * where this file met a mismatch of it (no rate-limit header at all for the rules of their values); else, nothing
 * having failed, it is not judged.
 */
export function expectNoMismatch(clauseId: string, noneMet?: RootCause): void {
  const { found, judged } = metInFile(clauseId);
  if (found.length > 0) throw failureOf(clauseId, found);
  if (judged > 0) return countJudged(judged);
  if (noneMet) block(noneMet);
  for (const explaining of runWideClauses().get(clauseId)?.explainedBy ?? []) {
    const [explanation] = metInFile(explaining).found;
    if (explanation) block(causeOfMismatch(explaining, explanation));
  }
  notJudged(`this group met nothing to judge for ${clauseId}`);
}

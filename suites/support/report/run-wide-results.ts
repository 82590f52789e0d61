// The run-wide clauses' results: one per clause for the whole run, judged over the observations of every suite file
// (judge/run-wide.ts keeps them per file), so that one deviation is one failure however many checks met it.
import type { TaskMeta } from 'vitest';
import { type RootCause } from '../act/steps.ts';
import { failureOf, runWideClauses, type Mismatch, type RunWide, type RunWideObservations } from '../judge/run-wide.ts';
import { judgeCheck, type Expectation } from './expectations.ts';
import { severityOf, type CheckResult } from './results.ts';
import { isStopReason } from '../judge/run-stop.ts';

/** The first failure in `results` that names `clauseId`, as the cause of what it left unjudged. */
function failureNaming(clauseId: string, results: readonly CheckResult[]): RootCause | undefined {
  const failure = results.find((c) => c.status === 'failed' && (c.failedClause ?? c.clause) === clauseId);
  if (!failure) return undefined;
  const summary = (failure.failure?.actual ?? failure.message ?? '').split('\n')[0] ?? '';
  return { clause: clauseId, summary, ...(failure.failure?.exchange ? { exchange: failure.failure.exchange } : {}) };
}

/**
 * Why a run-wide clause that met nothing in the whole run is not passed: its owning check's block, the failure of
 * the clause that explains the absence, or, nothing having failed, not judged with the reason.
 */
function unjudged(id: string, { sentence, explainedBy }: RunWide, own: CheckResult, results: readonly CheckResult[]): Pick<CheckResult, 'status' | 'blockedBy' | 'notJudged'> {
  if (own.status === 'blocked' && own.blockedBy) return { status: 'blocked', blockedBy: own.blockedBy };
  const explanation = (explainedBy ?? []).map((explaining) => failureNaming(explaining, results)).find((cause) => cause !== undefined);
  if (explanation) return { status: 'blocked', blockedBy: explanation };
  return { status: 'not-judged', notJudged: own.notJudged ?? `the run met nothing to judge for ${id}: ${sentence}` };
}

/** The result of a run-wide clause none of whose checks ran: the run stopped before them (--max-failures). */
const stoppedResult = (id: string, { sentence }: RunWide, stopped: CheckResult): CheckResult => ({
  clause: id,
  title: titleOf(id, sentence),
  group: stopped.group,
  file: stopped.file,
  ...(stopped.line ? { line: stopped.line } : {}),
  status: 'skipped',
  outcome: 'skipped',
  severity: severityOf(id),
  durationMs: 0,
  ...(stopped.skipReason ? { skipReason: stopped.skipReason } : {}),
  observations: [],
});

const titleOf = (id: string, sentence: string) => `${id} ${sentence} (run-wide)`;

/** What the clause's result says of the run: how much it judged, and each case it should have met and did not. */
function observationsOf(id: string, count: number, observed: readonly RunWideObservations[]): string[] {
  const met = new Set(observed.flatMap((o) => o.cases?.[id] ?? []));
  const unseen = (runWideClauses().get(id)?.cases ?? []).filter((words) => !met.has(words));
  return [`${count} judged across the run`, ...unseen.map((words) => `not met in this run, so not judged: ${words}`)];
}

/**
 * One result per run-wide clause, judged over every suite file of the run; only for the clauses whose owning
 * check ran (a run of other groups or other clauses is reported on what it selected and nothing else), or would
 * have run had the run not stopped at --max-failures: skipped then as its checks are, so that a stopped run's totals
 * are every selected check.
 */
export function runWideResults(metas: readonly TaskMeta[], checks: readonly CheckResult[], expectations: readonly Expectation[]): CheckResult[] {
  const observed = metas.flatMap((meta) => (meta.runWide ? [meta.runWide] : []));
  const results: CheckResult[] = [];
  for (const [id, runWide] of runWideClauses()) {
    const own = checks.find((c) => c.clause === id && c.status !== 'skipped');
    const stopped = checks.find((c) => c.clause === id && isStopReason(c.skipReason));
    if (!own && stopped) results.push(stoppedResult(id, runWide, stopped));
    if (!own) continue;
    const distinct = new Map<string, Mismatch>();
    for (const o of observed) for (const [key, m] of Object.entries(o.mismatches[id] ?? {})) if (!distinct.has(key)) distinct.set(key, m);
    const count = observed.reduce((sum, o) => sum + (o.judged[id] ?? 0), 0);
    const failure = distinct.size > 0 ? failureOf(id, [...distinct.values()]) : undefined;
    // In the order of the run-wide clauses, a clause that explains another's absence (ERRORS-BODY-1, LIMITS-HEADERS-1) comes first.
    const verdict = failure ? { status: 'failed' as const } : count > 0 ? { status: 'passed' as const } : unjudged(id, runWide, own, [...results, ...checks]);
    const result: CheckResult = {
      clause: id,
      title: titleOf(id, runWide.sentence),
      group: own.group,
      file: own.file,
      ...(own.line ? { line: own.line } : {}),
      ...verdict,
      outcome: verdict.status,
      severity: severityOf(id),
      durationMs: 0,
      judged: count,
      ...(failure ? { message: failure.message, failure: failure.data } : {}),
      observations: observationsOf(id, count, observed),
    };
    judgeCheck(result, expectations);
    results.push(result);
  }
  return results;
}

// The root causes of a run, ranked as every report lists them: what to fix first.
import { causeLabel, findClause } from '../judge/clauses.ts';
import { type RootCause } from '../act/steps.ts';
import type { Outcome } from './expectations.ts';
import { checksCount, WORST_FIRST, type CheckResult, type RankedCause } from './results.ts';

const EVIDENCE_CHARS = 240;
const oneLine = (s: string) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > EVIDENCE_CHARS ? `${flat.slice(0, EVIDENCE_CHARS - 1)}…` : flat;
};

/** What a failed check shows in one line: its failure's expected and actual, or its message's first line. */
function evidenceOf(check: CheckResult): string {
  if (check.failure) return oneLine(`expected ${check.failure.expected}; actual ${check.failure.actual}`);
  return oneLine((check.message ?? '').split('\n')[0] ?? '');
}

/**
 * The root causes, ranked by what a failure means, then by what it keeps from being judged: first the clauses of
 * access control, visibility and ownership (the catalogue's `guards`: a caller did or saw what is not theirs), then
 * the rest, the one that blocks most checks first. Every clause that failed (whatever the expectations file and its
 * severity make of it), every clause that blocks checks, and every cause outside the contract. A blocked check counts for the cause it names, never further along a chain: a block names the clause
 * whose operation was seen not doing what the check needs, so that clause is what needs fixing, even when its own
 * check was blocked by another cause (a server that refuses the broad scopes of the configured tokens blocks the
 * checks that create with them, whatever blocked the scope check itself). Such a clause says which cause blocked its check.
 */
export function rankRootCauses(checks: readonly CheckResult[]): RankedCause[] {
  const failures = new Map<string, CheckResult>();
  for (const c of checks) {
    if (c.status !== 'failed') continue;
    const id = c.failedClause ?? c.clause;
    const first = failures.get(id);
    if (!first || (first.outcome !== 'failed' && c.outcome === 'failed')) failures.set(id, c);
  }
  const blockedOwn = new Map<string, RootCause>();
  for (const c of checks) if (c.status === 'blocked' && c.blockedBy && c.blockedBy.clause !== c.clause && !blockedOwn.has(c.clause)) blockedOwn.set(c.clause, c.blockedBy);
  const ranked = new Map<string, RankedCause>();
  for (const [id, check] of failures) {
    const outcome = WORST_FIRST.find((o) => checks.some((c) => c.status === 'failed' && (c.failedClause ?? c.clause) === id && c.outcome === o)) as Outcome;
    ranked.set(id, { clause: id, label: id, outcome, blocks: 0, evidence: evidenceOf(check), ...(check.reproduce ? { reproduce: check.reproduce } : {}) });
  }
  for (const c of checks) {
    if (c.status !== 'blocked' || !c.blockedBy) continue;
    const cause = c.blockedBy;
    const key = cause.clause ?? causeLabel(cause);
    const own = cause.clause ? blockedOwn.get(cause.clause) : undefined;
    const entry = ranked.get(key) ?? {
      ...(cause.clause ? { clause: cause.clause } : {}),
      label: key,
      ...(own ? { ownCheckBlockedBy: own.clause ?? causeLabel(own) } : {}),
      blocks: 0,
      evidence: oneLine(cause.summary),
      ...(cause.reproduce ? { reproduce: cause.reproduce } : {}),
    };
    entry.blocks += 1;
    ranked.set(key, entry);
  }
  for (const entry of ranked.values()) {
    const guards = entry.clause ? findClause(entry.clause)?.guards : undefined;
    if (guards) entry.guards = guards;
  }
  const rank = (r: RankedCause) => (r.outcome ? WORST_FIRST.indexOf(r.outcome) : WORST_FIRST.length);
  const guardedFirst = (r: RankedCause) => (r.guards ? 0 : 1);
  return [...ranked.values()].sort((x, y) => guardedFirst(x) - guardedFirst(y) || y.blocks - x.blocks || rank(x) - rank(y) || x.label.localeCompare(y.label));
}

const OUTCOME_WORDS: Partial<Record<Outcome, string>> = { failed: 'failed', warning: 'warning', 'expected-failure': 'expected failure', 'unexpectedly-passing': 'unexpectedly passing' };

/** How a root cause stands in the run, in a few words: "failed", "its own check blocked by OAUTH-TOKEN-1". */
export function causeState(r: RankedCause): string | undefined {
  const state = r.outcome ? (OUTCOME_WORDS[r.outcome] ?? r.outcome) : r.ownCheckBlockedBy ? `its own check blocked by ${r.ownCheckBlockedBy}` : undefined;
  const guarded = r.guards && `${r.guards}`;
  return [state, guarded].filter(Boolean).join(', ') || undefined;
}

/** A root cause as one line: "STATUS-CREATE-4 (failed), blocks 18 checks: expected ...; actual ...". */
export function rootCauseLine(r: RankedCause): string {
  const state = causeState(r);
  // A cause outside the contract carries its evidence in its label already.
  return `${r.label}${state ? ` (${state})` : ''}, blocks ${checksCount(r.blocks)}${r.clause ? `: ${r.evidence}` : ''}`;
}

/** What the ranking of root causes holds, as every report says it. */
export const ROOT_CAUSES_SAID =
  'Each failed clause, each clause that blocks checks and each cause outside the contract: first the clauses of access control, visibility and ownership (a caller did or saw what is not theirs), then the one that blocks most checks first. A blocked check counts for the cause it names.';

/** The terminal's heading of the ranking. */
export const ROOT_CAUSES_HEADING = 'Root causes, access control, visibility and ownership first, then the one that blocks most checks:';

// Run-wide clauses: rules judged over everything the run saw rather than by one check. The rules every response
// follows (registered-checks.ts), the resource schemas over every instance the checks met, and the Errors table's
// body and texts over every error answer a check identified. Each suite file keeps, per clause, how much it judged
// and each distinct mismatch with the first exchange that showed it; setup.ts hands that to the reporter in the
// file's task meta, and the reporter reports each clause once for the whole run (report/run-wide-results.ts), so
// one deviation is one failure however many checks met it.
import { clause, ClauseFailure } from './clauses.ts';
import { perFile } from '../talk/file-state.ts';
import { describeExchange, inOrderIssued, type Exchange } from '../talk/http.ts';
import { redact } from '../talk/redact.ts';
import { reproductionOf } from '../talk/replay.ts';

export interface Mismatch {
  expected: string;
  actual: string;
  /** The first exchange that showed it, redacted, and its curl line. */
  exchange?: string;
  reproduce?: string;
}

export interface RunWideObservations {
  /** Clause id -> how many responses or instances were judged. */
  judged: Record<string, number>;
  /** Clause id -> distinct mismatch (its key) -> the first time it was seen. */
  mismatches: Record<string, Record<string, Mismatch>>;
  /** Clause id -> the cases of its resource this file met (expectCase). */
  cases?: Record<string, string[]>;
}

declare module 'vitest' {
  interface TaskMeta {
    runWide?: RunWideObservations;
  }
}

const judged = new Map<string, number>();
const mismatches = new Map<string, Map<string, Mismatch>>();
const casesMet = new Map<string, Set<string>>();
/** The exchange each kept mismatch was seen in: it orders the mismatches as the run decided (inOrderIssued). */
const seenIn = new Map<Mismatch, Exchange>();
perFile(() => {
  judged.clear();
  mismatches.clear();
  casesMet.clear();
  seenIn.clear();
});

/**
 * A clause's mismatches in the order the run decided, not the order their answers came in (requests sent together
 * are answered in either order): those without an exchange last, as they came.
 */
function inRunOrder(found: ReadonlyMap<string, Mismatch> | undefined): [string, Mismatch][] {
  const rank = (m: Mismatch) => (seenIn.has(m) ? 0 : 1);
  return [...(found ?? [])].sort(([, x], [, y]) => {
    const [ex, ey] = [seenIn.get(x), seenIn.get(y)];
    return rank(x) - rank(y) || (ex && ey ? inOrderIssued(ex, ey) : 0);
  });
}

/** One more response or instance judged for the clause. */
export function judgedOnce(clauseId: string): void {
  judged.set(clauseId, (judged.get(clauseId) ?? 0) + 1);
}

/** An instance of a case the clause's resource should be met in (expectCase). */
export function caseMet(clauseId: string, words: string): void {
  let met = casesMet.get(clauseId);
  if (!met) casesMet.set(clauseId, (met = new Set()));
  met.add(words);
}

/** The exchange as a failure shows it, and the curl lines that reproduce it (replay.ts): made while its file's objects are known. */
function reproduced(exchange: Exchange): { exchange: string; reproduce: string } {
  const reproduce = reproductionOf(exchange);
  return { exchange: describeExchange(exchange, reproduce), reproduce: redact(reproduce) };
}

/**
 * A mismatch of a run-wide clause; `key` tells distinct mismatches apart, and only the first of each is kept: the first
 * in the order the run decided (inOrderIssued), whichever answer came first.
 */
export function observeMismatch(clauseId: string, key: string, expected: string, actual: string, exchange?: Exchange): void {
  let ofClause = mismatches.get(clauseId);
  if (!ofClause) mismatches.set(clauseId, (ofClause = new Map()));
  const kept = ofClause.get(key);
  const keptIn = kept && seenIn.get(kept);
  if (kept && !(exchange && keptIn && inOrderIssued(exchange, keptIn) < 0)) return;
  if (kept) seenIn.delete(kept);
  const mismatch: Mismatch = { expected: redact(expected), actual: redact(actual), ...(exchange ? reproduced(exchange) : {}) };
  if (exchange) seenIn.set(mismatch, exchange);
  ofClause.set(key, mismatch);
}

/** Whether this file met a mismatch of the clause: what another run-wide clause's judgement may depend on. */
export function hasMismatch(clauseId: string): boolean {
  return (mismatches.get(clauseId)?.size ?? 0) > 0;
}

/** Whether the clause is judged over the whole run (its owning check takes every check of its file before it). */
export function isRunWide(clauseId: string): boolean {
  return RUN_WIDE.has(clauseId);
}

/** What this suite file judged, for its task meta. */
export function runWideSnapshot(): RunWideObservations {
  return {
    judged: Object.fromEntries(judged),
    mismatches: Object.fromEntries([...mismatches].map(([id, found]) => [id, Object.fromEntries(inRunOrder(found))])),
    cases: Object.fromEntries([...casesMet].map(([id, met]) => [id, [...met]])),
  };
}

/** One failure for all the distinct mismatches of a clause: each listed once, the first with its exchange. */
export function failureOf(clauseId: string, found: readonly Mismatch[]): ClauseFailure {
  const [first] = found as [Mismatch, ...Mismatch[]];
  if (found.length === 1) return new ClauseFailure(clause(clauseId), first.expected, first.actual, first.exchange, first.reproduce);
  const list = found.map((m, i) => `  ${i + 1}. expected ${m.expected}; actual ${m.actual}`).join('\n');
  return new ClauseFailure(clause(clauseId), first.expected, `${found.length} distinct mismatches:\n${list}\n  the first one:`, first.exchange, first.reproduce);
}

/** What this file met of the clause: its distinct mismatches in the order the run decided, and how much it judged. */
export function metInFile(clauseId: string): { found: Mismatch[]; judged: number } {
  return { found: inRunOrder(mismatches.get(clauseId)).map(([, m]) => m), judged: judged.get(clauseId) ?? 0 };
}

export interface RunWide {
  /** What the clause's result says it judged: "every Status the run met ...". */
  sentence: string;
  /** The clauses whose failure explains that the run met nothing to judge (LIMITS-HEADERS-1 for the headers' values). */
  explainedBy?: readonly string[];
  /** The cases the contract's types name, which the run should meet (an Account with no status yet). */
  cases?: string[];
  /**
   * The words of the title of the check that owns the clause in its group, after the clause id ("a Status has the
   * fields and types of the contract"): that check, made from them (run/checks.ts it.runWide), judges what its group met.
   */
  owner?: string;
}

/** The run-wide clauses; registered checks add theirs (runWideClause). */
const RUN_WIDE = new Map<string, RunWide>([
  ['RESOURCE-STATUS-1', { sentence: 'every Status the run met has the fields and types of the contract', owner: 'a Status has the fields and types of the contract' }],
  ['RESOURCE-ACCOUNT-1', { sentence: 'every Account the run met has the fields and types of the contract', owner: 'the author of a Status is an Account with the fields and types of the contract' }],
  ['RESOURCE-APPLICATION-1', { sentence: 'every Application the run met has the fields and types of the contract', owner: 'the registration answer has the Application fields and types of the contract' }],
  ['RESOURCE-TOKEN-1', { sentence: 'every Token the run met has an access_token string', owner: 'the token operation answers a Token whose access_token is a string' }],
  ['RESOURCE-CONTEXT-1', { sentence: 'every Context the run met has ancestors and descendants, arrays of Status' }],
  ['RESOURCE-CARD-1', { sentence: 'every Card the run met has the fields and types of the contract' }],
  ['RESOURCE-POLL-1', { sentence: 'every Poll the run met has the fields and types of the contract', owner: 'a Poll has the fields and types of the contract', explainedBy: ['STATUS-POLL-1'] }],
  ['RESOURCE-SCHEDULED-1', { sentence: 'every ScheduledStatus the run met has id, scheduled_at, params and media_attachments', explainedBy: ['STATUS-SCHEDULED-1'] }],
  ['RESOURCE-ATTACHMENT-1', { sentence: 'every Attachment the run met has the fields and types of the contract', owner: 'every Attachment answered has the fields and types of the contract' }],
  ['ERRORS-BODY-1', { sentence: 'every error answer the checks identified carries a JSON body {error: string}', owner: 'an error answer carries a JSON body {error: string}' }],
  ['ERRORS-TEXT-1', { sentence: 'every error answer the checks identified carries the text of its row of the Errors table', owner: 'an error answer carries the text of its row of the Errors table', explainedBy: ['ERRORS-BODY-1'] }],
]);

/**
 * Names a run-wide clause, the sentence of its run-wide result ("every Status the run met"), what explains an absence,
 * and the words of its owning check's title.
 */
export function runWideClause(clauseId: string, sentence: string, more: Pick<RunWide, 'explainedBy' | 'owner'> = {}): void {
  clause(clauseId); // throws for an id the catalogue does not have
  if (RUN_WIDE.has(clauseId)) throw new Error(`${clauseId} is a run-wide clause already`);
  RUN_WIDE.set(clauseId, { sentence, ...more });
}

/** The title of the check that owns a run-wide clause in its group: the clause id and the words its registry gives. */
export function ownedCheckTitle(clauseId: string): string {
  const words = RUN_WIDE.get(clauseId)?.owner;
  if (!words) throw new Error(`${clauseId} is no run-wide clause whose registry names its owning check`);
  return `${clauseId} ${words}`;
}

/** A case of the clause's resource that the run should meet: a run that met none says so in the clause's result. */
export function expectCase(clauseId: string, words: string): void {
  const runWide = RUN_WIDE.get(clauseId);
  if (!runWide) throw new Error(`${clauseId} is no run-wide clause`);
  runWide.cases = [...(runWide.cases ?? []), words];
}

/** The run-wide clauses, in the order their results are reported (report/run-wide-results.ts). */
export const runWideClauses = (): ReadonlyMap<string, RunWide> => RUN_WIDE;

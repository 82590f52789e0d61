// Verifiers: each judges one exchange or value against the clause of the running check and, on a mismatch,
// throws a ClauseFailure that reads like the contract (clause and words, expected, actual, then the redacted
// exchange with a curl line) and carries the same as data. A verifier judges only what the running check's clause
// states: resource schemas, error bodies and error texts are run-wide clauses (run-wide.ts), observed here and
// reported once for the run. Helpers verify and describe; they never decide what is tested. Each verification that
// holds counts one instance judged by the running check (preconditions.ts countJudged).
import { expect } from 'vitest';
import { clause, CLAUSE_ID, ClauseFailure, findClause, type Clause } from './clauses.ts';
import { curlOf, describeExchange, excerpt, jsonOf, noAnswer, type Exchange } from '../talk/http.ts';
import { redact } from '../talk/redact.ts';
import { replayOf } from '../talk/replay.ts';
import { block, countJudged, judgedStatusCodeOnly, type HeldStates } from './preconditions.ts';
import { causeOf } from '../act/steps.ts';
import { observeResource } from './resources.ts';
import { judgedOnce, observeMismatch } from './run-wide.ts';
import type { ResourceName } from './schema.ts';

/** Where a verifier runs in a test that names no clause: our own unit tests of the helpers (clauses.test.ts proves every check names one). */
const UNNAMED: Clause = { id: 'UNNAMED', section: '', words: 'a test that names no clause', kind: 'rule', severity: 'MUST' };

/** The clause the running check names in its title. */
function currentClause(): Clause {
  const title = expect.getState().currentTestName?.split(' > ').pop() ?? '';
  const id = CLAUSE_ID.exec(title)?.[0];
  return (id ? findClause(id) : undefined) ?? UNNAMED;
}

/**
 * Fails the running check (or the named clause) with expected and actual, and the exchange that showed it; its replay
 * sends the requests `before` it first (the moves of a sequence that led to it), and `alongside` at the same moment.
 */
export function fail(expected: string, actual: string, exchange?: Exchange, clauseId?: string, before: readonly Exchange[] = [], alongside?: Exchange): never {
  // A 429 is the budget's answer, and a request that got no answer (not sent, the timeout, a reset) has none: neither
  // is evidence against a clause, so the check that needed the answer is not judged, blocked by a cause outside the contract.
  if (exchange?.rateLimited) block(causeOf(undefined, `${exchange.method} ${exchange.path.split('?')[0]} was refused by the server's rate limit (HTTP 429), also after waiting for the reset`, exchange));
  if (exchange?.unanswered) block(causeOf(undefined, `${exchange.method} ${exchange.path.split('?')[0]} got ${noAnswer(exchange.error ?? 'none')}`, exchange));
  const failed = clauseId ? clause(clauseId) : currentClause();
  const replay = exchange ? replayOf(exchange, before, alongside) : [];
  const reproduce = exchange && (replay.length ? replay.map((step) => step.curl).join('\n') : curlOf(exchange));
  throw new ClauseFailure(failed, redact(expected), redact(actual), exchange ? describeExchange(exchange, reproduce) : '', reproduce && redact(reproduce), replay);
}

/** Plain condition with the running clause's failure format. */
export function check(condition: boolean, expected: string, actual: string, exchange?: Exchange, clauseId?: string): void {
  if (!condition) fail(expected, actual, exchange, clauseId);
  countJudged();
}

/** One instance a check judges: whether it holds, and the exchange that showed it. */
export interface Instance {
  holds: boolean;
  exchange: Exchange;
}

/**
 * Judges every instance, and fails once with each instance that broke the clause listed by its request and answer,
 * the first with its exchange: one deviation never hides another of the same check, and each counts as judged. An
 * instance without an answer (or refused by the rate limit) is evidence of nothing: where no other broke the clause,
 * it blocks the check (fail).
 */
export function checkEach(instances: readonly Instance[], expected: string): void {
  const broken = instances.filter((instance) => !instance.holds);
  const evidence = broken.filter(({ exchange }) => !exchange.unanswered && !exchange.rateLimited);
  const [unanswered] = broken;
  if (evidence.length === 0 && unanswered) fail(expected, statusLine(unanswered.exchange), unanswered.exchange);
  countJudged(instances.length - broken.length + evidence.length);
  const [first] = evidence;
  if (!first) return;
  if (evidence.length === 1) fail(expected, statusLine(first.exchange), first.exchange);
  const listed = evidence.map(({ exchange }, i) => `  ${i + 1}. ${exchange.method} ${exchange.path} (as ${exchange.actor}): ${statusLine(exchange)}`);
  fail(expected, `${evidence.length} of ${instances.length} broke it:\n${listed.join('\n')}\n  the first one:`, first.exchange);
}

const show = (value: unknown) => excerpt(JSON.stringify(value) ?? 'undefined', 200);

/** Compares one field with what the contract requires of it. */
export function expectEqual(actual: unknown, expected: unknown, what: string, exchange?: Exchange, clauseId?: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) fail(`${what} = ${show(expected)}`, `${what} = ${show(actual)}`, exchange, clauseId);
  countJudged();
}

export function statusLine(exchange: Exchange): string {
  if (exchange.error) return noAnswer(exchange.error);
  return `HTTP ${exchange.status} ${excerpt(exchange.text, 200) || '(empty body)'}`;
}

/** The answer must have one of these status codes; returns its JSON body. */
export function expectJson(exchange: Exchange, statuses: number | readonly number[] = 200): unknown {
  const allowed = typeof statuses === 'number' ? [statuses] : statuses;
  if (exchange.status === undefined || !allowed.includes(exchange.status)) {
    fail(`HTTP ${allowed.join(' or ')}`, statusLine(exchange), exchange);
  }
  const json = jsonOf(exchange);
  if (!json.ok) fail('a JSON body', json.reason, exchange);
  countJudged();
  return json.value;
}

/** The value must be a JSON object (the fields the clause states are the check's to judge). */
function expectObject(value: unknown, resource: string, exchange: Exchange): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`a ${resource} object`, excerpt(exchange.text, 200), exchange);
  return value as Record<string, unknown>;
}

type Resource = Exclude<ResourceName, 'Error'>;

/**
 * The answer must be HTTP `status` with a JSON object: the resource the operation returns. Its schema is observed
 * for the resource's own clause, not judged here.
 */
export function expectOk<T = Record<string, unknown>>(exchange: Exchange, resource: Resource, status: number | readonly number[] = 200): T {
  const body = expectObject(expectJson(exchange, status), resource, exchange);
  observeResource(resource, body, exchange);
  return body as T;
}

/** The answer must be an array of the given resource; each element's schema is observed for its clause. */
export function expectList<T = Record<string, unknown>>(exchange: Exchange, resource: Resource): T[] {
  const body = expectJson(exchange, 200);
  if (!Array.isArray(body)) fail(`an array of ${resource}`, excerpt(exchange.text, 200), exchange);
  for (const item of body) observeResource(resource, item, exchange);
  return body as T[];
}

/** The {error} text of an error answer, or why there is none. */
function errorTextOf(exchange: Exchange): { text: string } | { reason: string } {
  const json = jsonOf(exchange);
  if (!json.ok) return { reason: json.reason };
  const error = (json.value as { error?: unknown } | null)?.error;
  return typeof json.value === 'object' && json.value !== null && typeof error === 'string' ? { text: error } : { reason: excerpt(exchange.text, 200) };
}

/**
 * The answer must be the Errors row's status code: that is the running check's clause. The row's body
 * (ERRORS-BODY-1) and text (ERRORS-TEXT-1) are observed for their own clauses, judged once for the run.
 */
export function expectError(exchange: Exchange, status: number, text?: string): void {
  if (exchange.status !== status) fail(`HTTP ${status}${text ? ` {"error": "${text}"}` : ''}`, statusLine(exchange), exchange);
  countJudged();
  observeErrorBody(exchange, text);
}

/** Observes an error answer for ERRORS-BODY-1 and, when its row gives one, its text for ERRORS-TEXT-1. */
export function observeErrorBody(exchange: Exchange, text?: string): void {
  judgedOnce('ERRORS-BODY-1');
  const found = errorTextOf(exchange);
  if ('reason' in found) {
    observeMismatch('ERRORS-BODY-1', `${exchange.status} ${exchange.headers['content-type'] ?? ''}`, 'a JSON body {"error": string}', `HTTP ${exchange.status}: ${found.reason}`, exchange);
    if (text !== undefined) judgedStatusCodeOnly(text, `no {"error"} text (${found.reason})`);
    return;
  }
  if (text === undefined) return;
  judgedOnce('ERRORS-TEXT-1');
  if (found.text === text) return;
  observeMismatch('ERRORS-TEXT-1', `${exchange.status} ${text} ${found.text}`, `HTTP ${exchange.status} {"error": "${text}"}`, `{"error": "${found.text}"}`, exchange);
  judgedStatusCodeOnly(text, `{"error": "${found.text}"}`);
}

/** Any 4xx: where the contract requires a refusal but does not show its code or body. */
export function expectRefusal(exchange: Exchange): void {
  if (exchange.status === undefined || exchange.status < 400 || exchange.status >= 500) fail('a refusal (HTTP 4xx)', statusLine(exchange), exchange);
  countJudged();
}

/** The check of the move of `clause`: the state it left held through the settle window (Holds.confirm read it). */
export function expectHeld(holds: HeldStates, clause: string): void {
  const turned = holds.turnedBack(clause);
  if (turned) check(false, 'the state the move left holds through the settle window', turned.cause.summary, turned.exchange);
}

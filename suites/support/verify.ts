// Verifiers: each judges one exchange or value against the clause of the running check and, on a
// mismatch, throws a ClauseFailure that reads like the contract: clause and words, expected, actual,
// then the redacted exchange with a curl line. Helpers verify and describe; they never decide what is tested.
import { expect } from 'vitest';
import { clause, CLAUSE_ID, ClauseFailure, findClause, type Clause } from './clauses.ts';
import { describeExchange, excerpt, jsonOf, noAnswer, type Exchange } from './http.ts';
import { redact } from './redact.ts';
import { describeMismatches, schemaMismatches, type ResourceName } from './schema.ts';

// Outside a check (a beforeAll preparing a group) a failure is reported against every check of the group.
const SETUP: Clause = { id: 'SETUP', section: '', words: 'preparing the checks of this group failed', kind: 'rule', severity: 'MUST' };

/** The clause the running check names in its title. */
function currentClause(): Clause | undefined {
  const title = expect.getState().currentTestName?.split(' > ').pop() ?? '';
  const id = CLAUSE_ID.exec(title)?.[0];
  return id ? findClause(id) : undefined;
}

function clauseOrCurrent(id?: string): Clause {
  if (id) return clause(id);
  return currentClause() ?? SETUP;
}

/** Fails the running check (or the named clause) with expected and actual, and the exchange that showed it. */
export function fail(expected: string, actual: string, exchange?: Exchange, clauseId?: string): never {
  throw new ClauseFailure(clauseOrCurrent(clauseId), redact(expected), redact(actual), exchange ? describeExchange(exchange) : '');
}

/** Plain condition with the running clause's failure format. */
export function check(condition: boolean, expected: string, actual: string, exchange?: Exchange, clauseId?: string): void {
  if (!condition) fail(expected, actual, exchange, clauseId);
}

const show = (value: unknown) => excerpt(JSON.stringify(value) ?? 'undefined', 200);

/** Compares one field with what the contract requires of it. */
export function expectEqual(actual: unknown, expected: unknown, what: string, exchange?: Exchange, clauseId?: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) fail(`${what} = ${show(expected)}`, `${what} = ${show(actual)}`, exchange, clauseId);
}

function statusLine(exchange: Exchange): string {
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
  return json.value;
}

/** Which resource clause a schema mismatch breaks: the innermost resource on the mismatch's path. */
const NESTED: Record<string, ResourceName> = {
  account: 'Account',
  reblog: 'Status',
  ancestors: 'Status',
  descendants: 'Status',
  media_attachments: 'Attachment',
  poll: 'Poll',
  card: 'Card',
  fields: 'Account',
};
const RESOURCE_CLAUSE: Record<ResourceName, string> = {
  Status: 'RESOURCE-STATUS-1',
  Account: 'RESOURCE-ACCOUNT-1',
  Field: 'RESOURCE-ACCOUNT-1',
  Application: 'RESOURCE-APPLICATION-1',
  Token: 'RESOURCE-TOKEN-1',
  Error: 'ERRORS-BODY-1',
  Context: 'RESOURCE-CONTEXT-1',
  Card: 'RESOURCE-CARD-1',
  Poll: 'RESOURCE-POLL-1',
  ScheduledStatus: 'RESOURCE-SCHEDULED-1',
  Attachment: 'RESOURCE-ATTACHMENT-1',
};

function resourceAt(resource: ResourceName, pointer: string): ResourceName {
  let found = resource;
  for (const segment of pointer.split('/')) found = NESTED[segment] ?? found;
  return found;
}

/** The value must match the resource's schema; a mismatch fails the resource's own clause. */
export function expectResource<T = Record<string, unknown>>(resource: ResourceName, value: unknown, exchange?: Exchange): T {
  const mismatches = schemaMismatches(resource, value);
  if (mismatches.length > 0) {
    const first = mismatches[0] as { pointer: string };
    fail(`a schema-valid ${resource}`, describeMismatches(resource, mismatches), exchange, RESOURCE_CLAUSE[resourceAt(resource, first.pointer)]);
  }
  return value as T;
}

/** The answer must be HTTP `status` with a body that is the given resource. */
export function expectOk<T = Record<string, unknown>>(exchange: Exchange, resource: ResourceName, status: number | readonly number[] = 200): T {
  return expectResource<T>(resource, expectJson(exchange, status), exchange);
}

/** The answer must be an array whose every element is the given resource. */
export function expectList<T = Record<string, unknown>>(exchange: Exchange, resource: ResourceName): T[] {
  const body = expectJson(exchange, 200);
  if (!Array.isArray(body)) fail(`an array of ${resource}`, excerpt(exchange.text, 200), exchange);
  return body.map((item) => expectResource<T>(resource, item, exchange));
}

/**
 * The answer must be the contract's error: this status code and a JSON body {error: text}. A body that is not
 * {error: string} breaks ERRORS-BODY-1 whatever the check; a wrong code or text breaks the running check's clause.
 */
export function expectError(exchange: Exchange, status: number, text?: string): void {
  if (exchange.status !== status) fail(`HTTP ${status}${text ? ` {"error": "${text}"}` : ''}`, statusLine(exchange), exchange);
  expectErrorBody(exchange);
  const body = jsonOf(exchange) as { ok: true; value: { error: string } };
  if (text !== undefined && body.value.error !== text) fail(`error text "${text}"`, `error text "${body.value.error}"`, exchange);
}

/** Any 4xx: where the contract requires a refusal but does not show its code or body. */
export function expectRefusal(exchange: Exchange): void {
  if (exchange.status === undefined || exchange.status < 400 || exchange.status >= 500) fail('a refusal (HTTP 4xx)', statusLine(exchange), exchange);
}

/** Errors table preamble: error responses carry a JSON body {error: string}. */
export function expectErrorBody(exchange: Exchange): void {
  const json = jsonOf(exchange);
  const ok = json.ok && typeof json.value === 'object' && json.value !== null && typeof (json.value as { error?: unknown }).error === 'string';
  if (!ok) fail('a JSON body {"error": string}', json.ok ? excerpt(exchange.text, 200) : json.reason, exchange, 'ERRORS-BODY-1');
}

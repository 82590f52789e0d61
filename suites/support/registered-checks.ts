// Registered checks (schemathesis's registry): the rules that hold for every /api/* response, one function per
// clause, keyed by the clause id. An onExchange observer runs them on every exchange of every suite file and
// keeps the first exchange that showed each violation; setup.ts hands them to the reporter in the file's task
// meta, and the reporter turns them into one check result per clause for the whole run (registeredCheckResults).
// The Limits group judges its own exchanges with the same functions (expectNoViolation), which proves each
// against its reference-server fault.
import type { TaskMeta } from 'vitest';
import { clause, ClauseFailure } from './clauses.ts';
import { countRefusal } from './counts.ts';
import { judgeCheck, type Expectation } from './expectations.ts';
import { describeExchange, excerpt, onExchange, type Exchange } from './http.ts';
import { countOf, isUnpaced, resetTimeOf } from './pacing.ts';
import { reproduceOf, severityOf, type CheckResult } from './results.ts';

/** One clause's rule for one response: a description of the violation, or undefined. */
export type RegisteredCheck = (exchange: Exchange) => string | undefined;

interface Registration extends RegisterOptions {
  /** What the run's check result says it judged. */
  sentence: string;
  expected: string;
  check: RegisteredCheck;
}

interface RegisterOptions {
  /** Which responses the check judges: /api/* answers (the streaming interface aside), or every answer. */
  judges?: 'api' | 'every answer';
  /** Report every operation (method and path template) that broke the rule, not only the first exchange. */
  perOperation?: boolean;
}

export interface Violation {
  expected: string;
  actual: string;
  /** The redacted exchange and its curl line. */
  exchange: string;
  /** Method and path template (ids as :id), for the clauses reported once per operation. */
  operation?: string;
}

export interface RegisteredObservations {
  /** How many /api/* responses the checks judged. */
  responses: number;
  /** Clause id -> the first violation seen. */
  violations: Record<string, Violation>;
  /** Clause id -> the violations of further operations, for the clauses reported once per operation. */
  others?: Record<string, Violation[]>;
}

declare module 'vitest' {
  interface TaskMeta {
    registered?: RegisteredObservations;
  }
}

const REGISTRY = new Map<string, Registration>();

/** Registers the check of a clause of the catalogue; a clause has one registered check. */
function register(id: string, sentence: string, expected: string, check: RegisteredCheck, options: RegisterOptions = {}): void {
  clause(id); // throws for an id the catalogue does not have
  if (REGISTRY.has(id)) throw new Error(`${id} has a registered check already`);
  REGISTRY.set(id, { sentence, expected, check, ...options });
}

/** A path segment that is an id: it has a digit (snowflakes, ULIDs, flake ids) or is long; v1, v2 are not. */
const isIdSegment = (segment: string) => !/^v\d+$/.test(segment) && (/\d/.test(segment) || segment.length >= 20);

/** The operation of an exchange, as the contract names it: method and path, ids as :id, without the query. */
export function operationOf(exchange: Exchange): string {
  const path = (exchange.path.split('?')[0] ?? '').split('/').map((segment) => (isIdSegment(segment) ? ':id' : segment)).join('/');
  return `${exchange.method} ${path}`;
}

const HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
// Unix-seconds resets are rounded to the second by the servers that send them.
const RESET_TOLERANCE_MS = 1000;

register('LIMITS-HEADERS-1', 'every /api/* response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset', 'the three X-RateLimit headers', (ex) => {
  const missing = HEADERS.filter((name) => ex.headers[name] === undefined);
  return missing.length ? `no ${missing.join(', ')}` : undefined;
});

register('LIMITS-HEADERS-2', 'X-RateLimit-Limit and X-RateLimit-Remaining are non-negative whole numbers', 'X-RateLimit-Limit and X-RateLimit-Remaining as non-negative whole numbers', (ex) => {
  const bad = HEADERS.slice(0, 2).filter((name) => ex.headers[name] !== undefined && countOf(ex.headers[name]) === undefined);
  return bad.length ? bad.map((name) => `${name}: "${ex.headers[name]}"`).join(', ') : undefined;
});

register('LIMITS-HEADERS-3', 'X-RateLimit-Remaining never exceeds X-RateLimit-Limit', 'X-RateLimit-Remaining <= X-RateLimit-Limit', (ex) => {
  const limit = countOf(ex.headers['x-ratelimit-limit']);
  const remaining = countOf(ex.headers['x-ratelimit-remaining']);
  // Values that are not numbers are LIMITS-HEADERS-2's to report.
  if (limit === undefined || remaining === undefined || remaining <= limit) return undefined;
  return `X-RateLimit-Remaining ${remaining} > X-RateLimit-Limit ${limit}`;
});

register('LIMITS-HEADERS-4', 'X-RateLimit-Reset is a timestamp in the future', 'X-RateLimit-Reset: a timestamp (ISO 8601, HTTP-date or Unix seconds) not before the response', (ex) => {
  const value = ex.headers['x-ratelimit-reset'];
  if (value === undefined) return undefined;
  const reset = resetTimeOf(value);
  if (reset === undefined) return `X-RateLimit-Reset: "${value}" is not a timestamp`;
  // "In the future" by the server's own clock (its Date header) when it tells it, else by ours.
  const date = Date.parse(ex.headers.date ?? '');
  const answeredAt = Number.isNaN(date) ? Date.now() : date;
  if (reset + RESET_TOLERANCE_MS >= answeredAt) return undefined;
  return `X-RateLimit-Reset: "${value}", ${Math.round((answeredAt - reset) / 1000)} s before the response${Number.isNaN(date) ? '' : ` (Date: ${ex.headers.date})`}`;
});

register('WIRE-JSON-1', 'every /api/* answer is JSON (the streaming interface aside)', 'a JSON body', (ex) => {
  // 206 has no body given; an empty body says nothing about the format.
  if (ex.status === 206 || ex.text.trim() === '' || ex.truncated) return undefined;
  try {
    JSON.parse(ex.text);
    return undefined;
  } catch {
    return `HTTP ${ex.status} content-type ${ex.headers['content-type'] ?? 'none'}: ${ex.text.slice(0, 120)}`;
  }
});

// The contract lists no condition answered with a server error; a request sent malformed on purpose (its check
// wants a refusal, and judges a 5xx itself) is not counted. Every answer is judged, /oauth/* too.
register('ERRORS-5XX-1', 'a well-formed request never gets a server error (5xx)', 'an answer below HTTP 500', (ex) => {
  if (ex.malformed || ex.status === undefined || ex.status < 500) return undefined;
  return `HTTP ${ex.status} to ${operationOf(ex)} (as ${ex.actor}): ${excerpt(ex.text, 120) || '(empty body)'}`;
}, { judges: 'every answer', perOperation: true });

/** At most this many operations are reported per clause and suite file. */
const MOST_OPERATIONS = 10;
const violations = new Map<string, Violation>();
const others = new Map<string, Violation[]>();
let responses = 0;

// The streaming interface is not JSON and, on Mastodon, a separate service without rate-limit headers.
const isApi = (exchange: Exchange) => {
  const path = exchange.path.split('?')[0] ?? '';
  return path.startsWith('/api/') && !path.startsWith('/api/v1/streaming');
};

/** Every registered check that judges this response: clause id -> what it showed instead of what the clause expects. */
export function violationsOf(exchange: Exchange): Map<string, Violation> {
  const found = new Map<string, Violation>();
  const api = isApi(exchange);
  for (const [id, { expected, check, judges, perOperation }] of REGISTRY) {
    if (judges !== 'every answer' && !api) continue;
    const actual = check(exchange);
    if (actual !== undefined) found.set(id, { expected, actual, exchange: describeExchange(exchange), ...(perOperation ? { operation: operationOf(exchange) } : {}) });
  }
  return found;
}

/** Keeps the first violation of a clause, and for a clause reported per operation the first of each operation. */
function keep(id: string, violation: Violation): void {
  const first = violations.get(id);
  if (!first) return void violations.set(id, violation);
  if (violation.operation === undefined) return;
  const more = others.get(id) ?? [];
  if (first.operation === violation.operation || more.some((v) => v.operation === violation.operation) || more.length + 1 >= MOST_OPERATIONS) return;
  others.set(id, [...more, violation]);
}

function observe(exchange: Exchange): void {
  if (exchange.status === undefined) return;
  const api = isApi(exchange);
  // Every response passes here, so refusals are counted here too: pacing should have prevented each one.
  if (api && exchange.status === 429 && !isUnpaced()) countRefusal();
  // The suite's own calls outside the contract (cleanup, confirmation reads, hints) are not the server's to answer for.
  if (exchange.outsideContract) return;
  if (api) responses += 1;
  for (const [id, violation] of violationsOf(exchange)) keep(id, violation);
}

onExchange(observe);

/** What this suite file's exchanges showed, for its task meta. */
export function registeredSnapshot(): RegisteredObservations {
  return { responses, violations: Object.fromEntries(violations), ...(others.size ? { others: Object.fromEntries(others) } : {}) };
}

/** One failure for the violations of a clause: the first one's expected, every actual, every exchange. */
function failureOf(id: string, found: readonly Violation[]): ClauseFailure {
  const [first, ...rest] = found as [Violation, ...Violation[]];
  const exchanges = [first.exchange, ...rest.map((v) => `  and ${v.operation ?? 'another request'}:\n${v.exchange}`)].join('\n');
  return new ClauseFailure(clause(id), first.expected, found.map((v) => v.actual).join('; '), exchanges);
}

/** The violations of a clause over several files: each operation once, at most MOST_OPERATIONS of them. */
function mergedViolations(id: string, observed: readonly RegisteredObservations[]): Violation[] {
  const all = observed.flatMap((o) => [...(o.violations[id] ? [o.violations[id]] : []), ...(o.others?.[id] ?? [])]);
  const seen = new Set<string>();
  const merged: Violation[] = [];
  for (const v of all) {
    const key = v.operation ?? `#${merged.length}`;
    if (seen.has(key) || (merged.length > 0 && v.operation === undefined) || merged.length >= MOST_OPERATIONS) continue;
    seen.add(key);
    merged.push(v);
  }
  return merged;
}

/** Fails the running check with the first violation of the clause among this file's exchanges so far (every operation's, where reported per operation). */
export function expectNoViolation(id: string): void {
  const found = violations.get(id);
  if (found) throw failureOf(id, [found, ...(others.get(id) ?? [])]);
  if (responses === 0) throw new ClauseFailure(clause(id), 'at least one /api/* response to judge', 'none was received');
}

/**
 * One check result per registered clause, judged over every suite file of the run. Only for the clauses
 * whose own check (in the Limits group, WIRE-JSON-1 in Statuses, ERRORS-5XX-1 in States and transitions) ran: a run of other groups (--group oauth), or of other clauses (--only),
 * is reported on what it selected and nothing else.
 */
export function registeredCheckResults(metas: readonly TaskMeta[], checks: readonly CheckResult[], expectations: readonly Expectation[]): CheckResult[] {
  const observed = metas.flatMap((meta) => (meta.registered ? [meta.registered] : []));
  const judged = observed.reduce((sum, o) => sum + o.responses, 0);
  return [...REGISTRY].flatMap(([id, { sentence }]) => {
    const own = checks.find((c) => c.clause === id && c.status !== 'skipped');
    if (!own) return [];
    const found = mergedViolations(id, observed);
    const first = found[0];
    const message = first ? failureOf(id, found).message : undefined;
    const reproduce = message ? reproduceOf(message) : undefined;
    const result: CheckResult = {
      clause: id,
      title: `${id} ${sentence}: every response of the run (registered check)`,
      group: own.group,
      file: own.file,
      ...(own.line ? { line: own.line } : {}),
      status: first ? 'failed' : 'passed',
      outcome: first ? 'failed' : 'passed',
      severity: severityOf(id),
      durationMs: 0,
      ...(message ? { message, failedClause: id } : {}),
      ...(reproduce ? { reproduce } : {}),
      observations: [`${judged} /api/* responses judged across the run`],
    };
    judgeCheck(result, expectations);
    return [result];
  });
}

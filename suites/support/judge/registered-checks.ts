// Registered checks (schemathesis's registry): the rules that hold for every /api/* response, one function per
// clause, keyed by the clause id. An onExchange observer runs them on every exchange of every suite file; they are
// run-wide clauses (run-wide.ts): the first exchange that showed each violation is kept, and the reporter reports
// each clause once for the whole run. The owning checks (Limits, WIRE-JSON-1 in Statuses) judge their own file's
// exchanges with the same functions (expectNoMismatch), which proves each against its reference-server fault.
import { clause } from './clauses.ts';
import { operationOf, shownByContract } from './contract-operations.ts';
import { countRefusal } from '../talk/counts.ts';
import { excerpt, onExchange, type Exchange } from '../talk/http.ts';
import { countOf, isUnpaced, resetTimeOf } from '../talk/pacing.ts';
import { judgedOnce, observeMismatch, runWideClause } from './run-wide.ts';

/** One clause's rule for one response: a description of the violation, or undefined. */
export type RegisteredCheck = (exchange: Exchange) => string | undefined;

interface Registration extends RegisterOptions {
  expected: string;
  check: RegisteredCheck;
}

interface RegisterOptions {
  /** The words of the title of the check that owns the clause in its group (run-wide.ts RunWide.owner). */
  owner: string;
  /** Which responses the check judges: /api/* answers (the streaming interface aside), or every answer. */
  judges?: 'api' | 'every answer';
  /** Report every operation (method and path template) that broke the rule, not only the first exchange. */
  perOperation?: boolean;
  /**
   * Whether a response carries what the rule judges (the header whose value it reads): one that does not is not
   * counted as judged, so that a run without any such response does not pass the rule.
   */
  carries?: (exchange: Exchange) => boolean;
  /** The clauses whose failure explains a run without any response that carries it (LIMITS-HEADERS-1: no header at all). */
  explainedBy?: readonly string[];
}

const REGISTRY = new Map<string, Registration>();

/** Registers the check of a clause of the catalogue; a clause has one registered check. */
function register(id: string, sentence: string, expected: string, check: RegisteredCheck, options: RegisterOptions): void {
  clause(id); // throws for an id the catalogue does not have
  if (REGISTRY.has(id)) throw new Error(`${id} has a registered check already`);
  REGISTRY.set(id, { ...options, expected, check });
  runWideClause(id, `${sentence}: every response of the run`, { owner: options.owner, ...(options.explainedBy ? { explainedBy: options.explainedBy } : {}) });
}

const HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
/** The values of LIMITS-HEADERS-2, -3 and -4 are judged on the responses that carry their headers; without any, LIMITS-HEADERS-1 failed. */
const carrying = (...names: string[]) => ({ carries: (ex: Exchange) => names.some((name) => ex.headers[name] !== undefined), explainedBy: ['LIMITS-HEADERS-1'] });
// Unix-seconds resets are rounded to the second by the servers that send them.
const RESET_TOLERANCE_MS = 1000;

register('LIMITS-HEADERS-1', 'every /api/* response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset', 'the three X-RateLimit headers', (ex) => {
  const missing = HEADERS.filter((name) => ex.headers[name] === undefined);
  return missing.length ? `no ${missing.join(', ')}` : undefined;
}, { owner: 'every /api/* response of this group carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset' });

register('LIMITS-HEADERS-2', 'X-RateLimit-Limit and X-RateLimit-Remaining are non-negative whole numbers', 'X-RateLimit-Limit and X-RateLimit-Remaining as non-negative whole numbers', (ex) => {
  const bad = HEADERS.slice(0, 2).filter((name) => ex.headers[name] !== undefined && countOf(ex.headers[name]) === undefined);
  return bad.length ? bad.map((name) => `${name}: "${ex.headers[name]}"`).join(', ') : undefined;
}, { ...carrying(...HEADERS.slice(0, 2)), owner: 'on every /api/* response of this group X-RateLimit-Limit and X-RateLimit-Remaining are non-negative whole numbers' });

// Judged where both are counts: values that are no counts are LIMITS-HEADERS-2's, which then explains the absence.
register('LIMITS-HEADERS-3', 'X-RateLimit-Remaining never exceeds X-RateLimit-Limit', 'X-RateLimit-Remaining <= X-RateLimit-Limit', (ex) => {
  const limit = countOf(ex.headers['x-ratelimit-limit']);
  const remaining = countOf(ex.headers['x-ratelimit-remaining']);
  // Values that are not numbers are LIMITS-HEADERS-2's to report.
  if (limit === undefined || remaining === undefined || remaining <= limit) return undefined;
  return `X-RateLimit-Remaining ${remaining} > X-RateLimit-Limit ${limit}`;
}, { owner: 'on every /api/* response of this group X-RateLimit-Remaining does not exceed X-RateLimit-Limit', carries: (ex) => HEADERS.slice(0, 2).every((name) => countOf(ex.headers[name]) !== undefined), explainedBy: ['LIMITS-HEADERS-1', 'LIMITS-HEADERS-2'] });

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
}, { ...carrying(HEADERS[2] as string), owner: 'on every /api/* response of this group X-RateLimit-Reset is a timestamp in the future' });

// A client reads the format from Content-Type (masto, megalodon parse JSON by it): a JSON body labelled as another
// format is no JSON answer to it. Any JSON media type (application/json, +json, a charset) passes, and so does a
// body without a Content-Type, which says nothing of its format.
const NAMES_JSON = /json/i;

register('WIRE-JSON-1', 'every /api/* answer is JSON (the streaming interface aside)', 'a JSON body, labelled as JSON when labelled', (ex) => {
  // What a client that does not ask for JSON gets is WIRE-JSON-2's to judge.
  if (ex.requestHeaders.accept !== 'application/json') return undefined;
  // 206 has no body given; an empty body says nothing about the format.
  if (ex.status === 206 || ex.text.trim() === '' || ex.truncated) return undefined;
  const type = ex.headers['content-type'];
  try {
    JSON.parse(ex.text);
  } catch {
    return `HTTP ${ex.status} content-type ${type ?? 'none'}: ${ex.text.slice(0, 120)}`;
  }
  return type === undefined || NAMES_JSON.test(type) ? undefined : `HTTP ${ex.status}: a JSON body labelled content-type ${type}`;
}, { owner: 'every /api/* answer of this group is JSON' });

// The contract lists no condition answered with a server error; a request sent malformed on purpose (its check
// wants a refusal, and judges a 5xx itself) is not counted, nor a move repeated on purpose (STATUS-REPEAT-1 judges
// its 5xx). Every answer is judged, /oauth/* too.
register('ERRORS-5XX-1', 'a well-formed request never gets a server error (5xx)', 'an answer below HTTP 500', (ex) => {
  if (ex.malformed || ex.repeated || ex.status === undefined || ex.status < 500) return undefined;
  return `HTTP ${ex.status} to ${operationOf(ex)} (as ${ex.actor}): ${excerpt(ex.text, 120) || '(empty body)'}`;
}, { owner: 'no well-formed request of this group so far, a repeated favourite among them, gets a server error (5xx)', judges: 'every answer', perOperation: true });

// The streaming interface is not JSON and, on Mastodon, a separate service without rate-limit headers.
const isApi = (exchange: Exchange) => {
  const path = exchange.path.split('?')[0] ?? '';
  return path.startsWith('/api/') && !path.startsWith('/api/v1/streaming');
};

/** Every registered check that judges this response: clause id -> what it showed instead of what the clause expects. */
export function violationsOf(exchange: Exchange): Map<string, { expected: string; actual: string }> {
  const found = new Map<string, { expected: string; actual: string }>();
  const api = isApi(exchange);
  for (const [id, { expected, check, judges }] of REGISTRY) {
    if (judges !== 'every answer' && !api) continue;
    const actual = check(exchange);
    if (actual !== undefined) found.set(id, { expected, actual });
  }
  return found;
}

function observe(exchange: Exchange): void {
  if (exchange.status === undefined) return;
  const api = isApi(exchange);
  // Every response passes here, so refusals are counted here too: pacing should have prevented each one.
  const refused = exchange.status === 429 && !isUnpaced();
  if (api && refused) countRefusal();
  // The suite's own calls outside the contract (cleanup, confirmation reads, hints), and any call of an operation the
  // contract does not show (an undo through Mastodon's paths), are not the server's to answer for; a 429 that pacing
  // was to prevent is the budget's answer. None is evidence against a clause.
  if (exchange.outsideContract || refused || !shownByContract(exchange)) return;
  for (const [id, { judges, carries }] of REGISTRY) if ((api || judges === 'every answer') && (carries?.(exchange) ?? true)) judgedOnce(id);
  // One violation per clause is enough to show it (the first is kept), or one per operation where the clause says so.
  for (const [id, { expected, actual }] of violationsOf(exchange)) {
    observeMismatch(id, REGISTRY.get(id)?.perOperation ? operationOf(exchange) : id, expected, actual, exchange);
  }
}

onExchange(observe);

// Steps of preparation and their root causes. A step that acts on the server (creates a status, registers an
// application, signs in) ends as a value or as the cause that a check needing it is blocked by: the cause names the
// clause whose operation did not do what the step needs, or nothing when the cause is outside the contract.
import { describeExchange, type Exchange } from '../talk/http.ts';
import { redact } from '../talk/redact.ts';
import { reproductionOf } from '../talk/replay.ts';

/** Why a check cannot be judged: it travels as data from the check to every report. */
export interface RootCause {
  /** The clause whose operation did not do what the check needs; absent when the cause is outside the contract. */
  clause?: string;
  /** One line: what happened ("mute answered HTTP 404"). */
  summary: string;
  /** The redacted exchange that showed it, with its curl line. */
  exchange?: string;
  /**
   * The curl lines that reproduce that exchange, one per line, for the ranking of root causes: its replay where it names
   * objects the run created, else its curl line (secrets are environment variable names).
   */
  reproduce?: string;
}

/**
 * The result of a preparation step: lenient (a creation that answered 2xx with an id is enough to go on), never
 * judged, never thrown. A check that needs the value takes it with need(); a failed step blocks that check.
 */
export type Step<T> = { ok: true; value: T; exchange: Exchange } | { ok: false; cause: RootCause; exchange?: Exchange };

/** What a step of a declared check came to (suites/support/run/checks.ts): a Step, or a value no single exchange shows. */
export type StepOutcome<T> = { ok: true; value: T; exchange?: Exchange } | { ok: false; cause: RootCause; exchange?: Exchange };

export function succeeded<T>(value: T, exchange: Exchange): Step<T> {
  return { ok: true, value, exchange };
}

export function failed<T>(cause: RootCause, exchange?: Exchange): Step<T> {
  return { ok: false, cause, ...(exchange ? { exchange } : {}) };
}

/** The accounts of the run, whose tokens hold the broad scopes read write follow push (README, "Pointing it at a server"). */
const USERS = new Set(['A', 'B']);

/**
 * A root cause from the exchange of a failed precondition. A 401 to a token the run obtained itself is the grant's that
 * gave it: the operation was never tried with a working token. A 403 to A or B on a user-token operation is
 * ACCESS-BROAD-1's: their tokens hold the broad scopes, so the server refused the broad write where the operation names
 * write:*.
 */
export function causeOf(clause: string | undefined, summary: string, exchange?: Exchange): RootCause {
  const grantRefused = exchange?.status === 401 && exchange.grantedBy !== undefined;
  const broadRefused = !grantRefused && exchange?.status === 403 && USERS.has(exchange.actor);
  // A request that got no answer (the timeout, a connection that failed) or the rate limit's 429 says nothing of any
  // clause: it is outside the contract, and blocks only the checks that needed its answer.
  const unanswered = (exchange?.status === undefined && exchange?.error !== undefined) || exchange?.rateLimited === true;
  const cause = unanswered ? undefined : grantRefused ? exchange.grantedBy : broadRefused ? 'ACCESS-BROAD-1' : clause;
  const said = grantRefused ? `${summary}: the token the run obtained by that grant was refused` : broadRefused ? `${summary}: the token's broad scopes were refused` : summary;
  const reproduce = exchange && reproductionOf(exchange);
  return { ...(cause ? { clause: cause } : {}), summary: redact(said), ...(exchange && reproduce ? { exchange: describeExchange(exchange, reproduce), reproduce: redact(reproduce) } : {}) };
}

/** How an answer failed a precondition, in a few words: "HTTP 404", "no answer: ...". */
export function answerOf(exchange: Exchange): string {
  return exchange.error ? `no answer (${exchange.error})` : `HTTP ${exchange.status}`;
}

// The one HTTP client of the suite (undici): bearer auth, form/JSON/multipart bodies, a deadline on every
// request, a cap on body size, request counting and pacing. It never throws for an HTTP answer or a
// network failure: both come back as an Exchange, which checks judge and failure messages describe.
// Every request says who it is (User-Agent), as real clients do.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FormData as UndiciFormData } from 'undici';
import { notSentReason, recordAnswer, recordSilence } from './breaker.ts';
import { DEFAULT_USER_AGENT } from './config.ts';
import { dispatcherFor, failedOnReusedConnection, isConnectionLost } from './connections.ts';
import { countAnswer, countRequest, countResent, countTiming, noteSentIn, partThatSent, requestEnded } from './counts.ts';
import { inFlight } from './in-flight.ts';
import { formPairs, multipart, urlEncoded, type FormParams, type Upload } from './form.ts';
import { bucketsOf, isUnpaced, paceAfter, paceBefore, refusalWaitMs, waitForRefusal } from './pacing.ts';
import { inTurn } from './bucket-turns.ts';
import { obtainedSecretsIn, redact } from './redact.ts';
import { undici } from './undici.ts';

/** Larger answers are cut here: no answer of this contract comes near it, and a hostile server cannot fill memory. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const EXCERPT_CHARS = 600;

export interface RequestOptions {
  /** Sent as application/x-www-form-urlencoded, the contract's wire convention. */
  form?: FormParams;
  /** Sent as application/x-www-form-urlencoded in this order, names as they are: an HTML form's entries. */
  formEntries?: readonly (readonly [string, string])[];
  /** Sent as application/json, as many client libraries do. */
  json?: unknown;
  /** Sent as multipart/form-data with these files. */
  uploads?: readonly Upload[];
  query?: FormParams;
  headers?: Record<string, string>;
  /** Overrides the actor's token for this request; null sends no Authorization header. */
  token?: string | null;
  /** The Accept header; default application/json; null sends none (as some clients do). */
  accept?: string | null;
  /**
   * A call of the suite's own, not one the contract judges: a cleanup undo, the read that confirms it, a hint such
   * as verify_credentials. Counted and paced like any other, but the run-wide registered checks do not judge it.
   */
  outsideContract?: boolean;
  /** Sent malformed on purpose (its check wants it refused): ERRORS-5XX-1 does not count a server error to it. */
  malformed?: boolean;
  /** A move repeated on purpose, whose check judges a server error to it (STATUS-REPEAT-1): ERRORS-5XX-1 does not count one. */
  repeated?: boolean;
}

export interface Exchange {
  method: string;
  url: string;
  /** Path and query, as a reader of the contract would write it. */
  path: string;
  actor: string;
  /**
   * The clause of the grant that gave the token this request carried, when the run obtained it itself: a 401 to it
   * is that grant's failure, not the operation's (preconditions.ts causeOf).
   */
  grantedBy?: string;
  requestHeaders: Record<string, string>;
  /** The request body as name/value pairs (form and multipart) or JSON text. */
  requestBody?: string;
  uploads?: string[];
  status?: number;
  headers: Record<string, string>;
  text: string;
  truncated: boolean;
  /** Why no answer came: timeout, refused connection, reset, or not sent at all (breaker.ts)... */
  error?: string;
  ms: number;
  /** When it was sent (ISO 8601): the HAR recording's startedDateTime. */
  startedAt?: string;
  /** The Set-Cookie lines of the answer, one per cookie (headers joins them, which a cookie's date breaks). */
  setCookies?: string[];
  /** See RequestOptions. */
  outsideContract?: boolean;
  malformed?: boolean;
  repeated?: boolean;
  /**
   * The server's rate limit refused it (429) where pacing was to prevent that, also when sent again after the reset:
   * the budget's answer, never evidence against a clause (verify.ts, preconditions.ts causeOf).
   */
  rateLimited?: boolean;
  /** It was sent, and no complete answer came within the timeout: the server may have acted on it all the same. */
  timedOut?: boolean;
  /**
   * Why its first try got no answer: it went on a reused connection that the server closed before any byte of an
   * answer came, and was sent once more on a new one (connections.ts). The first may have been acted on all the same.
   */
  resentAfter?: string;
  /** It was sent, and the server closed or reset the connection before any byte of an answer: it may have acted all the same. */
  connectionLost?: boolean;
  /**
   * No answer came, for a cause that says nothing of any clause: it was not sent (breaker.ts), the timeout ran out
   * before the status line, or the server closed or reset the connection before any byte of an answer. The check
   * that needed its answer is not judged (verify.ts fail).
   */
  unanswered?: boolean;
}

type Observer = (exchange: Exchange) => void;
const observers: Observer[] = [];

/** Registered checks and pacing see every exchange of the run. */
export function onExchange(observer: Observer): void {
  observers.push(observer);
}

const outside = new AsyncLocalStorage<true>();

/** Runs calls of the suite's own (the cleanup ledger's): every request they send is outsideContract. */
export function outsideContract<T>(calls: () => Promise<T>): Promise<T> {
  return outside.run(true, calls);
}

/** The step whose body is running, and the actors it declared (its `as`, and its `alsoAs`): no request of it goes as another. */
interface Acting {
  what: string;
  actors: readonly string[];
  violation?: Error;
}
const acting = new AsyncLocalStorage<Acting>();

/**
 * Runs a step's body as `actors`: a request it sends, or a stream it opens, through another actor is an error of the
 * suite naming the step and the actors, also where the body caught it (the step then throws it all the same).
 */
export async function actingAs<T>(what: string, actors: readonly string[], run: () => Promise<T>): Promise<T> {
  const declared: Acting = { what, actors };
  const result = await acting.run(declared, run);
  if (declared.violation) throw declared.violation;
  return result;
}

/** Throws where the running step declared other actors than `actor`, the one `request` goes as. */
export function expectActingAs(actor: string, request: string): void {
  const declared = acting.getStore();
  if (!declared || declared.actors.includes(actor)) return;
  declared.violation ??= new Error(`${declared.what} is declared as ${declared.actors.join(' and ')} and sent ${request} as ${actor}`);
  throw declared.violation;
}

const planning = new AsyncLocalStorage<{ planned?: Exchange }>();

/**
 * The first call that `calls` would send, built and not sent (nor counted, paced or observed): the cleanup ledger
 * reads from an undo what it undoes before it undoes it.
 */
export async function plannedCall(calls: () => Promise<unknown>): Promise<Exchange | undefined> {
  const plan: { planned?: Exchange } = {};
  await planning.run(plan, calls);
  return plan.planned;
}

/** The client that sent an exchange, for a call of the same actor that follows up on it (cleanup.ts). */
const senders = new WeakMap<Exchange, HttpClient>();
export const senderOf = (exchange: Exchange): HttpClient | undefined => senders.get(exchange);

/**
 * Each request's place in the order the run issued them (taken when send is called, before any wait): requests a step
 * issues together (Promise.all) keep the order the step wrote them in, whatever order their answers come in.
 */
const issueOrders = new WeakMap<Exchange, number>();
let issued = 0;
/** The place of an exchange in the order its requests were issued, for what must not follow the answers' order (the ledger). */
export const issueOrderOf = (exchange: Exchange): number | undefined => issueOrders.get(exchange);
/** How many requests the run has issued so far. */
export const issuedSoFar = (): number => issued;

/**
 * Sorts exchanges in the order the run decided (for Array.sort): the order of declaration of the step that sent each
 * (those of no step last), then the order issued; never the order the answers came in, which moves with the server.
 */
export function inOrderIssued(x: Exchange, y: Exchange): number {
  const last = Number.MAX_SAFE_INTEGER;
  const declared = (exchange: Exchange) => partThatSent(exchange)?.order ?? last;
  return declared(x) - declared(y) || (issueOrderOf(x) ?? last) - (issueOrderOf(y) ?? last);
}

function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; code?: string };
  return e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT';
}

/**
 * Whether a request carries a token, in its Authorization header, its query or its form body: one that carries none
 * has no account, and the Limits table's per-account buckets do not count it (pacing.ts budgetKeysOf).
 */
const carriesToken = ({ requestHeaders, path, requestBody }: Exchange): boolean =>
  Object.keys(requestHeaders).some((name) => name.toLowerCase() === 'authorization') || /[?&]access_token=/.test(path) || /(^|&)access_token=/.test(requestBody ?? '');

/** A request that was sent and got no (complete) answer: the server may have acted on it all the same. */
export const mayHaveActed = (exchange: Exchange): boolean => exchange.timedOut === true || exchange.connectionLost === true;

function describeError(error: unknown, timeoutMs: number, answered: boolean): string {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (isTimeout(error)) return `${answered ? 'no complete answer' : 'no answer'} within ${timeoutMs} ms (CONFORMANCE_TIMEOUT_MS)`;
  const code = e.cause?.code ?? e.code;
  const message = e.cause?.message ?? e.message ?? String(error);
  return code ? `${code}: ${message}` : message;
}

export class HttpClient {
  constructor(
    readonly baseUrl: string,
    readonly actor: string,
    private readonly token: string | undefined,
    private readonly timeoutMs: number,
    private readonly userAgent = DEFAULT_USER_AGENT,
    private readonly grantedBy?: string,
    /** The account it acts for, where its exchanges show another actor (an application's client, which carries no token of its own). */
    readonly account = actor,
  ) {}

  /** A client without a token for another origin, where an attachment's file is served (cleanup.ts). */
  forOrigin(origin: string): HttpClient {
    return new HttpClient(origin, this.actor, undefined, this.timeoutMs, this.userAgent, undefined, this.account);
  }

  async send(method: string, path: string, options: RequestOptions = {}): Promise<Exchange> {
    expectActingAs(this.account, `${method} ${path.split('?')[0]}`);
    const issueOrder = ++issued;
    const query = options.query ? `?${urlEncoded(options.query)}` : '';
    const fullPath = `${path}${query}`;
    const url = `${this.baseUrl}${fullPath}`;
    const accept = options.accept === undefined ? 'application/json' : options.accept;
    const headers: Record<string, string> = { ...(accept === null ? {} : { accept }), 'user-agent': this.userAgent, ...options.headers };
    const token = options.token === undefined ? this.token : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | UndiciFormData | undefined;
    let requestBody: string | undefined;
    if (options.uploads) {
      body = (await multipart(options.form ?? {}, options.uploads)) as unknown as UndiciFormData;
      requestBody = formPairs(options.form ?? {}).map(([k, v]) => `${k}=${v}`).join('&');
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      requestBody = body;
      headers['content-type'] = 'application/json';
    } else if (options.formEntries) {
      body = new URLSearchParams(options.formEntries.map(([name, value]): [string, string] => [name, value])).toString();
      requestBody = body;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (options.form) {
      body = urlEncoded(options.form);
      requestBody = body;
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const exchange: Exchange = {
      method,
      url,
      path: fullPath,
      actor: this.actor,
      ...(this.grantedBy && options.token === undefined ? { grantedBy: this.grantedBy } : {}),
      requestHeaders: headers,
      requestBody,
      uploads: options.uploads?.map((u) => `${u.field}=@${u.path ?? u.filename};type=${u.contentType}`),
      headers: {},
      text: '',
      truncated: false,
      ms: 0,
      ...(options.outsideContract || outside.getStore() ? { outsideContract: true } : {}),
      ...(options.malformed || options.uploads?.some((u) => u.invalid) ? { malformed: true } : {}),
      ...(options.repeated ? { repeated: true } : {}),
    };
    senders.set(exchange, this);
    issueOrders.set(exchange, issueOrder);
    noteSentIn(exchange);
    const plan = planning.getStore();
    if (plan) {
      plan.planned ??= exchange;
      exchange.error = 'not sent: only planned';
      return exchange;
    }
    const notSent = notSentReason(url);
    if (notSent) {
      exchange.error = notSent;
      exchange.unanswered = true;
      return exchange;
    }
    await this.deliver(exchange, body);
    // A 429 is the budget's answer, never evidence against a clause: wait for the reset the refusal names and send
    // once more. A refusal that stays (or names no reset) is marked: the check that needed its answer is not judged.
    const waitMs = exchange.status === 429 && !isUnpaced() ? refusalWaitMs(exchange.headers) : undefined;
    if (waitMs === undefined) return this.refusalMarked(exchange);
    await waitForRefusal(waitMs, `for the reset of the server's rate limit, which refused ${method} ${path} (as ${this.actor}) with HTTP 429; then it is sent again`);
    const again: Exchange = { ...exchange, headers: {}, text: '', truncated: false, ms: 0, startedAt: undefined, status: undefined, error: undefined, setCookies: undefined, resentAfter: undefined };
    senders.set(again, this);
    issueOrders.set(again, issueOrder);
    noteSentIn(again);
    await this.deliver(again, body);
    return this.refusalMarked(again);
  }

  private refusalMarked(exchange: Exchange): Exchange {
    if (exchange.status === 429 && !isUnpaced()) exchange.rateLimited = true;
    return exchange;
  }

  /**
   * Sends the exchange's request, paced and counted, and records its answer (or why none came) in it. A try that met
   * a reused connection the server had closed is sent once more on a new one, as browsers do; each try is a request.
   */
  private async deliver(exchange: Exchange, body: string | UndiciFormData | undefined): Promise<void> {
    const { method, url } = exchange;
    const path = exchange.path.split('?')[0] ?? '';
    const account = carriesToken(exchange) ? this.actor : undefined;
    const ticket = await paceBefore(account, method, path);
    // Loaded before the request's deadline starts: loading is the suite's own time, not the server's.
    await undici();
    let timedOut = false;
    // A call of a bucket another step reads by turns waits for the turns to end (bucket-turns.ts).
    const sent = await inTurn(bucketsOf(method, path), () => inFlight(async () => {
      // The circuit breaker may have opened while this request waited for its turn: then it is not sent either.
      const notSent = notSentReason(url);
      if (notSent) {
        exchange.error = notSent;
        exchange.unanswered = true;
        return false;
      }
      let failure = await this.attempt(exchange, body);
      if (failure !== undefined && exchange.status === undefined && failedOnReusedConnection(failure)) {
        exchange.resentAfter = exchange.error;
        delete exchange.error;
        countResent();
        failure = await this.attempt(exchange, body);
      }
      timedOut = failure !== undefined && isTimeout(failure);
      const noAnswer = failure !== undefined && exchange.status === undefined;
      if (noAnswer && isConnectionLost(failure)) exchange.connectionLost = true;
      if (noAnswer && (timedOut || exchange.connectionLost)) exchange.unanswered = true;
      return true;
    }));
    if (!sent) return;
    countTiming(`${method} ${path}`, exchange.error === undefined ? exchange.ms : undefined, timedOut);
    if (timedOut) exchange.timedOut = true;
    if (timedOut) await recordSilence(url, `${method} ${path}`, { timeoutMs: this.timeoutMs, userAgent: this.userAgent });
    if (exchange.status !== undefined) {
      countAnswer(method, path, exchange.status, exchange.text);
      paceAfter(account, method, path, exchange.headers, ticket);
    }
    for (const observer of observers) observer(exchange);
  }

  /** One try of the exchange's request, counted as the request it is: its answer goes in the exchange; returns the error, if any. */
  private async attempt(exchange: Exchange, body: string | UndiciFormData | undefined): Promise<unknown> {
    const { method, url, requestHeaders: headers } = exchange;
    const { request } = await undici();
    const dispatcher = await dispatcherFor(url);
    countRequest(this.actor, method, exchange.path.split('?')[0] ?? '', carriesToken(exchange));
    const started = performance.now();
    exchange.startedAt = new Date().toISOString();
    const signal = AbortSignal.timeout(this.timeoutMs);
    let failure: unknown;
    try {
      const response = await request(url, { method: method as 'GET', headers, body, signal, headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs, dispatcher });
      exchange.status = response.statusCode;
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) exchange.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
        if (value !== undefined && name.toLowerCase() === 'set-cookie') exchange.setCookies = Array.isArray(value) ? value : [value];
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > MAX_BODY_BYTES) {
          exchange.truncated = true;
          response.body.destroy();
          break;
        }
        chunks.push(chunk as Buffer);
      }
      exchange.text = Buffer.concat(chunks).toString('utf8');
      recordAnswer(url);
    } catch (error) {
      exchange.error = describeError(error, this.timeoutMs, exchange.status !== undefined);
      failure = error;
    }
    exchange.ms = Math.round(performance.now() - started);
    requestEnded();
    return failure;
  }
}

/** Why an exchange has no answer, as a failure's "actual" says it. */
export const noAnswer = (error: string): string => (/^not? /.test(error) ? error : `no answer: ${error}`);

export type JsonResult = { ok: true; value: unknown } | { ok: false; reason: string };

/** The answer's body as JSON, or why it is not JSON. */
export function jsonOf(exchange: Exchange): JsonResult {
  if (exchange.error) return { ok: false, reason: noAnswer(exchange.error) };
  if (exchange.truncated) return { ok: false, reason: `the body exceeded ${MAX_BODY_BYTES} bytes` };
  try {
    return { ok: true, value: JSON.parse(exchange.text) };
  } catch {
    return { ok: false, reason: `the body is not JSON: ${excerpt(exchange.text) || '(empty)'}` };
  }
}

/** The object a successful (2xx) answer carries, whatever else is wrong with it. */
export function createdObject(exchange: Exchange): Record<string, unknown> | undefined {
  const json = jsonOf(exchange);
  const ok = exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300 && json.ok;
  return ok && typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value) ? (json.value as Record<string, unknown>) : undefined;
}

export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}… (${text.length} chars)` : flat;
}

const SHOWN_RESPONSE_HEADERS = ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'location'];

/**
 * The exchange as a failure message shows it: request, response and the curl lines that reproduce it (its curl line,
 * or a replay that creates first what it names: replay.ts), all redacted, and below them how to get each value they
 * name that the run obtained itself.
 */
export function describeExchange(exchange: Exchange, reproduce = curlOf(exchange)): string {
  const lines = [`  request:  ${exchange.method} ${exchange.path}  (as ${exchange.actor})`];
  for (const [name, value] of Object.entries(exchange.requestHeaders)) lines.push(`            ${name}: ${value}`);
  if (exchange.requestBody) lines.push(`            body: ${excerpt(exchange.requestBody)}`);
  for (const upload of exchange.uploads ?? []) lines.push(`            file: ${upload}`);
  if (exchange.error) {
    lines.push(`  response: none (${exchange.error})`);
  } else {
    lines.push(`  response: ${exchange.status} after ${exchange.ms} ms`);
    for (const name of SHOWN_RESPONSE_HEADERS) if (exchange.headers[name]) lines.push(`            ${name}: ${exchange.headers[name]}`);
    lines.push(`            body: ${excerpt(exchange.text) || '(empty)'}`);
  }
  lines.push(`  reproduce: ${reproduce.split('\n').join('\n             ')}`);
  const sent = [exchange.path, ...Object.values(exchange.requestHeaders), exchange.requestBody ?? ''].join('\n');
  for (const note of obtainedSecretsIn(sent)) lines.push(`  where:     ${note}`);
  return redact(lines.join('\n'));
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** Double quotes where a variable must expand ($CONFORMANCE_TOKEN_A, $STATUS_1), single quotes elsewhere. */
const shellWord = (s: string) => (s.includes('$') ? `"${s.replace(/"/g, '\\"')}"` : shellQuote(s));

export interface CurlOptions {
  /** Object ids to write as shell variables ("$STATUS_1"): a replay creates its own objects first (replay.ts). */
  ids?: ReadonlyMap<string, string>;
  /** Only the answer's body (no -i): a replay pipes it to read the new object's id. */
  bodyOnly?: boolean;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An id as a path segment ("/statuses/109/favourite"). */
export const idInPath = (id: string) => new RegExp(`(?<=/)${escapeRegExp(id)}(?=[/?#]|$)`, 'g');
/** An id as the value of a parameter named for ids ("in_reply_to_id=109", "media_ids[]=7", "media_ids%5B%5D=7"). */
export const idInParams = (id: string) => new RegExp(`(?<=(?:^|[?&])[^=&]*ids?(?:\\[\\]|%5B%5D)?=)${escapeRegExp(id)}(?=&|$)`, 'g');

function withIds(text: string, ids: ReadonlyMap<string, string> | undefined, pattern: (id: string) => RegExp): string {
  let out = text;
  for (const [id, variable] of ids ?? []) out = out.replace(pattern(id), () => `$${variable}`);
  return out;
}

/**
 * A ready-to-paste curl command that sends what the suite sent: its User-Agent (-A) and its Accept header, or
 * none (-H 'accept:' keeps curl from adding its default Accept header). Secrets become the names of the environment
 * variables that hold them (redact() does that), so the command is quoted with double quotes where a variable must expand.
 */
export function curlOf(exchange: Exchange, options: CurlOptions = {}): string {
  const [pathOnly = '', query] = redact(exchange.path).split(/\?(.*)/s);
  const path = `${withIds(pathOnly, options.ids, idInPath)}${query === undefined ? '' : `?${withIds(query, options.ids, idInParams)}`}`;
  // A secret in the query (access_token) is a variable that must expand: double quotes then.
  const parts = [options.bodyOnly ? 'curl -sS' : 'curl -sS -i', `-X ${exchange.method}`, `"$CONFORMANCE_BASE_URL"${shellWord(path)}`];
  const names = Object.keys(exchange.requestHeaders);
  if (!names.includes('accept')) parts.push(`-H 'accept:'`);
  if (!names.includes('user-agent')) parts.push(`-A ''`);
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (name === 'user-agent') {
      parts.push(`-A ${shellQuote(redact(value))}`);
      continue;
    }
    parts.push(`-H ${shellWord(`${name}: ${redact(value)}`)}`);
  }
  const body = withIds(redact(exchange.requestBody ?? ''), options.ids, idInParams);
  if (exchange.uploads) {
    for (const pair of body.split('&').filter(Boolean)) parts.push(`-F ${shellWord(pair)}`);
    for (const upload of exchange.uploads) parts.push(`-F ${shellQuote(upload)}`);
  } else if (body) {
    parts.push(`--data-raw ${shellWord(body)}`);
  }
  return parts.join(' ');
}

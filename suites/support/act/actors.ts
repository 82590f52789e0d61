// The actors of a run: account A, account B (the "other user") and anyone without a token, each a client of the
// server that puts what it makes on the ledger (applications.ts makes the run's applications and tokens). A step gets
// the actor of the account it declares from the planner (run/checks.ts, `step`); a check's judge that needs a control
// request gets them as `const { a, b, anon } = actors()`.
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { uploadOf, type MediaFixture } from '../../../fixtures/media/index.ts';
import type { Config } from '../talk/config.ts';
import { perFile } from '../talk/file-state.ts';
import type { FormParams } from '../talk/form.ts';
import { createdObject, HttpClient, mayHaveActed, senderOf, type Exchange, type RequestOptions } from '../talk/http.ts';
import { shareBucketTurns } from '../talk/bucket-turns.ts';
import { limitInFlight } from '../talk/in-flight.ts';
import { shareRunReading } from '../talk/pacing.ts';
import { registerSecret } from '../talk/redact.ts';
import { authorGap, createdId, createdStep, offOf, statusStep, unkeptOf, type Attachment, type PreparedStatus } from './created.ts';
import { remember, rememberUnanswered, type LedgerEntry } from './ledger.ts';
import { causeOf, failed, succeeded, type Step, type StepOutcome } from './steps.ts';
import { useSettleWindow } from './settle.ts';

/** v1 answers when the attachment is ready; v2 (since 3.1.3) answers at once and processes in the background. */
export type UploadApi = 'v1' | 'v2';

/**
 * The options of a creation, with an Idempotency-Key of its own unless they carry one (see Actor.postStatus): a
 * creation sent again (a resend at the end of its group, or once more on a new connection) cannot make a second status.
 */
export function keyed(options?: RequestOptions): RequestOptions {
  const given = Object.keys(options?.headers ?? {}).some((name) => name.toLowerCase() === 'idempotency-key');
  return given ? { ...options } : { ...options, headers: { ...options?.headers, 'idempotency-key': randomUUID() } };
}

/** Headers the client sets itself on every request, or that follow from the body. */
const CLIENT_HEADERS = new Set(['accept', 'user-agent', 'authorization', 'content-type']);

/**
 * The same request once more by its sender, in the same body format (a form stays a form, JSON stays JSON: a server
 * may read one and not the other), with `headers` in place of those of the same names (in any case).
 */
function sentAgain(exchange: Exchange, headers: Record<string, string> = {}, options: RequestOptions = {}): Promise<Exchange> {
  const sender = senderOf(exchange) as HttpClient;
  const replaced = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const kept = Object.entries(exchange.requestHeaders).filter(([name]) => !CLIENT_HEADERS.has(name.toLowerCase()) && !replaced.has(name.toLowerCase()));
  const body = exchange.requestBody ?? '';
  const json = exchange.requestHeaders['content-type'] === 'application/json';
  const sent = json ? { json: JSON.parse(body) as unknown } : { formEntries: [...new URLSearchParams(body)] };
  return sender.send(exchange.method, exchange.path, { ...options, headers: { ...Object.fromEntries(kept), ...headers }, ...sent });
}

/** The same request once more, as the suite's own call: a creation sent again with its Idempotency-Key. */
const resent = (exchange: Exchange): Promise<Exchange> => sentAgain(exchange, {}, { outsideContract: true });

/** The parameters whose names carry brackets in a form body (poll[options][], media_ids[]): WIRE-FORM-1's. */
const BRACKETED = new Set(['poll', 'media_ids']);

/**
 * How this file's requests send their parameters to the server (POST /api/v1/statuses and the media updates): form
 * data, the contract's wire convention, until a creation showed that the server does not understand a form body
 * there but does understand the same parameters as JSON. From then on every creation, update and probe is sent as
 * JSON, as client libraries talk, so that each check still judges its own clause on the exchange that shows it.
 * `notUnderstood` is the form-encoded creation that showed it: the bracket names only (WIRE-FORM-1), or the form
 * body (WIRE-FORM-2), for those clauses' checks.
 */
const bodies: { json: boolean; notUnderstood?: { clause: 'WIRE-FORM-1' | 'WIRE-FORM-2'; exchange: Exchange }; lostEitherWay: Set<string> } = {
  json: false,
  // Parameters a form/JSON pair saw lost in both encodings: the server ignores them, however they are sent, so a
  // later creation that comes without them is not tried again as JSON (the encoding is settled once, not per creation).
  lostEitherWay: new Set(),
};

/** The ledger entry of each upload's attachment, by the upload's answer: a check that deletes one settles it. */
const uploaded = new WeakMap<Exchange, LedgerEntry>();

/** The form-encoded creation the server did not understand while it understood the same parameters as JSON, if any. */
export function formNotUnderstood(): { clause: 'WIRE-FORM-1' | 'WIRE-FORM-2'; exchange: Exchange } | undefined {
  return bodies.notUnderstood;
}

/** Whatever a creation made goes on the ledger before anything is judged, also when its answer is wrong or never came. */
function rememberStatus(actor: Actor, exchange: Exchange): () => void {
  const key = Object.keys(exchange.requestHeaders).some((name) => name.toLowerCase() === 'idempotency-key');
  if (mayHaveActed(exchange)) rememberUnanswered(exchange, 'status', key ? () => resent(exchange) : undefined);
  const id = createdId(exchange);
  const scheduled = id !== undefined && 'scheduled_at' in (createdObject(exchange) ?? {});
  // The contract shows no way to cancel a scheduled status: Mastodon's DELETE /api/v1/scheduled_statuses/:id, best effort.
  const path = scheduled ? `/api/v1/scheduled_statuses/${id}` : `/api/v1/statuses/${id}`;
  const entry = id ? remember(`${scheduled ? 'scheduled status' : 'status'} ${id} of ${actor.name}`, () => actor.delete(path), { again: true, made: exchange }) : undefined;
  return () => entry?.settle();
}

/** Deletes what a creation attempt made that no check uses, so that none meets it; off the ledger once deleted. */
async function undoAtOnce(actor: Actor, exchange: Exchange, settle: () => void): Promise<void> {
  const id = createdId(exchange);
  if (!id) return;
  const undo = await actor.delete(`/api/v1/statuses/${id}`);
  if (undo.status !== undefined && undo.status < 300) settle();
}

export class Actor {
  readonly http: HttpClient;
  constructor(
    readonly name: string,
    readonly config: Config,
    readonly token?: string,
    /** The clause of the grant that gave `token`, when the run obtained it itself (see Exchange.grantedBy). */
    grantedBy?: string,
    /** The account it acts for, where that is not its name (see `application` of actors(), and signingIn). */
    readonly account = name,
  ) {
    this.http = new HttpClient(config.baseUrl, name, token, config.timeoutMs, config.userAgent, grantedBy, account);
  }

  #signingIn?: Actor;
  /**
   * This account's requests that carry no token: the pages of its web sign-in and its requests of the token
   * operation. They act for it, and show as anonymous's, as the server sees them.
   */
  signingIn(): Actor {
    this.#signingIn ??= new Actor('anonymous', this.config, undefined, undefined, this.account);
    return this.#signingIn;
  }

  /** This account's requests to the streaming service, which may have an address of its own (CONFORMANCE_STREAMING_URL). */
  atStreamingService(): Actor {
    return new Actor(this.name, { ...this.config, baseUrl: this.config.streamingUrl }, this.token, undefined, this.account);
  }

  get(path: string, options?: RequestOptions): Promise<Exchange> {
    return this.http.send('GET', path, options);
  }
  post(path: string, form?: FormParams, options?: RequestOptions): Promise<Exchange> {
    return this.http.send('POST', path, { form, ...options });
  }
  /** A form body goes as JSON once the server showed it does not understand forms (see `bodies`); a multipart one as it is. */
  put(path: string, form?: FormParams, options?: RequestOptions): Promise<Exchange> {
    const asJson = bodies.json && form !== undefined && !options?.uploads;
    return this.http.send('PUT', path, asJson ? { json: form, ...options } : { form, ...options });
  }
  delete(path: string, options?: RequestOptions): Promise<Exchange> {
    return this.http.send('DELETE', path, options);
  }

  /**
   * POST /api/v1/statuses as this file sends it (see `bodies`), with an Idempotency-Key of its own as clients send
   * (unless the caller gives one): a creation whose answer never came is sent again with it at the end, and answers
   * the status made already, for the ledger to undo. Nothing is put on the ledger here.
   */
  postStatus(params: FormParams, options?: RequestOptions): Promise<Exchange> {
    return bodies.json ? this.http.send('POST', '/api/v1/statuses', { json: params, ...keyed(options) }) : this.post('/api/v1/statuses', params, keyed(options));
  }

  /**
   * A creation sent again as it went, with `headers` in place of its own (another Idempotency-Key): its body format
   * too, whatever this file has learnt since, so that what the answer shows is of the same request. What it makes
   * goes on the ledger; `settle` takes it off (it gave the status of the first).
   */
  async submitAgain(creation: Exchange, headers: Record<string, string>): Promise<{ exchange: Exchange; settle: () => void }> {
    const exchange = await sentAgain(creation, headers);
    return { exchange, settle: rememberStatus(this, exchange) };
  }

  /**
   * A creation sent again as it went (submitAgain), twice at the same moment: what they made goes on the ledger once
   * per status, so one status answered to both is one entry, and a duplicate (a server that made two) is one more.
   */
  async submitTwiceAtOnce(creation: Exchange, headers: Record<string, string>): Promise<[Exchange, Exchange]> {
    const exchanges = await Promise.all([sentAgain(creation, headers), sentAgain(creation, headers)]);
    const remembered = new Set<string>();
    for (const exchange of exchanges) {
      const id = createdId(exchange);
      if (id !== undefined && remembered.has(id)) continue;
      if (id !== undefined) remembered.add(id);
      rememberStatus(this, exchange);
    }
    return exchanges;
  }

  /** A creation the check judges, refusal included: what the server makes anyway goes on the ledger. */
  async attemptStatus(params: FormParams, options?: RequestOptions): Promise<Exchange> {
    const exchange = await this.postStatus(params, options);
    rememberStatus(this, exchange);
    return exchange;
  }

  /**
   * A status for the checks to judge, made as a preparation step: lenient (2xx with an id, and what the creation
   * asked for of visibility, reply and poll), never judged. Until this file talks JSON, a form-encoded creation whose
   * answer does not carry every parameter it asked for is tried once as JSON: where that carries more of them, the
   * server does not understand the contract's form bodies (WIRE-FORM-1 or -2), the form attempt's leftover is undone
   * at once, and the file talks JSON from then on; otherwise the JSON attempt is undone at once and the form answer
   * stands, for the checks to judge.
   */
  async createStatus(params: FormParams, options?: RequestOptions): Promise<PreparedStatus> {
    const asJson = bodies.json;
    const exchange = await this.postStatus(params, options);
    const settle = rememberStatus(this, exchange);
    const off = offOf(exchange, params);
    const step = statusStep(exchange, off);
    // A creation that got no answer says nothing of how the server reads bodies.
    if (asJson || exchange.error !== undefined || off.every((o) => bodies.lostEitherWay.has(o.param))) return { ...step, settle, unkept: unkeptOf(exchange, off) };
    const retry = await this.http.send('POST', '/api/v1/statuses', { json: params, ...keyed(options) });
    const settleRetry = rememberStatus(this, retry);
    const retryOff = offOf(retry, params);
    const better = retryOff.length < off.length && retryOff.every((o) => off.some((f) => f.param === o.param));
    const [kept, dropped] = better ? [retry, exchange] : [exchange, retry];
    // An Idempotency-Key may answer the JSON attempt with the status the form made: that one stays.
    if (createdId(retry) !== createdId(exchange)) await undoAtOnce(this, dropped, better ? settle : settleRetry);
    if (!better) {
      // A JSON attempt that got no answer says nothing of JSON bodies either: the next creation tries again.
      if (retry.error === undefined) for (const o of retryOff) if (off.some((f) => f.param === o.param)) bodies.lostEitherWay.add(o.param);
      return { ...step, settle, unkept: unkeptOf(exchange, off) };
    }
    bodies.json = true;
    const brackets = off.every((o) => BRACKETED.has(o.param)) && createdId(exchange) !== undefined;
    // A form misread beyond its bracket names (WIRE-FORM-2) is the cause, whichever creation showed what first.
    if (bodies.notUnderstood?.clause !== 'WIRE-FORM-2') bodies.notUnderstood = { clause: brackets ? 'WIRE-FORM-1' : 'WIRE-FORM-2', exchange };
    return { ...statusStep(kept, retryOff), settle: settleRetry, unkept: unkeptOf(kept, retryOff) };
  }

  /**
   * Uploads a media fixture (Mastodon's form field `file`; the contract does not name it) and judges nothing.
   * An attachment it creates goes on the ledger: the contract offers no delete, so the ledger tries Mastodon's
   * DELETE /api/v1/media/:id, which removes attachments no status uses; what it cannot remove is reported left behind.
   */
  async sendUpload(fixture: MediaFixture, params: FormParams = {}, api: UploadApi = 'v1', more: { thumbnail?: MediaFixture; malformed?: boolean } = {}): Promise<Exchange> {
    // `thumbnail`: the custom preview (since 3.2.0); `malformed`: the explored row's check judges a 5xx, not ERRORS-5XX-1.
    const uploads = [uploadOf(fixture), ...(more.thumbnail ? [uploadOf(more.thumbnail, 'thumbnail')] : [])];
    const exchange = await this.post(`/api/${api}/media`, params, { uploads, ...(more.malformed ? { malformed: true } : {}) });
    // No operation lists an account's attachments: one whose upload got no answer is listed as possibly left behind.
    if (mayHaveActed(exchange)) rememberUnanswered(exchange, 'attachment');
    const id = createdId(exchange);
    if (id) uploaded.set(exchange, remember(`attachment ${id} of ${this.name}`, () => this.delete(`/api/v1/media/${id}`), { made: exchange }));
    return exchange;
  }

  /**
   * Deletes the attachment an upload made, before the ledger would: Mastodon's DELETE /api/v1/media/:id, a call
   * outside the contract. An answer 2xx settles the ledger's entry, which then only reads whether it is gone.
   */
  async deleteUpload(upload: Exchange): Promise<Exchange | undefined> {
    const id = createdId(upload);
    if (!id) return undefined;
    const exchange = await this.delete(`/api/v1/media/${id}`, { outsideContract: true });
    if (exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300) uploaded.get(upload)?.settle();
    return exchange;
  }

  /** Uploads a media fixture as a preparation step: an answer 2xx with an id is enough to go on. */
  async upload(fixture: MediaFixture, params: FormParams = {}, api: UploadApi = 'v1'): Promise<Step<Attachment>> {
    const exchange = await this.sendUpload(fixture, params, api);
    return createdStep<Attachment>(exchange, 'Attachment', api === 'v1' ? 'MEDIA-UPLOAD-1' : 'MEDIA-V2-1', `uploading ${fixture.file}`);
  }

  /** An interaction that the ledger undoes at the end (favourite -> unfavourite, ...). */
  async interact(statusId: string, action: string, undoAction: string, form?: FormParams): Promise<Exchange> {
    const exchange = await this.post(`/api/v1/statuses/${statusId}/${action}`, form);
    if (exchange.status === 200 || mayHaveActed(exchange)) {
      remember(`${action} of ${statusId} by ${this.name}`, () => this.post(`/api/v1/statuses/${statusId}/${undoAction}`), { unanswered: mayHaveActed(exchange), made: exchange });
    }
    return exchange;
  }

  /** Another actor with the same server and a different token (applications, scoped tokens, with the grant that gave it). */
  withToken(name: string, token: string, grantedBy?: string): Actor {
    return new Actor(name, this.config, token, grantedBy);
  }
}

/** The account a step acts as: one of the run's users, an application token, or no token at all. */
export type Account = 'A' | 'B' | 'application' | 'anonymous';

/**
 * The run's actors. `application` is an application's client: it holds no token of its own (each of its requests
 * carries the application token it asks for or is given), so its exchanges show it as anonymous, as the server sees it.
 */
interface Actors {
  config: Config;
  a: Actor;
  b?: Actor;
  anon: Actor;
  application: Actor;
}

let cached: Actors | undefined;
/** The run this file belongs to, when our own runner runs many at once (suites/self/suite-runner.ts). */
let runName: string | undefined;
// Each file may be a run against another server (our fault runs), and learns how that server reads bodies.
perFile(() => {
  cached = undefined;
  bodies.json = false;
  delete bodies.notUnderstood;
  bodies.lostEitherWay.clear();
  runName = undefined;
});

/** Points this file at the server of one of our own runner's runs instead of the project's. */
export function joinRun(name: string): void {
  runName = name;
}

/** The configuration a run's plan declares its checks with, outside vitest (run/run-plan.ts), where nothing is injected. */
let declaringWith: Config | undefined;

/** Lets the suite files be loaded outside vitest, to declare their checks for the run's plan: no request is made. Answers the configuration it replaces. */
export function declareWith(config: Config | undefined): Config | undefined {
  const outer = declaringWith;
  declaringWith = config;
  return outer;
}

function configOfFile(): Config {
  if (declaringWith) return declaringWith;
  if (runName === undefined) return inject('config');
  const config = inject('runs')?.[runName];
  if (!config) throw new Error(`no configuration for the run "${runName}"`);
  return config;
}

export function actors(): Actors {
  if (cached) return cached;
  const config = configOfFile();
  limitInFlight(config.maxInFlight, config.inFlight);
  shareRunReading(config.rateReading);
  shareBucketTurns(config.bucketTurns);
  registerSecret(config.tokenA, 'CONFORMANCE_TOKEN_A');
  registerSecret(config.tokenB, 'CONFORMANCE_TOKEN_B');
  registerSecret(config.passwordA, 'CONFORMANCE_PASSWORD_A');
  registerSecret(config.passwordB, 'CONFORMANCE_PASSWORD_B');
  useSettleWindow(config.settleMs);
  cached = {
    config,
    a: new Actor('A', config, config.tokenA),
    b: config.tokenB ? new Actor('B', config, config.tokenB) : undefined,
    anon: new Actor('anonymous', config),
    application: new Actor('anonymous', config, undefined, undefined, 'application'),
  };
  return cached;
}

/** The actor of an account, where the configuration gives it one (B needs CONFORMANCE_TOKEN_B). */
export function configuredActor(account: Account): Actor | undefined {
  const { a, b, anon, application } = actors();
  return { A: a, B: b, anonymous: anon, application }[account];
}

/** The actor of an account, as the planner hands it to a step that declares it (run/checks.ts). */
export function actorOf(account: Account): Actor {
  const actor = configuredActor(account);
  if (!actor) throw new Error(`a step acts as ${account}, and the configuration gives no token for it (CONFORMANCE_TOKEN_B)`);
  return actor;
}

/** The id of the account a user token belongs to (Mastodon's verify_credentials; else from a status it posts). */
export async function accountIdOf(actor: Actor): Promise<StepOutcome<string>> {
  // Known before the groups (the embedded server's, the preflight's read with A's token): not asked again.
  if (actor.name === 'A' && actor.config.accountIdA) return { ok: true, value: actor.config.accountIdA };
  // A hint outside the contract (Mastodon's path): the registered checks do not judge it.
  const exchange = await actor.get('/api/v1/accounts/verify_credentials', { outsideContract: true });
  const id = exchange.status === 200 ? createdId(exchange) : undefined;
  if (id) return succeeded(id, exchange);
  const created = await actor.createStatus({ status: 'conformance probe: which account am I', visibility: 'direct' });
  if (!created.ok) return created;
  const deletion = await actor.delete(`/api/v1/statuses/${created.value.id}`);
  if (deletion.status === 200) created.settle();
  const accountId = created.value.account?.id;
  return typeof accountId === 'string' ? succeeded(accountId, created.exchange) : failed(authorGap(created.value, 'id', created.exchange), created.exchange);
}

// The actors of a run: account A, account B (the "other user"), anyone without a token, and the
// applications and tokens the run makes. Every suite gets them the same way: `const { config, a, b, anon } = actors()`.
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { uploadOf, type MediaFixture } from '../../../fixtures/media/index.ts';
import { codeExchanged, remember, rememberApplication, rememberUnanswered, type LedgerEntry } from './ledger.ts';
import type { Config } from '../talk/config.ts';
import { perFile } from '../talk/file-state.ts';
import type { FormParams } from '../talk/form.ts';
import { createdObject, HttpClient, senderOf, type Exchange, type RequestOptions } from '../talk/http.ts';
import { limitInFlight } from '../talk/in-flight.ts';
import type { RootCause } from './clauses.ts';
import { answerOf, block, causeOf, failed, need, succeeded, type Step } from './preconditions.ts';
import { registerSecret } from '../talk/redact.ts';
import { observeResource } from './resources.ts';
import { useSettleWindow } from './settle.ts';

export interface Status {
  id: string;
  visibility: string;
  text?: string;
  account: { id: string; username: string; acct: string };
  reblog: Status | null;
  [field: string]: unknown;
}

export interface Attachment {
  id: string;
  type: string;
  url: string | null;
  preview_url: string;
  description: string;
  blurhash: string | null;
  meta: {
    original?: { width: number; height: number; size: string; aspect: number };
    small?: { width: number; height: number; size: string; aspect: number };
    focus?: { x: number; y: number };
  };
  [field: string]: unknown;
}

/** v1 answers when the attachment is ready; v2 (since 3.1.3) answers at once and processes in the background. */
export type UploadApi = 'v1' | 'v2';

export { createdObject };

/** The id of the object a successful (2xx) answer carries, whatever else is wrong with it. */
export function createdId(exchange: Exchange): string | undefined {
  const id = createdObject(exchange)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** The options of a creation, with an Idempotency-Key of its own unless they carry one (see Actor.postStatus). */
function keyed(options: RequestOptions | undefined): RequestOptions {
  const given = Object.keys(options?.headers ?? {}).some((name) => name.toLowerCase() === 'idempotency-key');
  return given ? { ...options } : { ...options, headers: { ...options?.headers, 'idempotency-key': randomUUID() } };
}

/** The same request once more, as the suite's own call: a creation sent again with its Idempotency-Key. */
function resent(exchange: Exchange): Promise<Exchange> {
  const sender = senderOf(exchange) as HttpClient;
  const path = exchange.path;
  const headers = Object.fromEntries(Object.entries(exchange.requestHeaders).filter(([name]) => !['accept', 'user-agent', 'authorization', 'content-type'].includes(name)));
  const body = exchange.requestBody ?? '';
  const json = exchange.requestHeaders['content-type'] === 'application/json';
  return sender.send(exchange.method, path, { headers, outsideContract: true, ...(json ? { json: JSON.parse(body) as unknown } : { formEntries: [...new URLSearchParams(body)] }) });
}

/** A step of preparation that made something; the ledger undoes it unless a check undid it and settled it. */
export type Created<T> = Step<T> & { settle: () => void };

/**
 * Lenient: an answer that is 2xx with an object carrying a string id is enough to go on (its schema is observed for
 * the resource's clause, not judged); otherwise the step fails with `clause` as its cause.
 */
export function createdStep<T>(exchange: Exchange, resource: 'Status' | 'Attachment' | 'Application', clause: string, what: string): Step<T> {
  const body = createdObject(exchange);
  if (!body || typeof body.id !== 'string') return failed(causeOf(clause, `${what} answered ${answerOf(exchange)}${body ? ' without an id' : ''}`, exchange), exchange);
  observeResource(resource, body, exchange);
  return succeeded(body as T, exchange);
}

/** A parameter a creation asked for that the status it answered does not carry as asked, and the clause that says so. */
interface Off {
  param: string;
  clause: string;
  summary: string;
}

const idsOf = (media: unknown) => (Array.isArray(media) ? media.map((m: unknown) => (typeof m === 'object' && m !== null ? (m as { id?: unknown }).id : m)) : []);
const sameSet = (x: unknown[], y: unknown[]) => JSON.stringify(x.map(String).sort()) === JSON.stringify(y.map(String).sort());

/** Every parameter a creation asked for that the status it answered does not reflect (its text is rendered as HTML, so it is not compared). */
function offFields(status: Status, params: FormParams): Off[] {
  const shown = (value: unknown) => JSON.stringify(value);
  const off: (Off | false)[] = [
    typeof params.visibility === 'string' && status.visibility !== params.visibility && {
      param: 'visibility', clause: 'STATUS-CREATE-4', summary: `a status created with visibility ${params.visibility} answered visibility ${shown(status.visibility)}`,
    },
    typeof params.in_reply_to_id === 'string' && status.in_reply_to_id !== params.in_reply_to_id && {
      param: 'in_reply_to_id', clause: 'STATUS-CREATE-6', summary: `a reply to ${params.in_reply_to_id} answered in_reply_to_id ${shown(status.in_reply_to_id)}`,
    },
    params.poll !== undefined && (typeof status.poll !== 'object' || status.poll === null) && {
      param: 'poll', clause: 'STATUS-POLL-1', summary: `a status created with poll[options][] answered poll ${shown(status.poll)}`,
    },
    typeof params.spoiler_text === 'string' && status.spoiler_text !== params.spoiler_text && {
      param: 'spoiler_text', clause: 'STATUS-CREATE-2', summary: `a status created with spoiler_text answered spoiler_text ${shown(status.spoiler_text)}`,
    },
    params.sensitive === true && status.sensitive !== true && {
      param: 'sensitive',
      clause: params.spoiler_text ? 'STATUS-CREATE-3' : 'STATUS-CREATE-7',
      summary: `a status created sensitive${params.spoiler_text ? '' : ' without spoiler_text'} answered sensitive ${shown(status.sensitive)}`,
    },
    typeof params.language === 'string' && status.language !== params.language && {
      param: 'language', clause: 'STATUS-CREATE-5', summary: `a status created with language ${params.language} answered language ${shown(status.language)}`,
    },
    Array.isArray(params.media_ids) && !sameSet(idsOf(status.media_attachments), params.media_ids) && {
      param: 'media_ids', clause: 'MEDIA-ATTACH-1', summary: `a status created with media_ids[] answered media_attachments ${shown(idsOf(status.media_attachments))}`,
    },
  ];
  return off.filter((o): o is Off => o !== false);
}

/** What the checks of a prepared status rely on: its visibility, what it replies to and its poll; the rest they judge themselves. */
const RELIED_ON = new Set(['visibility', 'in_reply_to_id', 'poll']);
export type Relied = 'visibility' | 'in_reply_to_id' | 'poll';

/**
 * A prepared status. Its step fails on the first relied-on parameter it came without; `unkept` names each of them
 * with its cause, so that a check needing only some of them judges the status all the same (madeWith).
 */
export type PreparedStatus = Created<Status> & { unkept: readonly { param: string; cause: RootCause }[] };

/** The status a creation made, whatever it came without of what it asked for; a creation that made none keeps its cause. */
export function madeStep(created: Step<Status>): Step<Status> {
  const body = created.exchange ? createdObject(created.exchange) : undefined;
  return typeof body?.id === 'string' && created.exchange ? succeeded(body as Status, created.exchange) : created;
}

/** The status a prepared creation made, for a check that needs of its visibility, reply and poll only `relied`: any of those it came without blocks. */
export function madeWith(created: PreparedStatus, relied: readonly Relied[]): Status {
  const status = need(madeStep(created));
  const unkept = created.unkept.find((u) => relied.some((r) => r === u.param));
  if (unkept) block(unkept.cause);
  return status;
}
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

/** The relied-on parameters a creation that made a status came without, each with its cause. */
function unkeptOf(exchange: Exchange, off: readonly Off[]): PreparedStatus['unkept'] {
  return off.filter((o) => RELIED_ON.has(o.param)).map((o) => ({ param: o.param, cause: causeOf(o.clause, o.summary, exchange) }));
}

export class Actor {
  readonly http: HttpClient;
  constructor(
    readonly name: string,
    readonly config: Config,
    readonly token?: string,
    /** The clause of the grant that gave `token`, when the run obtained it itself (see Exchange.grantedBy). */
    grantedBy?: string,
  ) {
    this.http = new HttpClient(config.baseUrl, name, token, config.timeoutMs, config.userAgent, grantedBy);
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

  /** Whatever a creation made goes on the ledger before anything is judged, also when its answer is wrong or never came. */
  private rememberStatus(exchange: Exchange): () => void {
    const key = Object.keys(exchange.requestHeaders).some((name) => name.toLowerCase() === 'idempotency-key');
    if (exchange.timedOut) rememberUnanswered(exchange, 'status', key ? () => resent(exchange) : undefined);
    const id = createdId(exchange);
    const scheduled = id !== undefined && 'scheduled_at' in (createdObject(exchange) ?? {});
    // The contract shows no way to cancel a scheduled status: Mastodon's DELETE /api/v1/scheduled_statuses/:id, best effort.
    const path = scheduled ? `/api/v1/scheduled_statuses/${id}` : `/api/v1/statuses/${id}`;
    const entry = id ? remember(`${scheduled ? 'scheduled status' : 'status'} ${id} of ${this.name}`, () => this.delete(path)) : undefined;
    return () => entry?.settle();
  }

  /** A creation the check judges, refusal included: what the server makes anyway goes on the ledger. */
  async attemptStatus(params: FormParams, options?: RequestOptions): Promise<Exchange> {
    const exchange = await this.postStatus(params, options);
    this.rememberStatus(exchange);
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
    const settle = this.rememberStatus(exchange);
    const off = this.offOf(exchange, params);
    const step = this.statusStep(exchange, off);
    // A creation that got no answer says nothing of how the server reads bodies.
    if (asJson || exchange.error !== undefined || off.every((o) => bodies.lostEitherWay.has(o.param))) return { ...step, settle, unkept: unkeptOf(exchange, off) };
    const retry = await this.http.send('POST', '/api/v1/statuses', { json: params, ...keyed(options) });
    const settleRetry = this.rememberStatus(retry);
    const retryOff = this.offOf(retry, params);
    const better = retryOff.length < off.length && retryOff.every((o) => off.some((f) => f.param === o.param));
    const [kept, dropped] = better ? [retry, exchange] : [exchange, retry];
    // An Idempotency-Key may answer the JSON attempt with the status the form made: that one stays.
    if (createdId(retry) !== createdId(exchange)) await this.undoAtOnce(dropped, better ? settle : settleRetry);
    if (!better) {
      for (const o of retryOff) if (off.some((f) => f.param === o.param)) bodies.lostEitherWay.add(o.param);
      return { ...step, settle, unkept: unkeptOf(exchange, off) };
    }
    bodies.json = true;
    const brackets = off.every((o) => BRACKETED.has(o.param)) && createdId(exchange) !== undefined;
    // A form misread beyond its bracket names (WIRE-FORM-2) is the cause, whichever creation showed what first.
    if (bodies.notUnderstood?.clause !== 'WIRE-FORM-2') bodies.notUnderstood = { clause: brackets ? 'WIRE-FORM-1' : 'WIRE-FORM-2', exchange };
    return { ...this.statusStep(kept, retryOff), settle: settleRetry, unkept: unkeptOf(kept, retryOff) };
  }

  /** Deletes what a creation attempt made that no check uses, so that none meets it; off the ledger once deleted. */
  private async undoAtOnce(exchange: Exchange, settle: () => void): Promise<void> {
    const id = createdId(exchange);
    if (!id) return;
    const undo = await this.delete(`/api/v1/statuses/${id}`);
    if (undo.status !== undefined && undo.status < 300) settle();
  }

  /** What a creation answered off what it asked for; a creation that made nothing is off in every parameter. */
  private offOf(exchange: Exchange, params: FormParams): Off[] {
    const body = createdObject(exchange);
    if (typeof body?.id === 'string') return offFields(body as Status, params);
    return Object.keys(params).map((param) => ({ param, clause: 'STATUS-CREATE-1', summary: 'no status was made' }));
  }

  private statusStep(exchange: Exchange, off: readonly Off[]): Step<Status> {
    const step = createdStep<Status>(exchange, 'Status', 'STATUS-CREATE-1', 'creating a status');
    const [unkept] = unkeptOf(exchange, off);
    return step.ok && unkept ? failed(unkept.cause, exchange) : step;
  }

  /**
   * Uploads a media fixture (Mastodon's form field `file`; the contract does not name it) and judges nothing.
   * An attachment it creates goes on the ledger: the contract offers no delete, so the ledger tries Mastodon's
   * DELETE /api/v1/media/:id, which removes attachments no status uses; what it cannot remove is reported left behind.
   */
  async sendUpload(fixture: MediaFixture, params: FormParams = {}, api: UploadApi = 'v1'): Promise<Exchange> {
    const exchange = await this.post(`/api/${api}/media`, params, { uploads: [uploadOf(fixture)] });
    // No operation lists an account's attachments: one whose upload got no answer is listed as possibly left behind.
    if (exchange.timedOut) rememberUnanswered(exchange, 'attachment');
    const id = createdId(exchange);
    if (id) uploaded.set(exchange, remember(`attachment ${id} of ${this.name}`, () => this.delete(`/api/v1/media/${id}`)));
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
    if (exchange.status === 200 || exchange.timedOut) {
      remember(`${action} of ${statusId} by ${this.name}`, () => this.post(`/api/v1/statuses/${statusId}/${undoAction}`), { unanswered: exchange.timedOut });
    }
    return exchange;
  }

  /** Another actor with the same server and a different token (applications, scoped tokens, with the grant that gave it). */
  withToken(name: string, token: string, grantedBy?: string): Actor {
    return new Actor(name, this.config, token, grantedBy);
  }
}

export interface Application {
  client_id: string;
  client_secret: string;
  name: string;
  website?: string | null;
}

export const OOB = 'urn:ietf:wg:oauth:2.0:oob';

/**
 * Registers an application, as a preparation step: an answer 2xx with client_id and client_secret is enough to go
 * on. Applications cannot be deleted through this contract: each one the server registered is listed as left
 * behind unless a read shows it gone; their tokens are revoked by the ledger.
 */
export async function registerApp(anon: Actor, params: FormParams = {}): Promise<Step<Application>> {
  const fields = { client_name: 'conformance suite', redirect_uris: OOB, scopes: 'read write follow push', website: 'https://conformance.invalid/suite', ...params };
  const exchange = await anon.post('/api/v1/apps', fields);
  const app = createdObject(exchange);
  // Listed before it is judged: what the server registered stays, also when its answer is wrong.
  if (typeof app?.client_id === 'string') rememberApplication(exchange, { kind: 'application', id: app.client_id, owner: anon.name }, app.client_secret);
  if (typeof app?.client_id !== 'string' || typeof app.client_secret !== 'string') {
    return failed(causeOf('APPS-REGISTER-1', `registering an application answered ${answerOf(exchange)}${app ? ' without client_id and client_secret' : ''}`, exchange), exchange);
  }
  const how = `register one (POST /api/v1/apps with redirect_uris ${JSON.stringify(fields.redirect_uris)} and scopes "${String(fields.scopes)}") and use its client_id in place of ${app.client_id}`;
  registerSecret(app.client_secret, 'CLIENT_SECRET', `the client_secret of application ${app.client_id}, which the run never exported: ${how}`);
  observeResource('Application', app, exchange);
  return succeeded(app as unknown as Application, exchange);
}

let tokensIssued = 0;

/** A token the run obtained, named by what it is, with how a person gets one (the ledger revokes the run's own). */
function tokenSecret(anon: Actor, params: FormParams): [name: string, obtained: string] {
  const grant = String(params.grant_type ?? '');
  const what = `with ${params.scope ? `scope "${String(params.scope)}"` : 'no scope'}, which the run revokes at its end`;
  if (grant === 'client_credentials') return ['APP_TOKEN', `an application token ${what}: POST /oauth/token grant_type=client_credentials with an application's client_id and client_secret`];
  const user = params.username !== undefined && params.username === anon.config.usernameB ? 'B' : 'A';
  if (grant === 'password') return [`USER_TOKEN_${user}`, `a user token of ${user} ${what}: POST /oauth/token grant_type=password with CONFORMANCE_USERNAME_${user} and CONFORMANCE_PASSWORD_${user}`];
  if (grant === 'authorization_code') {
    return [`USER_TOKEN_${user}`, `a user token of ${user} ${what}: approve GET /oauth/authorize?response_type=code signed in as ${user}, then POST /oauth/token grant_type=authorization_code with the code`];
  }
  return ['OAUTH_TOKEN', `a token ${what}: POST /oauth/token issued it to grant_type "${grant}"`];
}

/**
 * Asks the token operation for a token; the ledger revokes it at the end, and counts it gone only when a call with it
 * is refused afterwards. Returns the raw exchange, and the token as a step for the checks that only
 * need one (its cause: OAUTH-TOKEN-1). Every request carries the parameters the contract lists for the operation
 * (client_id, client_secret, redirect_uri, grant_type, scope): redirect_uri is the out-of-band URI, which every
 * application the suite registers lists, unless `params` names another; some servers require it for every grant.
 * `scope` is left out only where a check is about its absence.
 */
export async function requestToken(
  anon: Actor,
  app: Application,
  params: FormParams,
  options?: RequestOptions,
): Promise<{ token?: string; exchange: Exchange; settle: () => void; step: Step<string> }> {
  const exchange = await anon.post('/oauth/token', { client_id: app.client_id, client_secret: app.client_secret, redirect_uri: OOB, ...params }, options);
  let settle = () => {};
  const body = exchange.status === 200 ? createdObject(exchange) : undefined;
  const given = body?.access_token;
  const token = typeof given === 'string' && given !== '' ? given : undefined;
  const grant = typeof params.grant_type === 'string' ? params.grant_type : 'a';
  // No access_token is the token operation's failure (OAUTH-TOKEN-1); one of another type is the Token's (RESOURCE-TOKEN-1).
  const present = given !== undefined && given !== null;
  const clause = present && typeof given !== 'string' ? 'RESOURCE-TOKEN-1' : 'OAUTH-TOKEN-1';
  const what = body ? (present ? ` with access_token ${JSON.stringify(given)}` : ' without an access_token') : '';
  const step: Step<string> = token ? succeeded(token, exchange) : failed(causeOf(clause, `the ${grant} grant answered ${answerOf(exchange)}${what}`, exchange), exchange);
  if (body && present) observeResource('Token', body, exchange);
  if (token) {
    registerSecret(token, ...tokenSecret(anon, params));
    if (params.grant_type === 'authorization_code' && typeof params.code === 'string') codeExchanged(params.code);
    // A token is never shown: it is known by its place among the run's tokens, its grant and its scope.
    const id = `#${++tokensIssued} (${[String(params.grant_type ?? 'token'), ...(params.scope ? [`scope "${String(params.scope)}"`] : [])].join(', ')})`;
    ({ settle } = remember('token of the suite application', () => anon.post('/oauth/revoke', { client_id: app.client_id, client_secret: app.client_secret, token }), {
      subject: { kind: 'token', id, owner: `application ${app.client_id}` },
      token,
    }));
  }
  return { token, exchange, settle, step };
}

let cached: { config: Config; a: Actor; b?: Actor; anon: Actor } | undefined;
/** The run this file belongs to, when our own runner runs many at once (suites/self/suite-runner.ts). */
let runName: string | undefined;
// Each file may be a run against another server (our fault runs), and learns how that server reads bodies.
perFile(() => {
  cached = undefined;
  bodies.json = false;
  delete bodies.notUnderstood;
  bodies.lostEitherWay.clear();
  runName = undefined;
  tokensIssued = 0;
});

/** Points this file at the server of one of our own runner's runs instead of the project's. */
export function joinRun(name: string): void {
  runName = name;
}

function configOfFile(): Config {
  if (runName === undefined) return inject('config');
  const config = inject('runs')?.[runName];
  if (!config) throw new Error(`no configuration for the run "${runName}"`);
  return config;
}

export function actors(): { config: Config; a: Actor; b?: Actor; anon: Actor } {
  if (cached) return cached;
  const config = configOfFile();
  limitInFlight(config.maxInFlight, config.inFlight);
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
  };
  return cached;
}

/** The id of the account a user token belongs to (Mastodon's verify_credentials; else from a status it posts). */
export async function accountIdOf(actor: Actor): Promise<Step<string>> {
  // A hint outside the contract (Mastodon's path): the registered checks do not judge it.
  const exchange = await actor.get('/api/v1/accounts/verify_credentials', { outsideContract: true });
  const id = exchange.status === 200 ? createdId(exchange) : undefined;
  if (id) return succeeded(id, exchange);
  const created = await actor.createStatus({ status: 'conformance probe: which account am I', visibility: 'direct' });
  if (!created.ok) return created;
  const deletion = await actor.delete(`/api/v1/statuses/${created.value.id}`);
  if (deletion.status === 200) created.settle();
  const accountId = created.value.account?.id;
  return typeof accountId === 'string' ? succeeded(accountId, created.exchange) : failed(causeOf('RESOURCE-STATUS-1', 'a created status carries no account id', created.exchange), created.exchange);
}

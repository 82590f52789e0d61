// The actors of a run: account A, account B (the "other user"), anyone without a token, and the
// applications and tokens the run makes. Every suite gets them the same way: `const { config, a, b, anon } = actors()`.
import { inject } from 'vitest';
import { uploadOf, type MediaFixture } from '../../fixtures/media/index.ts';
import { cannotUndo, remember, stillThere, unconfirmed } from './cleanup.ts';
import type { Config } from './config.ts';
import type { FormParams } from './form.ts';
import { HttpClient, jsonOf, type Exchange, type RequestOptions } from './http.ts';
import { registerSecret } from './redact.ts';
import { expectJson, expectOk } from './verify.ts';

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

/** The id of the object a successful (2xx) answer carries, whatever else is wrong with it. */
function createdId(exchange: Exchange): string | undefined {
  const json = jsonOf(exchange);
  const id = exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300 && json.ok ? (json.value as { id?: unknown } | null)?.id : undefined;
  return typeof id === 'string' ? id : undefined;
}

export class Actor {
  readonly http: HttpClient;
  constructor(
    readonly name: string,
    readonly config: Config,
    readonly token?: string,
  ) {
    this.http = new HttpClient(config.baseUrl, name, token, config.timeoutMs);
  }

  get(path: string, options?: RequestOptions): Promise<Exchange> {
    return this.http.send('GET', path, options);
  }
  post(path: string, form?: FormParams, options?: RequestOptions): Promise<Exchange> {
    return this.http.send('POST', path, { form, ...options });
  }
  put(path: string, form?: FormParams, options?: RequestOptions): Promise<Exchange> {
    return this.http.send('PUT', path, { form, ...options });
  }
  delete(path: string, options?: RequestOptions): Promise<Exchange> {
    return this.http.send('DELETE', path, options);
  }

  /** Posts a status that the ledger deletes at the end; fails the running check unless it answers a Status. */
  async createStatus(params: FormParams, options?: RequestOptions): Promise<{ status: Status; exchange: Exchange; settle: () => void }> {
    const exchange = await this.post('/api/v1/statuses', params, options);
    // On the ledger before it is judged: what the server created goes, also when its answer fails the check.
    const id = createdId(exchange);
    const entry = id ? remember(`status ${id} of ${this.name}`, () => this.delete(`/api/v1/statuses/${id}`)) : undefined;
    const status = expectOk<Status>(exchange, 'Status');
    return { status, exchange, settle: () => entry?.settle() };
  }

  /**
   * Uploads a media fixture (Mastodon's form field `file`; the contract does not name it) and judges nothing.
   * An attachment it creates goes on the ledger: the contract offers no delete, so the ledger tries Mastodon's
   * DELETE /api/v1/media/:id, which removes attachments no status uses; what it cannot remove is reported left behind.
   */
  async sendUpload(fixture: MediaFixture, params: FormParams = {}, api: UploadApi = 'v1'): Promise<Exchange> {
    const exchange = await this.post(`/api/${api}/media`, params, { uploads: [uploadOf(fixture)] });
    const id = createdId(exchange);
    if (id) remember(`attachment ${id} of ${this.name}`, () => this.delete(`/api/v1/media/${id}`));
    return exchange;
  }

  /** Uploads a media fixture; fails the running check unless the answer is the contract's (v1: 200, v2: 202) Attachment. */
  async upload(fixture: MediaFixture, params: FormParams = {}, api: UploadApi = 'v1'): Promise<{ attachment: Attachment; exchange: Exchange }> {
    const exchange = await this.sendUpload(fixture, params, api);
    return { attachment: expectOk<Attachment>(exchange, 'Attachment', api === 'v1' ? 200 : 202), exchange };
  }

  /** An interaction that the ledger undoes at the end (favourite -> unfavourite, ...). */
  async interact(statusId: string, action: string, undoAction: string, form?: FormParams): Promise<Exchange> {
    const exchange = await this.post(`/api/v1/statuses/${statusId}/${action}`, form);
    if (exchange.status === 200) {
      remember(`${action} of ${statusId} by ${this.name}`, () => this.post(`/api/v1/statuses/${statusId}/${undoAction}`));
    }
    return exchange;
  }

  /** Another actor with the same server and a different token (applications, scoped tokens). */
  withToken(name: string, token: string): Actor {
    return new Actor(name, this.config, token);
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
 * Registers an application. Applications cannot be deleted through this contract: each one the server registered
 * is listed as left behind; their tokens are revoked by the ledger. Fails the running check unless the answer is
 * an Application.
 */
export async function registerApp(anon: Actor, params: FormParams = {}): Promise<{ app: Application; exchange: Exchange }> {
  const exchange = await anon.post('/api/v1/apps', {
    client_name: 'conformance suite',
    redirect_uris: OOB,
    scopes: 'read write follow push',
    website: 'https://conformance.invalid/suite',
    ...params,
  });
  // Listed before it is judged: what the server registered stays, also when its answer fails the check.
  const json = jsonOf(exchange);
  const clientId = exchange.status !== undefined && exchange.status < 300 && json.ok ? (json.value as { client_id?: unknown } | null)?.client_id : undefined;
  if (typeof clientId === 'string') {
    cannotUndo({ kind: 'application', id: clientId, owner: anon.name }, 'the contract has no operation to delete an application');
  }
  const app = expectOk<Application>(exchange, 'Application');
  registerSecret(app.client_secret, 'CLIENT_SECRET');
  return { app, exchange };
}

let tokensIssued = 0;

/**
 * Asks the token operation for a token; the ledger revokes it at the end, and a revocation answered 404 counts only
 * when the token is refused afterwards. Returns the raw exchange too.
 */
export async function requestToken(anon: Actor, app: Application, params: FormParams, options?: RequestOptions): Promise<{ token?: string; exchange: Exchange; settle: () => void }> {
  const exchange = await anon.post('/oauth/token', { client_id: app.client_id, client_secret: app.client_secret, ...params }, options);
  let settle = () => {};
  if (exchange.status !== 200) return { exchange, settle };
  const body = expectJson(exchange) as { access_token?: unknown };
  const token = typeof body.access_token === 'string' ? body.access_token : undefined;
  if (token) {
    registerSecret(token, 'APP_TOKEN');
    // A token is never shown: it is known by its place among the run's tokens, its grant and its scope.
    const id = `#${++tokensIssued} (${[String(params.grant_type ?? 'token'), ...(params.scope ? [`scope "${String(params.scope)}"`] : [])].join(', ')})`;
    ({ settle } = remember('token of the suite application', () => anon.post('/oauth/revoke', { client_id: app.client_id, client_secret: app.client_secret, token }), {
      subject: { kind: 'token', id, owner: `application ${app.client_id}` },
      confirm: async (revoke) => {
        const use = await anon.get('/api/v1/apps/verify_credentials', { token });
        if (use.status === 401) return undefined;
        return use.status === 200 ? stillThere(revoke, `the token is still accepted (${use.method} ${use.path} answered HTTP 200)`) : unconfirmed(revoke, use);
      },
    }));
  }
  return { token, exchange, settle };
}

let cached: { config: Config; a: Actor; b?: Actor; anon: Actor } | undefined;

export function actors(): { config: Config; a: Actor; b?: Actor; anon: Actor } {
  if (cached) return cached;
  const config = inject('config');
  registerSecret(config.tokenA, 'CONFORMANCE_TOKEN_A');
  registerSecret(config.tokenB, 'CONFORMANCE_TOKEN_B');
  registerSecret(config.passwordA, 'CONFORMANCE_PASSWORD_A');
  registerSecret(config.passwordB, 'CONFORMANCE_PASSWORD_B');
  cached = {
    config,
    a: new Actor('A', config, config.tokenA),
    b: config.tokenB ? new Actor('B', config, config.tokenB) : undefined,
    anon: new Actor('anonymous', config),
  };
  return cached;
}

/**
 * An authorization code for account A, by driving the server's authorization form. Only the reference
 * server's form (username and password fields, no session) can be driven; elsewhere the reason is returned.
 */
export async function authorizationCode(anon: Actor, app: Application, scope: string, redirectUri = OOB): Promise<{ code?: string; reason: string; form?: Exchange; approval?: Exchange }> {
  const { usernameA, passwordA } = anon.config;
  if (!usernameA || !passwordA) return { reason: 'needs CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A to drive the authorization form' };
  const params = { client_id: app.client_id, redirect_uri: redirectUri, response_type: 'code', scope };
  const form = await anon.get('/oauth/authorize', { query: params, headers: { accept: 'text/html' } });
  if (form.status !== 200 || !/name="username"/.test(form.text) || !/name="password"/.test(form.text)) {
    return { reason: "this server's authorization form needs a browser session; the suite drives only a plain username and password form", form };
  }
  const approval = await anon.post('/oauth/authorize', { ...params, username: usernameA, password: passwordA }, { headers: { accept: 'text/html' } });
  const location = approval.headers.location;
  const code = location ? (new URL(location).searchParams.get('code') ?? undefined) : /id="authorization-code">([^<]+)</.exec(approval.text)?.[1];
  if (code) registerSecret(code, 'AUTHORIZATION_CODE');
  return code ? { code, reason: '', form, approval } : { reason: `the authorization form did not give a code (HTTP ${approval.status ?? 'none'})`, form, approval };
}

/** The id of the account a user token belongs to (Mastodon's verify_credentials; else from a status it posts). */
export async function accountIdOf(actor: Actor): Promise<string> {
  // A hint outside the contract (Mastodon's path): the registered checks do not judge it.
  const exchange = await actor.get('/api/v1/accounts/verify_credentials', { outsideContract: true });
  const json = jsonOf(exchange);
  const id = exchange.status === 200 && json.ok ? (json.value as { id?: unknown } | null)?.id : undefined;
  if (typeof id === 'string') return id;
  const { status, settle } = await actor.createStatus({ status: 'conformance probe: which account am I', visibility: 'direct' });
  await actor.delete(`/api/v1/statuses/${status.id}`);
  settle();
  return status.account.id;
}

// The applications and tokens the run makes, as steps of preparation: an application registered through the
// contract's operation, and tokens from the token operation with every parameter the contract lists. Each goes on
// the ledger as it is made (tokens are revoked at the end; applications cannot be deleted) and its secret is
// registered for redaction, named by what it is and how a person gets one.
import { perFile } from '../talk/file-state.ts';
import type { FormParams } from '../talk/form.ts';
import { createdObject, mayHaveActed, type Exchange, type RequestOptions } from '../talk/http.ts';
import { registerSecret } from '../talk/redact.ts';
import type { Actor } from './actors.ts';
import { codeExchanged, codeUnanswered, remember, rememberApplication, rememberUnanswered } from './ledger.ts';
import { answerOf, causeOf, failed, succeeded, type Step } from './steps.ts';
import { announceCreation } from './creations.ts';

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
 * behind unless a read shows it gone; their tokens are revoked by the ledger. A parameter given as undefined is left out.
 */
export async function registerApp(anon: Actor, params: FormParams = {}, options?: RequestOptions): Promise<Step<Application>> {
  const fields = { client_name: 'conformance suite', redirect_uris: OOB, scopes: 'read write follow push', website: 'https://conformance.invalid/suite', ...params };
  const exchange = await anon.post('/api/v1/apps', fields, options);
  const app = createdObject(exchange);
  // Listed before it is judged: what the server registered stays, also when its answer is wrong.
  if (typeof app?.client_id === 'string') rememberApplication(exchange, { kind: 'application', id: app.client_id, owner: anon.name }, app.client_secret);
  if (typeof app?.client_id !== 'string' || typeof app.client_secret !== 'string') {
    return failed(causeOf('APPS-REGISTER-1', `registering an application answered ${answerOf(exchange)}${app ? ' without client_id and client_secret' : ''}`, exchange), exchange);
  }
  const how = `register one (POST /api/v1/apps with redirect_uris ${JSON.stringify(fields.redirect_uris)} and scopes "${String(fields.scopes)}") and use its client_id in place of ${app.client_id}`;
  registerSecret(app.client_secret, 'CLIENT_SECRET', `the client_secret of application ${app.client_id}, which the run never exported: ${how}`);
  announceCreation('Application', app, exchange);
  return succeeded(app as unknown as Application, exchange);
}

let tokensIssued = 0;
perFile(() => {
  tokensIssued = 0;
});

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
  if (body && present) announceCreation('Token', body, exchange);
  // Sent, with no complete answer: the server may have issued a token the run never saw, listed with its code's
  // authorization where the code is one, else as a token possibly left behind.
  const code = params.grant_type === 'authorization_code' && typeof params.code === 'string' ? params.code : undefined;
  if (mayHaveActed(exchange) && !(code !== undefined && codeUnanswered(code, exchange))) rememberUnanswered(exchange, 'token');
  if (token) {
    registerSecret(token, ...tokenSecret(anon, params));
    if (params.grant_type === 'authorization_code' && typeof params.code === 'string') codeExchanged(params.code);
    // A token is never shown: it is known by its place among the run's tokens, its grant and its scope.
    const id = `#${++tokensIssued} (${[String(params.grant_type ?? 'token'), ...(params.scope ? [`scope "${String(params.scope)}"`] : [])].join(', ')})`;
    ({ settle } = remember('token of the suite application', () => anon.post('/oauth/revoke', { client_id: app.client_id, client_secret: app.client_secret, token }), {
      subject: { kind: 'token', id, owner: `application ${app.client_id}` },
      token,
      made: exchange,
    }));
  }
  return { token, exchange, settle, step };
}

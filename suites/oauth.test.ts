// The contract's "OAuth" section (and the Authentication rules it carries out): the authorization form,
// the token operation's rules, the grants, and revocation.
import { beforeAll, describe, it } from 'vitest';
import { accountIdOf, actors, authorizationCode, OOB, registerApp, requestToken, type Application } from './support/actors.ts';
import { needs } from './support/preconditions.ts';
import { check, expectError, expectJson, expectOk, expectRefusal, fail } from './support/verify.ts';

const { config, a, anon } = actors();

describe('OAuth', () => {
  // Registered with read and write only, so that follow is outside its scopes.
  let app: Application;
  let accountId: string;

  beforeAll(async () => {
    ({ app } = await registerApp(anon, { client_name: 'conformance oauth', scopes: 'read write' }));
    accountId = await accountIdOf(a);
  });

  it('OAUTH-TOKEN-1 the token operation returns a Token with access_token', async () => {
    const { exchange } = await requestToken(anon, app, { grant_type: 'client_credentials', scope: 'read' });
    const token = expectOk(exchange, 'Token');
    check(typeof token.access_token === 'string' && token.access_token !== '', 'access_token: a non-empty string', `access_token: ${JSON.stringify(token.access_token)}`, exchange);
  });

  it('OAUTH-CLIENTCRED-1 client_credentials without scope gives a token with the read scope', async () => {
    const { token, exchange } = await requestToken(anon, app, { grant_type: 'client_credentials' });
    const body = expectOk(exchange, 'Token');
    // The Token's field list is not shown: judge by `scope` only where the server sends it, and by what the token can read.
    if (typeof body.scope === 'string') check(body.scope.split(/\s+/).includes('read'), 'scope includes read', `scope "${body.scope}"`, exchange);
    const read = await anon.get(`/api/v1/accounts/${accountId}/following`, { token });
    expectJson(read, 200);
  });

  it('OAUTH-SCOPE-1 a scope outside the registered scopes is refused', async () => {
    const { token, exchange } = await requestToken(anon, app, { grant_type: 'client_credentials', scope: 'read follow' });
    if (token) fail('a refusal: follow was not registered', `a token was issued (HTTP ${exchange.status})`, exchange);
    expectRefusal(exchange);
  });

  it('OAUTH-REDIRECT-1 a redirect_uri that was not registered is refused', async (context) => {
    const { code, reason } = await authorizationCode(anon, app, 'read');
    needs(context, code, reason);
    const { token, exchange } = await requestToken(anon, app, { grant_type: 'authorization_code', code, redirect_uri: 'https://conformance.invalid/not-registered' });
    if (token) fail('a refusal: the redirect_uri was not registered', `a token was issued (HTTP ${exchange.status})`, exchange);
    expectRefusal(exchange);
  });

  it('OAUTH-PASSWORD-1 the password grant gives a user token', async (context) => {
    needs(context, config.usernameA && config.passwordA, 'needs CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A');
    const { token, exchange } = await requestToken(anon, app, { grant_type: 'password', username: config.usernameA, password: config.passwordA, scope: 'read' });
    expectOk(exchange, 'Token');
    const use = await anon.get('/api/v1/apps/verify_credentials', { token });
    expectJson(use, 200);
  });

  it('OAUTH-AUTHORIZE-1 GET /oauth/authorize shows an authorization form (or sends the user to sign in first)', async () => {
    const exchange = await anon.get('/oauth/authorize', {
      query: { client_id: app.client_id, redirect_uri: OOB, response_type: 'code', scope: 'read' },
      headers: { accept: 'text/html' },
    });
    // A user who is not signed in is shown the sign-in page first; a redirect there is as good as the form.
    const redirect = exchange.status !== undefined && exchange.status >= 300 && exchange.status < 400 && Boolean(exchange.headers.location);
    const form = exchange.status === 200 && /text\/html/.test(exchange.headers['content-type'] ?? '') && /<form/i.test(exchange.text);
    check(redirect || form, 'HTTP 200 with an HTML form, or a redirect to sign in', `HTTP ${exchange.status ?? exchange.error}`, exchange);
  });

  it('OAUTH-REVOKE-1 a revoked token is refused with 401 "The access token is invalid"', async () => {
    const { token } = await requestToken(anon, app, { grant_type: 'client_credentials', scope: 'read' });
    if (!token) fail('a token to revoke', 'none was issued');
    const revoke = await anon.post('/oauth/revoke', { client_id: app.client_id, client_secret: app.client_secret, token });
    expectJson(revoke, 200);
    const use = await anon.get('/api/v1/apps/verify_credentials', { token });
    expectError(use, 401, 'The access token is invalid');
  });
});

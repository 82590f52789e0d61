// The contract's "OAuth" section (and the Authentication rules it carries out): the authorization form,
// the token operation's rules, the grants, and revocation.
import { beforeAll, describe, it } from 'vitest';
import { accountIdOf, actors, authorizationCode, OOB, registerApp, requestToken, type Application } from './support/actors.ts';
import { needs } from './support/preconditions.ts';
import { check, expectError, expectJson, expectOk, expectRefusal, fail } from './support/verify.ts';

const { config, a, anon } = actors();
const CALLBACK = 'https://conformance.invalid/callback';

describe('OAuth', () => {
  // Registered with read and write only, so that follow is outside its scopes.
  let app: Application;
  let accountId: string;
  // One client_credentials token serves the Token checks; one out-of-band approval serves the code checks.
  let tokenRun: ReturnType<typeof requestToken>;
  let oobApproval: ReturnType<typeof authorizationCode>;

  beforeAll(async () => {
    ({ app } = await registerApp(anon, { client_name: 'conformance oauth', scopes: 'read write', redirect_uris: `${OOB}\n${CALLBACK}` }));
    accountId = await accountIdOf(a);
    tokenRun = requestToken(anon, app, { grant_type: 'client_credentials', scope: 'read' });
    oobApproval = authorizationCode(anon, app, 'read');
  });

  it('OAUTH-TOKEN-1 the token operation returns a Token with access_token', async () => {
    const { exchange } = await tokenRun;
    const token = expectOk(exchange, 'Token');
    check(typeof token.access_token === 'string' && token.access_token !== '', 'access_token: a non-empty string', `access_token: ${JSON.stringify(token.access_token)}`, exchange);
  });

  it('RESOURCE-TOKEN-1 the token operation answers a Token whose access_token is a string', async () => {
    expectOk((await tokenRun).exchange, 'Token');
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
    const { token, exchange } = await requestToken(anon, app, { grant_type: 'client_credentials', scope: 'read follow' }, { malformed: true });
    if (token) fail('a refusal: follow was not registered', `a token was issued (HTTP ${exchange.status})`, exchange);
    expectRefusal(exchange);
  });

  it('OAUTH-REDIRECT-1 a redirect_uri that was not registered is refused', async (context) => {
    const { code, reason } = await oobApproval;
    needs(context, code, reason);
    const { token, exchange } = await requestToken(anon, app, { grant_type: 'authorization_code', code, redirect_uri: 'https://conformance.invalid/not-registered' }, { malformed: true });
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
    // The out-of-band approval fetched this form already where the suite can drive it.
    const exchange =
      (await oobApproval).form ??
      (await anon.get('/oauth/authorize', {
        query: { client_id: app.client_id, redirect_uri: OOB, response_type: 'code', scope: 'read' },
        headers: { accept: 'text/html' },
      }));
    // A user who is not signed in is shown the sign-in page first; a redirect there is as good as the form.
    const redirect = exchange.status !== undefined && exchange.status >= 300 && exchange.status < 400 && Boolean(exchange.headers.location);
    const form = exchange.status === 200 && /text\/html/.test(exchange.headers['content-type'] ?? '') && /<form/i.test(exchange.text);
    check(redirect || form, 'HTTP 200 with an HTML form, or a redirect to sign in', `HTTP ${exchange.status ?? exchange.error}`, exchange);
  });

  it('OAUTH-REVOKE-1 a revoked token is refused with 401 "The access token is invalid"', async () => {
    const { token, settle } = await requestToken(anon, app, { grant_type: 'client_credentials', scope: 'read' });
    if (!token) fail('a token to revoke', 'none was issued');
    const revoke = await anon.post('/oauth/revoke', { client_id: app.client_id, client_secret: app.client_secret, token });
    expectJson(revoke, 200);
    settle();
    const use = await anon.get('/api/v1/apps/verify_credentials', { token });
    expectError(use, 401, 'The access token is invalid');
  });

  it('OAUTH-AUTHORIZE-2 on approval the user is redirected to the registered redirect_uri with the code', async (context) => {
    const { approval, reason } = await authorizationCode(anon, app, 'read', CALLBACK);
    needs(context, approval && approval.status !== 401, reason);
    const exchange = approval as NonNullable<typeof approval>;
    const location = exchange.headers.location ?? '';
    const redirected = exchange.status !== undefined && exchange.status >= 300 && exchange.status < 400;
    check(redirected && location.startsWith(CALLBACK) && /[?&]code=/.test(location), `a redirect to ${CALLBACK}?code=...`, `HTTP ${exchange.status} location: ${location || 'none'}`, exchange);
  });

  it('OAUTH-AUTHORIZE-3 on approval with the out-of-band URI the code is displayed, not redirected', async (context) => {
    const { approval, code, reason } = await oobApproval;
    needs(context, approval && approval.status !== 401, reason);
    const exchange = approval as NonNullable<typeof approval>;
    check(exchange.status === 200 && code !== undefined, 'HTTP 200 with the code on the page', `HTTP ${exchange.status}, ${code ? 'a code' : 'no code'} on the page`, exchange);
  });
});

// The contract's "OAuth" section (and the Authentication rules it carries out): the authorization form,
// the token operation's rules, the grants, and revocation. The preparation never judges: an application, token
// or authorization code that could not be had blocks the checks that need it, with its cause. It sends what the
// checks judge as independent chains at once, so that the group waits for few answers in a row.
import { beforeAll, describe, it, type TestContext } from 'vitest';
import { accountIdOf, actors } from './support/act/actors.ts';
import { createdId } from './support/act/created.ts';
import { createdObject, type Exchange } from './support/talk/http.ts';
import { OOB, registerApp, requestToken, type Application } from './support/act/applications.ts';
import { type RootCause, answerOf, causeOf, succeeded, type Step } from './support/act/steps.ts';
import { block, need, notJudged } from './support/judge/preconditions.ts';
import { expectNoMismatch } from './support/judge/run-wide.ts';
import { WebSignIn, type AuthorizationCode } from './support/act/sign-in.ts';
import { check, expectJson, expectRefusal, fail, observeErrorBody, statusLine } from './support/judge/verify.ts';

const { config, a, anon } = actors();
const CALLBACK = 'https://conformance.invalid/callback';
const TOKEN_INVALID = 'The access token is invalid';
const NOT_REGISTERED = 'https://conformance.invalid/not-registered';

type TokenRun = Awaited<ReturnType<typeof requestToken>>;
type Approval = AuthorizationCode;
/** A token and the first use of it that a check judges. */
type UsedToken = { run: TokenRun; use?: Exchange };

const followingOf = (accountId: string) => `/api/v1/accounts/${accountId}/following`;
const verifyWith = (token: string) => anon.get('/api/v1/apps/verify_credentials', { token });
/**
 * A user token's first use: the account it acts for (Mastodon's path; the contract shows no operation that reads
 * one's own account), a user operation that a token acting for no user is refused.
 */
const accountWith = (token: string) => anon.get('/api/v1/accounts/verify_credentials', { token, outsideContract: true });
/** An authorization code that GET /oauth/authorize never created. */
const MADE_UP_CODE = 'conformance-code-never-issued';
/** A call of an operation with a token: where it answers 2xx, evidence that the token works. */
type TokenCall = (token: string) => Promise<Exchange>;
/** A token no server issued: an operation that answers it tells nothing of whether a token works. */
const MADE_UP_TOKEN = 'conformance-token-never-issued';
const answered = (exchange: Exchange) => exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;

/**
 * The answer that shows a revoked token still working, by an operation that refuses a made-up token in this run:
 * `use`, the answer of `call` to it, where `call` refuses one; else the answer to it of the first of `others` that
 * refuses one and answers it. Undefined where no operation tells: each answers a made-up token too, or refuses the
 * revoked one where nothing showed it answer that token before.
 */
async function stillAccepted(token: string, call: TokenCall, use: Exchange, others: readonly TokenCall[]): Promise<Exchange | undefined> {
  const tries: [TokenCall, Exchange | undefined][] = [[call, use], ...others.map((other): [TokenCall, undefined] => [other, undefined])];
  for (const [operation, answer] of tries) {
    if (answered(await operation(MADE_UP_TOKEN))) continue;
    const again = answer ?? (await operation(token));
    if (answered(again)) return again;
  }
  return undefined;
}
const revokeWith = (app: Application, token: string) => anon.post('/oauth/revoke', { client_id: app.client_id, client_secret: app.client_secret, token });

/**
 * The approval of the authorization form: skipped where the suite cannot drive the form, blocked where the server
 * gave no form or refused account A's credentials.
 */
function approvalOf(context: TestContext, run: Approval): Exchange {
  if (!run.approval) return run.cause ? block(run.cause) : context.skip(run.reason);
  if (run.cause && !run.cause.clause) block(run.cause);
  return run.approval;
}

/** The code the approval gave; an approval without one blocks the check with its cause. */
function codeOf(context: TestContext, run: Approval): string {
  approvalOf(context, run);
  if (!run.code) return block(run.cause ?? causeOf(undefined, run.reason));
  return run.code;
}

describe('OAuth', () => {
  // Registered with read and write only, so that follow is outside its scopes. Each application lists one redirect
  // URI, the plainest form (several are APPS-REDIRECTS-1's): the out-of-band URI here, the callback for the redirect.
  let registered: Step<Application>;
  // The callback application also gives the token OAUTH-REVOKE-1 revokes: a server may delete an application with any
  // of its tokens, and the probes of the token operation use the other one. Its one approval is made before any check.
  let callbackApp: Step<Application>;
  let accountId: Step<string>;
  // One client_credentials token serves the Token checks; one out-of-band approval serves the code checks.
  let tokenRun: TokenRun | undefined;
  let oobApproval: Approval | undefined;
  let callbackApproval: Approval | undefined;
  // The client_credentials token without a scope and its read of A's following (OAUTH-CLIENTCRED-1).
  let withoutScope: UsedToken | undefined;
  // The password grant's user token and its verify_credentials (OAUTH-PASSWORD-1), asked of the callback
  // application: OAUTH-REVOKE-1 then revokes it.
  let passwordGrant: UsedToken | undefined;
  // The token operation's answers to what it must refuse (OAUTH-SCOPE-1, OAUTH-REDIRECT-1, -2, OAUTH-CODE-1, -2).
  let outsideScopes: TokenRun | undefined;
  let unregisteredRedirect: TokenRun | undefined;
  let unregisteredOnClientCredentials: TokenRun | undefined;
  let madeUpCode: TokenRun | undefined;
  let reusedCode: TokenRun | undefined;
  // The out-of-band code exchanged with its registered redirect_uri: the control of the refusals above, and what spends it.
  let codeExchange: TokenRun | undefined;

  /**
   * A token request the operation should refuse. A token it issues anyway is the ledger's to revoke once the group is
   * done, not at once: a server may delete an application with any of its tokens, and the other chains use it still.
   */
  const refusedProbe = (app: Application, params: Record<string, string>): Promise<TokenRun> => requestToken(anon, app, params, { malformed: true });

  beforeAll(async () => {
    [registered, callbackApp] = await Promise.all([
      registerApp(anon, { client_name: 'conformance oauth', scopes: 'read write' }),
      registerApp(anon, { client_name: 'conformance oauth callback', scopes: 'read', redirect_uris: CALLBACK }),
    ]);
    const { usernameA, passwordA } = config;
    const withCallback = callbackApp.ok ? callbackApp.value : undefined;
    async function tokenAndUse(of: Application, params: Record<string, string>, use: (token: string) => Promise<Exchange | undefined>): Promise<UsedToken> {
      const run = await requestToken(anon, of, params);
      return { run, use: run.token ? await use(run.token) : undefined };
    }
    const password = usernameA && passwordA && withCallback ? tokenAndUse(withCallback, { grant_type: 'password', username: usernameA, password: passwordA, redirect_uri: CALLBACK, scope: 'read' }, accountWith) : undefined;
    // A's account id: the account the password grant's token answered as, else verify_credentials with A's token.
    const idOfA = (async () => {
      const used = (await password)?.use;
      const id = used?.status === 200 ? createdId(used) : undefined;
      accountId = id && used ? succeeded(id, used) : await accountIdOf(a);
      return accountId;
    })();
    // The password grant and A's account id need only the callback application: OAUTH-PASSWORD-1 and OAUTH-REVOKE-1
    // are judged where the other one could not be registered.
    if (!registered.ok) {
      [passwordGrant] = await Promise.all([password, idOfA]);
      return;
    }
    const app = registered.value;
    // Each chain waits only for what it needs: the out-of-band code for the redirect_uri probe, a token for its use.
    // Both approvals come from one browser: A signs in once for both (a server with a web sign-in counts its pages).
    const signIn = new WebSignIn(anon);
    // The code is refused for an unregistered redirect_uri, then exchanged with the registered one, then refused again.
    async function outOfBand(): Promise<void> {
      oobApproval = await signIn.code(app, 'read');
      const { code } = oobApproval;
      if (!code) return;
      const exchange = (redirectUri: string) => ({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, scope: 'read' });
      unregisteredRedirect = await refusedProbe(app, exchange(NOT_REGISTERED));
      codeExchange = await requestToken(anon, app, exchange(OOB));
      // Where the probe spent the code already, this exchange was its reuse.
      if (codeExchange.token && !unregisteredRedirect.token) reusedCode = await refusedProbe(app, exchange(OOB));
    }
    // Rule 2 on the grants that take no code (Mastodon does not check it there), probed on client_credentials alone:
    // a server checks redirect_uri where it exchanges a code or on every grant, and the password grant's probe judged
    // the same SHOULD a second time, at a request (and, where it issued a token, a revocation) more.
    async function otherGrantsUnregistered(): Promise<void> {
      unregisteredOnClientCredentials = await refusedProbe(app, { grant_type: 'client_credentials', redirect_uri: NOT_REGISTERED, scope: 'read' });
    }
    [tokenRun, callbackApproval, outsideScopes, withoutScope, passwordGrant, madeUpCode] = await Promise.all([
      requestToken(anon, app, { grant_type: 'client_credentials', scope: 'read' }),
      withCallback ? signIn.code(withCallback, 'read', CALLBACK) : undefined,
      refusedProbe(app, { grant_type: 'client_credentials', scope: 'read follow' }),
      tokenAndUse(app, { grant_type: 'client_credentials' }, async (token) => {
        const id = await idOfA;
        return id.ok ? anon.get(followingOf(id.value), { token }) : undefined;
      }),
      password,
      refusedProbe(app, { grant_type: 'authorization_code', code: MADE_UP_CODE, redirect_uri: OOB, scope: 'read' }),
      outOfBand(),
      otherGrantsUnregistered(),
      // Awaited here too: the scopeless grant awaits it only where it gave a token.
      idOfA,
    ]);
  });

  /** The check's application; one that could not be registered blocks it. */
  const app = () => need(registered);
  /** The token operation gives tokens: the positive control of the checks that judge a refusal, or a grant refused. */
  function tokensWork(): string {
    app();
    return need((tokenRun as TokenRun).step);
  }
  /**
   * The positive control of a code refused (for its redirect_uri, or as one never issued): the out-of-band code
   * exchanged with its registered redirect_uri gave a token, else the token operation gives tokens at all (the
   * client_credentials grant of OAUTH-TOKEN-1), so that neither grant's failure hides what the other shows.
   */
  function codeExchangeWorks(): void {
    if (codeExchange?.token) return;
    const tokens = (tokenRun as TokenRun).step;
    if (tokens.ok) return;
    const said = codeExchange ? `; the code exchanged with the registered redirect_uri answered ${answerOf(codeExchange.exchange)}` : '';
    block({ ...tokens.cause, summary: `${tokens.cause.summary}${said}` });
  }
  /**
   * A token request the operation must refuse: a token issued fails the check whatever its control says (the control
   * only tells a refusal for the reason judged from an operation that refuses everything); a refusal counts once it holds.
   */
  function expectTokenRefused(run: TokenRun, why: string, control: () => unknown): void {
    if (run.token) fail(`a refusal: ${why}`, `a token was issued (HTTP ${run.exchange.status})`, run.exchange);
    control();
    expectRefusal(run.exchange);
  }
  /** The out-of-band approval, made once the application was registered. */
  function oob(): Approval {
    app();
    return oobApproval as Approval;
  }

  it('OAUTH-TOKEN-1 the token operation returns a Token with access_token', () => {
    app();
    const { exchange } = tokenRun as TokenRun;
    const token = expectJson(exchange, 200) as Record<string, unknown> | null;
    check(typeof token === 'object' && token !== null && !Array.isArray(token), 'a Token object', statusLine(exchange), exchange);
    // The access_token's type is the Token's (RESOURCE-TOKEN-1): here, that there is one.
    const given = (token as Record<string, unknown>).access_token;
    check(given !== undefined && given !== null && given !== '', 'an access_token', `access_token: ${JSON.stringify(given)}`, exchange);
  });

  it('OAUTH-CLIENTCRED-1 client_credentials without scope gives a token with the read scope', async (context) => {
    app();
    const { run, use: read } = withoutScope as UsedToken;
    // Refusing the grant without a scope is this clause's failure where the same grant gave a token with one.
    if (run.exchange.status !== 200) tokensWork();
    expectJson(run.exchange, 200);
    need(run.step);
    // The Token's field list is not shown: judge by `scope` only where the server sends it, and by what the token can read.
    const body = createdObject(run.exchange) ?? {};
    const scope = typeof body.scope === 'string' ? body.scope : undefined;
    if (scope !== undefined) check(scope.split(/\s+/).includes('read'), 'scope includes read', `scope "${scope}"`, run.exchange);
    // What a token that asked for read reads, the token without a scope must read too: where it does not, the
    // token with read shows whether following reads to application tokens at all. Where no operation can tell, the
    // Token's scope field has judged the clause.
    const byField = async (why: RootCause) => {
      if (scope === undefined) block(why);
      await context.annotate(`judged by the Token's scope "${scope}": no operation could tell (${why.summary})`, 'observation');
    };
    if (!accountId.ok) return byField(accountId.cause);
    const answer = read as Exchange;
    if (answer.status !== 200) {
      const control = await anon.get(followingOf(accountId.value), { token: tokensWork() });
      if (control.status !== 200) return byField(causeOf('RELATIONS-APPTOKEN-1', `following answered ${answerOf(control)} to an application token with the read scope`, control));
    }
    expectJson(answer, 200);
  });

  it('OAUTH-SCOPE-1 a scope outside the registered scopes is refused', () => {
    app();
    expectTokenRefused(outsideScopes as TokenRun, 'follow was not registered', tokensWork);
  });

  it('OAUTH-REDIRECT-1 a redirect_uri that was not registered is refused', (context) => {
    codeOf(context, oob());
    expectTokenRefused(unregisteredRedirect as TokenRun, 'the redirect_uri was not registered', codeExchangeWorks);
  });

  it('OAUTH-REDIRECT-2 a redirect_uri that was not registered is refused on the grants that take no code too (client_credentials)', () => {
    app();
    const run = unregisteredOnClientCredentials as TokenRun;
    // A token issued fails the rule; a refusal counts where the same grant with no redirect_uri gave a token.
    if (run.token) fail('a refusal: the redirect_uri was not registered (Mastodon does not check it on the client_credentials grant)', `a client_credentials token was issued (HTTP ${run.exchange.status})`, run.exchange);
    need((tokenRun as TokenRun).step);
    expectRefusal(run.exchange);
  });

  it('OAUTH-CODE-1 the token operation refuses an authorization code that GET /oauth/authorize never created', () => {
    app();
    expectTokenRefused(madeUpCode as TokenRun, 'the code was never issued', codeExchangeWorks);
  });

  it('OAUTH-CODE-2 an authorization code exchanged once is refused the second time', (context) => {
    codeOf(context, oob());
    // The first exchange that gave a token (the probe's, where it wrongly did) shows the code good; the next one reuses it.
    const spent = unregisteredRedirect?.token !== undefined;
    const firstUse = (spent ? unregisteredRedirect : codeExchange) as TokenRun;
    if (!firstUse.step.ok) {
      // A token operation that gives no token at all blocks the check. Where it gives them, a code refused after the
      // probe that sent it with an unregistered redirect_uri may have been spent by that probe (a strict server may
      // count a refused attempt as the code's one use): no code was exchanged once, and nothing shows a deviation.
      tokensWork();
      const { status } = firstUse.exchange;
      const refused = status !== undefined && status >= 400 && status < 500 && status !== 429;
      const why = refused ? ', after the refused probe with an unregistered one, which a strict server may count as its one use' : '';
      notJudged(`no code was exchanged once: the code sent with its registered redirect_uri${why}, answered ${answerOf(firstUse.exchange)}`);
    }
    expectTokenRefused((spent ? codeExchange : reusedCode) as TokenRun, 'the code was exchanged already', () => undefined);
  });

  it('OAUTH-PASSWORD-1 the password grant gives a user token', async (context) => {
    if (!config.usernameA || !config.passwordA) context.skip('needs CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A');
    need(callbackApp);
    const { run, use } = passwordGrant as UsedToken;
    // The grant needs nothing but its application: a refusal of A's login is its failure; an answer without a usable
    // access_token is the token operation's or the Token's.
    expectJson(run.exchange, 200);
    const token = need(run.step);
    // The token's first user operation: a token refused there (one that acts for no user, or one the server does
    // not hold) is no user token. A server without that path shows by the application's verify_credentials that it holds the token.
    const answer = use as Exchange;
    if (answer.status === 404) return void expectJson(await verifyWith(token), 200);
    check(answer.status === 200, 'HTTP 200: the token acts for account A (GET /api/v1/accounts/verify_credentials)', statusLine(answer), answer);
  });

  it('OAUTH-AUTHORIZE-1 GET /oauth/authorize shows an authorization form (or sends the user to sign in first)', async () => {
    // The out-of-band approval fetched this form already where the suite can drive it.
    const exchange =
      oobApproval?.form ??
      (await anon.get('/oauth/authorize', {
        query: { client_id: app().client_id, redirect_uri: OOB, response_type: 'code', scope: 'read' },
        headers: { accept: 'text/html' },
      }));
    // A user who is not signed in is shown the sign-in page first; a redirect there is as good as the form.
    const redirect = exchange.status !== undefined && exchange.status >= 300 && exchange.status < 400 && Boolean(exchange.headers.location);
    const form = exchange.status === 200 && /text\/html/.test(exchange.headers['content-type'] ?? '') && /<form/i.test(exchange.text);
    check(redirect || form, 'HTTP 200 with an HTML form, or a redirect to sign in', `HTTP ${exchange.status ?? exchange.error}`, exchange);
  });

  it('OAUTH-REVOKE-1 a revoked token is refused with 401 "The access token is invalid"', async () => {
    // A token of the callback application that works before its revocation, so that the refusal after it is the
    // revocation's doing: the password grant's user token, which OAUTH-PASSWORD-1 used, else an application token,
    // used here first. The call that answered it before is made again after: verify_credentials, else the following of A.
    // Where it still answers, the answer is evidence only if the operation refuses a token the server never issued.
    const revokedApp = need(callbackApp);
    const userToken = passwordGrant?.use?.status === 200 ? passwordGrant : undefined;
    const run = userToken?.run ?? (await requestToken(anon, revokedApp, { grant_type: 'client_credentials', redirect_uri: CALLBACK, scope: 'read' }));
    const token = need(run.step);
    const id = accountId.ok ? accountId.value : undefined;
    const following: TokenCall[] = id ? [(t) => anon.get(followingOf(id), { token: t })] : [];
    const calls: TokenCall[] = [...(userToken ? [accountWith] : []), verifyWith, ...following];
    let [call] = calls as [TokenCall];
    let before = userToken?.use ?? (await verifyWith(token));
    const [readFollowing] = following;
    if (before.status !== 200 && readFollowing) {
      const read = await readFollowing(token);
      if (read.status === 200) [before, call] = [read, readFollowing];
    }
    if (before.status !== 200) block(causeOf('APPS-VERIFY-1', `verify_credentials answered ${answerOf(before)} to the application token before its revocation, and following did not answer it either`, before));
    const revoke = await revokeWith(revokedApp, token);
    expectJson(revoke, 200);
    run.settle();
    const use = await call(token);
    if (answered(use)) {
      const evidence = await stillAccepted(token, call, use, calls.filter((other) => other !== call));
      if (!evidence) notJudged(`${use.method} ${use.path.split('?')[0]} answered the revoked token, and answers a token the server never issued too; no other operation refused that one and answered the revoked token`);
      fail(`a refusal: HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(evidence), evidence);
    }
    const refused = use.status !== undefined && use.status >= 400 && use.status < 500;
    check(refused, `a refusal: HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(use), use);
    // Which code an invalid Authorization header answers is the Errors row's (ERRORS-TOKEN-2).
    check(use.status === 401, `HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(use), use, 'ERRORS-TOKEN-2');
    observeErrorBody(use, TOKEN_INVALID);
  });

  it('OAUTH-AUTHORIZE-2 on approval the user is redirected to the registered redirect_uri with the code', (context) => {
    app();
    need(callbackApp);
    const exchange = approvalOf(context, callbackApproval as Approval);
    const location = exchange.headers.location ?? '';
    const redirected = exchange.status !== undefined && exchange.status >= 300 && exchange.status < 400;
    check(redirected && location.startsWith(CALLBACK) && /[?&]code=/.test(location), `a redirect to ${CALLBACK}?code=...`, `HTTP ${exchange.status} location: ${location || 'none'}`, exchange);
  });

  it('OAUTH-AUTHORIZE-3 on approval with the out-of-band URI the code is displayed, not redirected', (context) => {
    const run = oob();
    const exchange = approvalOf(context, run);
    check(exchange.status === 200 && run.code !== undefined, 'HTTP 200 with the code on the page', `HTTP ${exchange.status}, ${run.code ? 'a code' : 'no code'} on the page`, exchange);
  });

  // After every check that obtains a token: the run-wide clause judges them all.
  it('RESOURCE-TOKEN-1 the token operation answers a Token whose access_token is a string', () => {
    app();
    const { step } = tokenRun as TokenRun;
    expectNoMismatch('RESOURCE-TOKEN-1', step.ok ? undefined : step.cause);
  });
});

// The contract's "OAuth" section (and the Authentication rules it carries out): the authorization form,
// the token operation's rules, the grants, and revocation. The preparation never judges: an application, token
// or authorization code that could not be had blocks the checks that need it, with its cause. Each step waits only
// for the steps it names, so the group waits for few answers in a row.
// Its 29 requests are its floor with these checks (issue 39): five tokens, each different evidence (the plain
// client_credentials token, the one asked without a scope, the password grant's, and one per approval's code, which
// must be spent: the ledger's own exchange at the end costs the same), each granted, revoked and read refused; two
// applications (the revocation's own, whose redirect URI is the callback); two approvals of a form and a page each;
// five refusal probes; the password token's first use and the following read of the token without a scope; and the
// ledger's one read of an application.
import type { TestContext } from 'vitest';
import { accountIdOf, actors, type Actor } from './support/act/actors.ts';
import { createdId } from './support/act/created.ts';
import { createdObject, type Exchange } from './support/talk/http.ts';
import { OOB, registerApp, requestToken, type Application } from './support/act/applications.ts';
import { answerOf, causeOf, succeeded, type RootCause, type StepOutcome } from './support/act/steps.ts';
import { block, need, notJudged } from './support/judge/preconditions.ts';
import { webSignInOf, type AuthorizationCode } from './support/act/sign-in.ts';
import { check, expectJson, expectRefusal, fail, observeErrorBody, statusLine } from './support/judge/verify.ts';
import { it, made, notMade, requirement, section, step } from './support/run/checks.ts';

const { config } = actors();
const CALLBACK = 'https://conformance.invalid/callback';
const TOKEN_INVALID = 'The access token is invalid';
const NOT_REGISTERED = 'https://conformance.invalid/not-registered';

type TokenRun = Awaited<ReturnType<typeof requestToken>>;
type Approval = AuthorizationCode;
/** A token and the first use of it that a check judges. */
type UsedToken = { run: TokenRun; use?: Exchange };

const followingOf = (accountId: string) => `/api/v1/accounts/${accountId}/following`;
const verifyWith = (actor: Actor, token: string) => actor.get('/api/v1/apps/verify_credentials', { token });
/**
 * A user token's first use: the account it acts for (Mastodon's path; the contract shows no operation that reads
 * one's own account), a user operation that a token acting for no user is refused.
 */
const accountWith = (actor: Actor, token: string) => actor.get('/api/v1/accounts/verify_credentials', { token, outsideContract: true });
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
const revokeWith = (actor: Actor, app: Application, token: string) => actor.post('/oauth/revoke', { client_id: app.client_id, client_secret: app.client_secret, token });

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

/**
 * A token request the operation should refuse. A token it issues anyway is the ledger's to revoke once the group is
 * done, not at once: a server may delete an application with any of its tokens, and the other steps use it still.
 */
const refusedProbe = (actor: Actor, app: Application, params: Record<string, string>): Promise<TokenRun> => requestToken(actor, app, params, { malformed: true });

/** A token of `of` asked by `actor`, and its first use by `use`. */
async function tokenAndUse(actor: Actor, of: Application, params: Record<string, string>, use: (token: string) => Promise<Exchange | undefined>): Promise<UsedToken> {
  const run = await requestToken(actor, of, params);
  return { run, use: run.token ? await use(run.token) : undefined };
}

const CREDENTIALS = requirement(config.usernameA && config.passwordA, 'needs CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A');

// Registered with read and write only, so that follow is outside its scopes. Each application lists one redirect
// URI, the plainest form (several are APPS-REDIRECTS-1's): the out-of-band URI here, the callback for the redirect.
// The ledger reads it once more at the end, with an authorization code that does not exist.
const registered = step('an application registered with the scopes read and write', { as: 'anonymous', cost: { api: 1, oauth: 1 } }, (_, { actor }) =>
  registerApp(actor, { client_name: 'conformance oauth', scopes: 'read write' }),
);

// Its tokens are OAUTH-REVOKE-1's and the password grant's: a server may delete an application with any of its
// tokens, and the probes of the token operation use the other one. Its tokens' reads show it to the ledger.
const callbackApp = step('an application registered with the callback as its redirect URI', { as: 'anonymous', cost: { api: 1 } }, (_, { actor }) =>
  registerApp(actor, { client_name: 'conformance oauth callback', scopes: 'read', redirect_uris: CALLBACK }),
);

// Revoked by OAUTH-REVOKE-1, and read refused there (by the call it answered before: no cost here).
const password = step("the password grant's user token, asked of the callback application, and its first use", { as: 'A', needs: { callbackApp }, cost: { api: 1, oauth: 1 } }, async ({ callbackApp }, { actor }) => {
  const { usernameA: username, passwordA } = config;
  if (!username || !passwordA) return notMade(causeOf(undefined, 'no user name and password of A are configured'));
  // A's own requests without a token of A's: the token's request, and its first use with the token it gave.
  const signingIn = actor.signingIn();
  return made(await tokenAndUse(signingIn, callbackApp, { grant_type: 'password', username, password: passwordA, redirect_uri: CALLBACK, scope: 'read' }, (token) => accountWith(signingIn, token)));
});

const accountId = step("A's account id: the account the password grant's token answered as, else verify_credentials with A's token", { as: 'A', uses: { password }, cost: {} }, async ({ password }, { actor }) => {
  const used = password.ok ? password.value.use : undefined;
  const id = used?.status === 200 ? createdId(used) : undefined;
  return id && used ? succeeded(id, used) : accountIdOf(actor);
});

// One client_credentials token serves the Token checks; the ledger revokes it and reads it refused.
// OAUTH-PASSWORD-1's control, sent only where the token's first user operation answered 404 (a server without that
// path): whether the server holds the token, by the application's verify_credentials (a conforming server costs no
// request for it). Before the revocation, which changes the password grant.
const passwordTokenHeld = step(
  "the application's verify_credentials with the password grant's token, where its first use answered 404",
  { as: 'anonymous', needs: { password }, cost: {}, mayAdd: 1 },
  async ({ password: { run, use } }, { actor }) => made(run.step.ok && use?.status === 404 ? await verifyWith(actor, run.step.value) : undefined),
);

const tokenRun = step('a client_credentials token with the read scope', { as: 'anonymous', needs: { registered }, cost: { api: 1, oauth: 2 } }, async ({ registered }, { actor }) =>
  made(await requestToken(actor, registered, { grant_type: 'client_credentials', scope: 'read' })),
);

// The form, its approval and the redirect; the code is exchanged at once (a code is a live authorization), and the
// ledger revokes that token and reads it refused.
const callbackApproval = step('an approval of the authorization form for the callback application', { as: 'A', needs: { callbackApp }, cost: { api: 1, oauth: 4 } }, async ({ callbackApp }, { actor }) =>
  // Both approvals come from A's one browser, in which A signs in once (a server with a web sign-in counts its pages).
  made(await webSignInOf(actor).code(callbackApp, 'read', CALLBACK)),
);

const outsideScopes = step('a client_credentials token asked for a scope outside the registered ones', { as: 'anonymous', needs: { registered }, cost: { oauth: 1 } }, async ({ registered }, { actor }) =>
  made(await refusedProbe(actor, registered, { grant_type: 'client_credentials', scope: 'read follow' })),
);

// The ledger revokes the token and reads it refused.
const withoutScope = step("a client_credentials token asked for without a scope, and its read of A's following", { as: 'application', needs: { registered }, uses: { accountId }, cost: { api: 2, oauth: 2 } }, async ({ registered, accountId }, { actor }) =>
  made(await tokenAndUse(actor, registered, { grant_type: 'client_credentials' }, async (token) => (accountId.ok ? actor.get(followingOf(accountId.value), { token }) : undefined))),
);

// OAUTH-CLIENTCRED-1's control, sent only where the token without a scope did not read A's following (a conforming
// server costs no request for it): whether following reads to an application token with the read scope at all.
const followingControl = step(
  "A's following read with the client_credentials token with read, where the token without a scope did not read it",
  { as: 'anonymous', needs: { withoutScope, tokenRun }, uses: { accountId }, cost: {}, mayAdd: 1 },
  async ({ withoutScope: { run, use }, tokenRun, accountId }, { actor }) => {
    if (!run.step.ok || !accountId.ok || !tokenRun.step.ok || use === undefined || use.status === 200) return made(undefined);
    return made(await actor.get(followingOf(accountId.value), { token: tokenRun.step.value }));
  },
);

const madeUpCode = step('an authorization code that was never issued, sent to the token operation', { as: 'anonymous', needs: { registered }, cost: { oauth: 1 } }, async ({ registered }, { actor }) =>
  made(await refusedProbe(actor, registered, { grant_type: 'authorization_code', code: MADE_UP_CODE, redirect_uri: OOB, scope: 'read' })),
);

/** The out-of-band approval, and its code refused for an unregistered redirect_uri, exchanged with the registered one, then refused again. */
interface OutOfBand {
  approval: Approval;
  unregisteredRedirect?: TokenRun;
  /** The code exchanged with its registered redirect_uri: the control of the refusals, and what spends it. */
  codeExchange?: TokenRun;
  reusedCode?: TokenRun;
}

// The form and its approval, three exchanges of its code; the ledger revokes the token and reads it refused.
const outOfBand = step('an out-of-band approval, and its code sent with an unregistered redirect_uri, then the registered one, then again', { as: 'A', needs: { registered }, cost: { api: 1, oauth: 6 } }, async ({ registered }, { actor }): Promise<StepOutcome<OutOfBand>> => {
  const approval = await webSignInOf(actor).code(registered, 'read');
  const { code } = approval;
  if (!code) return made({ approval });
  const exchange = (redirectUri: string) => ({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, scope: 'read' });
  // A's code goes to the token operation with A's requests that carry no token.
  const signingIn = actor.signingIn();
  const unregisteredRedirect = await refusedProbe(signingIn, registered, exchange(NOT_REGISTERED));
  const codeExchange = await requestToken(signingIn, registered, exchange(OOB));
  // Where the probe spent the code already, this exchange was its reuse.
  const reusedCode = codeExchange.token && !unregisteredRedirect.token ? await refusedProbe(signingIn, registered, exchange(OOB)) : undefined;
  return made({ approval, unregisteredRedirect, codeExchange, ...(reusedCode ? { reusedCode } : {}) });
});

// Rule 2 on the grants that take no code (Mastodon does not check it there), probed on client_credentials alone:
// a server checks redirect_uri where it exchanges a code or on every grant, and the password grant's probe judged
// the same SHOULD a second time, at a request (and, where it issued a token, a revocation) more.
const unregisteredOnClientCredentials = step('a client_credentials token asked for with an unregistered redirect_uri', { as: 'anonymous', needs: { registered }, cost: { oauth: 1 } }, async ({ registered }, { actor }) =>
  made(await refusedProbe(actor, registered, { grant_type: 'client_credentials', redirect_uri: NOT_REGISTERED, scope: 'read' })),
);

// The out-of-band approval fetched the form already where the suite can drive it: no request more.
const authorizeForm = step('GET /oauth/authorize', { as: 'anonymous', needs: { registered }, uses: { outOfBand }, cost: {} }, async ({ registered, outOfBand }, { actor }) =>
  made(
    (outOfBand.ok ? outOfBand.value.approval.form : undefined) ??
      (await actor.get('/oauth/authorize', { query: { client_id: registered.client_id, redirect_uri: OOB, response_type: 'code', scope: 'read' }, headers: { accept: 'text/html' } })),
  ),
);

/** A token of the callback application that worked before its revocation, the revocation, and the same call after it. */
interface Revocation {
  revoke: Exchange;
  use: Exchange;
  /** Where `use` answered: the answer of an operation that refused a made-up token, the only evidence that the token still works. */
  evidence?: Exchange;
}

/**
 * A token of the callback application that works before its revocation, so that the refusal after it is the
 * revocation's doing: the password grant's user token, which OAUTH-PASSWORD-1 used, else an application token, used
 * here first. The call that answered it before is made again after: verify_credentials, else the following of A.
 */
const revocation = step(
  'a working token of the callback application revoked, and the call it answered before made again',
  // A server may delete an application with any of its tokens: the revocation changes the callback application, so
  // every step declared before it on that application (its approval, the password grant) has ended when it starts.
  // The application's client asks for its token, and uses it, where A's password grant gave none.
  { as: 'A', alsoAs: ['application'], needs: { callbackApp }, uses: { password, accountId }, changes: [callbackApp, password], cost: { api: 1, oauth: 1 } },
  async ({ callbackApp, password, accountId }, { actor, also }): Promise<StepOutcome<Revocation>> => {
    const userToken = password.ok && password.value.use?.status === 200 ? password.value : undefined;
    // The token's holder sends every call with it: A (its requests that carry no token of A's own), else the application.
    const holder = userToken ? actor.signingIn() : (also.application as Actor);
    const run = userToken?.run ?? (await requestToken(holder, callbackApp, { grant_type: 'client_credentials', redirect_uri: CALLBACK, scope: 'read' }));
    if (!run.step.ok) return run.step;
    const token = run.step.value;
    const following: TokenCall[] = accountId.ok ? [(t) => holder.get(followingOf(accountId.value), { token: t })] : [];
    const calls: TokenCall[] = [...(userToken ? [(t: string) => accountWith(holder, t)] : []), (t) => verifyWith(holder, t), ...following];
    let [call] = calls as [TokenCall];
    let before = userToken?.use ?? (await verifyWith(holder, token));
    const [readFollowing] = following;
    if (before.status !== 200 && readFollowing) {
      const read = await readFollowing(token);
      if (read.status === 200) [before, call] = [read, readFollowing];
    }
    if (before.status !== 200) return notMade(causeOf('APPS-VERIFY-1', `verify_credentials answered ${answerOf(before)} to the application token before its revocation, and following did not answer it either`, before));
    const revoke = await revokeWith(holder, callbackApp, token);
    // A revocation that was not answered 200 is left to the ledger, which revokes again and reads the token.
    if (revoke.status === 200) run.settle();
    const use = await call(token);
    // Where it still answers, the answer is evidence only if the operation refuses a token the server never issued.
    const evidence = answered(use) ? await stillAccepted(token, call, use, calls.filter((other) => other !== call)) : undefined;
    return made({ revoke, use, ...(evidence ? { evidence } : {}) });
  },
);

/** The token operation gives tokens: the positive control of the checks that judge a refusal, or a grant refused. */
const tokensWork = (tokenRun: TokenRun): string => need(tokenRun.step);

/**
 * The positive control of a code refused (for its redirect_uri, or as one never issued): the out-of-band code
 * exchanged with its registered redirect_uri gave a token, else the token operation gives tokens at all (the
 * client_credentials grant of OAUTH-TOKEN-1), so that neither grant's failure hides what the other shows.
 */
function codeExchangeWorks(tokenRun: TokenRun, codeExchange: TokenRun | undefined): void {
  if (codeExchange?.token) return;
  const tokens = tokenRun.step;
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

section('OAuth', () => {
  it('OAUTH-TOKEN-1 the token operation returns a Token with access_token', { needs: { tokenRun } }, ({ tokenRun: { exchange } }) => {
    const token = expectJson(exchange, 200) as Record<string, unknown> | null;
    check(typeof token === 'object' && token !== null && !Array.isArray(token), 'a Token object', statusLine(exchange), exchange);
    // The access_token's type is the Token's (RESOURCE-TOKEN-1): here, that there is one.
    const given = (token as Record<string, unknown>).access_token;
    check(given !== undefined && given !== null && given !== '', 'an access_token', `access_token: ${JSON.stringify(given)}`, exchange);
  });

  it(
    'OAUTH-CLIENTCRED-1 client_credentials without scope gives a token with the read scope',
    { needs: { withoutScope, tokenRun, followingControl }, uses: { accountId } },
    async ({ withoutScope: { run, use: read }, tokenRun, followingControl: control, accountId }, context) => {
      // Refusing the grant without a scope is this clause's failure where the same grant gave a token with one.
      if (run.exchange.status !== 200) tokensWork(tokenRun);
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
        // The control (followingControl), made only where the token without a scope did not read, with the token with read.
        tokensWork(tokenRun);
        if (control && control.status !== 200) return byField(causeOf('RELATIONS-APPTOKEN-1', `following answered ${answerOf(control)} to an application token with the read scope`, control));
      }
      expectJson(answer, 200);
    },
  );

  it('OAUTH-SCOPE-1 a scope outside the registered scopes is refused', { needs: { outsideScopes, tokenRun } }, ({ outsideScopes, tokenRun }) => {
    expectTokenRefused(outsideScopes, 'follow was not registered', () => tokensWork(tokenRun));
  });

  it('OAUTH-REDIRECT-1 a redirect_uri that was not registered is refused', { needs: { outOfBand, tokenRun } }, ({ outOfBand: { approval, unregisteredRedirect, codeExchange }, tokenRun }, context) => {
    codeOf(context, approval);
    expectTokenRefused(unregisteredRedirect as TokenRun, 'the redirect_uri was not registered', () => codeExchangeWorks(tokenRun, codeExchange));
  });

  it(
    'OAUTH-REDIRECT-2 a redirect_uri that was not registered is refused on the grants that take no code too (client_credentials)',
    { needs: { unregisteredOnClientCredentials, tokenRun } },
    ({ unregisteredOnClientCredentials: run, tokenRun }) => {
      // A token issued fails the rule; a refusal counts where the same grant with no redirect_uri gave a token.
      if (run.token) fail('a refusal: the redirect_uri was not registered (Mastodon does not check it on the client_credentials grant)', `a client_credentials token was issued (HTTP ${run.exchange.status})`, run.exchange);
      need(tokenRun.step);
      expectRefusal(run.exchange);
    },
  );

  it('OAUTH-CODE-1 the token operation refuses an authorization code that GET /oauth/authorize never created', { needs: { madeUpCode, tokenRun }, uses: { outOfBand } }, ({ madeUpCode, tokenRun, outOfBand }) => {
    expectTokenRefused(madeUpCode, 'the code was never issued', () => codeExchangeWorks(tokenRun, outOfBand.ok ? outOfBand.value.codeExchange : undefined));
  });

  it('OAUTH-CODE-2 an authorization code exchanged once is refused the second time', { needs: { outOfBand, tokenRun } }, ({ outOfBand: { approval, unregisteredRedirect, codeExchange, reusedCode }, tokenRun }, context) => {
    codeOf(context, approval);
    // The first exchange that gave a token (the probe's, where it wrongly did) shows the code good; the next one reuses it.
    const spent = unregisteredRedirect?.token !== undefined;
    const firstUse = (spent ? unregisteredRedirect : codeExchange) as TokenRun;
    if (!firstUse.step.ok) {
      // A token operation that gives no token at all blocks the check. Where it gives them, a code refused after the
      // probe that sent it with an unregistered redirect_uri may have been spent by that probe (a strict server may
      // count a refused attempt as the code's one use): no code was exchanged once, and nothing shows a deviation.
      tokensWork(tokenRun);
      const { status } = firstUse.exchange;
      const refused = status !== undefined && status >= 400 && status < 500 && status !== 429;
      const why = refused ? ', after the refused probe with an unregistered one, which a strict server may count as its one use' : '';
      notJudged(`no code was exchanged once: the code sent with its registered redirect_uri${why}, answered ${answerOf(firstUse.exchange)}`);
    }
    expectTokenRefused((spent ? codeExchange : reusedCode) as TokenRun, 'the code was exchanged already', () => undefined);
  });

  it('OAUTH-PASSWORD-1 the password grant gives a user token', { requires: [CREDENTIALS], needs: { password, passwordTokenHeld } }, ({ password: { run, use }, passwordTokenHeld: held }) => {
    // The grant needs nothing but its application: a refusal of A's login is its failure; an answer without a usable
    // access_token is the token operation's or the Token's.
    expectJson(run.exchange, 200);
    need(run.step);
    // The token's first user operation: a token refused there (one that acts for no user, or one the server does
    // not hold) is no user token. A server without that path shows by the application's verify_credentials that it
    // holds the token (passwordTokenHeld, sent only there).
    const answer = use as Exchange;
    if (answer.status === 404 && held) return void expectJson(held, 200);
    check(answer.status === 200, 'HTTP 200: the token acts for account A (GET /api/v1/accounts/verify_credentials)', statusLine(answer), answer);
  });

  it('OAUTH-AUTHORIZE-1 GET /oauth/authorize shows an authorization form (or sends the user to sign in first)', { needs: { authorizeForm } }, ({ authorizeForm: exchange }) => {
    // A user who is not signed in is shown the sign-in page first; a redirect there is as good as the form.
    const redirect = exchange.status !== undefined && exchange.status >= 300 && exchange.status < 400 && Boolean(exchange.headers.location);
    const form = exchange.status === 200 && /text\/html/.test(exchange.headers['content-type'] ?? '') && /<form/i.test(exchange.text);
    check(redirect || form, 'HTTP 200 with an HTML form, or a redirect to sign in', `HTTP ${exchange.status ?? exchange.error}`, exchange);
  });

  it('OAUTH-REVOKE-1 a revoked token is refused with 401 "The access token is invalid"', { needs: { revocation } }, ({ revocation: { revoke, use, evidence } }) => {
    expectJson(revoke, 200);
    if (answered(use)) {
      if (!evidence) notJudged(`${use.method} ${use.path.split('?')[0]} answered the revoked token, and answers a token the server never issued too; no other operation refused that one and answered the revoked token`);
      fail(`a refusal: HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(evidence), evidence);
    }
    const refused = use.status !== undefined && use.status >= 400 && use.status < 500;
    check(refused, `a refusal: HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(use), use);
    // Which code an invalid Authorization header answers is the Errors row's (ERRORS-TOKEN-2).
    check(use.status === 401, `HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(use), use, 'ERRORS-TOKEN-2');
    observeErrorBody(use, TOKEN_INVALID);
  });

  it('OAUTH-AUTHORIZE-2 on approval the user is redirected to the registered redirect_uri with the code', { needs: { callbackApproval } }, ({ callbackApproval }, context) => {
    const exchange = approvalOf(context, callbackApproval);
    const location = exchange.headers.location ?? '';
    const redirected = exchange.status !== undefined && exchange.status >= 300 && exchange.status < 400;
    check(redirected && location.startsWith(CALLBACK) && /[?&]code=/.test(location), `a redirect to ${CALLBACK}?code=...`, `HTTP ${exchange.status} location: ${location || 'none'}`, exchange);
  });

  it('OAUTH-AUTHORIZE-3 on approval with the out-of-band URI the code is displayed, not redirected', { needs: { outOfBand } }, ({ outOfBand: { approval } }, context) => {
    const exchange = approvalOf(context, approval);
    check(exchange.status === 200 && approval.code !== undefined, 'HTTP 200 with the code on the page', `HTTP ${exchange.status}, ${approval.code ? 'a code' : 'no code'} on the page`, exchange);
  });

  // After every check that obtains a token: the run-wide clause judges them all.
  it.runWide('RESOURCE-TOKEN-1', { needs: { tokenRun } }, ({ tokenRun: { step } }) => (step.ok ? undefined : step.cause));
});

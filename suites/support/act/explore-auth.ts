// The input space of the contract's Client registration, OAuth and Account relations sections (docs/exploring.md):
// each operation's parameters with classes of values (valid, at the edge, past it, of the wrong type, missing), as the
// tables and Authentication rules 1-13 give them, and for the relations the id and the token. A covering set gives
// every class of every parameter one input: the valid classes of registration combined pairwise, every other class
// alone on a valid request, so that its verdict is its own; seeded draws of the drawn classes follow. What the
// contract says of each answer is the oracle's (judge/explore-auth-oracle.ts); this module draws, plans and sends.
// Every application registered is on the ledger as left behind (none can be deleted); every token granted is used,
// revoked at once and read refused, and the ledger reads it gone.
import type { FormParams } from '../talk/form.ts';
import type { Exchange } from '../talk/http.ts';
import type { Actor } from './actors.ts';
import { OOB, registerApp, requestToken, type Application } from './applications.ts';
import { isMalformed, smallerMalformed } from './explore-inputs.ts';
import { AUTH_SHRINK_BOUND, type AuthChoice, type AuthHeld, type AuthInput, authOperationNamed, type AuthParameter, type AuthSent, choiceOf, EMPTY_BEARER, judgedUse, registrationForm, SECOND_CALLBACK, severalRedirects, tokenForm, variedOf } from './explore-auth-model.ts';
export * from './explore-auth-model.ts';

/** The state an authorization request carries: the client's own value, which the server hands back unread. */
const AUTHORIZE_STATE = 'conformance-explored-state';
const TOKEN_PATH = '/oauth/token';
const APP_VERIFY = '/api/v1/apps/verify_credentials';

/** The token of a token kind, null for none and the empty Bearer (the call carries no token). */
function tokenOfKind(kind: string, drawn: string | undefined, held: AuthHeld): string | null | undefined {
  if (kind === 'none' || kind === EMPTY_BEARER) return null;
  if (kind === 'made up') return drawn;
  if (kind === 'application') return held.appToken;
  return held.user.token;
}

/** What a call of a token kind adds to its options: the token, or the Authorization header that names the scheme alone. */
const callerToken = (input: AuthInput, token: string | null | undefined) =>
  input.row.token === 'user' ? {} : input.row.token === EMPTY_BEARER ? { token: null, headers: { authorization: 'Bearer' } } : { token };

/** Sends one input; `judged`: an error row covers it, so that its check, not ERRORS-5XX-1, judges a 5xx. */
async function sendOne(input: AuthInput, held: AuthHeld, judged: boolean): Promise<AuthSent | undefined> {
  const options = judged ? { malformed: true } : {};
  const { anon } = held;
  const drawn = (name: string) => input.drawn[name];
  switch (input.operation) {
    case 'register': {
      const form = registrationForm(input);
      // The registration's own helper lists what the server registered on the ledger and redacts its secret.
      const registered = await registerApp(anon, form, options);
      const exchange = registered.exchange as Exchange;
      const application = registered.ok ? registered.value : undefined;
      if (!application || !severalRedirects(input)) return { input, exchange, ...(application ? { application } : {}) };
      // The last URI listed, as a token request's redirect_uri, without a scope (rule 3 gives read, whatever the order of
      // the registered scopes): the ledger revokes a token granted.
      const redirectGrant = await requestToken(anon, application, { grant_type: 'client_credentials', redirect_uri: SECOND_CALLBACK }, { malformed: true });
      return { input, exchange, application, redirectGrant: redirectGrant.exchange };
    }
    case 'verify': {
      const token = tokenOfKind(input.row.token ?? 'user', drawn('token'), held);
      if (token === undefined) return undefined;
      const caller = input.row.token === 'user' ? held.user : anon;
      return { input, exchange: await caller.get(APP_VERIFY, { ...options, ...callerToken(input, token) }) };
    }
    case 'authorize': {
      const { app } = held;
      if (!app) return undefined;
      const query: FormParams = {
        client_id: input.row.client_id === 'unknown' ? drawn('client_id') : app.client_id,
        redirect_uri: input.row.redirect_uri === 'not registered' ? 'https://conformance.invalid/not-registered' : OOB,
        scope: input.row.scope?.startsWith('beyond') ? 'read follow' : 'read',
        ...(input.row.response_type === 'missing' ? {} : { response_type: 'code' }),
        ...(input.row.state === 'given' ? { state: AUTHORIZE_STATE } : {}),
      };
      return { input, exchange: await anon.get('/oauth/authorize', { query, headers: { accept: 'text/html' }, ...options }) };
    }
    case 'token':
      return sendToken(input, held, options);
    case 'revoke': {
      const { app, other } = held;
      if (!app) return undefined;
      const credentials = input.row['client credentials'] === 'missing' ? {} : { client_id: (input.row.token === "another client's" ? other : app)?.client_id, client_secret: (input.row.token === "another client's" ? other : app)?.client_secret };
      if (input.row.token === "another client's" && (!other || !held.appToken)) return undefined;
      const token = input.row.token === 'unknown' ? drawn('token') : held.appToken;
      if (token === undefined) return undefined;
      return { input, exchange: await anon.post('/oauth/revoke', { ...credentials, token }, options) };
    }
    default: {
      const id = input.row.id === 'own' ? held.accounts.own : input.row.id === "another account's" ? held.accounts.another : drawn('id');
      const token = tokenOfKind(input.row.token ?? 'user', drawn('token'), held);
      if (id === undefined || token === undefined) return undefined;
      const caller = input.row.token === 'user' ? held.user : anon;
      const path = authOperationNamed(input.operation).path.replace(':id', encodeURIComponent(id));
      return { input, exchange: await caller.get(path, { ...options, ...callerToken(input, token) }) };
    }
  }
}

/**
 * A token input: the request, and where it granted a token, its first use, its revocation by its own client and the
 * same read after it. The valid input's token stays, as the application token of the inputs after it, until the end.
 */
async function sendToken(input: AuthInput, held: AuthHeld, options: { malformed?: boolean }): Promise<AuthSent | undefined> {
  const { anon, app } = held;
  if (!app) return undefined;
  // requestToken lists a granted token on the ledger (revoked at the end, read gone) and redacts it.
  const run = await requestToken(anon, app, tokenForm(input, app), options);
  const sent: AuthSent = { input, exchange: run.exchange };
  if (!run.token) return sent;
  const token = run.token;
  const use = await anon.get(APP_VERIFY, { token, malformed: judgedUse(input) });
  if (variedOf(input).length === 0 && held.appToken === undefined) {
    // The valid input's token serves the inputs after it; it is revoked last.
    held.appToken = token;
    held.lastRevocation = async () => ({ ...sent, granted: { token, use, ...(await revokeAndRead(anon, app, token, run.settle)) } });
    return undefined;
  }
  return { ...sent, granted: { token, use, ...(await revokeAndRead(anon, app, token, run.settle)) } };
}

/**
 * Sends the inputs one after another, each granted token used, revoked at once and read again (the application
 * token of the valid token input last). `judged` says where an error row covers an input.
 */
export async function sendAuthInputs(inputs: readonly AuthInput[], held: AuthHeld, judged: (input: AuthInput) => boolean): Promise<AuthSent[]> {
  const sent: AuthSent[] = [];
  // The revocations last, after every input that uses the application token.
  const ordered = [...inputs.filter((i) => i.operation !== 'revoke'), ...inputs.filter((i) => i.operation === 'revoke')];
  // The first two registrations of the covering set: the application the inputs ask of, and "another client".
  const [first, second] = inputs.filter((i) => i.operation === 'register');
  for (const input of ordered) {
    const one = await sendOne(input, held, judged(input));
    if (!one) continue;
    sent.push(one);
    if (input === first) held.app = one.application;
    if (input === second) held.other = one.application;
  }
  if (held.lastRevocation) sent.push(await held.lastRevocation());
  return sent;
}

/** Smaller values of a drawn class, smallest first, still of the class. */
function smallerValues(choice: AuthChoice, value: string): string[] {
  const candidates = choice.stillIn === isMalformed ? smallerMalformed(value) : Array.from({ length: value.length - 1 }, (_, k) => value.slice(0, k + 1));
  return candidates.filter((c) => choice.stillIn?.(c) ?? false);
}

/**
 * The smallest input that still breaks what `broken` tells: each drawn value tried again by its shorter forms still in
 * its class, smallest first, within AUTH_SHRINK_BOUND. The other classes are one value each, already their smallest.
 */
export async function shrinkAuth(finding: AuthSent, held: AuthHeld, broken: (sent: AuthSent) => boolean): Promise<AuthSent> {
  const op = authOperationNamed(finding.input.operation);
  let budget: number = AUTH_SHRINK_BOUND.requestsPerFinding;
  for (const [name, value] of Object.entries(finding.input.drawn)) {
    const parameter = op.parameters.find((p) => p.name === name) as AuthParameter;
    for (const candidate of smallerValues(choiceOf(op, parameter, finding.input.row), value)) {
      if (budget-- <= 0) return finding;
      const input = { ...finding.input, drawn: { ...finding.input.drawn, [name]: candidate } };
      const again = await sendOne(input, held, true);
      if (again && broken(again)) return again;
    }
  }
  return finding;
}

/** Revokes a token with its client's credentials, then makes the read it answered again; the ledger reads it gone. */
async function revokeAndRead(anon: Actor, app: Application, token: string, settle: () => void): Promise<{ revoke: Exchange; after: Exchange }> {
  const revoke = await anon.post('/oauth/revoke', { client_id: app.client_id, client_secret: app.client_secret, token });
  if (revoke.status === 200) settle();
  return { revoke, after: await anon.get(APP_VERIFY, { token, malformed: true }) };
}

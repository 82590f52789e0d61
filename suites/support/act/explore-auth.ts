// The input space of the contract's Client registration, OAuth and Account relations sections (docs/exploring.md):
// each operation's parameters with classes of values (valid, at the edge, past it, of the wrong type, missing), as the
// tables and Authentication rules 1-13 give them, and for the relations the id and the token. A covering set gives
// every class of every parameter one input: the valid classes of registration combined pairwise, every other class
// alone on a valid request, so that its verdict is its own; seeded draws of the drawn classes follow. What the
// contract says of each answer is the oracle's (judge/explore-auth-oracle.ts); this module draws, plans and sends.
// Every application registered is on the ledger as left behind (none can be deleted); every token granted is used,
// revoked at once and read refused, and the ledger reads it gone.
import fc from 'fast-check';
import type { FormParams } from '../talk/form.ts';
import type { Exchange } from '../talk/http.ts';
import type { Actor } from './actors.ts';
import { OOB, registerApp, requestToken, type Application } from './applications.ts';
import type { ValueKind } from './explore-create.ts';
import { isMalformed, smallerMalformed } from './explore-inputs.ts';

/** A class of a parameter's values; `value` undefined leaves the parameter out. */
export interface AuthChoice {
  name: string;
  kind: ValueKind;
  value?: (drawn: string) => string;
  /** The values this class is drawn from, seeded: its input carries one. */
  draw?: fc.Arbitrary<string>;
  /** Whether a drawn value shrunk to `candidate` still belongs to the class. */
  stillIn?: (candidate: string) => boolean;
  /** Where the contract leaves the answer open: why (only a server error is judged, ERRORS-5XX-1's warning). */
  open?: string;
  /** The clause by which the contract refuses the value (any 4xx; a token granted, or a 5xx, breaks it). */
  refused?: string;
}

export interface AuthParameter {
  name: string;
  choices: readonly AuthChoice[];
}

export type AuthOperationName = 'register' | 'token' | 'verify' | 'revoke' | 'authorize' | 'following' | 'followers';

export interface AuthOperation {
  name: AuthOperationName;
  method: 'GET' | 'POST';
  path: string;
  parameters: readonly AuthParameter[];
}

const notShown = (what: string) => `${what}: not shown`;
/** Letters, drawn: a name no server knows (an unknown scope, grant, code, token). */
const unknownName = (prefix: string) => fc.stringMatching(/^[a-z]{4,12}$/).map((s) => `${prefix}${s}`);
const prefixed = (prefix: string) => (candidate: string) => candidate.startsWith(prefix) && candidate.length > prefix.length;
const LONG_NAME = fc.integer({ min: 1_000, max: 4_000 }).map((n) => 'conformance explored name '.repeat(Math.ceil(n / 26)).slice(0, n));
const CALLBACK = 'https://conformance.invalid/explored-callback';
const SECOND_CALLBACK = 'https://conformance.invalid/explored-callback-2';
/** A URI that begins with the registered out-of-band one and is another: rule 2 matches a redirect URI whole. */
const EXTENDED_OOB = `${OOB}:auto`;
/** A never-existing account id: far above any snowflake of this century. */
const NEVER_EXISTED = fc.bigInt({ min: 10n ** 17n * 9n, max: 10n ** 18n - 1n }).map(String);
const MALFORMED = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/), fc.integer({ min: 1, max: 99_999 }).map((n) => `-${n}`));

const REQUIRED_NOT_SHOWN = notShown('which registration parameters are required');
/** The registered scopes of the application the token inputs ask of (row 0 of the registrations): follow lies outside. */
export const EXPLORED_SCOPES = 'read write';

/** POST /api/v1/apps's parameters (the Client registration table). */
const REGISTER: readonly AuthParameter[] = [
  {
    name: 'client_name',
    choices: [
      { name: 'short', kind: 'valid', value: () => 'conformance explored app' },
      { name: 'empty', kind: 'edge', value: () => '', open: notShown('the shortest client name') },
      { name: 'very long', kind: 'past the edge', value: (drawn) => drawn, draw: LONG_NAME, stillIn: (c) => c.length > 255, open: notShown('the longest client name') },
      { name: 'missing', kind: 'missing', open: REQUIRED_NOT_SHOWN },
    ],
  },
  {
    name: 'redirect_uris',
    choices: [
      { name: 'out-of-band', kind: 'valid', value: () => OOB },
      { name: 'one URI', kind: 'valid', value: () => CALLBACK },
      { name: 'several, space-separated', kind: 'valid', value: () => `${CALLBACK} ${SECOND_CALLBACK}` },
      { name: 'several, one a line', kind: 'valid', value: () => `${OOB}\n${SECOND_CALLBACK}` },
      { name: 'not a URI', kind: 'wrong type', value: () => 'not a uri', open: notShown('the answer to a redirect URI that is no URI') },
      { name: 'missing', kind: 'missing', open: REQUIRED_NOT_SHOWN },
    ],
  },
  {
    name: 'scopes',
    choices: [
      { name: 'read write', kind: 'valid', value: () => EXPLORED_SCOPES },
      { name: 'read', kind: 'valid', value: () => 'read' },
      { name: 'read write follow push', kind: 'valid', value: () => 'read write follow push' },
      // A space-separated list in another order: the registered set is a set, and read is not its first.
      { name: 'write read', kind: 'valid', value: () => 'write read' },
      { name: 'fine-grained', kind: 'edge', value: () => 'read:statuses write:statuses', open: 'rule 5: registered scopes are from read, write, follow, push; a fine-grained one at registration is not shown' },
      { name: 'unknown', kind: 'past the edge', value: (drawn) => `read ${drawn}`, draw: unknownName('conformance'), stillIn: prefixed('conformance'), open: notShown('the answer to a scope outside rule 5') },
      { name: 'empty', kind: 'edge', value: () => '', open: notShown('the scopes of an empty list') },
      { name: 'missing', kind: 'missing', open: REQUIRED_NOT_SHOWN },
    ],
  },
  {
    name: 'website',
    choices: [
      { name: 'URL', kind: 'valid', value: () => 'https://conformance.invalid/explored' },
      { name: 'not a URL', kind: 'wrong type', value: () => 'not a url', open: notShown('the answer to a website that is no URL') },
      { name: 'missing', kind: 'missing', open: REQUIRED_NOT_SHOWN },
    ],
  },
];

/** POST /oauth/token's parameters (the OAuth table and rules 1-3), on the application registered with EXPLORED_SCOPES. */
const TOKEN: readonly AuthParameter[] = [
  {
    name: 'grant_type',
    choices: [
      { name: 'client_credentials', kind: 'valid', value: () => 'client_credentials' },
      { name: 'authorization_code with a code never issued', kind: 'wrong type', value: () => 'authorization_code', draw: unknownName('conformance-code-'), stillIn: prefixed('conformance-code-'), refused: 'OAUTH-CODE-1' },
      { name: 'authorization_code without a code', kind: 'missing', value: () => 'authorization_code', refused: 'OAUTH-CODE-1' },
      { name: 'password with no user name or password', kind: 'missing', value: () => 'password', open: 'Authentication rule 10: the parameters of the password grant are not shown' },
      { name: 'unknown', kind: 'wrong type', value: (drawn) => drawn, draw: unknownName('conformance_'), stillIn: prefixed('conformance_'), open: notShown('the answer to a grant outside rule 1 (the OAuth error bodies are not in the Errors table)') },
      { name: 'missing', kind: 'missing', open: notShown('the answer without a grant_type') },
    ],
  },
  {
    name: 'scope',
    choices: [
      { name: 'a subset (read)', kind: 'valid', value: () => 'read' },
      { name: 'the registered set (read write)', kind: 'valid', value: () => EXPLORED_SCOPES },
      { name: 'missing', kind: 'valid' },
      { name: 'beyond the registered set (read follow)', kind: 'past the edge', value: () => 'read follow', refused: 'OAUTH-SCOPE-1' },
      { name: 'unknown', kind: 'past the edge', value: (drawn) => `read ${drawn}`, draw: unknownName('conformance'), stillIn: prefixed('conformance'), refused: 'OAUTH-SCOPE-1' },
      { name: 'fine-grained (read:statuses)', kind: 'edge', value: () => 'read:statuses', open: 'rule 12: which broader scopes imply which narrower ones is not shown' },
      { name: 'empty', kind: 'edge', value: () => '', open: notShown('an empty scope') },
    ],
  },
  {
    name: 'redirect_uri',
    choices: [
      { name: 'registered', kind: 'valid', value: () => OOB },
      { name: 'not registered', kind: 'past the edge', value: () => 'https://conformance.invalid/not-registered', refused: 'OAUTH-REDIRECT-2' },
      { name: 'a registered one extended', kind: 'past the edge', value: () => EXTENDED_OOB, refused: 'OAUTH-REDIRECT-2' },
      { name: 'missing', kind: 'missing', open: notShown('whether redirect_uri is required on client_credentials') },
    ],
  },
  {
    name: 'client_secret',
    choices: [
      { name: 'right', kind: 'valid' },
      { name: 'wrong', kind: 'wrong type', value: (drawn) => drawn, draw: unknownName('conformance-secret-'), stillIn: prefixed('conformance-secret-'), open: notShown('the answer to a wrong client_secret (the OAuth error bodies are not in the Errors table)') },
      { name: 'missing', kind: 'missing', open: notShown('the answer without a client_secret') },
    ],
  },
];

/** The token a call carries: the caller's user token (A's), an application token, none, or one no server issued. */
const TOKEN_KINDS: AuthParameter = {
  name: 'token',
  choices: [
    { name: 'user', kind: 'valid' },
    { name: 'application', kind: 'valid' },
    { name: 'none', kind: 'missing' },
    // The Bearer scheme with no token after it: still no token (RFC 6750 2.1), which the contract answers as none.
    { name: 'empty Bearer', kind: 'missing' },
    { name: 'made up', kind: 'wrong type', value: (drawn) => drawn, draw: unknownName('conformance-token-'), stillIn: prefixed('conformance-token-') },
  ],
};

const EMPTY_BEARER = 'empty Bearer';

/** The account id of the relations: the caller's own, another account's, one that never existed, a malformed one. */
const ACCOUNT_IDS: AuthParameter = {
  name: 'id',
  choices: [
    { name: 'own', kind: 'valid' },
    { name: "another account's", kind: 'valid' },
    { name: 'never existed', kind: 'past the edge', value: (drawn) => drawn, draw: NEVER_EXISTED, stillIn: () => false, open: 'the relations of an account that does not exist: not shown (the Errors table names no account row)' },
    { name: 'malformed', kind: 'wrong type', value: (drawn) => drawn, draw: MALFORMED, stillIn: isMalformed, open: 'the relations of an id no server gives out: not shown (the Errors table names no account row)' },
  ],
};

/** POST /oauth/revoke: which token, with which client credentials (its full parameter list: not shown). */
const REVOKE: readonly AuthParameter[] = [
  {
    name: 'token',
    choices: [
      { name: "the client's own", kind: 'valid' },
      { name: "another client's", kind: 'wrong type', open: "RFC 7009 2.1 refuses another client's token; the contract shows no answer" },
      { name: 'unknown', kind: 'wrong type', value: (drawn) => drawn, draw: unknownName('conformance-token-'), stillIn: prefixed('conformance-token-'), open: notShown('the answer to an unknown token (RFC 7009 2.2 answers 200)') },
    ],
  },
  { name: 'client credentials', choices: [{ name: 'sent', kind: 'valid' }, { name: 'missing', kind: 'missing', open: 'the revocation "when called with client credentials": the answer without them is not shown' }] },
];

/** GET /oauth/authorize (its full parameter list: not shown), sent without a signed-in user: the form or a sign-in. */
const AUTHORIZE: readonly AuthParameter[] = [
  { name: 'client_id', choices: [{ name: 'registered', kind: 'valid' }, { name: 'unknown', kind: 'wrong type', value: (drawn) => drawn, draw: unknownName('conformance-client-'), stillIn: prefixed('conformance-client-'), open: notShown('the form for an unknown client') }] },
  { name: 'redirect_uri', choices: [{ name: 'registered', kind: 'valid' }, { name: 'not registered', kind: 'past the edge', open: 'rule 2 names the token operation, not the form' }] },
  { name: 'scope', choices: [{ name: 'a subset (read)', kind: 'valid' }, { name: 'beyond the registered set (read follow)', kind: 'past the edge', open: 'rule 1 names the token operation, not the form' }] },
  { name: 'response_type', choices: [{ name: 'code', kind: 'valid' }, { name: 'missing', kind: 'missing', open: 'Full parameter lists of /oauth/authorize: not shown' }] },
  // RFC 6749 4.1.1: state is RECOMMENDED on the authorization request; the default run sends none.
  { name: 'state', choices: [{ name: 'missing', kind: 'valid' }, { name: 'given', kind: 'valid' }] },
];

/** The operations, in the order they are sent: the token inputs make the application token the later ones use. */
export const AUTH_OPERATIONS: readonly AuthOperation[] = [
  { name: 'register', method: 'POST', path: '/api/v1/apps', parameters: REGISTER },
  { name: 'token', method: 'POST', path: '/oauth/token', parameters: TOKEN },
  { name: 'verify', method: 'GET', path: '/api/v1/apps/verify_credentials', parameters: [TOKEN_KINDS] },
  { name: 'authorize', method: 'GET', path: '/oauth/authorize', parameters: AUTHORIZE },
  { name: 'following', method: 'GET', path: '/api/v1/accounts/:id/following', parameters: [ACCOUNT_IDS, TOKEN_KINDS] },
  { name: 'followers', method: 'GET', path: '/api/v1/accounts/:id/followers', parameters: [ACCOUNT_IDS, TOKEN_KINDS] },
  // Last: a revocation that takes where the contract shows none would take the application token the others use.
  { name: 'revoke', method: 'POST', path: '/oauth/revoke', parameters: REVOKE },
];

export const authOperationNamed = (name: AuthOperationName): AuthOperation => AUTH_OPERATIONS.find((op) => op.name === name) as AuthOperation;

/** One input: an operation, each parameter's class (a parameter not named takes its first, valid class), and the drawn values. */
export interface AuthInput {
  operation: AuthOperationName;
  row: Readonly<Record<string, string>>;
  drawn: Readonly<Record<string, string>>;
  drawnBy: 'covering' | 'random';
}

export const choiceOf = (op: AuthOperation, parameter: AuthParameter, row: AuthInput['row']): AuthChoice =>
  parameter.choices.find((c) => c.name === row[parameter.name]) ?? (parameter.choices[0] as AuthChoice);

/** The classes of an input that are not valid: a valid input names none. */
export const variedOf = (input: Pick<AuthInput, 'operation' | 'row'>): [AuthParameter, AuthChoice][] => {
  const op = authOperationNamed(input.operation);
  return op.parameters.map((p): [AuthParameter, AuthChoice] => [p, choiceOf(op, p, input.row)]).filter(([, c]) => c.kind !== 'valid');
};

/**
 * Registration's valid classes combined pairwise: row k takes each parameter's k-th valid class (the last one again
 * where a parameter has fewer), so that the redirect URIs meet the scopes. Row 0 is the application the token, revoke
 * and authorize inputs ask of: the out-of-band URI and EXPLORED_SCOPES.
 */
function validRegistrations(): Record<string, string>[] {
  const valid = REGISTER.map((p) => ({ p, names: p.choices.filter((c) => c.kind === 'valid').map((c) => c.name) }));
  const rows = Math.max(...valid.map((v) => v.names.length));
  return Array.from({ length: rows }, (_, k) => Object.fromEntries(valid.map(({ p, names }) => [p.name, names[Math.min(k, names.length - 1)] as string])));
}

/**
 * Each class alone on a valid request of its operation (the first class of each parameter): every class but the
 * first, or (`invalidOnly`, where the valid classes were combined already) every class that is not valid.
 */
const aloneCells = (op: AuthOperation, invalidOnly = false): Record<string, string>[] =>
  op.parameters.flatMap((p) => p.choices.filter((c, i) => i > 0 && (!invalidOnly || c.kind !== 'valid')).map((c) => ({ [p.name]: c.name })));

/** The relations' covering set: every id class with each token that reads (the operations alternating), every token kind on the own id. */
function relationCells(): { operation: AuthOperationName; row: Record<string, string> }[] {
  const cells: { operation: AuthOperationName; row: Record<string, string> }[] = [];
  const ops: AuthOperationName[] = ['following', 'followers'];
  ACCOUNT_IDS.choices.forEach((id, i) => {
    cells.push({ operation: ops[i % 2] as AuthOperationName, row: { id: id.name, token: 'user' } });
    cells.push({ operation: ops[(i + 1) % 2] as AuthOperationName, row: { id: id.name, token: 'application' } });
  });
  for (const token of ['none', EMPTY_BEARER, 'made up']) for (const operation of ops) cells.push({ operation, row: { id: 'own', token } });
  return cells;
}

/** The covering set, in the order it is sent. */
export function authCovering(): { operation: AuthOperationName; row: Record<string, string> }[] {
  const of = (name: AuthOperationName, rows: Record<string, string>[]) => rows.map((row) => ({ operation: name, row }));
  const registrations = [...validRegistrations(), ...aloneCells(authOperationNamed('register'), true)];
  return [
    ...of('register', registrations),
    ...of('token', [{}, ...aloneCells(authOperationNamed('token'))]),
    ...of('verify', TOKEN_KINDS.choices.map((c) => ({ token: c.name }))),
    ...of('authorize', [{}, ...aloneCells(authOperationNamed('authorize'))]),
    ...relationCells(),
    ...of('revoke', aloneCells(authOperationNamed('revoke'))),
  ];
}

/** The seeded draws after the covering set: each a covering input of a drawn class, with a value of its own. */
export const AUTH_DRAWS = 8;

/** The drawn classes' values of an input, each from its own stream of the seed. */
function drawValues(operation: AuthOperationName, row: Record<string, string>, seed: number): Record<string, string> {
  const op = authOperationNamed(operation);
  const drawn: Record<string, string> = {};
  for (const p of op.parameters) {
    const choice = choiceOf(op, p, row);
    if (choice.draw) drawn[p.name] = fc.sample(choice.draw, { seed, numRuns: 1 })[0] as string;
  }
  return drawn;
}

/** The inputs of a run, the same for one seed: the covering set, then AUTH_DRAWS draws of the inputs with drawn classes. */
export function drawAuthInputs(seed: number): AuthInput[] {
  const covering = authCovering();
  const inputs: AuthInput[] = covering.map((cell, k) => ({ ...cell, drawn: drawValues(cell.operation, cell.row, seed + 2_000_003 + k), drawnBy: 'covering' }));
  const drawable = inputs.filter((input) => Object.keys(input.drawn).length > 0);
  const picks = fc.sample(fc.integer({ min: 0, max: drawable.length - 1 }), { seed: seed + 3_000_017, numRuns: AUTH_DRAWS });
  picks.forEach((i, k) => {
    const { operation, row } = drawable[i] as AuthInput;
    inputs.push({ operation, row, drawn: drawValues(operation, row, seed + 4_000_037 + k), drawnBy: 'random' });
  });
  return inputs;
}

/** Whether an input's token request may be granted: a granted token costs its use, its revocation and two reads. */
const mayGrant = (input: AuthInput) => input.operation === 'token' && !variedOf(input).some(([, c]) => c.refused);
/** Registrations whose redirect URIs are several: a token asked with the last of them shows both were registered. */
export const severalRedirects = (input: Pick<AuthInput, 'operation' | 'row'>) => input.operation === 'register' && /^several/.test(input.row.redirect_uris ?? '');

/**
 * What the inputs cost at most, by the bucket the suite counts them in (/api, /oauth): each input its request; a
 * granted token its use and read after revocation (/api), its revocation (/oauth) and the ledger's read of it gone
 * (/api); a registration of several redirect URIs its token, revoked by the ledger; the relations the id of B's.
 */
export function authCost(inputs: readonly AuthInput[]): { api: number; oauth: number } {
  let api = inputs.length > 0 ? 1 : 0;
  let oauth = 0;
  for (const input of inputs) {
    const op = authOperationNamed(input.operation);
    if (op.path.startsWith('/oauth')) oauth += 1;
    else api += 1;
    if (mayGrant(input)) {
      api += 3;
      oauth += 1;
    }
    if (severalRedirects(input)) {
      api += 1;
      oauth += 2;
    }
  }
  return { api, oauth };
}

/** What the inputs reach, per operation: for --list and the results. */
export function authCoverageLines(inputs: readonly AuthInput[]): string[] {
  return AUTH_OPERATIONS.map((op) => {
    const sent = inputs.filter((i) => i.operation === op.name);
    const classes = op.parameters.flatMap((p) => p.choices.map((c) => `${p.name} ${c.name}`));
    const reached = new Set(sent.flatMap((i) => op.parameters.map((p) => `${p.name} ${choiceOf(op, p, i.row).name}`)));
    const leftOut = classes.filter((c) => !reached.has(c));
    return `${op.name}: ${sent.length} input${sent.length === 1 ? '' : 's'} (${sent.filter((i) => i.drawnBy === 'random').length} random)${leftOut.length ? `; left out: ${leftOut.join(', ')}` : '; every class of every parameter reached'}`;
  });
}

/** What the run holds for the inputs: the explored application, its tokens, the callers and the account ids. */
export interface AuthHeld {
  anon: Actor;
  /** A's actor, whose token is the user token. */
  user: Actor;
  accounts: { own?: string; another?: string };
  /** Row 0's application: the token, revoke and authorize inputs ask of it. */
  app?: Application;
  /** Another application (row 1's): "another client" of the revocation. */
  other?: Application;
  /** The application token of the relations and of verify_credentials: the valid token input's, until its revocation. */
  appToken?: string;
  /** The revocation of the application token, once every input that uses it was sent. */
  lastRevocation?: () => Promise<AuthSent>;
}

/** One input as sent: its answer, and the follow-ups of what it made. */
export interface AuthSent {
  input: AuthInput;
  exchange: Exchange;
  /** A registration's Application, as answered. */
  application?: Application;
  /** A token granted: its first use (verify_credentials), its revocation by its client, the same read after it. */
  granted?: { token: string; use: Exchange; revoke: Exchange; after: Exchange };
  /** A registration of several redirect URIs: a client_credentials token asked with the last of them. */
  redirectGrant?: Exchange;
}

const valueOf = (choice: AuthChoice, drawn: string | undefined) => choice.value?.(drawn ?? '');

/** The form of a registration row. */
export function registrationForm(input: Pick<AuthInput, 'row' | 'drawn'>): FormParams {
  const op = authOperationNamed('register');
  return Object.fromEntries(op.parameters.map((p) => [p.name, valueOf(choiceOf(op, p, input.row), input.drawn[p.name])]));
}

/** A token request's parameters, on `app`: client_id always; each other parameter its class's value or left out. */
export function tokenForm(input: Pick<AuthInput, 'row' | 'drawn'>, app: Application): FormParams {
  const op = authOperationNamed('token');
  const form: FormParams = { client_id: app.client_id };
  for (const p of op.parameters) {
    const choice = choiceOf(op, p, input.row);
    if (p.name === 'client_secret') form.client_secret = choice.name === 'right' ? app.client_secret : valueOf(choice, input.drawn[p.name]);
    else form[p.name] = valueOf(choice, input.drawn[p.name]);
  }
  // A code never issued goes with the code grant.
  if (input.row.grant_type?.startsWith('authorization_code')) form.code = input.drawn.grant_type;
  return form;
}

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

/** A granted token's use is judged (APPS-VERIFY-1) where the request was valid: a narrower scope's use is open. */
export const judgedUse = (input: Pick<AuthInput, 'operation' | 'row'>) => variedOf(input).length === 0;

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

/** The most requests shrinking one finding may send, and the most findings shrunk. */
export const AUTH_SHRINK_BOUND = { requestsPerFinding: 4, findings: 5 } as const;

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

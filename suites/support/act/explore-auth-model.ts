// The model of the registration, OAuth and relations inputs: their parameters and classes, the covering set, the draws,
// the forms and costs, and the types of what was sent. explore-auth.ts sends them; this module holds no request, so
// that the oracle (judge/explore-auth-oracle.ts) reads it without importing what sends.
import fc from 'fast-check';
import { matching } from './matching.ts';
import type { FormParams } from '../talk/form.ts';
import type { Exchange } from '../talk/http.ts';
import type { Actor } from './actors.ts';
import { OOB, type Application } from './applications.ts';
import type { ValueKind } from './explore-create-model.ts';
import { isMalformed } from './explore-inputs-model.ts';

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
const unknownName = (prefix: string) => matching(/^[a-z]{4,12}$/).map((s) => `${prefix}${s}`);
const prefixed = (prefix: string) => (candidate: string) => candidate.startsWith(prefix) && candidate.length > prefix.length;
const LONG_NAME = fc.integer({ min: 1_000, max: 4_000 }).map((n) => 'conformance explored name '.repeat(Math.ceil(n / 26)).slice(0, n));
const CALLBACK = 'https://conformance.invalid/explored-callback';
export const SECOND_CALLBACK = 'https://conformance.invalid/explored-callback-2';
/** A URI that begins with the registered out-of-band one and is another: rule 2 matches a redirect URI whole. */
const EXTENDED_OOB = `${OOB}:auto`;
/** A never-existing account id: far above any snowflake of this century. */
const NEVER_EXISTED = fc.bigInt({ min: 10n ** 17n * 9n, max: 10n ** 18n - 1n }).map(String);
const MALFORMED = fc.oneof(matching(/^[a-z][a-z0-9_]{0,11}$/), fc.integer({ min: 1, max: 99_999 }).map((n) => `-${n}`));

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

export const EMPTY_BEARER = 'empty Bearer';

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

/** A granted token's use is judged (APPS-VERIFY-1) where the request was valid: a narrower scope's use is open. */
export const judgedUse = (input: Pick<AuthInput, 'operation' | 'row'>) => variedOf(input).length === 0;

/** The most requests shrinking one finding may send, and the most findings shrunk. */
export const AUTH_SHRINK_BOUND = { requestsPerFinding: 4, findings: 5 } as const;

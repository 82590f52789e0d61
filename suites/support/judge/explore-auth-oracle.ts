// The oracle of the explored registration, OAuth and relations inputs (docs/exploring.md): for each input, the clause
// of the catalogue that states its answer, and whether the answer holds. A success is the table's Returns (the
// Application, the Token), then its effect (the client name and website registered, a granted scope within the
// registered set, a revoked token refused, a token for each redirect URI registered); a refusal is the rule's or the
// Errors table's row. Where the contract shows nothing (which registration parameters are required, the OAuth error
// bodies, the relations of an account that does not exist), only a server error is judged: ERRORS-5XX-1's warning,
// run-wide, as the request goes unmarked.
import {
  AUTH_OPERATIONS,
  authOperationNamed,
  choiceOf,
  EXPLORED_SCOPES,
  judgedUse,
  registrationForm,
  severalRedirects,
  variedOf,
  type AuthInput,
  type AuthSent,
} from '../act/explore-auth-model.ts';
import { answerOf, causeOf } from '../act/steps.ts';
import { createdObject, type Exchange } from '../talk/http.ts';
import { block, countJudged } from './preconditions.ts';
import { observeResource } from './resources.ts';
import { fail, observeErrorBody, statusLine } from './verify.ts';

const TOKEN_INVALID = 'The access token is invalid';

/** One answer judged under one clause. */
export interface AuthInstance {
  clause: string;
  holds: boolean;
  expected: string;
  exchange: Exchange;
  what: string;
  /** What a holding answer is observed for besides (the resource's schema, the error body). */
  observe?: () => void;
}

const ok = (exchange: Exchange) => exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
/** A refusal: a 4xx that is no 429 (a 429 is never evidence). */
const refused = (exchange: Exchange) => exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500 && exchange.status !== 429;
const accessToken = (exchange: Exchange) => {
  const token = exchange.status === 200 ? createdObject(exchange)?.access_token : undefined;
  return typeof token === 'string' && token !== '' ? token : undefined;
};

/** How an input reads in a finding: the operation and each class that is not valid (the drawn value where there is one). */
export function describeAuthInput(input: Pick<AuthInput, 'operation' | 'row' | 'drawn'>): string {
  const drawnWords = (value: string | undefined) => (value === undefined ? '' : ` (${value.length > 40 ? `${value.length} characters` : value})`);
  const varied = variedOf(input).map(([p, c]) => `${p.name} ${c.name}${drawnWords(input.drawn[p.name])}`);
  const op = authOperationNamed(input.operation);
  const valid = op.parameters.filter((p) => !variedOf(input).some(([v]) => v === p)).map((p) => `${p.name} ${choiceOf(op, p, input.row).name}`);
  return `${op.method} ${op.path} with ${[...varied, ...(varied.length ? [] : valid)].join(', ') || 'valid parameters'}`;
}

/** Whether a clause covers an input's own request: then its check, not ERRORS-5XX-1, judges a 5xx to it. */
export function judgedAuth(input: Pick<AuthInput, 'operation' | 'row'>): boolean {
  const varied = variedOf(input);
  if (varied.some(([, c]) => c.refused)) return true;
  if (input.operation === 'verify') return true;
  if (input.operation === 'following' || input.operation === 'followers') return !varied.some(([p]) => p.name === 'id');
  if (input.operation === 'revoke') return false;
  return varied.length === 0;
}

/** The Token's granted scopes, where it shows them (the Token's full field list: not shown). */
const grantedScopes = (exchange: Exchange): string[] | undefined => {
  const scope = createdObject(exchange)?.scope;
  return typeof scope === 'string' ? scope.split(/\s+/).filter(Boolean) : undefined;
};
/** A scope within the registered set: one of it, or a narrower scope of one (read:statuses of read). */
const withinRegistered = (scope: string) => EXPLORED_SCOPES.split(' ').some((registered) => scope === registered || scope.startsWith(`${registered}:`));

/** The application's answer to its registration, where it names the name and website sent. */
function registrationInstances(sent: AuthSent, what: string): AuthInstance[] {
  if (variedOf(sent.input).length > 0) return [];
  const { exchange } = sent;
  const body = createdObject(exchange);
  const registered = exchange.status === 200 && typeof body?.client_id === 'string' && typeof body.client_secret === 'string';
  const form = registrationForm(sent.input);
  const instances: AuthInstance[] = [
    { clause: 'APPS-REGISTER-1', holds: registered, expected: 'HTTP 200 with the Application: client_id and client_secret, both strings', exchange, what, observe: () => observeResource('Application', body, exchange) },
  ];
  if (!registered) return instances;
  const echoed = body?.name === form.client_name && body?.website === form.website;
  instances.push({ clause: 'APPS-REGISTER-2', holds: echoed, expected: `the Application with name ${JSON.stringify(form.client_name)} and website ${JSON.stringify(form.website)}`, exchange, what });
  if (severalRedirects(sent.input) && sent.redirectGrant) {
    const grant = sent.redirectGrant;
    instances.push({ clause: 'APPS-REDIRECTS-1', holds: accessToken(grant) !== undefined, expected: 'HTTP 200 with a Token: the last redirect URI listed was registered', exchange: grant, what: `the client_credentials grant with the last of its redirect URIs, after ${what}` });
    const scopes = accessToken(grant) ? grantedScopes(grant) : undefined;
    if (scopes) instances.push({ clause: 'OAUTH-CLIENTCRED-1', holds: scopes.includes('read'), expected: "the Token's scope includes read (rule 3)", exchange: grant, what: `the Token's scope "${scopes.join(' ')}" of the client_credentials grant without a scope, after ${what}` });
  }
  return instances;
}

/** A token request's own answer: the Token where the request is valid, a refusal where a rule refuses it. */
function tokenInstances(sent: AuthSent, what: string): AuthInstance[] {
  const { exchange, input } = sent;
  const rule = variedOf(input).find(([, c]) => c.refused)?.[1].refused;
  if (rule) return [{ clause: rule, holds: refused(exchange), expected: 'a refusal (any 4xx): no token', exchange, what }];
  if (variedOf(input).length > 0) return [];
  const token = accessToken(exchange);
  const instances: AuthInstance[] = [{ clause: 'OAUTH-TOKEN-1', holds: token !== undefined, expected: 'HTTP 200 with a Token: access_token a string', exchange, what }];
  const scopes = token ? grantedScopes(exchange) : undefined;
  if (scopes === undefined) return instances;
  instances.push({ clause: 'OAUTH-SCOPE-1', holds: scopes.every(withinRegistered), expected: `a granted scope within the registered "${EXPLORED_SCOPES}"`, exchange, what: `the Token's scope "${scopes.join(' ')}", of ${what}` });
  if (input.row.scope === 'missing') instances.push({ clause: 'OAUTH-CLIENTCRED-1', holds: scopes.includes('read'), expected: 'the Token\'s scope includes read (rule 3)', exchange, what: `the Token's scope "${scopes.join(' ')}", of ${what}` });
  return instances;
}

/** A granted token's use (its Application), its revocation and the read after it. */
function grantedInstances(sent: AuthSent, what: string): AuthInstance[] {
  const { granted } = sent;
  if (!granted) return [];
  const instances: AuthInstance[] = [];
  if (judgedUse(sent.input)) instances.push(applicationInstance(granted.use, `verify_credentials with the token of ${what}`, true));
  const after = granted.after;
  instances.push({ clause: 'OAUTH-REVOKE-1', holds: ok(granted.revoke) && refused(after), expected: `the revocation answered 2xx, then a refusal: HTTP 401 {"error": "${TOKEN_INVALID}"}`, exchange: ok(granted.revoke) ? after : granted.revoke, what: `verify_credentials after the revocation of the token of ${what}` });
  if (refused(after)) instances.push(tokenInvalidInstance(after, `verify_credentials with the revoked token of ${what}`));
  return instances;
}

/** verify_credentials with a token: the Application, that of the explored application where the token is its own. */
function applicationInstance(exchange: Exchange, what: string, explored: boolean): AuthInstance {
  const body = createdObject(exchange);
  const name = explored ? registrationForm({ row: {}, drawn: {} }).client_name : undefined;
  const holds = exchange.status === 200 && body !== undefined && (name === undefined || body.name === name);
  return { clause: 'APPS-VERIFY-1', holds, expected: `HTTP 200 with the Application${name ? ` named ${JSON.stringify(name)}` : ''}`, exchange, what, observe: () => observeResource('Application', body, exchange) };
}

/** A token that names nothing (made up, revoked) on a token operation: the Errors row, 401 "The access token is invalid". */
function tokenInvalidInstance(exchange: Exchange, what: string, clause = 'ERRORS-TOKEN-2'): AuthInstance {
  return { clause, holds: exchange.status === 401, expected: `HTTP 401 {"error": "${TOKEN_INVALID}"}`, exchange, what, observe: () => observeErrorBody(exchange, TOKEN_INVALID) };
}

/** The instances of one input. */
export function authInstances(sent: AuthSent): AuthInstance[] {
  const what = describeAuthInput(sent.input);
  const { exchange, input } = sent;
  switch (input.operation) {
    case 'register':
      return registrationInstances(sent, what);
    case 'token':
      return [...tokenInstances(sent, what), ...grantedInstances(sent, what)];
    case 'verify': {
      const kind = input.row.token ?? 'user';
      if (kind === 'none' || kind === 'empty Bearer') return [tokenInvalidInstance(exchange, what, 'APPS-VERIFY-2')];
      if (kind === 'made up') return [tokenInvalidInstance(exchange, what)];
      return [applicationInstance(exchange, what, kind === 'application')];
    }
    case 'authorize': {
      if (variedOf(input).length > 0) return [];
      const redirect = exchange.status !== undefined && exchange.status >= 300 && exchange.status < 400 && Boolean(exchange.headers.location);
      const form = exchange.status === 200 && /text\/html/.test(exchange.headers['content-type'] ?? '') && /<form/i.test(exchange.text);
      return [{ clause: 'OAUTH-AUTHORIZE-1', holds: redirect || form, expected: 'HTTP 200 with an HTML form, or a redirect to sign in', exchange, what }];
    }
    case 'following':
    case 'followers': {
      const kind = input.row.token ?? 'user';
      if (kind === 'none' || kind === 'empty Bearer') return [{ clause: 'RELATIONS-TOKEN-1', holds: exchange.status === 401, expected: 'HTTP 401: a token is needed', exchange, what }];
      if (kind === 'made up') return [tokenInvalidInstance(exchange, what)];
      if (variedOf(input).some(([p]) => p.name === 'id')) return [];
      return [{ clause: 'RELATIONS-APPTOKEN-1', holds: exchange.status === 200, expected: `HTTP 200: ${kind === 'user' ? 'a user token' : 'an application token with the read scope'} reads them`, exchange, what }];
    }
    default:
      return [];
  }
}

/** Every clause an explored input of these sections may be judged under. */
export const AUTH_CLAUSES = [
  'APPS-REGISTER-1',
  'APPS-REGISTER-2',
  'APPS-REDIRECTS-1',
  'APPS-VERIFY-1',
  'APPS-VERIFY-2',
  'ERRORS-TOKEN-2',
  'OAUTH-TOKEN-1',
  'OAUTH-SCOPE-1',
  'OAUTH-CLIENTCRED-1',
  'OAUTH-REDIRECT-2',
  'OAUTH-CODE-1',
  'OAUTH-REVOKE-1',
  'OAUTH-AUTHORIZE-1',
  'RELATIONS-APPTOKEN-1',
  'RELATIONS-TOKEN-1',
] as const;

/** What the explored inputs of these sections came to, and each finding shrunk to its smallest input. */
export interface AuthExplored {
  sent: readonly AuthSent[];
  smallest: ReadonlyMap<AuthSent, AuthSent>;
}

/**
 * The control a refusal needs: a valid request of the same operation that was answered, without which a refusal shows
 * nothing of its clause (a server that refuses every token request, every token).
 */
function controlOf(explored: AuthExplored, clauseId: string): { ok: true } | { ok: false; cause: string; exchange?: Exchange } {
  const valid = (operation: string, token?: string) => explored.sent.filter((s) => s.input.operation === operation && variedOf(s.input).length === 0 && (token === undefined || s.input.row.token === token));
  if (['OAUTH-SCOPE-1', 'OAUTH-CODE-1', 'OAUTH-REDIRECT-2', 'APPS-REDIRECTS-1'].includes(clauseId)) {
    // Any valid grant that gave a token shows the operation grants one: a valid class refused alone is OAUTH-TOKEN-1's finding.
    const grants = valid('token');
    const grant = grants.find((s) => accessToken(s.exchange)) ?? grants[0];
    return grant && accessToken(grant.exchange) ? { ok: true } : { ok: false, cause: `the valid client_credentials request answered ${grant ? answerOf(grant.exchange) : 'nothing'}`, ...(grant ? { exchange: grant.exchange } : {}) };
  }
  if (clauseId === 'APPS-VERIFY-2') {
    const read = explored.sent.find((s) => s.input.operation === 'verify' && s.exchange.status === 200);
    return read ? { ok: true } : { ok: false, cause: 'verify_credentials answered no token it was sent' };
  }
  if (clauseId === 'RELATIONS-TOKEN-1') {
    const read = explored.sent.find((s) => (s.input.operation === 'following' || s.input.operation === 'followers') && s.exchange.status === 200);
    return read ? { ok: true } : { ok: false, cause: 'following and followers answered no token they were sent' };
  }
  return { ok: true };
}

/** The clause a control's failure is: the valid request's own. */
const CONTROL_CLAUSE: Record<string, string> = {
  'OAUTH-SCOPE-1': 'OAUTH-TOKEN-1',
  'OAUTH-CODE-1': 'OAUTH-TOKEN-1',
  'OAUTH-REDIRECT-2': 'OAUTH-TOKEN-1',
  'APPS-REDIRECTS-1': 'OAUTH-TOKEN-1',
  'APPS-VERIFY-2': 'APPS-VERIFY-1',
  'RELATIONS-TOKEN-1': 'RELATIONS-APPTOKEN-1',
};

/**
 * A token that answers on verify_credentials after its revocation is evidence only where verify_credentials refuses a
 * token no server issued: where it answers that one too, the revocation's read tells nothing.
 */
const answersMadeUp = (explored: AuthExplored) => explored.sent.some((s) => s.input.operation === 'verify' && s.input.row.token === 'made up' && ok(s.exchange));

/**
 * Judges every explored answer of `clauseId` and fails once with each that broke it, the first (shrunk to its smallest
 * input) with its exchange and replay. Returns false where this run's inputs reach none of the clause.
 */
export function judgeAuthExplored(explored: AuthExplored, clauseId: string): boolean {
  const judged = explored.sent.flatMap((sent) => authInstances(sent).filter((i) => i.clause === clauseId).map((instance) => ({ sent, instance })));
  const evidence = judged.filter(({ instance }) => !(clauseId === 'OAUTH-REVOKE-1' && ok(instance.exchange) && answersMadeUp(explored)));
  if (evidence.length === 0) return false;
  const control = controlOf(explored, clauseId);
  if (!control.ok) block(causeOf(CONTROL_CLAUSE[clauseId] ?? clauseId, control.cause, control.exchange));
  const broken = evidence.filter(({ instance }) => !instance.holds && !instance.exchange.unanswered && !instance.exchange.rateLimited);
  for (const { instance } of evidence) if (instance.holds) instance.observe?.();
  countJudged(evidence.length - broken.length);
  const [first] = broken;
  if (!first) return true;
  const smallest = explored.smallest.get(first.sent);
  const shrunk = smallest && smallest !== first.sent ? authInstances(smallest).find((i) => i.clause === clauseId && !i.holds) : undefined;
  const shown = shrunk ?? first.instance;
  const listed = broken.map(({ instance }, i) => `  ${i + 1}. ${instance.what}: ${statusLine(instance.exchange)}`);
  const words = shrunk ? ` (shrunk to ${shrunk.what})` : '';
  fail(shown.expected, `${broken.length} of ${evidence.length} explored inputs broke it:\n${listed.join('\n')}\n  the first one${words}:`, shown.exchange, clauseId);
}

/** Whether an input broke a clause its own request is judged under: a finding to shrink. */
export const brokenAuth = (sent: AuthSent): boolean => authInstances(sent).some((i) => !i.holds && i.exchange === sent.exchange && !sent.exchange.rateLimited && !sent.exchange.unanswered);

/** The model as --list and docs/exploring.md show it: per operation, each parameter's classes and what each must answer. */
export function authModelLines(): string[] {
  const lines: string[] = [];
  for (const op of AUTH_OPERATIONS) {
    lines.push(`${op.name} (${op.method} ${op.path})`);
    for (const p of op.parameters) {
      lines.push(`  ${p.name}`);
      for (const c of p.choices) {
        const answer = c.open
          ? `open: ${c.open}; a 5xx is ERRORS-5XX-1's warning`
          : c.refused
            ? `refused, any 4xx (${c.refused})`
            : c.kind === 'valid'
              ? `the success, then its effect (${SUCCESS_CLAUSES[op.name]})`
              : `the Errors row or the rule (${clausesOfClass(op.name, p.name, c.name).join(', ')})`;
        lines.push(`    ${`${c.kind}: ${c.name}`.padEnd(50)} ${answer}`);
      }
    }
  }
  return lines;
}

/** What a valid request of each operation is judged by: its Returns, then the effects the oracle reads. */
const SUCCESS_CLAUSES: Record<AuthInput['operation'], string> = {
  register: 'APPS-REGISTER-1, APPS-REGISTER-2; with several redirect URIs, a token without a scope for the last one: APPS-REDIRECTS-1, its scope OAUTH-CLIENTCRED-1',
  token: 'OAUTH-TOKEN-1, the granted scope OAUTH-SCOPE-1, without a scope OAUTH-CLIENTCRED-1; the token used APPS-VERIFY-1, revoked and read refused OAUTH-REVOKE-1, ERRORS-TOKEN-2',
  verify: 'APPS-VERIFY-1',
  authorize: 'OAUTH-AUTHORIZE-1',
  following: 'RELATIONS-APPTOKEN-1',
  followers: 'RELATIONS-APPTOKEN-1',
  revoke: "the token's revocation: OAUTH-REVOKE-1",
};

/** The clauses that judge a class of a token or id parameter alone (verify's and the relations' token kinds). */
function clausesOfClass(operation: AuthInput['operation'], parameter: string, choice: string): string[] {
  const row = { [parameter]: choice, ...(parameter === 'token' ? { id: 'own' } : {}) };
  const sent = { input: { operation, row, drawn: {}, drawnBy: 'covering' as const }, exchange: { status: -1, headers: {}, text: '' } as unknown as Exchange };
  return [...new Set(authInstances(sent).map((i) => i.clause))];
}

// The contract's "Authentication" section where the operations run: rules 4, 5 and 8 and the Access column of
// the Statuses and Media tables. Every write operation refuses a user token that lacks the scope it names, an
// application token is no user token, private reads need read:statuses, the broad write scope grants its
// narrower ones, a token comes from the authorization code flow, and a status posted through an application
// shows it.
// One application gives every token of account A: two complementary tokens, one holding read and write:statuses
// only, the other read and every other fine-grained write scope, never the broad write, which would grant what each
// lacks; a move one of them is refused the other makes, and each refusal is the one scope the operation names. A
// third token holds only write, and an application token acts for no user. The application registers the narrow
// scopes it asks for; the token lacking write:statuses comes from the authorization code flow, the others from the
// password grant, else from the web sign-in (suites/support/act/sign-in.ts).
// The preparation never judges: an application, token or status that could not be had blocks the checks that
// need it. A refusal counts only where a token holding the scope makes the same move (the positive control),
// and a move wrongly made is undone at once, so that no other check meets it.
import type { TestContext } from 'vitest';
import { MEDIA_FIXTURES } from '../fixtures/media/index.ts';
import { accountIdOf, actors, keyed, type Actor } from './support/act/actors.ts';
import { createdId, type Attachment, type Created, type Status } from './support/act/created.ts';
import { createdObject, excerpt, type Exchange, jsonOf } from './support/talk/http.ts';
import { OOB, registerApp, requestToken, type Application } from './support/act/applications.ts';
import { remember } from './support/act/ledger.ts';
import { releaseHas } from './support/judge/clauses.ts';
import { block, need } from './support/judge/preconditions.ts';
import { answerOf as answered, causeOf, failed, succeeded as reached, type RootCause, type Step, type StepOutcome } from './support/act/steps.ts';
import { flagOn, shows } from './support/act/moves.ts';
import { now, settle } from './support/act/settle.ts';
import { webSignInOf } from './support/act/sign-in.ts';
import { check, expectEqual, expectOk, fail } from './support/judge/verify.ts';
import { it, made, notMade, requirement, section, step } from './support/run/checks.ts';

const { config } = actors();


const NAME = 'conformance access';
const WEBSITE = 'https://conformance.invalid/access';

/** Rule 5's fine-grained write scopes, those this release has (write:bookmarks came with the bookmarks, STATUS-BOOKMARK-1). */
const WRITE_SCOPES = ['write:statuses', 'write:favourites', 'write:bookmarks', 'write:mutes', 'write:accounts', 'write:media'].filter(
  (scope) => scope !== 'write:bookmarks' || releaseHas(config.serverVersion, 'STATUS-BOOKMARK-1'),
);

/** The token that posts the statuses: read and write:statuses only, so it lacks every other write scope. */
const STATUSES_ONLY = 'read write:statuses';
/** Its complement: read and every other fine-grained write scope, never the broad write, which would grant write:statuses. */
const WITHOUT_STATUSES = ['read', ...WRITE_SCOPES.filter((scope) => scope !== 'write:statuses')].join(' ');
/** The scopes of the token lacking `missing`: one of the two complementary tokens. */
const heldWithout = (missing: string) => (missing === 'write:statuses' ? WITHOUT_STATUSES : STATUSES_ONLY);

// Real servers answer 403 with this; the contract does not show how a missing scope is refused.
const USUAL_REFUSAL = 'HTTP 403 {"error": "This action is outside the authorized scopes"}';

/** The `error` of a JSON answer: an Error's text, or the code of a refused token request (RFC 6749 5.2). */
function errorOf(exchange: Exchange): unknown {
  const json = jsonOf(exchange);
  return json.ok ? (json.value as { error?: unknown } | null)?.error : undefined;
}

/** How the server answered, in the form of USUAL_REFUSAL. */
function answerOf(exchange: Exchange): string {
  const error = errorOf(exchange);
  return `HTTP ${exchange.status}${typeof error === 'string' ? ` {"error": "${error}"}` : ''}`;
}

const answerLine = (exchange: Exchange) => exchange.error ?? `HTTP ${exchange.status} ${excerpt(exchange.text, 200) || '(empty body)'}`;
const succeeded = (exchange: Exchange) => exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
const isRefusal = (exchange: Exchange) => exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500;

/** A token of account A as a step, or why this configuration cannot get one (its checks are skipped with it). */
type Grant = Step<Actor> | { skip: string };

const NO_CREDENTIALS = 'needs CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A: tokens with chosen scopes come from the password grant or the authorization form';

/**
 * The application's scopes: the broad ones of rule 5 and every narrower scope a token is asked for, so that each
 * request is a subset of the registration without reading a broad scope as implying narrower ones (rule 12: not shown).
 */
const NARROW_REGISTRATION = ['read', 'write', 'follow', 'push', ...WRITE_SCOPES].join(' ');
/** The plainest registration (rule 5's scopes only), for a server that refuses to register narrower ones. */
const BROAD_REGISTRATION = 'read write follow push';

/**
 * Why a grant gave no token: a refusal is `clause`'s (the grant's own), unless it refused the scopes, which is
 * outside the contract (whether a server grants a narrow scope is not shown); an answer without a usable token is
 * the token operation's or the Token's.
 */
function grantCause(failure: RootCause, exchange: Exchange, clause: string, scope: string): RootCause {
  if (exchange.status === 200) return failure;
  const error = errorOf(exchange);
  if (error === 'invalid_scope') return causeOf(undefined, `the token operation refused the scopes "${scope}" (invalid_scope)`, exchange);
  return { ...failure, clause, ...(typeof error === 'string' ? { summary: `${failure.summary} (${error})` } : {}) };
}

/**
 * The tokens a step of account A asks the suite's application for (all A's, so they share A's per-account buckets),
 * through A's tokenless requests and A's one browser, in which A signs in once. What the password grant's failure
 * showed travels from step to step in their values (`passwordFailed`): a grant that failed is not asked again.
 */
class TokenSource {
  constructor(
    private readonly actor: Actor,
    private readonly app: Application,
    /** The password grant's first failure other than a refusal of the scopes. */
    public passwordFailed?: Step<Actor>,
  ) {}

  /**
   * The password grant's token was refused by the first user operation it made (a token acting for no user, or one
   * the server does not hold): the grant counts as refused, with that answer, and the tokens come from the web sign-in.
   */
  refusedOnFirstUse(exchange: Exchange): void {
    const summary = `the password grant's token was refused by its first user operation: ${exchange.method} ${exchange.path.split('?')[0]} answered ${answered(exchange)}`;
    this.passwordFailed = failed<Actor>(causeOf('OAUTH-PASSWORD-1', summary, exchange), exchange);
  }

  /** The password grant (rule 1: bots and single-user applications), when configured. */
  async byPassword(scope: string): Promise<Step<Actor>> {
    if (this.passwordFailed) return this.passwordFailed;
    const grant = { grant_type: 'password', username: config.usernameA, password: config.passwordA, scope };
    const { step: token, exchange } = await requestToken(this.actor.signingIn(), this.app, grant);
    if (token.ok) return reached(this.actor.withToken('A', token.value, 'OAUTH-PASSWORD-1'), exchange);
    const cause = grantCause(token.cause, exchange, 'OAUTH-PASSWORD-1', scope);
    const refused = failed<Actor>(cause, exchange);
    if (cause.clause) this.passwordFailed = refused;
    return refused;
  }

  /** The authorization code flow (rule 1: end users), driving the server's form as account A. */
  async byAuthorizationCode(scope: string): Promise<Grant> {
    const { code, reason, cause } = await webSignInOf(this.actor).code(this.app, scope);
    if (!code) return cause ? failed(cause) : { skip: reason };
    const { step: token, exchange } = await requestToken(this.actor.signingIn(), this.app, { grant_type: 'authorization_code', code, redirect_uri: OOB, scope });
    return token.ok ? reached(this.actor.withToken('A', token.value, 'AUTH-FLOW-1'), exchange) : failed(grantCause(token.cause, exchange, 'AUTH-FLOW-1', scope), exchange);
  }

  /** The password grant where it works, else the authorization code flow; where neither does, why each failed. */
  async userToken(scope: string): Promise<Grant> {
    if (!config.usernameA || !config.passwordA) return { skip: NO_CREDENTIALS };
    const password = await this.byPassword(scope);
    if (password.ok) return password;
    const flow = await this.byAuthorizationCode(scope);
    if (!('skip' in flow) && flow.ok) return flow;
    const flowFailed = 'skip' in flow ? undefined : flow;
    // The cause named is the code flow's where it names a clause (every server offers end users that flow, and a
    // server need not offer the password grant when the code flow works), else the password grant's; the summary names both.
    const named = flowFailed?.cause.clause ? flowFailed : password;
    const flowSaid = 'skip' in flow ? flow.skip : flow.cause.summary;
    const summary = `no token with the scopes "${scope}": the password grant: ${password.cause.summary}; the authorization code flow: ${flowSaid}`;
    return failed({ ...named.cause, summary }, named.exchange);
  }
}

/** The actor of a grant that gave a token, if it did. */
const actorOf = (grant: Grant | undefined) => (grant && !('skip' in grant) && grant.ok ? grant.value : undefined);

/**
 * The answer that refused a password grant's token on its first use as a user token holding the scope: 401 (a token
 * the server does not hold), or 403 or 422 to posting (a token acting for no user: the token holds write:statuses).
 */
function refusalOfToken(made: readonly (Created<Status> | undefined)[]): Exchange | undefined {
  const refused = (exchange?: Exchange) => exchange?.grantedBy === 'OAUTH-PASSWORD-1' && [401, 403, 422].includes(exchange.status ?? 0);
  return made.map((step) => step?.exchange).find(refused);
}

/** Undoes at once a move that should not have been made; what cannot be undone now is left to the ledger. */
async function undoNow(what: string, undo: () => Promise<Exchange>): Promise<void> {
  if (!succeeded(await undo())) remember(what, undo);
}

/** A move the token should be refused: made anyway, it is undone at once by a token that may. */
async function attempt(move: Promise<Exchange>, undo?: { what: string; run: (answer: Exchange) => Promise<Exchange> }): Promise<Exchange> {
  const exchange = await move;
  if (undo && succeeded(exchange)) await undoNow(`${undo.what}, made by a token without the scope`, () => undo.run(exchange));
  return exchange;
}

/** No move was made: a move the token was not refused fails the check whatever its controls show. */
function expectNoneMade(missing: string, moves: readonly Exchange[]): void {
  for (const move of moves) check(!succeeded(move), `a refusal (HTTP 4xx) of a user token holding "${heldWithout(missing)}" but not ${missing}`, answerLine(move), move);
}

/** Every move is refused (any 4xx: the contract does not show the code); how they were refused is an observation. */
async function expectRefused(context: TestContext, missing: string, moves: readonly Exchange[]): Promise<void> {
  for (const move of moves) {
    check(isRefusal(move), `a refusal (HTTP 4xx) of a user token holding "${heldWithout(missing)}" but not ${missing}`, answerLine(move), move);
  }
  const unusual = moves.filter((move) => answerOf(move) !== USUAL_REFUSAL).map((move) => `${move.method} ${move.path}: ${answerOf(move)}`);
  const how = unusual.length === 0 ? `each with ${USUAL_REFUSAL}, as real servers answer` : `${unusual.join('; ')} (real servers answer ${USUAL_REFUSAL})`;
  await context.annotate(`without ${missing}, ${moves.length} moves refused: ${how}`, 'observation');
}

/**
 * A flag of a pair, read with flagOn: on the status acted on, itself or inside the boost a server may answer in its
 * place (the wrapper's flags are the boost's); pinned is "present in some responses", so it may be absent.
 */
type Flag = 'favourited' | 'reblogged' | 'bookmarked' | 'muted' | 'pinned';

/** The moves of the Statuses table that set and clear one flag, with the scope they name and the clauses of their transitions. */
interface Pair {
  scope: string;
  flag: Flag;
  act: string;
  undo: string;
  actClause: string;
  undoClause: string;
  /** ACCESS-BROAD-1 names the act: the token holding only write makes it first, and is its control where accepted. */
  broad?: true;
}

const PAIRS: readonly Pair[] = [
  { scope: 'write:statuses', flag: 'reblogged', act: 'reblog', undo: 'unreblog', actClause: 'STATUS-REBLOG-1', undoClause: 'STATUS-REBLOG-4', broad: true },
  { scope: 'write:favourites', flag: 'favourited', act: 'favourite', undo: 'unfavourite', actClause: 'STATUS-FAV-1', undoClause: 'STATUS-FAV-3' },
  { scope: 'write:bookmarks', flag: 'bookmarked', act: 'bookmark', undo: 'unbookmark', actClause: 'STATUS-BOOKMARK-1', undoClause: 'STATUS-BOOKMARK-2', broad: true },
  { scope: 'write:mutes', flag: 'muted', act: 'mute', undo: 'unmute', actClause: 'STATUS-MUTE-1', undoClause: 'STATUS-MUTE-3' },
  { scope: 'write:accounts', flag: 'pinned', act: 'pin', undo: 'unpin', actClause: 'STATUS-PIN-1', undoClause: 'STATUS-PIN-5' },
];

/** The pairs of this release: a pair came with its act (the release of its act's clause). */
const pairs = PAIRS.filter((pair) => releaseHas(config.serverVersion, pair.actClause));

/** The scope lacked by the token that holds `scope`, the control of its pair: the two tokens are complementary. */
const holderScope = (scope: string) => (scope === 'write:statuses' ? 'write:favourites' : 'write:statuses');

/**
 * The act of a pair by a token holding its scope, the positive control of the refused act and what sets the flag the
 * refused undo must leave: 200 with the flag set, in its answer (whose id is the act's own check to judge: a reblog
 * answers its boost) or else in a read made after it (a stale answer is not the last word, moves.ts).
 * Otherwise the check is blocked by the act's clause.
 */
function expectControlAct(exchange: Exchange | undefined, read: Exchange, statusId: string, pair: Pair): void {
  if (!exchange) return block(causeOf(pair.actClause, `${pair.act} was not made by a token holding ${pair.scope}`));
  const shown = flagOn(exchange, statusId, pair.flag);
  // pinned is "present in some responses": a pin answered without it took as far as its answer tells.
  const took = shown === true || (shown === undefined && pair.flag === 'pinned') || shows(read, statusId, pair.flag, true).ok;
  if (exchange.status === 200 && took) return;
  const readSaid = exchange.status === 200 ? `, and a read after it answered ${answered(read)} with ${pair.flag} ${JSON.stringify(flagOn(read, statusId, pair.flag))}` : '';
  block(causeOf(pair.actClause, `${pair.act} by a token holding ${pair.scope} answered ${answered(exchange)} with ${pair.flag} ${JSON.stringify(shown)}${readSaid}`, exchange));
}

/**
 * The undo of a pair by a token holding its scope, the positive control of the refused undo: a 2xx shows that the
 * holder may make the move, which is all a refusal needs. Whether it clears the flag is the row's own clause
 * (STATUS-FAV-3, ...): the refused undo was judged before it, with the flag set, so it needs nothing more.
 */
function expectControlUndo(exchange: Exchange | undefined, pair: Pair): void {
  if (!exchange) return block(causeOf(pair.undoClause, `${pair.undo} was not made by a token holding ${pair.scope}`));
  if (!succeeded(exchange)) block(causeOf(pair.undoClause, `${pair.undo} by a token holding ${pair.scope} answered ${answered(exchange)}`, exchange));
}

const MEDIA_DESCRIPTION = 'conformance probe: as uploaded';
const MEDIA_CHANGED = 'conformance probe: changed by a token holding write:media';

/** The reads of the private status before anything is done to it. */
interface PrivateReads {
  /** By its owner, by the flow's token, by the token holding only write. */
  byOwner: Exchange;
  byFlow?: Exchange;
  withoutRead?: Exchange;
  /** Why the owner could not read their private status, if they could not (see whyOwnerCannotRead). */
  ownerCause?: RootCause;
  /** A read without a token, made only where the token holding only write saw the private status. */
  tokenless?: Exchange;
}

/** A's tokens besides the writer's: the complementary pair by the scope each lacks, the one holding only write, and the private status as each read it. */
interface Tokens {
  lacking: Map<string, Grant>;
  broad: Grant;
  reads?: PrivateReads;
}

/**
 * The refused DELETE of the private status and the control's DELETE of it, whose answer (the Status) shows it was still
 * there; only where that DELETE answered otherwise, a read of the status after it.
 */
interface PrivateMoves {
  refusedDelete?: Exchange;
  deletion?: Exchange;
  readAfter?: Exchange;
}

/** The moves on the public status: the refused ones by the scope they lack, each pair's controls, and the reads between. */
interface TableMoves {
  refused: Map<string, Exchange[]>;
  acted: Map<string, Exchange>;
  undone: Map<string, Exchange>;
  /** The acts ACCESS-BROAD-1 names, made by the token holding only write, by the scope of their pair. */
  broadActs: Map<string, Exchange>;
  /**
   * The status read after the refused acts (every flag clear), and after the refused undos (every flag the controls set);
   * `set` is that read where it shows every flag, else a read after the controls whose flag it did not show acted again.
   */
  clear: Exchange;
  set: Exchange;
  after: Exchange;
}

/** ACCESS-APPTOKEN-1's token, its refused post, and its read of the following of the account the statuses name. */
interface ApplicationMoves {
  token: Step<string>;
  post?: Exchange;
  followedAccount?: StepOutcome<string>;
  following?: Exchange;
}

/** The refused moves of the Media table, and their controls by the token lacking write:statuses, which holds write:media. */
interface MediaMoves {
  upload: Step<Attachment>;
  refused: Exchange[];
  attachmentRead?: Exchange;
  update?: Exchange;
}

/**
 * Why the owner's read of their private status failed, if it did: where the context of the same status answers
 * the same token, the token was taken and the read itself failed (STATUS-READ-2); otherwise it was not (AUTH-BEARER-1).
 */
async function whyOwnerCannotRead(owner: Actor, path: string, read: Exchange): Promise<RootCause | undefined> {
  if (read.status === 200) return undefined;
  const thread = await owner.get(`${path}/context`);
  const summary = `the owner's read of their private status answered ${answered(read)}, its context ${answered(thread)}`;
  return causeOf(thread.status === 200 ? 'STATUS-READ-2' : 'AUTH-BEARER-1', summary, read);
}

/** The statuses the checks act on, posted at once by the token holding read and write:statuses only. */
const postStatuses = (writer: Actor) =>
  Promise.all([
    writer.createStatus({ status: 'conformance probe: a public status to act on', visibility: 'public' }),
    writer.createStatus({ status: 'conformance probe: a private status', visibility: 'private' }),
  ]);

// Every token is account A's, from the password grant or else the web sign-in: without A's credentials, neither.
const CREDENTIALS = requirement(config.usernameA && config.passwordA, NO_CREDENTIALS);

// The ledger reads the application once more at the end, with an authorization code that does not exist.
const registered = step('an application registered with the narrow scopes it asks for (else the plainest registration)', { as: 'anonymous', cost: { api: 1, oauth: 1 } }, async (_, { actor }) => {
  const narrow = await registerApp(actor, { client_name: NAME, website: WEBSITE, scopes: NARROW_REGISTRATION });
  // A server that registers only rule 5's scopes is asked for the plainest registration.
  const refused = narrow.exchange?.status !== undefined && narrow.exchange.status >= 400 && narrow.exchange.status < 500;
  return refused ? registerApp(actor, { client_name: NAME, website: WEBSITE, scopes: BROAD_REGISTRATION }) : narrow;
});

// A web sign-in (the authorization form, its approval, the code's exchange); its token is revoked and read by the ledger.
const flow = step("A's token lacking write:statuses (read and every other write scope), by the authorization code flow", { as: 'A', needs: { registered }, cost: { api: 1, oauth: 4 } }, async ({ registered }, { actor }) =>
  made(await new TokenSource(actor, registered).byAuthorizationCode(WITHOUT_STATUSES)),
);

/**
 * The writer's first posts are the first user operation of a password grant's token: refused there, the grant counts
 * as refused and every token comes from the web sign-in, the writer's first. The ledger revokes the token and reads it
 * refused, deletes the public status and reads both statuses gone.
 */
const writer = step("A's token holding read and write:statuses only, and the public and private statuses it posts", { as: 'A', needs: { registered }, cost: { api: 6, oauth: 2 } }, async ({ registered }, { actor }) => {
  const tokens = new TokenSource(actor, registered);
  let grant = await tokens.userToken(STATUSES_ONLY);
  let posted = actorOf(grant) ? await postStatuses(actorOf(grant) as Actor) : undefined;
  const refusal = posted && refusalOfToken(posted);
  if (refusal) {
    tokens.refusedOnFirstUse(refusal);
    grant = await tokens.userToken(STATUSES_ONLY);
    posted = actorOf(grant) ? await postStatuses(actorOf(grant) as Actor) : undefined;
  }
  if ('skip' in grant) return notMade(causeOf(undefined, grant.skip));
  if (!grant.ok || !posted) return notMade(grant.ok ? causeOf(undefined, 'no status posted') : grant.cause, grant.exchange);
  const [subject, hidden] = posted;
  return made({ grant, actor: grant.value, subject, hidden, ...(tokens.passwordFailed ? { passwordFailed: tokens.passwordFailed } : {}) }, grant.exchange);
});

/**
 * The private status read by its owner, by the flow's token and by the token holding only write, before anything is
 * done to it; where the token holding only write saw it, by `anonymous` too (no token).
 */
async function readPrivate(owner: Actor, hidden: Status, byFlowToken: Actor | undefined, onlyWrite: Actor | undefined, anonymous: Actor): Promise<PrivateReads> {
  const path = `/api/v1/statuses/${hidden.id}`;
  const [byOwner, byFlow, withoutRead] = await Promise.all([owner.get(path), byFlowToken?.get(path), onlyWrite?.get(path)]);
  // Where the token holding only write saw it, a read without a token shows whether anyone may (STATUS-READ-4).
  const [ownerCause, tokenless] = await Promise.all([whyOwnerCannotRead(owner, path, byOwner), withoutRead && succeeded(withoutRead) ? anonymous.get(path) : undefined]);
  return { byOwner, ...(byFlow ? { byFlow } : {}), ...(withoutRead ? { withoutRead } : {}), ...(ownerCause ? { ownerCause } : {}), ...(tokenless ? { tokenless } : {}) };
}

/**
 * A's other tokens: the one lacking write:statuses (the flow's, where it gave one) and the one holding only write; then
 * the private status read by each token that holds read or is judged reading it. Where the flow's token did not read it
 * and the owner's did, that token does not act for A (AUTH-FLOW-1's to judge): the checks it would serve get one from the
 * password grant instead, or are blocked by AUTH-FLOW-1. The ledger revokes each token and reads it refused.
 */
const others = step(
  "A's token lacking write:statuses and the one holding only write, and the private status read by its owner, by the flow's token and by the one holding only write",
  { as: 'A', alsoAs: ['anonymous'], needs: { registered, writer, flow }, cost: { api: 4, oauth: 2 } },
  async ({ registered, writer, flow }, { actor, also }): Promise<StepOutcome<Tokens>> => {
    const tokens = new TokenSource(actor, registered, writer.passwordFailed);
    const [fromFlow, broad] = await Promise.all([actorOf(flow) ? flow : tokens.userToken(WITHOUT_STATUSES), tokens.userToken('write')]);
    const flowToken = actorOf(flow);
    const reads = writer.hidden.ok ? await readPrivate(writer.actor, writer.hidden.value, flowToken, actorOf(broad), also.anonymous as Actor) : undefined;
    let withoutStatuses: Grant = fromFlow;
    if (flowToken && reads?.byFlow && reads.byOwner.status === 200 && reads.byFlow.status !== 200) {
      const byPassword = await tokens.byPassword(WITHOUT_STATUSES);
      const summary = `the authorization code flow's token answered ${answered(reads.byFlow)} to a read of A's private status, which A's other token read`;
      withoutStatuses = byPassword.ok ? byPassword : failed<Actor>(causeOf('AUTH-FLOW-1', `${summary}, and the password grant gave no token: ${byPassword.cause.summary}`, reads.byFlow), reads.byFlow);
    }
    const lacking = new Map<string, Grant>(WRITE_SCOPES.map((scope): [string, Grant] => [scope, scope === 'write:statuses' ? withoutStatuses : writer.grant]));
    return made({ lacking, broad, ...(reads ? { reads } : {}) });
  },
);

// The token is revoked and read by the ledger; a post made anyway is deleted at once.
const application = step(
  "an application token (client credentials): its post, and its read of the following of the statuses' account",
  { as: 'application', alsoAs: ['A'], needs: { registered }, uses: { writer }, cost: { api: 3, oauth: 2 } },
  async ({ registered, writer }, { actor, also }): Promise<StepOutcome<ApplicationMoves>> => {
  // write:statuses is held outright, so that the access kind is the only reason left to refuse.
  const { step: token } = await requestToken(actor, registered, { grant_type: 'client_credentials', scope: 'read write:statuses' });
  if (!token.ok) return made({ token });
  const caller = actor.withToken('application', token.value);
  const post = await attempt(caller.post('/api/v1/statuses', { status: 'conformance probe: posted with an application token', visibility: 'direct' }, keyed()), {
    what: 'a status posted with an application token',
    run: (answer) => caller.delete(`/api/v1/statuses/${createdId(answer)}`),
  });
  // The account whose following it reads: the one of this group's statuses where it has them.
  const subject = writer.ok ? writer.value.subject : undefined;
  const followedAccount = subject ? (subject.ok ? reached(subject.value.account.id, subject.exchange) : subject) : await accountIdOf(also.A as Actor);
  const following = followedAccount.ok ? await caller.get(`/api/v1/accounts/${followedAccount.value}/following`) : undefined;
  return made({ token, post, followedAccount, ...(following ? { following } : {}) });
  },
);

/**
 * After the reads (others), the refused DELETE of the private status: it comes last, so that made wrongly it takes
 * nothing from another check. Then the control's DELETE, whose answer, the Status, shows it was still there; where it
 * answered otherwise, a read tells. The ledger reads the status gone.
 */
const privateMoves = step(
  'the private status refused a DELETE without write:statuses, then deleted',
  { as: 'A', needs: { writer, others }, changes: [writer], cost: { api: 2 } },
  async ({ writer, others }): Promise<StepOutcome<PrivateMoves>> => {
    const { actor: owner, hidden } = writer;
    if (!hidden.ok) return notMade(hidden.cause, hidden.exchange);
    const path = `/api/v1/statuses/${hidden.value.id}`;
    const withoutStatuses = actorOf(others.lacking.get('write:statuses'));
    if (!withoutStatuses) return made({});
    const refusedDelete = await attempt(withoutStatuses.delete(path));
    if (succeeded(refusedDelete)) hidden.settle();
    // The control of DELETE: the token holding write:statuses deletes the private status.
    const deletion = await owner.delete(path);
    if (deletion.status === 200) hidden.settle();
    const readAfter = succeeded(deletion) ? undefined : await owner.get(path);
    return made({ refusedDelete, deletion, ...(readAfter ? { readAfter } : {}) });
  },
);

/** The refused moves of each pair on the public status, their controls, and the reads that show what they left. */
const tableMoves = step(
  'the public status: the refused moves of each pair, their controls, and the reads of what they left',
  { as: 'A', needs: { writer, others }, changes: [writer], cost: { api: 23 } },
  async ({ writer: { actor: writer, subject }, others: { lacking, broad } }): Promise<StepOutcome<TableMoves | undefined>> => {
    // Without every pair's token, or the status, the checks are blocked by what is missing: nothing is moved.
    if (!subject.ok || !pairs.every((pair) => actorOf(lacking.get(pair.scope)))) return made(undefined);
    const target = subject.value;
    const tokenLacking = (scope: string) => actorOf(lacking.get(scope)) as Actor;
    const holder = (scope: string) => tokenLacking(holderScope(scope));
    const on = (action: string) => `/api/v1/statuses/${target.id}/${action}`;
    const read = () => writer.get(`/api/v1/statuses/${target.id}`);
    const onlyWrite = actorOf(broad);
    const refused = new Map<string, Exchange[]>();
    const refusedWithout = (scope: string, move: Exchange) => refused.set(scope, [...(refused.get(scope) ?? []), move]);
    // 1. The refused POST and each refused act on the subject as posted, at once; then one read shows what they left.
    const [post, ...acts] = await Promise.all([
      attempt(tokenLacking('write:statuses').post('/api/v1/statuses', { status: 'conformance probe: posted without write:statuses', visibility: 'direct' }, keyed()), {
        what: 'a status',
        run: (answer) => writer.delete(`/api/v1/statuses/${createdId(answer)}`),
      }),
      ...pairs.map((pair) => attempt(tokenLacking(pair.scope).post(on(pair.act)), { what: `${pair.act} of ${target.id}`, run: () => holder(pair.scope).post(on(pair.undo)) })),
    ]);
    refusedWithout('write:statuses', post as Exchange);
    pairs.forEach((pair, i) => refusedWithout(pair.scope, acts[i] as Exchange));
    const clear = await read();
    // 2. The controls act at once, each with a token holding the scope; the ledger undoes them should step 4 not.
    const acted = new Map<string, Exchange>();
    const broadActs = new Map<string, Exchange>();
    const settles = new Map<string, () => void>();
    await Promise.all(
      pairs.map(async (pair) => {
        const byBroad = pair.broad && onlyWrite ? await onlyWrite.post(on(pair.act)) : undefined;
        if (byBroad) broadActs.set(pair.scope, byBroad);
        const control = byBroad?.status === 200 ? byBroad : await holder(pair.scope).post(on(pair.act));
        acted.set(pair.scope, control);
        if (succeeded(control) || (byBroad && succeeded(byBroad))) {
          settles.set(pair.scope, remember(`${pair.act} of ${target.id}`, () => holder(pair.scope).post(on(pair.undo)), { made: byBroad ?? control }).settle);
        }
      }),
    );
    // 3. Each refused undo with every flag set, at once, redone at once should it be made.
    const undos = await Promise.all(
      pairs.map((pair) => attempt(tokenLacking(pair.scope).post(on(pair.undo)), { what: `${pair.undo} of ${target.id}`, run: () => holder(pair.scope).post(on(pair.act)) })),
    );
    pairs.forEach((pair, i) => refusedWithout(pair.scope, undos[i] as Exchange));
    // Then one read. A server may apply the acts in the background: it waits, within the settle window, for each flag a
    // control set (pinned is "present in some responses": a read without it shows what it can). Where every flag shows,
    // it shows both that the reads carry the owner's flags and that the refused undos left them.
    const shown = (exchange: Exchange, pair: Pair) => flagOn(exchange, target.id, pair.flag) === true || (pair.flag === 'pinned' && flagOn(exchange, target.id, pair.flag) === undefined);
    const setShown = (exchange: Exchange) => pairs.every((pair) => acted.get(pair.scope)?.status !== 200 || shown(exchange, pair));
    const after = (await settle(read, setShown, now())).exchange;
    // Only where a flag a control set does not show: that control acts again, and a read tells whether reads show the
    // flag at all (if they do, the refused undo cleared it). Step 4 undoes these acts too.
    const unshown = pairs.filter((pair) => acted.get(pair.scope)?.status === 200 && !shown(after, pair));
    if (unshown.length > 0) await Promise.all(unshown.map((pair) => holder(pair.scope).post(on(pair.act))));
    const set = unshown.length > 0 ? (await settle(read, setShown, now())).exchange : after;
    // 4. The controls undo, at once.
    const undone = new Map<string, Exchange>();
    await Promise.all(
      pairs.map(async (pair) => {
        const control = await holder(pair.scope).post(on(pair.undo));
        undone.set(pair.scope, control);
        if (succeeded(control)) settles.get(pair.scope)?.();
      }),
    );
    return made({ refused, acted, undone, broadActs, clear, set, after });
  },
);

/** The refused moves of the Media table, and their controls by the token lacking write:statuses, which holds write:media. */
const mediaMoves = step(
  'an upload by a token holding write:media, and the upload, read and update refused without it',
  // The ledger deletes the upload and reads its file gone.
  { as: 'A', needs: { others }, cost: { api: 7, files: 2 } },
  async ({ others: { lacking } }): Promise<StepOutcome<MediaMoves | undefined>> => {
    const actor = actorOf(lacking.get('write:media'));
    const holder = actorOf(lacking.get(holderScope('write:media')));
    if (!actor || !holder) return made(undefined);
    // One upload each: v2 is "equal to v1 in all other aspects", and the run's Uploading budget is small. Both send
    // the image of ordinary size MEDIA-UPLOAD-1 judges: a refusal of the file itself is no refusal for a scope.
    const [upload, refusedUpload] = await Promise.all([
      holder.upload(MEDIA_FIXTURES.png, { description: MEDIA_DESCRIPTION }),
      attempt(actor.sendUpload(MEDIA_FIXTURES.png, { description: 'conformance probe: uploaded without write:media' }), {
        what: 'an attachment',
        run: (answer) => holder.delete(`/api/v1/media/${createdId(answer)}`),
      }),
    ]);
    if (!upload.ok) return made({ upload, refused: [refusedUpload] });
    const path = `/api/v1/media/${upload.value.id}`;
    const readable = releaseHas(config.serverVersion, 'MEDIA-READ-1');
    // Read and update paths are not shown; these are Mastodon's, as in the media group.
    const [refusedRead, refusedUpdate] = await Promise.all([
      readable ? actor.get(path) : undefined,
      attempt(actor.put(path, { description: 'conformance probe: changed without write:media' }), {
        what: 'a description change',
        run: () => holder.put(path, { description: MEDIA_DESCRIPTION }),
      }),
    ]);
    const attachmentRead = readable ? await holder.get(path) : undefined;
    // The control of the update, after the read: a token holding write:media changes the description.
    const update = await holder.put(path, { description: MEDIA_CHANGED });
    return made({ upload, refused: [refusedUpload, ...(refusedRead ? [refusedRead] : []), refusedUpdate], ...(attachmentRead ? { attachmentRead } : {}), update });
  },
);

/** The token of a grant; skipped where this configuration cannot get one, blocked where the server gave none. */
function tokenOf(context: TestContext, grant: Grant | undefined): Actor {
  const given = grant as Grant;
  if ('skip' in given) return context.skip(given.skip);
  return need(given);
}

/** The owner reads their private status: the control of the checks that read it with other tokens. */
function ownerReads({ hidden }: { hidden: Created<Status> }, reads: PrivateReads | undefined): Status {
  const status = need(hidden);
  // Read wherever the status was made.
  const { ownerCause } = reads as PrivateReads;
  if (ownerCause) block(ownerCause);
  return status;
}

/** Every token the moves on the public status need: each pair's, whose controls' tokens are among them. */
const pairTokens = (context: TestContext, lacking: ReadonlyMap<string, Grant>) => pairs.forEach((pair) => tokenOf(context, lacking.get(pair.scope)));

/** The steps every check of the Statuses table judges. */
const TABLE = { requires: [CREDENTIALS], needs: { others, writer, tableMoves } };

/** The check of one pair: refused both ways, each a move that works with the scope, and the flag as it was; `also` are refused moves on other statuses. */
async function judgePair(context: TestContext, scope: string, { others, writer, tableMoves }: { others: { lacking: Map<string, Grant> }; writer: { subject: Created<Status> }; tableMoves: TableMoves | undefined }, also: readonly Exchange[] = []): Promise<void> {
  const pair = pairs.find((p) => p.scope === scope) as Pair;
  tokenOf(context, others.lacking.get(scope));
  tokenOf(context, others.lacking.get(holderScope(scope)));
  const { id } = need(writer.subject);
  pairTokens(context, others.lacking);
  const { refused, acted, undone, set, clear, after } = tableMoves as TableMoves;
  const moves = [...(refused.get(scope) ?? []), ...also];
  expectNoneMade(scope, moves);
  expectControlAct(acted.get(scope), set, id, pair);
  expectControlUndo(undone.get(scope), pair);
  // The reads show the owner's flags: the one the control set reads as set.
  const shown = flagOn(set, id, pair.flag);
  // pinned is "present in some responses": where even the pin's own answer leaves it out, reads cannot show it.
  if (shown === undefined && pair.flag === 'pinned' && flagOn(acted.get(scope) as Exchange, id, 'pinned') === undefined) {
    block(causeOf(undefined, `neither the pin nor a read of the status shows pinned ("present in some responses"): ${answered(set)}`, set));
  }
  if (shown !== true) block(causeOf('AUTH-BEARER-1', `a read with the owner's token answered ${answered(set)} with ${pair.flag} ${JSON.stringify(shown)} after ${pair.act} by a token of the owner`, set));
  await expectRefused(context, scope, moves);
  // pinned is "present in some responses": absent reads as not pinned.
  expectEqual(flagOn(clear, id, pair.flag) === true, false, `${pair.flag} after the refused ${pair.act}`, clear);
  expectEqual(flagOn(after, id, pair.flag) === true, true, `${pair.flag} after the refused ${pair.undo}`, after);
}

section('Authentication', () => {
  it(
    'AUTH-FLOW-1 the authorization code flow gives a user token: exchanged at POST /oauth/token, it reads the private status of its user',
    { requires: [CREDENTIALS], needs: { flow }, uses: { writer, others } },
    ({ flow: grant, writer, others }, context) => {
      // A code the token operation refused to exchange is this flow's failure; a code that could not be had is not.
      if (!('skip' in grant) && !grant.ok && grant.cause.clause === 'AUTH-FLOW-1' && grant.exchange) {
        fail('HTTP 200 with a Token for the authorization code', answerLine(grant.exchange), grant.exchange);
      }
      tokenOf(context, grant);
      const { reads } = need(others);
      const status = ownerReads(need(writer), reads);
      const read = reads?.byFlow as Exchange;
      check(read.status === 200, "HTTP 200: the token acts for account A, so A's private status answers it", answerLine(read), read);
      expectEqual(expectOk<Status>(read, 'Status').id, status.id, 'id', read);
    },
  );

  it(
    'AUTH-BEARER-1 the token sent in the Authorization header as Bearer is taken: the private status answers its owner',
    { requires: [CREDENTIALS], needs: { writer, others } },
    ({ writer, others: { reads } }) => {
      const status = need(writer.hidden);
      const { byOwner: read, ownerCause } = reads as PrivateReads;
      if (ownerCause?.clause === 'STATUS-READ-2') block(ownerCause);
      check(read.status === 200, "HTTP 200: the Bearer header carries account A's token, so A's private status answers it", answerLine(read), read);
      expectEqual(expectOk<Status>(read, 'Status').id, status.id, 'id', read);
    },
  );

  it(
    'ACCESS-READ-1 a token of the owner without read:statuses (only write) cannot see its private status',
    { requires: [CREDENTIALS], needs: { others, writer } },
    ({ others, writer }, context) => {
      tokenOf(context, others.broad);
      ownerReads(writer, others.reads);
      const { withoutRead, tokenless } = others.reads as PrivateReads;
      const read = withoutRead as Exchange;
      // Such a token may read as no one: it is refused only where a read without a token is (STATUS-READ-4).
      if (tokenless && succeeded(tokenless)) block(causeOf('STATUS-READ-4', `a tokenless read of the private status answered ${answered(tokenless)}`, tokenless));
      check(isRefusal(read), 'a refusal (HTTP 4xx): the token holds write, not read:statuses', answerLine(read), read);
    },
  );

  it(
    "APPS-SHOWN-1 a status posted through the suite's application shows its client name and website",
    { requires: [CREDENTIALS], needs: { writer }, uses: { registered } },
    ({ writer: { subject: posted }, registered }) => {
      const app = need(registered);
      // What the registration kept of the name and website is APPS-REGISTER-2's to judge.
      if ((typeof app.name === 'string' && app.name !== NAME) || (app.website ?? null) !== WEBSITE) {
        block(causeOf('APPS-REGISTER-2', `the registration answered name ${JSON.stringify(app.name)} and website ${JSON.stringify(app.website)}`, registered.exchange));
      }
      const shown = need(posted).application as { name?: unknown; website?: unknown } | null | undefined;
      expectEqual(shown ? { name: shown.name, website: shown.website ?? null } : shown, { name: NAME, website: WEBSITE }, 'application', posted.exchange);
    },
  );

  it(
    'ACCESS-APPTOKEN-1 an application token (client_credentials) is refused on POST /api/v1/statuses and accepted on GET /api/v1/accounts/:id/following',
    { needs: { application } },
    ({ application: { token, post: made, followedAccount, following: read } }) => {
      need(token);
      const post = made as Exchange;
      check(!succeeded(post), 'a refusal (HTTP 4xx): an application token acts for no user', answerLine(post), post);
      // The controls: a user token posts (where this group has tokens, its own statuses), and the same application token is valid.
      need(followedAccount as StepOutcome<string>);
      const following = read as Exchange;
      if (following.status !== 200) block(causeOf('RELATIONS-APPTOKEN-1', `following answered ${answered(following)} to the same application token`, following));
      check(isRefusal(post), 'a refusal (HTTP 4xx): an application token acts for no user', answerLine(post), post);
      check(following.status === 200, 'HTTP 200: the same token is accepted where an application token suffices', answerLine(following), following);
    },
  );

  it(
    'ACCESS-BROAD-1 a token holding only the broad write scope is accepted on .../reblog (write:statuses) and .../bookmark (write:bookmarks)',
    TABLE,
    ({ others, writer, tableMoves }, context) => {
      tokenOf(context, others.broad);
      need(writer.subject);
      pairTokens(context, others.lacking);
      const { broadActs, acted } = tableMoves as TableMoves;
      for (const pair of pairs.filter((p) => p.broad)) {
        const made = broadActs.get(pair.scope) as Exchange;
        // The control: where the broad write was not accepted, a token holding the write:* scope itself made the move.
        const control = acted.get(pair.scope) as Exchange;
        if (control.status !== 200) block(causeOf(pair.actClause, `${pair.act} by a token holding its write:* scope answered ${answered(control)}`, control));
        check(made.status === 200, 'HTTP 200: write grants the write:* scope the operation names', answerLine(made), made);
        expectOk(made, 'Status');
      }
    },
  );

  section('write operations of the Statuses table', () => {
    it(
      'ACCESS-SCOPE-STATUSES-1 without write:statuses, POST /api/v1/statuses, DELETE, reblog and unreblog are refused and change nothing',
      { requires: [CREDENTIALS], needs: { ...TABLE.needs, privateMoves } },
      async (steps, context) => {
        const { others, writer, privateMoves } = steps;
        tokenOf(context, others.lacking.get('write:statuses'));
        const status = need(writer.hidden);
        const { refusedDelete, readAfter, deletion } = privateMoves;
        await judgePair(context, 'write:statuses', steps, refusedDelete ? [refusedDelete] : []);
        // The controls of POST and DELETE: the token holding write:statuses posted the statuses, and deletes the private one.
        const deleted = deletion as Exchange;
        if (succeeded(deleted)) {
          // Its answer is the Status deleted ("Status with text"): this status, so it was still there after the refused DELETE.
          const shownId = createdObject(deleted)?.id;
          if (deleted.status !== 200 || shownId !== status.id) {
            block(causeOf('STATUS-DELETE-1', `DELETE of the caller's own status answered ${answered(deleted)} with id ${JSON.stringify(shownId)}, not the status deleted`, deleted));
          }
          check(shownId === status.id, "the status still there after the refused DELETE: its owner's DELETE answers it", answerLine(deleted), deleted);
          return;
        }
        // The owner's DELETE was refused: a read after it tells whether the refused DELETE had taken the status.
        ownerReads(writer, others.reads);
        const read = readAfter as Exchange;
        if (!isRefusal(deleted) || read.status === 200) block(causeOf('STATUS-DELETE-1', `DELETE of the caller's own status answered ${answered(deleted)}`, deleted));
        check(read.status === 200, 'HTTP 200: the status is still there after the refused DELETE', answerLine(read), read);
      },
    );

    it('ACCESS-SCOPE-FAVOURITES-1 without write:favourites, favourite and unfavourite are refused and change nothing', TABLE, (steps, context) =>
      judgePair(context, 'write:favourites', steps),
    );

    it('ACCESS-SCOPE-BOOKMARKS-1 without write:bookmarks, bookmark and unbookmark are refused and change nothing', TABLE, (steps, context) =>
      judgePair(context, 'write:bookmarks', steps),
    );

    it('ACCESS-SCOPE-MUTES-1 without write:mutes, mute and unmute are refused and change nothing', TABLE, (steps, context) => judgePair(context, 'write:mutes', steps));

    it('ACCESS-SCOPE-ACCOUNTS-1 without write:accounts, pin and unpin are refused and change nothing', TABLE, (steps, context) => judgePair(context, 'write:accounts', steps));
  });

  section('write operations of the Media table', () => {
    it(
      'ACCESS-SCOPE-MEDIA-1 without write:media, the media upload, read and update are refused and change nothing',
      { requires: [CREDENTIALS], needs: { others, mediaMoves } },
      async ({ others, mediaMoves }, context) => {
        tokenOf(context, others.lacking.get('write:media'));
        // The control's token, which holds write:media.
        tokenOf(context, others.lacking.get(holderScope('write:media')));
        const { upload, refused, attachmentRead, update } = mediaMoves as MediaMoves;
        // The controls: a token holding write:media uploads, reads and updates.
        const uploaded = need(upload);
        expectNoneMade('write:media', refused);
        const changed = update as Exchange;
        if (!succeeded(changed) || createdObject(changed)?.description !== MEDIA_CHANGED) {
          block(causeOf('MEDIA-UPDATE-1', `an update of the description by a token holding write:media answered ${answered(changed)}`, changed));
        }
        if (attachmentRead && attachmentRead.status !== 200 && attachmentRead.status !== 206) {
          block(causeOf('MEDIA-READ-1', `a read of the attachment by a token holding write:media answered ${answered(attachmentRead)}`, attachmentRead));
        }
        await expectRefused(context, 'write:media', refused);
        if (!attachmentRead) return;
        // The attachment may still be processing (206); either way its description is as uploaded.
        expectEqual(createdObject(attachmentRead)?.description, uploaded.description, 'description after the refused update', attachmentRead);
      },
    );
  });
});

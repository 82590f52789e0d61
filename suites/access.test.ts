// The contract's "Authentication" section where the operations run: rules 4, 5 and 8 and the Access column of
// the Statuses and Media tables. Every write operation refuses a user token that lacks the scope it names, an
// application token is no user token, private reads need read:statuses, the broad write scope grants its
// narrower ones, a token comes from the authorization code flow, and a status posted through an application
// shows it.
// One application (read write follow push) gives every token of account A: for each fine-grained write scope, a
// token holding read and every other write:* scope, never the broad write, which would grant the one left out.
// Each group makes its moves once in beforeAll; its checks judge the answers. 39 requests against the reference
// server, and 13 for the cleanup's undos and token revocations.
import { beforeAll, describe, it, type TestContext } from 'vitest';
import { MEDIA_FIXTURES } from '../fixtures/media/index.ts';
import { accountIdOf, actors, OOB, registerApp, requestToken, type Actor, type Application, type Attachment, type Status } from './support/actors.ts';
import { remember } from './support/cleanup.ts';
import { releaseAtLeast } from './support/config.ts';
import { excerpt, jsonOf, type Exchange } from './support/http.ts';
import { needs, since } from './support/preconditions.ts';
import { authorizationCode } from './support/sign-in.ts';
import { check, expectEqual, expectJson, expectOk, fail } from './support/verify.ts';

const { config, a, anon } = actors();

// The releases that added the operations (the contract's Versioning table).
const BOOKMARKS = '3.1.0';
const MUTES = '1.4.2';
const PINS = '1.6.0';
const MEDIA_READ = '3.1.3';

/** Rule 5's fine-grained write scopes, those this release has (bookmarks came with 3.1.0). */
const WRITE_SCOPES = ['write:statuses', 'write:favourites', 'write:bookmarks', 'write:mutes', 'write:accounts', 'write:media'].filter(
  (scope) => scope !== 'write:bookmarks' || releaseAtLeast(config.serverVersion, BOOKMARKS),
);

/** Every registered scope but `missing`, in fine-grained form: the broad write would grant the one left out. */
const allBut = (missing: string) => ['read', ...WRITE_SCOPES.filter((scope) => scope !== missing)].join(' ');

// Real servers answer 403 with this; the contract does not show how a missing scope is refused.
const USUAL_REFUSAL = 'HTTP 403 {"error": "This action is outside the authorized scopes"}';

/** How the server answered, in the form of USUAL_REFUSAL. */
function answerOf(exchange: Exchange): string {
  const json = jsonOf(exchange);
  const error = json.ok ? (json.value as { error?: unknown } | null)?.error : undefined;
  return `HTTP ${exchange.status}${typeof error === 'string' ? ` {"error": "${error}"}` : ''}`;
}

const answerLine = (exchange: Exchange) => exchange.error ?? `HTTP ${exchange.status} ${excerpt(exchange.text, 200) || '(empty body)'}`;
const succeeded = (exchange: Exchange) => exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
const isRefusal = (exchange: Exchange) => exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500;
const idOf = (exchange: Exchange) => {
  const json = jsonOf(exchange);
  return json.ok ? String((json.value as { id?: unknown } | null)?.id) : '';
};

/** A token of account A, or why there is none. */
interface Grant {
  actor?: Actor;
  /** The token operation's answer, when one was asked. */
  exchange?: Exchange;
  reason: string;
}

/** The tokens the suite asks its application for, all of account A (so they share A's per-account buckets). */
class TokenSource {
  private passwordWorks = Boolean(config.usernameA && config.passwordA);
  constructor(private readonly app: Application) {}

  /** The password grant (rule 1: bots and single-user applications), when configured. */
  async byPassword(scope: string): Promise<Grant> {
    if (!this.passwordWorks) return { reason: 'the password grant gave no token before' };
    const grant = { grant_type: 'password', username: config.usernameA, password: config.passwordA, scope };
    const { token, exchange } = await requestToken(anon, this.app, grant);
    if (token) return { actor: a.withToken('A', token), exchange, reason: '' };
    this.passwordWorks = false;
    return { exchange, reason: `the password grant gave no token for "${scope}" (HTTP ${exchange.status ?? exchange.error})` };
  }

  /** The authorization code flow (rule 1: end users), driving the server's form as account A. */
  async byAuthorizationCode(scope: string): Promise<Grant> {
    const { code, reason } = await authorizationCode(anon, this.app, scope);
    if (!code) return { reason };
    const { token, exchange } = await requestToken(anon, this.app, { grant_type: 'authorization_code', code, redirect_uri: OOB, scope });
    if (token) return { actor: a.withToken('A', token), exchange, reason: '' };
    return { exchange, reason: `the authorization code gave no token for "${scope}" (HTTP ${exchange.status ?? exchange.error})` };
  }

  /** The password grant where it works, else the authorization code flow. */
  async userToken(scope: string): Promise<Grant> {
    if (!config.usernameA || !config.passwordA) {
      return { reason: 'needs CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A: tokens with chosen scopes come from the password grant or the authorization form' };
    }
    const password = await this.byPassword(scope);
    if (password.actor) return password;
    const flow = await this.byAuthorizationCode(scope);
    return flow.actor ? flow : { reason: `${password.reason}; ${flow.reason}` };
  }
}

/** What the ledger does should a refused move be made after all: undo it with a token that may. */
interface Undo {
  what: string;
  run: (answer: Exchange) => Promise<Exchange>;
}

/** A move the token should be refused. */
async function attempt(move: Promise<Exchange>, undo?: Undo): Promise<Exchange> {
  const exchange = await move;
  if (undo && succeeded(exchange)) remember(`${undo.what}, made by a token without the scope`, () => undo.run(exchange));
  return exchange;
}

/** Every move is refused (any 4xx: the contract does not show the code); how they were refused is an observation. */
async function expectRefused(context: TestContext, missing: string, moves: readonly Exchange[]): Promise<void> {
  for (const move of moves) {
    check(isRefusal(move), `a refusal (HTTP 4xx) of a user token holding "${allBut(missing)}" but not ${missing}`, answerLine(move), move);
  }
  const unusual = moves.filter((move) => answerOf(move) !== USUAL_REFUSAL).map((move) => `${move.method} ${move.path}: ${answerOf(move)}`);
  const how = unusual.length === 0 ? `each with ${USUAL_REFUSAL}, as real servers answer` : `${unusual.join('; ')} (real servers answer ${USUAL_REFUSAL})`;
  await context.annotate(`without ${missing}, ${moves.length} moves refused: ${how}`, 'observation');
}

type Flag = 'favourited' | 'reblogged' | 'bookmarked' | 'muted' | 'pinned';

/** The read after the refused moves shows the flag as it was before them. */
function expectUnchanged(read: Exchange, flag: Flag, before: boolean): void {
  const status = expectOk<Status>(read, 'Status');
  // pinned is "present in some responses": absent reads as not pinned.
  expectEqual(status[flag] === true, before, `${flag} after the refused moves`, read);
}

describe('Authentication', () => {
  let app: Application;
  /** Why the user tokens are missing, if they are. */
  let unavailable = '';
  /** Account A's tokens, each lacking one fine-grained write scope, by the scope it lacks. */
  const lacking = new Map<string, Actor>();
  /** The token lacking write:favourites, which may do everything else: it posts and reads the subjects. */
  let writer: Actor;
  /** A token holding only the broad write scope. */
  let broad: Grant;
  /** The token lacking write:accounts, from the authorization code flow (the password grant if the form cannot be driven). */
  let flow: Grant;
  let subject: Status;
  let subjectPosted: Exchange;
  let hidden: Status;
  let hiddenReadByFlow: Exchange | undefined;
  let hiddenReadByOwner: Exchange;
  let hiddenReadWithoutRead: Exchange | undefined;
  // Set by the broad token: the flags that unreblog and unbookmark clear, so that a wrong acceptance of those shows.
  let reblogSet: Exchange | undefined;
  let bookmarkSet: Exchange | undefined;

  beforeAll(async () => {
    ({ app } = await registerApp(anon, { client_name: 'conformance access', website: 'https://conformance.invalid/access' }));
    const tokens = new TokenSource(app);
    flow = await tokens.byAuthorizationCode(allBut('write:accounts'));
    for (const scope of WRITE_SCOPES) {
      const grant = scope === 'write:accounts' && flow.actor ? flow : await tokens.userToken(allBut(scope));
      if (!grant.actor) {
        unavailable = grant.reason;
        return;
      }
      lacking.set(scope, grant.actor);
    }
    broad = await tokens.userToken('write');
    writer = lacking.get('write:favourites') as Actor;
    ({ status: subject, exchange: subjectPosted } = await writer.createStatus({ status: 'conformance probe: a public status to act on', visibility: 'public' }));
    ({ status: hidden } = await writer.createStatus({ status: 'conformance probe: a private status', visibility: 'private' }));
    hiddenReadByFlow = await flow.actor?.get(`/api/v1/statuses/${hidden.id}`);
    hiddenReadByOwner = await writer.get(`/api/v1/statuses/${hidden.id}`);
    hiddenReadWithoutRead = await broad.actor?.get(`/api/v1/statuses/${hidden.id}`);
    reblogSet = await broad.actor?.interact(subject.id, 'reblog', 'unreblog');
    if (releaseAtLeast(config.serverVersion, BOOKMARKS)) bookmarkSet = await broad.actor?.interact(subject.id, 'bookmark', 'unbookmark');
  });

  /** The token lacking `scope`. */
  const as = (scope: string) => lacking.get(scope) as Actor;
  /** Skips a check when the user tokens could not be had. */
  const ready = (context: TestContext) => needs(context, !unavailable, unavailable);

  it('AUTH-FLOW-1 the authorization code flow gives a user token: exchanged at POST /oauth/token, it reads the private status of its user', (context) => {
    needs(context, flow.exchange, flow.reason);
    expectOk(flow.exchange as Exchange, 'Token');
    needs(context, hiddenReadByFlow, unavailable);
    const read = hiddenReadByFlow as Exchange;
    check(read.status === 200, "HTTP 200: the token acts for account A, so A's private status answers it", answerLine(read), read);
    expectEqual(expectOk<Status>(read, 'Status').id, hidden.id, 'id', read);
  });

  it('AUTH-BEARER-1 the token sent in the Authorization header as Bearer is taken: the private status answers its owner', (context) => {
    ready(context);
    const read = hiddenReadByOwner;
    check(read.status === 200, "HTTP 200: the Bearer header carries account A's token, so A's private status answers it", answerLine(read), read);
    expectEqual(expectOk<Status>(read, 'Status').id, hidden.id, 'id', read);
  });

  it('ACCESS-READ-1 a token of the owner without read:statuses (only write) cannot see its private status', (context) => {
    ready(context);
    needs(context, hiddenReadWithoutRead, broad.reason);
    const read = hiddenReadWithoutRead as Exchange;
    check(isRefusal(read), 'a refusal (HTTP 4xx): the token holds write, not read:statuses', answerLine(read), read);
  });

  it('APPS-SHOWN-1 a status posted through the suite\'s application shows its client name and website', (context) => {
    ready(context);
    const shown = subject.application as { name?: unknown; website?: unknown } | null | undefined;
    const registered = { name: app.name, website: app.website ?? null };
    expectEqual(shown ? { name: shown.name, website: shown.website ?? null } : shown, registered, 'application', subjectPosted);
  });

  it('ACCESS-APPTOKEN-1 an application token (client_credentials) is refused on POST /api/v1/statuses and accepted on GET /api/v1/accounts/:id/following', async () => {
    // write:statuses is held outright, so that the access kind is the only reason left to refuse.
    const { token, exchange } = await requestToken(anon, app, { grant_type: 'client_credentials', scope: 'read write:statuses' });
    if (!token) fail('an application token with "read write:statuses" from POST /oauth/token', answerLine(exchange), exchange);
    const application = anon.withToken('application', token);
    const post = await attempt(application.post('/api/v1/statuses', { status: 'conformance probe: posted with an application token', visibility: 'direct' }), {
      what: 'a status posted with an application token',
      run: (answer) => application.delete(`/api/v1/statuses/${idOf(answer)}`),
    });
    const accountId = subject ? subject.account.id : await accountIdOf(a);
    const following = await application.get(`/api/v1/accounts/${accountId}/following`);
    check(isRefusal(post), 'a refusal (HTTP 4xx): an application token acts for no user', answerLine(post), post);
    check(following.status === 200, 'HTTP 200: the same token is accepted where an application token suffices', answerLine(following), following);
  });

  it('ACCESS-BROAD-1 a token holding only the broad write scope is accepted on .../reblog (write:statuses) and .../bookmark (write:bookmarks)', (context) => {
    ready(context);
    needs(context, broad.actor, broad.reason);
    for (const set of [reblogSet, bookmarkSet]) {
      if (!set) continue;
      check(set.status === 200, 'HTTP 200: write grants the write:* scope the operation names', answerLine(set), set);
      expectOk(set, 'Status');
    }
  });

  describe('write operations of the Statuses table', () => {
    const moves = new Map<string, Exchange[]>();
    let subjectRead: Exchange;
    let hiddenRead: Exchange;

    beforeAll(async () => {
      if (unavailable) return;
      const on = (action: string) => `/api/v1/statuses/${subject.id}/${action}`;
      /** A move and its undo by the token lacking `scope`; the first, wrongly made, is undone by `undoer`, who may. */
      const pair = async (scope: string, action: string, undo: string, undoer = writer) => {
        moves.set(scope, [
          await attempt(as(scope).post(on(action)), { what: `${action} of ${subject.id}`, run: () => undoer.post(on(undo)) }),
          await attempt(as(scope).post(on(undo))),
        ]);
      };
      const withoutStatuses = as('write:statuses');
      moves.set('write:statuses', [
        await attempt(withoutStatuses.post('/api/v1/statuses', { status: 'conformance probe: posted without write:statuses', visibility: 'direct' }), {
          what: 'a status',
          run: (answer) => writer.delete(`/api/v1/statuses/${idOf(answer)}`),
        }),
        await attempt(withoutStatuses.delete(`/api/v1/statuses/${hidden.id}`)),
        await attempt(withoutStatuses.post(on('reblog')), { what: `a boost of ${subject.id}`, run: () => writer.post(on('unreblog')) }),
        await attempt(withoutStatuses.post(on('unreblog'))),
      ]);
      // The writer lacks write:favourites: the token lacking write:statuses undoes a wrong favourite.
      await pair('write:favourites', 'favourite', 'unfavourite', withoutStatuses);
      if (releaseAtLeast(config.serverVersion, BOOKMARKS)) await pair('write:bookmarks', 'bookmark', 'unbookmark');
      if (releaseAtLeast(config.serverVersion, MUTES)) await pair('write:mutes', 'mute', 'unmute');
      if (releaseAtLeast(config.serverVersion, PINS)) await pair('write:accounts', 'pin', 'unpin');
      // One read of each status afterwards shows what the refused moves left.
      subjectRead = await writer.get(`/api/v1/statuses/${subject.id}`);
      hiddenRead = await writer.get(`/api/v1/statuses/${hidden.id}`);
    });

    it('ACCESS-SCOPE-STATUSES-1 without write:statuses, POST /api/v1/statuses, DELETE, reblog and unreblog are refused and change nothing', async (context) => {
      ready(context);
      await expectRefused(context, 'write:statuses', moves.get('write:statuses') ?? []);
      check(hiddenRead.status === 200, 'HTTP 200: the status is still there after the refused DELETE', answerLine(hiddenRead), hiddenRead);
      expectUnchanged(subjectRead, 'reblogged', reblogSet?.status === 200);
    });

    it('ACCESS-SCOPE-FAVOURITES-1 without write:favourites, favourite and unfavourite are refused and change nothing', async (context) => {
      ready(context);
      await expectRefused(context, 'write:favourites', moves.get('write:favourites') ?? []);
      expectUnchanged(subjectRead, 'favourited', false);
    });

    it('ACCESS-SCOPE-BOOKMARKS-1 without write:bookmarks, bookmark and unbookmark are refused and change nothing', async (context) => {
      since(context, config, BOOKMARKS);
      ready(context);
      await expectRefused(context, 'write:bookmarks', moves.get('write:bookmarks') ?? []);
      expectUnchanged(subjectRead, 'bookmarked', bookmarkSet?.status === 200);
    });

    it('ACCESS-SCOPE-MUTES-1 without write:mutes, mute and unmute are refused and change nothing', async (context) => {
      since(context, config, MUTES);
      ready(context);
      await expectRefused(context, 'write:mutes', moves.get('write:mutes') ?? []);
      expectUnchanged(subjectRead, 'muted', false);
    });

    it('ACCESS-SCOPE-ACCOUNTS-1 without write:accounts, pin and unpin are refused and change nothing', async (context) => {
      since(context, config, PINS);
      ready(context);
      await expectRefused(context, 'write:accounts', moves.get('write:accounts') ?? []);
      expectUnchanged(subjectRead, 'pinned', false);
    });
  });

  describe('write operations of the Media table', () => {
    const DESCRIPTION = 'conformance probe: as uploaded';
    let attachment: Attachment;
    const moves: Exchange[] = [];
    let attachmentRead: Exchange | undefined;

    beforeAll(async () => {
      if (unavailable) return;
      const actor = as('write:media');
      ({ attachment } = await writer.upload(MEDIA_FIXTURES.thumbnail, { description: DESCRIPTION }));
      // An upload that is wrongly accepted goes on the ledger by itself (sendUpload). One upload only: v2 is
      // "equal to v1 in all other aspects", and the run's Uploading budget is small.
      moves.push(await actor.sendUpload(MEDIA_FIXTURES.thumbnail, { description: 'conformance probe: uploaded without write:media' }));
      // Read and update paths are not shown; these are Mastodon's, as in the media group.
      if (releaseAtLeast(config.serverVersion, MEDIA_READ)) moves.push(await actor.get(`/api/v1/media/${attachment.id}`));
      moves.push(await actor.put(`/api/v1/media/${attachment.id}`, { description: 'conformance probe: changed without write:media' }));
      if (releaseAtLeast(config.serverVersion, MEDIA_READ)) attachmentRead = await writer.get(`/api/v1/media/${attachment.id}`);
    });

    it('ACCESS-SCOPE-MEDIA-1 without write:media, the media upload, read and update are refused and change nothing', async (context) => {
      ready(context);
      await expectRefused(context, 'write:media', moves);
      if (!attachmentRead) return;
      // The attachment may still be processing (206); either way its description is as uploaded.
      const read = expectJson(attachmentRead, [200, 206]) as Partial<Attachment>;
      expectEqual(read.description, DESCRIPTION, 'description after the refused update', attachmentRead);
    });
  });
});

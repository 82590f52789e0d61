// The contract's "States and transitions" table for statuses, row by row: favourite, reblog, bookmark, mute
// and pin, each with its "already" and error cases, and the accounts lists that follow favourites and boosts.
// A acts on its own public status `subject` (B boosts it, when configured: the boosts' unreblogs spend the
// Deletion bucket, and A's is the one the other groups spend most; B also tries to pin it, not being its owner);
// B, who cannot see A's private status `hidden`, shows the 404s. B's boosts come once A's moves on `subject` are all
// made and their undos confirmed: a status another account boosted may be answered as that boost (as some servers
// do), so no move of A's meets B's boost, whatever the timing of the chains. The moves the table gives no "already"
// case (reblog, bookmark, pin): a boost and a pin are each repeated once, while their flag is set (the repeats the
// issue asked for; a bookmark's would cost a request more). Once every row has judged it, A deletes `subject`, which B
// boosted and favourited. A's undos of a flag it never set (unfavourite,
// unbookmark, unmute of a status not favourited, bookmarked or muted) act on `hidden`, which A never sets one on:
// they need a status without the flag, not an undo that worked before them.
// Each row makes its moves once, in the order of the table, and its checks judge the answers. The rows' chains of
// moves run side by side in one beforeAll: each sets a flag of its own (B's flags are B's), so no chain meets
// another's state. Every move acts on the id of the status acted on, never on an id an answer gave (whether the
// answer is that status is the move's own check). A move is made only when the move before it took (support/act/moves.ts:
// its answer, or a read after a stale one, shows the flag): a move that did not take blocks the checks after it with
// its clause. What a probe that should be refused made anyway is undone at once, so that no later move meets it.
// A's undos must hold: once the settle window has passed since the last of them, one read of the status confirms
// each flag as the undo left it (a favourite that came back fails STATUS-FAV-3 and blocks what met it after).
import { beforeAll, describe, it } from 'vitest';
import { actors, type Actor } from './support/act/actors.ts';
import { createdObject, type Exchange, jsonOf, type RequestOptions } from './support/talk/http.ts';
import { madeStep, type Created, type Status } from './support/act/created.ts';
import { remember, type LedgerEntry } from './support/act/ledger.ts';
import { releaseAtLeast } from './support/talk/config.ts';
import type { FormParams } from './support/talk/form.ts';
import { Holds, shows, took, type Flag } from './support/act/moves.ts';
import { block, controlled, need, needHeld, needs, since } from './support/judge/preconditions.ts';
import { answerOf, causeOf, failed, succeeded, type Step } from './support/act/steps.ts';
import { expectNoMismatch } from './support/judge/run-wide.ts';
import { now, observeLate, settle } from './support/act/settle.ts';
import { check, expectEqual, expectHeld, expectError, expectList, expectOk, expectRefusal, statusLine } from './support/judge/verify.ts';

const { config, a, b } = actors();
const NEEDS_B = 'needs CONFORMANCE_TOKEN_B';
// The releases that added the operations (the contract's Versioning table).
const MUTES = '1.4.2';
const PINS = '1.6.0';
const BOOKMARKS = '3.1.0';
const REBLOG_VISIBILITY = '2.8.0';

const on = (statusId: string, operation: string) => `/api/v1/statuses/${statusId}/${operation}`;

/** The ledger entries of the moves not undone yet, by actor, undo and status: an undo that answers 200 settles its entry. */
const pending = new Map<string, LedgerEntry>();

/** A move the ledger undoes at the end, unless an undo of the group answered 200 before. */
async function move(actor: Actor, statusId: string, action: string, undo: string, form?: FormParams, options?: RequestOptions): Promise<Exchange> {
  const exchange = await actor.post(on(statusId, action), form, options);
  // A move whose answer never came may have been made all the same: the ledger undoes it, and a read tells.
  if (exchange.status === 200 || exchange.timedOut) {
    pending.set(`${actor.name} ${undo} ${statusId}`, remember(`${action} of ${statusId} by ${actor.name}`, () => actor.post(on(statusId, undo)), { unanswered: exchange.timedOut }));
  }
  return exchange;
}

async function undoMove(actor: Actor, statusId: string, undo: string): Promise<Exchange> {
  const exchange = await actor.post(on(statusId, undo));
  const key = `${actor.name} ${undo} ${statusId}`;
  if (exchange.status === 200) pending.get(key)?.settle();
  pending.delete(key);
  return exchange;
}

/**
 * A move made once more while its flag is set: what it answers is not shown, and the first move's ledger entry
 * undoes it. ERRORS-5XX-1 leaves a server error to it to STATUS-REPEAT-1, whose request it is.
 */
const repeat = (actor: Actor, statusId: string, action: string, form?: FormParams) => actor.post(on(statusId, action), form, { repeated: true });

/** The moves of `actor` on a status a read showed gone: they went with it, so nothing is left to undo. */
function settleGone(actor: Actor, statusId: string): void {
  for (const [key, entry] of pending) {
    if (key.startsWith(`${actor.name} `) && key.endsWith(` ${statusId}`)) {
      entry.settle();
      pending.delete(key);
    }
  }
}

/** A move the server should refuse: what it accepts anyway is undone at once, so that no later move meets it. */
async function probe(actor: Actor, statusId: string, action: string, undo: string, form?: FormParams, options?: RequestOptions): Promise<Exchange> {
  const exchange = await move(actor, statusId, action, undo, form, options);
  if (exchange.status === 200) await undoMove(actor, statusId, undo);
  return exchange;
}

/** A move made only when the step it needs holds; a move not made carries that step's cause to the checks that judge it. */
async function when<T>(needed: Step<T>, make: (value: T) => Promise<Exchange>): Promise<Step<Exchange>> {
  if (!needed.ok) return failed(needed.cause, needed.exchange);
  const exchange = await make(needed.value);
  return succeeded(exchange, exchange);
}

/** The boost a reblog answered: a Status of its own with the original in reblog. Otherwise `clause`, which judges that answer, is the cause. */
function boostOf(made: Step<Exchange>, original: Step<Status>, clause = 'STATUS-REBLOG-1'): Step<Status> {
  if (!made.ok) return failed(made.cause, made.exchange);
  if (!original.ok) return original;
  const body = createdObject(made.value);
  const reblog = body?.reblog as { id?: unknown } | null | undefined;
  if (made.value.status === 200 && typeof body?.id === 'string' && body.id !== original.value.id && reblog?.id === original.value.id) {
    return succeeded(body as Status, made.value);
  }
  return failed(causeOf(clause, `reblog answered ${answerOf(made.value)}${body ? ', not a boost of the original' : ''}`, made.value), made.value);
}

/** The id of the original a boost step found in its reblog. */
const originalOf = (boost: Status) => (boost.reblog as Status).id;

/**
 * The id of the original once the booster's boost of it exists, for the moves that need only that: the answer was
 * the boost, or else (`clause` judges that answer) the answer or a read shows the original reblogged.
 */
async function boostExists(booster: Actor, original: Step<Status>, made: Step<Exchange>, boost: Step<Status>, clause: string): Promise<Step<string>> {
  return boost.ok ? succeeded(originalOf(boost.value), boost.exchange) : took(booster, original, made, 'reblogged', true, clause, 'reblog');
}

/** The answer to a move is the Status acted on (its id, not another's), whose per-user flag has the value the transition gives it. */
function expectFlag(made: Step<Exchange>, acted: Step<Status>, flag: Flag, value: boolean): void {
  const [exchange, status] = [need(made), need(acted)];
  const body = expectOk<Status>(exchange, 'Status');
  expectEqual(body.id, status.id, 'id (the status acted on)', exchange);
  expectEqual(body[flag], value, flag, exchange);
}

/** The author of a status, for the accounts lists: a Status without an account id blocks the check. */
function authorOf(status: Status, exchange: Exchange): string {
  const id = status.account?.id;
  if (typeof id !== 'string') block(causeOf('RESOURCE-STATUS-1', 'a Status carries no account id', exchange));
  return id;
}

/** The account ids of an accounts list; a list that is not an array of Account (its own clause) blocks the check. */
function listedIds(exchange: Exchange, clause: 'STATUS-FAVOURITEDBY-1' | 'STATUS-REBLOGGEDBY-1', list: string): string[] {
  const json = jsonOf(exchange);
  if (exchange.status !== 200 || !json.ok || !Array.isArray(json.value)) block(causeOf(clause, `${list} answered ${answerOf(exchange)}, not an array`, exchange));
  return expectList<{ id: string }>(exchange, 'Account').map((account) => account.id);
}

/** An accounts list (reblogged_by, favourited_by) names the account before the undo and no longer after it. */
function expectListedUntilUndone(listed: Exchange, afterUndo: Exchange, accountId: string, clause: 'STATUS-FAVOURITEDBY-1' | 'STATUS-REBLOGGEDBY-1', list: string): void {
  const before = listedIds(listed, clause, list);
  check(before.includes(accountId), `${list} lists account ${accountId}`, `${list} ${JSON.stringify(before)}`, listed);
  const after = listedIds(afterUndo, clause, list);
  check(!after.includes(accountId), `after the undo ${list} no longer lists account ${accountId}`, `${list} ${JSON.stringify(after)}`, afterUndo);
}

/**
 * The moves of a pair by a caller who cannot see the status, as `asked`: the move (undone at once if it takes), its
 * undo, or both, the move first.
 */
async function pairOn(actor: Actor, status: Step<Status>, action: string, undo: string, asked: 'move' | 'undo' | 'both'): Promise<Step<Exchange[]>> {
  if (!status.ok) return failed(status.cause, status.exchange);
  const made = asked === 'undo' ? undefined : await probe(actor, status.value.id, action, undo);
  const undone = asked === 'move' ? undefined : await actor.post(on(status.value.id, undo));
  const exchanges = [made, undone].filter((exchange): exchange is Exchange => exchange !== undefined);
  return succeeded(exchanges, exchanges[0] as Exchange);
}

describe('States and transitions', () => {
  let subject: Created<Status>;
  let hidden: Created<Status>;
  /** The rows' chains of moves, made side by side once both statuses exist. */
  const chains: (() => Promise<void>)[] = [];
  /** B's boosts of `subject`, made once every chain of A's moves on it has ended and their undos are confirmed. */
  const boostChains: (() => Promise<void>)[] = [];
  /**
   * A's moves on its own public status, by operation: the positive controls of the refusals. A refusal counts only
   * where the same operation answered 2xx when it may act: a server without the operation refuses everything.
   */
  const visible = new Map<string, Step<Exchange>>();
  const pinExists = () => controlled(visible.get('pin'), 'STATUS-PIN-1', "A's pin of its own public status");
  /** A's undos on its public status, which must hold through the settle window. */
  const holds = new Holds();
  /** A's read of its public status that confirmed the undos held, once every row had moved (none where none had to hold). */
  let heldRead: Exchange | undefined;
  /** An undo of A's that answered its flag cleared must keep it so: STATUS-FAV-3, BOOKMARK-2, MUTE-3, PIN-5. */
  const holdIfShown = (made: Step<Exchange>, flag: Flag, clause: string, what: string) => {
    if (made.ok && subject.ok && shows(made.value, subject.value.id, flag, false).ok) holds.expect(flag, false, clause, what);
  };
  /** The moves repeated while their flag is set, by operation (STATUS-REPEAT-1). */
  const repeated = new Map<string, Step<Exchange>>();
  /** The original's id while the booster's last boost of it stands, at the end of the reblog row. */
  let standingBoost: Step<string> = failed({ summary: 'the reblog row left no boost standing' });

  beforeAll(async () => {
    [subject, hidden] = await Promise.all([
      a.createStatus({ status: 'conformance probe: a public status to interact with', visibility: 'public' }),
      a.createStatus({ status: 'conformance probe: a private status', visibility: 'private' }),
    ]);
    await Promise.all(chains.map((chain) => chain()));
    if (subject.ok) heldRead = await holds.confirm(a, subject.value.id);
    await Promise.all(boostChains.map((chain) => chain()));
  });

  /** A's private status as made, whatever its visibility: the undos of a flag never set need a status without it, nothing more. */
  const unflagged = () => madeStep(hidden);

  describe('favourite', () => {
    let favourite: Step<Exchange>;
    let again: Step<Exchange>;
    let listed: Step<Exchange>;
    let unfavourite: Step<Exchange>;
    let afterUndo: Step<Exchange>;
    let unfavouriteAgain: Step<Exchange>;

    chains.push(async () => {
      favourite = await when(subject, (s) => move(a, s.id, 'favourite', 'unfavourite'));
      const favourited = await took(a, subject, favourite, 'favourited', true, 'STATUS-FAV-1', 'favourite');
      again = await when(favourited, (id) => a.post(on(id, 'favourite')));
      listed = await when(favourited, (id) => a.get(on(id, 'favourited_by')));
      unfavourite = await when(favourited, (id) => undoMove(a, id, 'unfavourite'));
      visible.set('favourite', favourite).set('unfavourite', unfavourite);
      const unfavourited = await took(a, subject, unfavourite, 'favourited', false, 'STATUS-FAV-3', 'unfavourite');
      if (unfavourited.ok) holds.expect('favourited', false, 'STATUS-FAV-3', 'the unfavourite');
      afterUndo = await when(unfavourited, (id) => a.get(on(id, 'favourited_by')));
    });
    // "Not favourited" needs no unfavourite before it: A's private status, which A never favourites.
    chains.push(async () => {
      unfavouriteAgain = await when(unflagged(), (s) => a.post(on(s.id, 'unfavourite')));
    });

    it('STATUS-FAV-1 favourite answers the Status with favourited = true', async (context) => {
      await observeLate(context, 'STATUS-FAV-1');
      expectFlag(favourite, subject, 'favourited', true);
    });

    it('STATUS-FAV-2 favourite of a status already favourited still answers 200, favourited unchanged', () => {
      expectFlag(again, subject, 'favourited', true);
    });

    it('ERRORS-5XX-1 no well-formed request of this group so far, a repeated favourite among them, gets a server error (5xx)', () => {
      expectNoMismatch('ERRORS-5XX-1');
    });

    it('STATUS-FAV-3 unfavourite answers the Status with favourited = false', () => {
      expectFlag(unfavourite, subject, 'favourited', false);
      expectHeld(holds, 'STATUS-FAV-3');
    });

    it('STATUS-FAV-4 unfavourite of a status not favourited still answers 200, favourited = false', () => {
      // An answer other than 200 fails only where unfavourite answers at all: a server without it refuses everything.
      if (need(unfavouriteAgain).status !== 200) controlled(unfavourite, 'STATUS-FAV-3', "A's unfavourite of its favourited status");
      expectFlag(unfavouriteAgain, unflagged(), 'favourited', false);
    });

    it('STATUS-FAV-6 favourited_by lists the account that favourited, and no longer after its unfavourite', () => {
      const [before, after] = [need(listed), need(afterUndo)];
      needHeld(holds, 'STATUS-FAV-3');
      expectListedUntilUndone(before, after, authorOf(need(subject), subject.exchange as Exchange), 'STATUS-FAVOURITEDBY-1', 'favourited_by');
    });
  });

  describe('reblog', () => {
    const booster = b ?? a;
    const refused: Step<Exchange>[] = [];
    let boost: Step<Exchange>;
    let boosted: Step<Status>;
    let pinBoost: Step<Exchange>;
    let listed: Step<Exchange>;
    let unreblog: Step<Exchange>;
    let afterUndo: Step<Exchange>;
    let unreblogAgain: Step<Exchange>;
    const boostsByVisibility: { visibility: string; made: Step<Exchange> }[] = [];

    boostChains.push(async () => {
      const visibilityParameter = releaseAtLeast(config.serverVersion, REBLOG_VISIBILITY);
      // The refusals come first: a server answers a repeated reblog with the boost it already has.
      if (visibilityParameter) {
        for (const visibility of ['direct', 'limited']) refused.push(await when(subject, (s) => probe(booster, s.id, 'reblog', 'unreblog', { visibility }, { malformed: true })));
      }
      boost = await when(subject, (s) => move(booster, s.id, 'reblog', 'unreblog', visibilityParameter ? { visibility: 'public' } : undefined));
      boostsByVisibility.push({ visibility: 'public', made: boost });
      boosted = boostOf(boost, subject);
      const exists = await boostExists(booster, subject, boost, boosted, 'STATUS-REBLOG-1');
      // Without the visibility parameter the public boost is the last: it is repeated before its unreblog.
      if (!visibilityParameter) repeated.set('reblog', await when(exists, (id) => repeat(booster, id, 'reblog')));
      // The pin probe (undone at once if it takes) and the read leave the boost as it is: made side by side.
      const pinProbe = releaseAtLeast(config.serverVersion, PINS) ? when(boosted, (s) => probe(booster, s.id, 'pin', 'unpin')) : undefined;
      listed = await when(exists, (id) => booster.get(on(id, 'reblogged_by')));
      if (pinProbe) pinBoost = await pinProbe;
      unreblog = await when(exists, (id) => undoMove(booster, id, 'unreblog'));
      visible.set('reblog', boost).set('unreblog', unreblog);
      const unreblogged = await took(booster, subject, unreblog, 'reblogged', false, 'STATUS-REBLOG-4', 'unreblog');
      // Neither makes a boost: both meet the state the unreblog left.
      [afterUndo, unreblogAgain] = await Promise.all([
        when(unreblogged, (id) => booster.get(on(id, 'reblogged_by'))),
        when(unreblogged, (id) => booster.post(on(id, 'unreblog'))),
      ]);
      if (visibilityParameter) {
        // One boost per visibility: the unlisted one is undone to make room for the private one.
        const unlisted = await when(unreblogged, (id) => move(booster, id, 'reblog', 'unreblog', { visibility: 'unlisted' }));
        boostsByVisibility.push({ visibility: 'unlisted', made: unlisted });
        const unlistedExists = await boostExists(booster, subject, unlisted, boostOf(unlisted, subject, 'STATUS-REBLOG-2'), 'STATUS-REBLOG-2');
        const undone = await when(unlistedExists, (id) => undoMove(booster, id, 'unreblog'));
        const room = await took(booster, subject, undone, 'reblogged', false, 'STATUS-REBLOG-4', 'unreblog of the unlisted boost');
        const privately = await when(room, (id) => move(booster, id, 'reblog', 'unreblog', { visibility: 'private' }));
        boostsByVisibility.push({ visibility: 'private', made: privately });
        // The private boost stands to the end: it is repeated as it was made, and stays for the delete of its original.
        standingBoost = await boostExists(booster, subject, privately, boostOf(privately, subject, 'STATUS-REBLOG-2'), 'STATUS-REBLOG-2');
        repeated.set('reblog', await when(standingBoost, (id) => repeat(booster, id, 'reblog', { visibility: 'private' })));
      }
    });

    it('STATUS-REBLOG-1 reblog answers a new boost Status: its own id, the original in reblog with reblogged = true', () => {
      const [exchange, original] = [need(boost), need(subject)];
      const body = expectOk<Status>(exchange, 'Status');
      check(body.id !== original.id, `a boost id other than the original's ${original.id}`, `id ${body.id}`, exchange);
      expectEqual(body.reblog?.id, original.id, 'reblog.id', exchange);
      expectEqual(body.reblog?.reblogged, true, 'reblog.reblogged', exchange);
    });

    it('STATUS-REBLOG-2 the reblog visibility parameter (public, unlisted, private) is the visibility of the boost', (context) => {
      since(context, config, REBLOG_VISIBILITY);
      for (const { visibility, made } of boostsByVisibility) {
        // Whether the public boost is a boost at all is STATUS-REBLOG-1's to judge; the others' answers are this clause's.
        if (visibility === 'public') need(boostOf(made, subject));
        const exchange = need(made);
        const body = expectOk<Status>(exchange, 'Status');
        expectEqual(body.reblog?.id, need(subject).id, 'reblog.id (a boost of the original)', exchange);
        expectEqual(body.visibility, visibility, 'visibility of the boost', exchange);
      }
    });

    it('STATUS-REBLOG-3 reblog with visibility direct or limited is refused (any 4xx: the contract does not show the code)', (context) => {
      since(context, config, REBLOG_VISIBILITY);
      // The same reblog with visibility public, the positive control: a server that refuses the parameter refuses all.
      controlled(boost, 'STATUS-REBLOG-1', 'the reblog with visibility public');
      for (const made of refused) expectRefusal(need(made));
    });

    it('STATUS-REBLOG-4 unreblog when a boost by the caller exists answers the Status with reblogged = false', () => {
      expectFlag(unreblog, subject, 'reblogged', false);
    });

    it('STATUS-REBLOG-5 unreblog when no boost by the caller exists answers 404 "Record not found"', () => {
      expectError(need(unreblogAgain), 404, 'Record not found');
    });

    it('STATUS-REBLOG-7 reblogged_by lists the account that boosted, and no longer after its unreblog', () => {
      const [before, after, boostStatus] = [need(listed), need(afterUndo), need(boosted)];
      expectListedUntilUndone(before, after, authorOf(boostStatus, boosted.exchange as Exchange), 'STATUS-REBLOGGEDBY-1', 'reblogged_by');
    });

    it('STATUS-PIN-4 a boost cannot be pinned: pin of a boost answers 422', (context) => {
      since(context, config, PINS);
      pinExists();
      expectError(need(pinBoost), 422);
    });
  });

  describe('bookmark', () => {
    let bookmark: Step<Exchange>;
    let unbookmark: Step<Exchange>;
    let unbookmarkAgain: Step<Exchange>;

    chains.push(async () => {
      if (!releaseAtLeast(config.serverVersion, BOOKMARKS)) return;
      bookmark = await when(subject, (s) => move(a, s.id, 'bookmark', 'unbookmark'));
      const bookmarked = await took(a, subject, bookmark, 'bookmarked', true, 'STATUS-BOOKMARK-1', 'bookmark');
      unbookmark = await when(bookmarked, (id) => undoMove(a, id, 'unbookmark'));
      holdIfShown(unbookmark, 'bookmarked', 'STATUS-BOOKMARK-2', 'the unbookmark');
      visible.set('bookmark', bookmark).set('unbookmark', unbookmark);
    });
    // "Not bookmarked" needs no unbookmark before it: A's private status, which A never bookmarks.
    chains.push(async () => {
      if (releaseAtLeast(config.serverVersion, BOOKMARKS)) unbookmarkAgain = await when(unflagged(), (s) => a.post(on(s.id, 'unbookmark')));
    });

    it('STATUS-BOOKMARK-1 bookmark answers the Status with bookmarked = true', (context) => {
      since(context, config, BOOKMARKS);
      expectFlag(bookmark, subject, 'bookmarked', true);
    });

    it('STATUS-BOOKMARK-2 unbookmark of a bookmarked status answers the Status with bookmarked = false', (context) => {
      since(context, config, BOOKMARKS);
      expectFlag(unbookmark, subject, 'bookmarked', false);
      expectHeld(holds, 'STATUS-BOOKMARK-2');
    });

    it('STATUS-BOOKMARK-3 unbookmark of a status that is not bookmarked answers 404 "Record not found"', (context) => {
      since(context, config, BOOKMARKS);
      // The positive control: unbookmark answered 2xx for a bookmarked status (a server without it answers 404 to all).
      controlled(unbookmark, 'STATUS-BOOKMARK-2', "A's unbookmark of its bookmarked status");
      expectError(need(unbookmarkAgain), 404, 'Record not found');
    });
  });

  describe('mute', () => {
    // A takes part in the thread of its own status.
    let mute: Step<Exchange>;
    let again: Step<Exchange>;
    let unmute: Step<Exchange>;
    let unmuteAgain: Step<Exchange>;

    chains.push(async () => {
      if (!releaseAtLeast(config.serverVersion, MUTES)) return;
      mute = await when(subject, (s) => move(a, s.id, 'mute', 'unmute'));
      const muted = await took(a, subject, mute, 'muted', true, 'STATUS-MUTE-1', 'mute');
      again = await when(muted, (id) => a.post(on(id, 'mute')));
      unmute = await when(muted, (id) => undoMove(a, id, 'unmute'));
      holdIfShown(unmute, 'muted', 'STATUS-MUTE-3', 'the unmute');
      visible.set('mute', mute).set('unmute', unmute);
    });
    // "Not muted" needs no unmute before it: A's private status, whose thread A takes part in and never mutes.
    chains.push(async () => {
      if (releaseAtLeast(config.serverVersion, MUTES)) unmuteAgain = await when(unflagged(), (s) => a.post(on(s.id, 'unmute')));
    });

    it('STATUS-MUTE-1 mute by a caller who takes part in the thread answers the Status with muted = true', (context) => {
      since(context, config, MUTES);
      expectFlag(mute, subject, 'muted', true);
    });

    it('STATUS-MUTE-2 mute of a thread already muted still answers 200, muted = true', (context) => {
      since(context, config, MUTES);
      expectFlag(again, subject, 'muted', true);
    });

    it('STATUS-MUTE-3 unmute answers the Status with muted = false', (context) => {
      since(context, config, MUTES);
      expectFlag(unmute, subject, 'muted', false);
      expectHeld(holds, 'STATUS-MUTE-3');
    });

    it('STATUS-MUTE-4 unmute of a thread not muted still answers 200, muted = false', (context) => {
      since(context, config, MUTES);
      // An answer other than 200 fails only where unmute answers at all: a server without it refuses everything.
      if (need(unmuteAgain).status !== 200) controlled(unmute, 'STATUS-MUTE-3', "A's unmute of its muted thread");
      expectFlag(unmuteAgain, unflagged(), 'muted', false);
    });
  });

  describe('pin', () => {
    let pin: Step<Exchange>;
    let unpin: Step<Exchange>;
    let unpinAgain: Step<Exchange>;
    let pinHidden: Step<Exchange>;
    let pinOthers: Step<Exchange>;

    const pinsExist = releaseAtLeast(config.serverVersion, PINS);
    chains.push(async () => {
      if (!pinsExist) return;
      pin = await when(subject, (s) => move(a, s.id, 'pin', 'unpin'));
      const pinned = await took(a, subject, pin, 'pinned', true, 'STATUS-PIN-1', 'pin');
      repeated.set('pin', await when(pinned, (id) => repeat(a, id, 'pin')));
      unpin = await when(pinned, (id) => undoMove(a, id, 'unpin'));
      visible.set('pin', pin).set('unpin', unpin);
      const unpinned = await took(a, subject, unpin, 'pinned', false, 'STATUS-PIN-5', 'unpin');
      if (unpinned.ok) holds.expect('pinned', false, 'STATUS-PIN-5', 'the unpin');
      unpinAgain = await when(unpinned, (id) => a.post(on(id, 'unpin')));
    });
    // The refusals run beside the pin chain: A's is of another status, and B's pins are B's own.
    chains.push(async () => {
      if (pinsExist) pinHidden = await when(hidden, (s) => probe(a, s.id, 'pin', 'unpin'));
    });
    chains.push(async () => {
      if (pinsExist && b) pinOthers = await when(subject, (s) => probe(b, s.id, 'pin', 'unpin'));
    });

    // pinned is "present in some responses": the answers to pin and unpin are where the transition shows.
    it("STATUS-PIN-1 pin of the caller's own public status that is not a boost answers the Status with pinned = true", (context) => {
      since(context, config, PINS);
      expectFlag(pin, subject, 'pinned', true);
    });

    it('STATUS-PIN-5 unpin answers the Status with pinned = false', (context) => {
      since(context, config, PINS);
      expectFlag(unpin, subject, 'pinned', false);
      expectHeld(holds, 'STATUS-PIN-5');
    });

    it('STATUS-PIN-6 unpin of a status not pinned still answers 200, pinned = false', (context) => {
      since(context, config, PINS);
      needHeld(holds, 'STATUS-PIN-5');
      expectFlag(unpinAgain, subject, 'pinned', false);
    });

    it('STATUS-PIN-2 pin of a status not owned by the caller answers 422 "Validation failed: Someone else\'s toot cannot be pinned"', (context) => {
      since(context, config, PINS);
      needs(context, b, NEEDS_B);
      pinExists();
      expectError(need(pinOthers), 422, "Validation failed: Someone else's toot cannot be pinned");
    });

    it('STATUS-PIN-3 pin of a non-public status answers 422 "Validation failed: Non-public toot cannot be pinned"', (context) => {
      since(context, config, PINS);
      pinExists();
      expectError(need(pinHidden), 422, 'Validation failed: Non-public toot cannot be pinned');
    });
  });

  describe('a status the caller cannot see', () => {
    // B's moves on A's private status, by row; each row runs beside the other chains. A move or undo that its own
    // row refuses whatever the visibility could not show a missing guard, so it is not asked (the three requests pay
    // for STATUS-VIS-8's cells in the run's budget): the unreblog and the unbookmark of a status B never boosted or
    // bookmarked ("no boost", "not bookmarked": 404, STATUS-REBLOG-5's and STATUS-BOOKMARK-3's), and the pin of a
    // status not B's own (the 422 of STATUS-PIN-2's row).
    const pairs = new Map<string, Step<Exchange[]>>();
    const rows: { action: string; undo: string; asked: 'move' | 'undo' | 'both'; release?: string }[] = [
      { action: 'favourite', undo: 'unfavourite', asked: 'both' },
      { action: 'reblog', undo: 'unreblog', asked: 'move' },
      { action: 'bookmark', undo: 'unbookmark', asked: 'move', release: BOOKMARKS },
      { action: 'mute', undo: 'unmute', asked: 'both', release: MUTES },
      { action: 'pin', undo: 'unpin', asked: 'undo', release: PINS },
    ];
    for (const { action, undo, asked, release } of rows) {
      chains.push(async () => {
        if (b && (!release || releaseAtLeast(config.serverVersion, release))) pairs.set(action, await pairOn(b, hidden, action, undo, asked));
      });
    }
    /** The pair of a row whose check runs: B is configured and the release has the operation. */
    const pairOf = (action: string) => need(pairs.get(action) as Step<Exchange[]>);

    /** Every move of the pair that was asked answers 404 "Record not found". */
    function expectHidden(action: string): void {
      for (const exchange of pairOf(action)) expectError(exchange, 404, 'Record not found');
    }

    /**
     * A 404 for the status B cannot see counts only where the move (and the undo, where `undo` is asked) answered 2xx
     * for a status the caller sees (A's own, or the one B boosted); else the row's first clause blocks the check.
     */
    function controlledBy(action: string, rowClause: string, undo?: string): void {
      controlled(visible.get(action), rowClause, `the ${action} of a status the caller sees`);
      // The undo is made only after its move took: a move that answered 2xx without taking still shows the row exists.
      const undone = undo ? visible.get(undo) : undefined;
      if (undone?.ok) controlled(undone, rowClause, `the ${undo} of a status the caller sees`);
    }

    it('STATUS-FAV-5 favourite and unfavourite of a status the caller cannot see answer 404 "Record not found"', (context) => {
      needs(context, b, NEEDS_B);
      controlledBy('favourite', 'STATUS-FAV-1', 'unfavourite');
      expectHidden('favourite');
    });

    it('STATUS-REBLOG-6 reblog of a status the caller cannot see answers 404 "Record not found"', (context) => {
      needs(context, b, NEEDS_B);
      controlledBy('reblog', 'STATUS-REBLOG-1');
      expectHidden('reblog');
    });

    it('STATUS-BOOKMARK-4 bookmark of a status the caller cannot see answers 404 "Record not found"', (context) => {
      since(context, config, BOOKMARKS);
      needs(context, b, NEEDS_B);
      controlledBy('bookmark', 'STATUS-BOOKMARK-1');
      expectHidden('bookmark');
    });

    it('STATUS-MUTE-5 mute and unmute of a status the caller cannot see answer 404 "Record not found"', (context) => {
      since(context, config, MUTES);
      needs(context, b, NEEDS_B);
      controlledBy('mute', 'STATUS-MUTE-1', 'unmute');
      expectHidden('mute');
    });

    it('STATUS-PIN-7 unpin of a status the caller cannot see answers 404 "Record not found"', (context) => {
      since(context, config, PINS);
      needs(context, b, NEEDS_B);
      controlledBy('pin', 'STATUS-PIN-1', 'unpin');
      expectHidden('pin');
    });
  });

  describe('a move repeated', () => {
    it('STATUS-REPEAT-1 a reblog or pin repeated while its flag is set answers without a server error (5xx)', () => {
      // Each move that could be repeated is judged; one that could not blocks the check after the others were.
      const made = [...repeated.values()];
      for (const step of made) {
        if (!step.ok) continue;
        const exchange = step.value;
        check(exchange.status !== undefined && exchange.status < 500, `an answer below HTTP 500 to ${exchange.method} ${exchange.path} (what it answers is not shown)`, statusLine(exchange), exchange);
      }
      const unmade = made.find((step) => !step.ok);
      if (unmade) need(unmade);
    });
  });

  // Vitest runs a file's checks in order: this comes last, once every row has judged both statuses. A deletes
  // `subject`, which B boosted and favourited, beside `hidden`, on which no one else acted: the plain delete is the
  // control that tells a status kept because others acted on it from deletes that keep every status (STATUS-DELETE-2,
  // -4). Both deletes and reads are the ledger's anyway; the second delete is this check's own.
  describe('delete of a status others acted on', () => {
    let favourited: Step<string>;
    let boostStands: Step<string>;
    let readBefore: Exchange | undefined;
    let deletion: Exchange | undefined;
    let readAfter: Exchange | undefined;
    let secondDeletion: Exchange | undefined;
    let plain: { deletion?: Exchange; readAfter?: Exchange } = {};

    /**
     * A's delete of its own status, settled on 200, and its read after the delete: a server may delete in the
     * background, so the read waits for the status gone within the settle window, as STATUS-DELETE-2's does.
     */
    async function deleteAndRead(created: Created<Status>, id: string): Promise<{ deletion: Exchange; readAfter?: Exchange }> {
      const path = `/api/v1/statuses/${id}`;
      const answer = await a.delete(path);
      if (answer.status !== 200) return { deletion: answer };
      const deletedAt = now();
      created.settle();
      const { exchange: readAfter } = await settle(() => a.get(path), (read) => read.status !== 200, deletedAt);
      return { deletion: answer, readAfter };
    }

    beforeAll(async () => {
      if (!b || !subject.ok) return;
      const other = b;
      const { id } = subject.value;
      // B's boost of the reblog row stands; where the row left none (a release without the parameter), B boosts here.
      if (standingBoost.ok) boostStands = standingBoost;
      else {
        const made = await when(subject, () => move(other, id, 'reblog', 'unreblog'));
        boostStands = await boostExists(other, subject, made, boostOf(made, subject), 'STATUS-REBLOG-1');
      }
      favourited = await took(other, subject, await when(subject, () => move(other, id, 'favourite', 'unfavourite')), 'favourited', true, 'STATUS-FAV-1', "B's favourite");
      if (!boostStands.ok || !favourited.ok) return;
      // A's read that confirmed the undos held already showed whether A reads its status; else one read here.
      readBefore = heldRead ?? (await a.get(`/api/v1/statuses/${id}`));
      const [acted, unacted] = await Promise.all([deleteAndRead(subject, id), hidden.ok ? deleteAndRead(hidden, hidden.value.id) : undefined]);
      ({ deletion, readAfter } = acted);
      plain = unacted ?? {};
      if (readAfter?.status !== 404) return;
      // B's boost and favourite went with the status.
      settleGone(other, id);
      secondDeletion = await a.delete(`/api/v1/statuses/${id}`);
    });

    it('STATUS-DELETE-7 deleting a status that B boosted and favourited: DELETE answers it, a later read gives 404, a second DELETE 404 "Record not found"', (context) => {
      needs(context, b, NEEDS_B);
      need(subject);
      need(boostStands);
      need(favourited);
      // The positive control of the 404s: A's read of the status answered it before the delete.
      const before = readBefore as Exchange;
      if (before.status !== 200) block(causeOf('STATUS-READ-1', `A's read of its own public status before the delete answered ${answerOf(before)}`, before));
      // The plain delete beside it: where A's status no one acted on is not deleted either, that is not this clause.
      const plainDeletion = plain.deletion;
      if (!plainDeletion) block(hidden.ok ? { summary: "A's private status was not deleted" } : hidden.cause);
      if (plainDeletion.status !== 200) block(causeOf('STATUS-DELETE-1', `DELETE of the caller's own status answered ${answerOf(plainDeletion)}`, plainDeletion));
      const plainRead = plain.readAfter as Exchange;
      if (plainRead.status !== 404) block(causeOf('STATUS-DELETE-2', `a status no one else acted on still read as ${answerOf(plainRead)} after its DELETE answered 200`, plainRead));
      expectEqual(expectOk<Status>(deletion as Exchange, 'Status').id, need(subject).id, 'id of the deleted status', deletion);
      expectError(readAfter as Exchange, 404, 'Record not found');
      // Gone, as the read shows: what a second delete of a deleted status answers is STATUS-DELETE-4's row.
      const again = secondDeletion as Exchange;
      if (again.status !== 404) block(causeOf('STATUS-DELETE-4', `a second DELETE of the deleted status answered ${answerOf(again)}`, again));
      expectError(again, 404, 'Record not found');
    });
  });
});

// The contract's "States and transitions" table for statuses, row by row: favourite, reblog, bookmark, mute
// and pin, each with its "already" and error cases, and the accounts lists that follow favourites and boosts.
// A acts on its own public status `subject` (B boosts it, when configured: the boosts' unreblogs spend the
// Deletion bucket, and A's is the one the other groups spend most); B, who cannot see A's private status
// `hidden`, shows the 404s.
// Each group makes its moves once in beforeAll, in the order of the table; its checks judge the answers.
import { beforeAll, describe, it } from 'vitest';
import { actors, type Actor, type Status } from './support/actors.ts';
import { remember } from './support/cleanup.ts';
import { releaseAtLeast } from './support/config.ts';
import type { FormParams } from './support/form.ts';
import { jsonOf, type Exchange, type RequestOptions } from './support/http.ts';
import { needs, since } from './support/preconditions.ts';
import { expectNoViolation } from './support/registered-checks.ts';
import { check, expectEqual, expectError, expectList, expectOk, expectRefusal } from './support/verify.ts';

const { config, a, b } = actors();
const NEEDS_B = 'needs CONFORMANCE_TOKEN_B';
// The releases that added the operations (the contract's Versioning table).
const MUTES = '1.4.2';
const PINS = '1.6.0';
const BOOKMARKS = '3.1.0';
const REBLOG_VISIBILITY = '2.8.0';

interface Move {
  exchange: Exchange;
  /** The check undid the move itself: the ledger has nothing left to undo. */
  settle: () => void;
}

/** A move the check undoes itself; the ledger undoes it only when the check did not get that far. */
async function move(actor: Actor, statusId: string, action: string, undo: string, form?: FormParams, options?: RequestOptions): Promise<Move> {
  const exchange = await actor.post(`/api/v1/statuses/${statusId}/${action}`, form, options);
  if (exchange.status !== 200) return { exchange, settle: () => undefined };
  const entry = remember(`${action} of ${statusId} by ${actor.name}`, () => actor.post(`/api/v1/statuses/${statusId}/${undo}`));
  return { exchange, settle: entry.settle };
}

/** The undo of a move: when it succeeds, the move is settled. */
async function undoMove(actor: Actor, statusId: string, undo: string, done: Move): Promise<Exchange> {
  const exchange = await actor.post(`/api/v1/statuses/${statusId}/${undo}`);
  if (exchange.status === 200) done.settle();
  return exchange;
}

/** The body of a 200 answer, read without judging it: the checks judge the answer itself. */
function answerOf(exchange: Exchange): Partial<Status> | undefined {
  const json = jsonOf(exchange);
  const ok = exchange.status === 200 && json.ok && typeof json.value === 'object' && json.value !== null;
  return ok ? (json.value as Partial<Status>) : undefined;
}

type Flag = 'favourited' | 'reblogged' | 'bookmarked' | 'muted' | 'pinned';

/** The answer is a Status whose per-user flag has the value the transition gives it. */
function expectFlag(exchange: Exchange, flag: Flag, value: boolean): void {
  expectEqual(expectOk<Status>(exchange, 'Status')[flag], value, flag, exchange);
}

/** An accounts list (reblogged_by, favourited_by) names the account before the undo and no longer after it. */
function expectListedUntilUndone(listed: Exchange, afterUndo: Exchange, accountId: string, list: string): void {
  const before = expectList<{ id: string }>(listed, 'Account').map((account) => account.id);
  check(before.includes(accountId), `${list} lists account ${accountId}`, `${list} ${JSON.stringify(before)}`, listed);
  const after = expectList<{ id: string }>(afterUndo, 'Account').map((account) => account.id);
  check(!after.includes(accountId), `after the undo ${list} no longer lists account ${accountId}`, `${list} ${JSON.stringify(after)}`, afterUndo);
}

/** Every move of the pair, by a caller who cannot see the status, answers 404 "Record not found". */
async function expectHidden(actor: Actor, statusId: string, action: string, undo: string): Promise<void> {
  expectError((await move(actor, statusId, action, undo)).exchange, 404, 'Record not found');
  expectError(await actor.post(`/api/v1/statuses/${statusId}/${undo}`), 404, 'Record not found');
}

describe('States and transitions', () => {
  let subject: Status;
  let hidden: Status;

  beforeAll(async () => {
    ({ status: subject } = await a.createStatus({ status: 'conformance probe: a public status to interact with', visibility: 'public' }));
    ({ status: hidden } = await a.createStatus({ status: 'conformance probe: a private status', visibility: 'private' }));
  });

  describe('favourite', () => {
    let favourite: Move;
    let again: Exchange;
    let listed: Exchange;
    let unfavourite: Exchange;
    let afterUndo: Exchange;
    let unfavouriteAgain: Exchange;

    beforeAll(async () => {
      favourite = await move(a, subject.id, 'favourite', 'unfavourite');
      again = await a.post(`/api/v1/statuses/${subject.id}/favourite`);
      listed = await a.get(`/api/v1/statuses/${subject.id}/favourited_by`);
      unfavourite = await undoMove(a, subject.id, 'unfavourite', favourite);
      afterUndo = await a.get(`/api/v1/statuses/${subject.id}/favourited_by`);
      unfavouriteAgain = await a.post(`/api/v1/statuses/${subject.id}/unfavourite`);
    });

    it('STATUS-FAV-1 favourite answers the Status with favourited = true', () => {
      expectFlag(favourite.exchange, 'favourited', true);
    });

    it('STATUS-FAV-2 favourite of a status already favourited still answers 200, favourited unchanged', () => {
      expectFlag(again, 'favourited', true);
    });

    it('ERRORS-5XX-1 no well-formed request of this group so far, a repeated favourite among them, gets a server error (5xx)', () => {
      expectNoViolation('ERRORS-5XX-1');
    });

    it('STATUS-FAV-3 unfavourite answers the Status with favourited = false', () => {
      expectFlag(unfavourite, 'favourited', false);
    });

    it('STATUS-FAV-4 unfavourite of a status not favourited still answers 200, favourited = false', () => {
      expectFlag(unfavouriteAgain, 'favourited', false);
    });

    it('STATUS-FAV-6 favourited_by lists the account that favourited, and no longer after its unfavourite', () => {
      expectListedUntilUndone(listed, afterUndo, subject.account.id, 'favourited_by');
    });
  });

  describe('reblog', () => {
    const booster = b ?? a;
    const refused: Exchange[] = [];
    let boost: Move;
    let pinBoost: Exchange | undefined;
    let boosterId: string | undefined;
    let listed: Exchange;
    let unreblog: Exchange;
    let afterUndo: Exchange;
    let unreblogAgain: Exchange;
    const boostsByVisibility: { visibility: string; exchange: Exchange }[] = [];

    beforeAll(async () => {
      const visibilityParameter = releaseAtLeast(config.serverVersion, REBLOG_VISIBILITY);
      // The refusals come first: a server answers a repeated reblog with the boost it already has.
      if (visibilityParameter) {
        for (const visibility of ['direct', 'limited']) refused.push((await move(booster, subject.id, 'reblog', 'unreblog', { visibility }, { malformed: true })).exchange);
      }
      boost = await move(booster, subject.id, 'reblog', 'unreblog', visibilityParameter ? { visibility: 'public' } : undefined);
      boostsByVisibility.push({ visibility: 'public', exchange: boost.exchange });
      const boostId = answerOf(boost.exchange)?.id;
      boosterId = answerOf(boost.exchange)?.account?.id;
      if (boostId && releaseAtLeast(config.serverVersion, PINS)) pinBoost = (await move(booster, boostId, 'pin', 'unpin')).exchange;
      listed = await booster.get(`/api/v1/statuses/${subject.id}/reblogged_by`);
      unreblog = await undoMove(booster, subject.id, 'unreblog', boost);
      afterUndo = await booster.get(`/api/v1/statuses/${subject.id}/reblogged_by`);
      unreblogAgain = await booster.post(`/api/v1/statuses/${subject.id}/unreblog`);
      if (visibilityParameter) {
        // One boost per visibility: each but the last is undone to make room for the next.
        const unlisted = await move(booster, subject.id, 'reblog', 'unreblog', { visibility: 'unlisted' });
        boostsByVisibility.push({ visibility: 'unlisted', exchange: unlisted.exchange });
        await undoMove(booster, subject.id, 'unreblog', unlisted);
        boostsByVisibility.push({ visibility: 'private', exchange: (await move(booster, subject.id, 'reblog', 'unreblog', { visibility: 'private' })).exchange });
      }
    });

    it('STATUS-REBLOG-1 reblog answers a new boost Status: its own id, the original in reblog with reblogged = true', () => {
      const exchange = boost.exchange;
      const body = expectOk<Status>(exchange, 'Status');
      check(body.id !== subject.id, `a boost id other than the original's ${subject.id}`, `id ${body.id}`, exchange);
      expectEqual(body.reblog?.id, subject.id, 'reblog.id', exchange);
      expectEqual(body.reblog?.reblogged, true, 'reblog.reblogged', exchange);
    });

    it('STATUS-REBLOG-2 the reblog visibility parameter (public, unlisted, private) is the visibility of the boost', (context) => {
      since(context, config, REBLOG_VISIBILITY);
      for (const { visibility, exchange } of boostsByVisibility) expectEqual(expectOk<Status>(exchange, 'Status').visibility, visibility, 'visibility of the boost', exchange);
    });

    it('STATUS-REBLOG-3 reblog with visibility direct or limited is refused (any 4xx: the contract does not show the code)', (context) => {
      since(context, config, REBLOG_VISIBILITY);
      for (const exchange of refused) expectRefusal(exchange);
    });

    it('STATUS-REBLOG-4 unreblog when a boost by the caller exists answers the Status with reblogged = false', () => {
      expectFlag(unreblog, 'reblogged', false);
    });

    it('STATUS-REBLOG-5 unreblog when no boost by the caller exists answers 404 "Record not found"', () => {
      expectError(unreblogAgain, 404, 'Record not found');
    });

    it('STATUS-REBLOG-7 reblogged_by lists the account that boosted, and no longer after its unreblog', (context) => {
      needs(context, boosterId, 'the reblog gave no boost');
      expectListedUntilUndone(listed, afterUndo, boosterId as string, 'reblogged_by');
    });

    it('STATUS-PIN-4 a boost cannot be pinned: pin of a boost answers 422', (context) => {
      since(context, config, PINS);
      needs(context, pinBoost, 'the reblog gave no boost to pin');
      expectError(pinBoost as Exchange, 422);
    });
  });

  describe('bookmark', () => {
    let bookmark: Move;
    let unbookmark: Exchange;
    let unbookmarkAgain: Exchange;

    beforeAll(async () => {
      if (!releaseAtLeast(config.serverVersion, BOOKMARKS)) return;
      bookmark = await move(a, subject.id, 'bookmark', 'unbookmark');
      unbookmark = await undoMove(a, subject.id, 'unbookmark', bookmark);
      unbookmarkAgain = await a.post(`/api/v1/statuses/${subject.id}/unbookmark`);
    });

    it('STATUS-BOOKMARK-1 bookmark answers the Status with bookmarked = true', (context) => {
      since(context, config, BOOKMARKS);
      expectFlag(bookmark.exchange, 'bookmarked', true);
    });

    it('STATUS-BOOKMARK-2 unbookmark of a bookmarked status answers the Status with bookmarked = false', (context) => {
      since(context, config, BOOKMARKS);
      expectFlag(unbookmark, 'bookmarked', false);
    });

    it('STATUS-BOOKMARK-3 unbookmark of a status that is not bookmarked answers 404 "Record not found"', (context) => {
      since(context, config, BOOKMARKS);
      expectError(unbookmarkAgain, 404, 'Record not found');
    });
  });

  describe('mute', () => {
    // A takes part in the thread of its own status.
    let mute: Move;
    let again: Exchange;
    let unmute: Exchange;
    let unmuteAgain: Exchange;

    beforeAll(async () => {
      if (!releaseAtLeast(config.serverVersion, MUTES)) return;
      mute = await move(a, subject.id, 'mute', 'unmute');
      again = await a.post(`/api/v1/statuses/${subject.id}/mute`);
      unmute = await undoMove(a, subject.id, 'unmute', mute);
      unmuteAgain = await a.post(`/api/v1/statuses/${subject.id}/unmute`);
    });

    it('STATUS-MUTE-1 mute by a caller who takes part in the thread answers the Status with muted = true', (context) => {
      since(context, config, MUTES);
      expectFlag(mute.exchange, 'muted', true);
    });

    it('STATUS-MUTE-2 mute of a thread already muted still answers 200, muted = true', (context) => {
      since(context, config, MUTES);
      expectFlag(again, 'muted', true);
    });

    it('STATUS-MUTE-3 unmute answers the Status with muted = false', (context) => {
      since(context, config, MUTES);
      expectFlag(unmute, 'muted', false);
    });

    it('STATUS-MUTE-4 unmute of a thread not muted still answers 200, muted = false', (context) => {
      since(context, config, MUTES);
      expectFlag(unmuteAgain, 'muted', false);
    });
  });

  describe('pin', () => {
    let pin: Move;
    let unpin: Exchange;
    let unpinAgain: Exchange;
    let pinHidden: Exchange;
    let pinOthers: Exchange | undefined;

    beforeAll(async () => {
      if (!releaseAtLeast(config.serverVersion, PINS)) return;
      pin = await move(a, subject.id, 'pin', 'unpin');
      unpin = await undoMove(a, subject.id, 'unpin', pin);
      unpinAgain = await a.post(`/api/v1/statuses/${subject.id}/unpin`);
      pinHidden = (await move(a, hidden.id, 'pin', 'unpin')).exchange;
      if (b) {
        const { status: others } = await b.createStatus({ status: "conformance probe: B's public status", visibility: 'public' });
        pinOthers = (await move(a, others.id, 'pin', 'unpin')).exchange;
      }
    });

    // pinned is "present in some responses": the answers to pin and unpin are where the transition shows.
    it("STATUS-PIN-1 pin of the caller's own public status that is not a boost answers the Status with pinned = true", (context) => {
      since(context, config, PINS);
      expectFlag(pin.exchange, 'pinned', true);
    });

    it('STATUS-PIN-5 unpin answers the Status with pinned = false', (context) => {
      since(context, config, PINS);
      expectFlag(unpin, 'pinned', false);
    });

    it('STATUS-PIN-6 unpin of a status not pinned still answers 200, pinned = false', (context) => {
      since(context, config, PINS);
      expectFlag(unpinAgain, 'pinned', false);
    });

    it('STATUS-PIN-2 pin of a status not owned by the caller answers 422 "Validation failed: Someone else\'s toot cannot be pinned"', (context) => {
      since(context, config, PINS);
      needs(context, pinOthers, NEEDS_B);
      expectError(pinOthers as Exchange, 422, "Validation failed: Someone else's toot cannot be pinned");
    });

    it('STATUS-PIN-3 pin of a non-public status answers 422 "Validation failed: Non-public toot cannot be pinned"', (context) => {
      since(context, config, PINS);
      expectError(pinHidden, 422, 'Validation failed: Non-public toot cannot be pinned');
    });
  });

  describe('a status the caller cannot see', () => {
    it('STATUS-FAV-5 favourite and unfavourite of a status the caller cannot see answer 404 "Record not found"', async (context) => {
      needs(context, b, NEEDS_B);
      await expectHidden(b as Actor, hidden.id, 'favourite', 'unfavourite');
    });

    it('STATUS-REBLOG-6 reblog and unreblog of a status the caller cannot see answer 404 "Record not found"', async (context) => {
      needs(context, b, NEEDS_B);
      await expectHidden(b as Actor, hidden.id, 'reblog', 'unreblog');
    });

    it('STATUS-BOOKMARK-4 bookmark and unbookmark of a status the caller cannot see answer 404 "Record not found"', async (context) => {
      since(context, config, BOOKMARKS);
      needs(context, b, NEEDS_B);
      await expectHidden(b as Actor, hidden.id, 'bookmark', 'unbookmark');
    });

    it('STATUS-MUTE-5 mute and unmute of a status the caller cannot see answer 404 "Record not found"', async (context) => {
      since(context, config, MUTES);
      needs(context, b, NEEDS_B);
      await expectHidden(b as Actor, hidden.id, 'mute', 'unmute');
    });

    it('STATUS-PIN-7 pin and unpin of a status the caller cannot see answer 404 "Record not found" (pin: or 422, not owned)', async (context) => {
      since(context, config, PINS);
      needs(context, b, NEEDS_B);
      const pin = (await move(b as Actor, hidden.id, 'pin', 'unpin')).exchange;
      // Two rows apply to this pin: not visible (404 "Record not found") and not owned (422 with the Errors text).
      if (pin.status === 422) expectError(pin, 422, "Validation failed: Someone else's toot cannot be pinned");
      else expectError(pin, 404, 'Record not found');
      expectError(await (b as Actor).post(`/api/v1/statuses/${hidden.id}/unpin`), 404, 'Record not found');
    });
  });
});

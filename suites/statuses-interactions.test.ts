// The contract's "States and transitions" table for statuses, row by row: favourite, reblog, bookmark, mute
// and pin, each with its "already" and error cases, and the accounts lists that follow favourites and boosts.
// A acts on its own public status `subject` (B boosts it, when configured: the boosts' unreblogs spend the
// Deletion bucket, and A's is the one the other groups spend most; B also tries to pin it, not being its owner; A's
// own unlisted boost of it, which stands to the delete, spares B the unreblog that one booster needs between its
// unlisted and private boosts);
// B, who cannot see A's private status `hidden`, shows the 404s. B's boosts come once A's moves on `subject` are all
// made and their undos confirmed: a status another account boosted may be answered as that boost (as some servers
// do), so no move of A's meets B's boost, whatever the timing of the steps; A's own boost comes between the two (a
// boost by the author is no such boost, and A makes no move on `subject` after it but the delete). The moves the
// table gives no "already" case (reblog, bookmark, pin): a boost and a pin are each repeated once, while their flag
// is set (the repeats the issue asked for; a bookmark's would cost a request more). Once every other step has
// ended, A deletes `subject`, which B boosted and favourited. A's unfavourite and unbookmark of a status not
// favourited or bookmarked act on `hidden`, which A never sets either on: judged even where the undo keeps the flag (as
// a server's did). Its unmute of a thread not muted is sent on `subject` again right after the unmute that took (as
// the unpin again): a server that keeps an undone record and finds it again answers it wrong, and the read that
// confirms the undos blocks it where the unmute did not hold.
// Each move of A's rows (favourite, bookmark, mute, pin) and of the reblog row is a step: they change A's public
// status, so the planner runs them one after another in the order of the table (run/plan.ts), and their checks judge
// the answers. The other rows' moves are steps beside A's: each sets a flag of its own (B's flags are B's), so no row
// meets another's state; the steps that meet the state the rows left (the read that confirms A's undos, B's boosts,
// the deletes) name them in `changes`, and so come after each of them that runs. Every move acts on the id of the
// status acted on, never on an id an answer gave (whether the answer is that status is the move's own check). A move
// is made only when the move before it took (support/act/moves.ts: its answer, or a read after a stale one, shows the
// flag): a move that did not take blocks the checks after it with its clause. What a probe that should be refused
// made anyway is undone at once, so that no later move meets it. A's undos must hold: once the settle window has
// passed since the last of them, one read of the status confirms each flag as the undo left it (a favourite that came
// back fails STATUS-FAV-3 and blocks what met it after).
// Both statuses are steps whose value is the creation as it came; the moves follow the step of its id (idOf), so a
// status that could not be made (or not as asked) is the cause each move on it carries to the checks that judge it. A
// check's release comes from the catalogue, and a step only its checks need is not run in another release; within a
// step, the release gates only what other checks share it with (the reblog visibility parameter, the pin of a boost).
import { actors, type Actor } from './support/act/actors.ts';
import { inLedgersPlace } from './support/act/ledger.ts';
import { createdObject, type Exchange, jsonOf } from './support/talk/http.ts';
import { authorGap, madeStep, type Created, type Status } from './support/act/created.ts';
import { releaseHas } from './support/judge/clauses.ts';
import type { FormParams } from './support/talk/form.ts';
import { holdsOn, moves, operationOn as on, shows, took, type Flag, type Moves } from './support/act/moves.ts';
import { block, controlled, countJudged, need, needHeld } from './support/judge/preconditions.ts';
import { answerOf, causeOf, failed, succeeded, type Step } from './support/act/steps.ts';
import { now, observeLate, settle, SETTLE_REREADS } from './support/act/settle.ts';
import { check, checkEach, expectEqual, expectHeld, expectError, expectList, expectOk, expectRefusal, fail, statusLine } from './support/judge/verify.ts';
import { it, made, notMade, requirement, section, step, type DeclaredStep, type StepOutcome } from './support/run/checks.ts';
import { explorationBudget, explore, readState, Sequencer, sendSequence } from './support/act/sequence.ts';
import type { Exploration, SequenceRecord } from './support/act/sequence-model.ts';
import { EXPLORE_DELETIONS } from './support/act/explore-inputs.ts';
import { judgeExploration, judgeSequence, sequenceJudging } from './support/judge/state-machine.ts';
import { againOf, ROWS, type Move, type MoveName, type Who } from './support/act/status-model.ts';
import { ClauseFailure } from './support/judge/clauses.ts';
import { expectEveryCell, type AccessCell } from './support/judge/access-cells.ts';

const { config, a, b } = actors();
const NEEDS_B = 'needs CONFORMANCE_TOKEN_B';
// The operations and parameters this release has, where they gate a part of a step: the releases of their clauses.
const pinsExist = releaseHas(config.serverVersion, 'STATUS-PIN-1');
const visibilityParameter = releaseHas(config.serverVersion, 'STATUS-REBLOG-2');


/**
 * A move made once more while its flag is set: what it answers is not shown, and the first move's ledger entry
 * undoes it. ERRORS-5XX-1 leaves a server error to it to STATUS-REPEAT-1, whose request it is.
 */
const repeat = (actor: Actor, statusId: string, action: string, form?: FormParams) => actor.post(on(statusId, action), form, { repeated: true });

/** The boost a reblog answered: a Status of its own with the original in reblog. Otherwise `clause`, which judges that answer, is the cause. */
function boostOf(made: Step<Exchange>, original: Step<{ id: string }>, clause = 'STATUS-REBLOG-1'): Step<Status> {
  if (!made.ok) return failed(made.cause, made.exchange);
  if (!original.ok) return failed(original.cause, original.exchange);
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
async function boostExists(booster: Actor, original: Step<{ id: string }>, made: Step<Exchange>, boost: Step<Status>, clause: string): Promise<Step<string>> {
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
  if (typeof id !== 'string') block(authorGap(status, 'id', exchange));
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

/** Which moves of a pair a caller who cannot see the status is asked: the move, its undo, or both. */
type Asked = 'move' | 'undo' | 'both';

/**
 * The moves of a pair by a caller who cannot see the status, as `asked`: the move (undone at once if it takes), its
 * undo, or both, the move first.
 */
async function pairOn(moves: Moves, actor: Actor, status: Step<Status>, action: string, undo: string, asked: Asked): Promise<Step<Exchange[]>> {
  if (!status.ok) return failed(status.cause, status.exchange);
  const made = asked === 'undo' ? undefined : await moves.probe(actor, status.value.id, action, undo);
  const undone = asked === 'move' ? undefined : await actor.post(on(status.value.id, undo));
  const exchanges = [made, undone].filter((exchange): exchange is Exchange => exchange !== undefined);
  return succeeded(exchanges, exchanges[0] as Exchange);
}

/** A's private status as made, whatever its visibility: the undos of a flag never set need a status without it, nothing more. */
const unflagged = (hidden: Created<Status>) => madeStep(hidden);

/**
 * A 404 for the status B cannot see counts only where the move and its undo answered 2xx for a status the caller
 * sees (A's own, or the one B boosted); else the row's first clause blocks the check.
 */
function controlledBy(made: Step<Exchange>, undone: Step<Exchange> | undefined, action: string, undo: string, rowClause: string): void {
  controlled(made, rowClause, `the ${action} of a status the caller sees`);
  // The undo is made only after its move took: a move that answered 2xx without taking still shows the row exists.
  if (undone?.ok) controlled(undone, rowClause, `the ${undo} of a status the caller sees`);
}

/** Every move of B's on the status it cannot see that was asked answers 404 "Record not found". */
function expectHidden(pair: Step<Exchange[]>): void {
  for (const exchange of need(pair)) expectError(exchange, 404, 'Record not found');
}

/** A delete and its reads: `readAtOnce`, the read sent at the same moment as the delete, where one was. */
interface DeleteAndRead {
  deletion: Exchange;
  readAtOnce?: Exchange;
  readAfter?: Exchange;
}

/**
 * A's delete of its own status, settled on 200, and its read after the delete: a server may delete in the
 * background, so the read waits for the status gone within the settle window, as STATUS-DELETE-2's does. With
 * `atOnce`, A reads the status at the same moment as it deletes it (STATUS-DELETE-8, whose a server error to that read is).
 */
async function deleteAndRead(a: Actor, created: Created<Status>, id: string, atOnce = false): Promise<DeleteAndRead> {
  const path = `/api/v1/statuses/${id}`;
  // The delete and the read after are the ledger's, made in its place; the read at the same moment is this step's own.
  const inPlace = <T>(calls: () => Promise<T>) => inLedgersPlace(created.exchange, calls);
  const [answer, readAtOnce] = await Promise.all([inPlace(() => a.delete(path)), atOnce ? a.get(path, { malformed: true }) : undefined]);
  const read = readAtOnce ? { readAtOnce } : {};
  if (answer.status !== 200) return { deletion: answer, ...read };
  const deletedAt = now();
  created.settle();
  const { exchange: readAfter } = await inPlace(() => settle(() => a.get(path), (read) => read.status !== 200, deletedAt));
  return { deletion: answer, ...read, readAfter };
}

/** One of A's statuses, as its creation came: a status the run could not make is the cause of every move on it. */
const statusOf = (visibility: string, text: string) =>
  step(
    `A's ${visibility} status`,
    // The ledger would delete it and read it gone; the last step deletes and reads it itself, in the ledger's place.
    { as: 'A', cost: { api: 3 } },
    async (_, { actor }) => {
      const created = await actor.createStatus({ status: `conformance probe: ${text}`, visibility });
      return made(created, created.exchange);
    },
  );

const subject = statusOf('public', 'a public status to interact with');
const hidden = statusOf('private', 'a private status');

/**
 * The id of one of A's statuses once made, as the moves on it need it made (`shown`: as asked, unless they need less):
 * the moves follow it, and a status not made so is their cause.
 */
const idOf = (name: string, status: DeclaredStep<Created<Status>>, shown: (created: Created<Status>) => Step<Status> = (created) => created) =>
  step(name, { as: 'A', needs: { status }, cost: {} }, async ({ status }) => {
    const asNeeded = shown(status);
    return asNeeded.ok ? made(asNeeded.value.id, asNeeded.exchange) : notMade(asNeeded.cause, asNeeded.exchange);
  });

const subjectId = idOf("A's public status, made as asked", subject);
const hiddenId = idOf("A's private status, made as asked", hidden);
const unflaggedId = idOf("A's private status, made whatever its visibility", hidden, unflagged);

/** A request on a status, as a step's outcome: its answer. */
const sent = async (request: Promise<Exchange>): Promise<StepOutcome<Exchange>> => {
  const exchange = await request;
  return made(exchange, exchange);
};

/** An answer as a step that came to it, for what judges a move's answer. */
const answered = (exchange: Exchange): Step<Exchange> => succeeded(exchange, exchange);

/** A transition a move makes: its flag and the value it gives it, the move's clause, and the move in a word. */
interface Transition {
  flag: Flag;
  value: boolean;
  clause: string;
  what: string;
  /** The moves after it need it to have taken (took: its answer, or else a read, shows the flag). */
  takes?: boolean;
  /** An undo whose state must hold (Holds): once it took, or, where no move needs it taken, once its answer shows it. */
  holds?: boolean;
}

/**
 * A move of a row on A's public status, a step of its own: sent once the step it follows came to the status's id (the
 * planner blocks it otherwise, with that step's cause), and after every earlier step on the status. A move that
 * `takes` and did not is the cause of the moves after it, its answer still its checks' to judge. Its value is the
 * status's id, its exchange its answer; where it takes, a read may confirm the flag its answer did not show.
 */
const moveOn = (name: string, follows: DeclaredStep<string>, send: (actor: Actor, id: string) => Promise<Exchange>, transition?: Transition) =>
  step(name, { as: 'A', needs: { id: follows }, changes: [subject], cost: { api: 1 }, mayAdd: transition?.takes ? 1 : 0 }, async ({ id }, { actor }) => {
    const answer = await send(actor, id);
    if (!transition) return made(id, answer);
    const { flag, value, clause, what, takes, holds } = transition;
    const moved = takes ? await took(actor, succeeded({ id }, answer), answered(answer), flag, value, clause, what) : undefined;
    if (holds && (moved ? moved.ok : shows(answer, id, flag, value).ok)) holdsOn(id).expect(flag, value, clause, `the ${what}`);
    return moved && !moved.ok ? notMade(moved.cause, answer) : made(id, answer);
  });

/** A move's answer as the row's checks judge it; a move not sent carries the cause that kept it. */
const answerIn = (outcome: StepOutcome<unknown>): Step<Exchange> =>
  outcome.exchange ? answered(outcome.exchange) : failed(outcome.ok ? { summary: 'the move was sent without an answer' } : outcome.cause);

/** A row's answers by move, for its checks: it sends nothing, and ends with the last move of the row. */
const answersOf = <M extends Record<string, DeclaredStep<string>>>(name: string, rowMoves: M) =>
  step(name, { as: 'A', uses: rowMoves, cost: {} }, async (outcomes) =>
    made(Object.fromEntries(Object.keys(rowMoves).map((move) => [move, answerIn(outcomes[move] as StepOutcome<string>)])) as Record<keyof M, Step<Exchange>>),
  );

// Every undo of the row answers 200 and settles the favourite: the ledger sends nothing for it.
const favourite = moveOn("A's favourite of its public status", subjectId, (actor, id) => moves.move(actor, id, 'favourite', 'unfavourite'), {
  flag: 'favourited',
  value: true,
  clause: 'STATUS-FAV-1',
  what: 'favourite',
  takes: true,
});
const favouriteAgain = moveOn("A's favourite of its public status again", favourite, (actor, id) => actor.post(on(id, 'favourite')));
const favouritedBy = moveOn("favourited_by of A's public status once favourited", favourite, (actor, id) => actor.get(on(id, 'favourited_by')));
const unfavourite = moveOn("A's unfavourite of its public status", favourite, (actor, id) => moves.undoMove(actor, id, 'unfavourite'), {
  flag: 'favourited',
  value: false,
  clause: 'STATUS-FAV-3',
  what: 'unfavourite',
  takes: true,
  holds: true,
});
const favourites = answersOf("A's favourite of its public status, the favourite again, favourited_by, the unfavourite, favourited_by after it", {
  favourite,
  again: favouriteAgain,
  listed: favouritedBy,
  unfavourite,
  afterUndo: moveOn("favourited_by of A's public status after the unfavourite", unfavourite, (actor, id) => actor.get(on(id, 'favourited_by'))),
});

const bookmark = moveOn("A's bookmark of its public status", subjectId, (actor, id) => moves.move(actor, id, 'bookmark', 'unbookmark'), {
  flag: 'bookmarked',
  value: true,
  clause: 'STATUS-BOOKMARK-1',
  what: 'bookmark',
  takes: true,
});
const unbookmark = moveOn("A's unbookmark of its public status", bookmark, (actor, id) => moves.undoMove(actor, id, 'unbookmark'), {
  flag: 'bookmarked',
  value: false,
  clause: 'STATUS-BOOKMARK-2',
  what: 'unbookmark',
  takes: true,
  holds: true,
});
const bookmarks = answersOf("A's bookmark of its public status, and its unbookmark", { bookmark, unbookmark });

// A takes part in the thread of its own status.
const mute = moveOn("A's mute of its public status's thread", subjectId, (actor, id) => moves.move(actor, id, 'mute', 'unmute'), {
  flag: 'muted',
  value: true,
  clause: 'STATUS-MUTE-1',
  what: 'mute',
  takes: true,
});
const muteAgain = moveOn("A's mute of its public status's thread again", mute, (actor, id) => actor.post(on(id, 'mute')));
const unmute = moveOn("A's unmute of its public status's thread", mute, (actor, id) => moves.undoMove(actor, id, 'unmute'), {
  flag: 'muted',
  value: false,
  clause: 'STATUS-MUTE-3',
  what: 'unmute',
  takes: true,
  holds: true,
});
const mutes = answersOf("A's mute of its public status's thread, the mute again, the unmute, and the unmute again", {
  mute,
  again: muteAgain,
  unmute,
  unmuteAgain: moveOn("A's unmute of its public status's thread again", unmute, (actor, id) => actor.post(on(id, 'unmute'))),
});

const pin = moveOn("A's pin of its public status", subjectId, (actor, id) => moves.move(actor, id, 'pin', 'unpin'), {
  flag: 'pinned',
  value: true,
  clause: 'STATUS-PIN-1',
  what: 'pin',
  takes: true,
});
const pinRepeated = moveOn("A's pin of its public status repeated", pin, (actor, id) => repeat(actor, id, 'pin'));
const unpin = moveOn("A's unpin of its public status", pin, (actor, id) => moves.undoMove(actor, id, 'unpin'), {
  flag: 'pinned',
  value: false,
  clause: 'STATUS-PIN-5',
  what: 'unpin',
  takes: true,
  holds: true,
});
const pins = answersOf("A's pin of its public status, the pin repeated, the unpin, and the unpin again", {
  pin,
  repeated: pinRepeated,
  unpin,
  unpinAgain: moveOn("A's unpin of its public status again", unpin, (actor, id) => actor.post(on(id, 'unpin'))),
});

// The refusals run beside the pin row: A's is of another status, and B's pins are B's own.
const pinOthers = step("B's pin of A's public status", { as: 'B', needs: { id: subjectId }, cost: { api: 1 } }, ({ id }, { actor }) => sent(moves.probe(actor, id, 'pin', 'unpin')));

const pinHidden = step("A's pin of its private status", { as: 'A', needs: { id: hiddenId }, cost: { api: 1 } }, ({ id }, { actor }) => sent(moves.probe(actor, id, 'pin', 'unpin')));

/** A's undo of a flag it never set: on its private status, which A never favourites or bookmarks. */
const undoNeverSet = (undo: string) =>
  step(`A's ${undo} of its private status`, { as: 'A', needs: { id: unflaggedId }, cost: { api: 1 } }, ({ id }, { actor }) => sent(actor.post(on(id, undo))));

const unfavouriteAgain = undoNeverSet('unfavourite');
// Not after the unbookmark of A's public status: a server whose unbookmark keeps the flag would block it there.
const unbookmarkAgain = undoNeverSet('unbookmark');

/** B's moves on A's private status, which B cannot see: the move, its undo, or both, as `asked`. */
const hiddenPair = (action: string, undo: string, asked: Asked) =>
  step(`B's ${asked === 'both' ? `${action} and ${undo}` : asked === 'move' ? action : undo} of A's private status`, { as: 'B', needs: { hidden }, cost: { api: asked === 'both' ? 2 : 1 } }, async ({ hidden }, { actor }) =>
    made(await pairOn(moves, actor, hidden, action, undo, asked)),
  );

// A move or undo that its own row refuses whatever the visibility could not show a missing guard, so it is not asked
// (the three requests pay for STATUS-VIS-8's cells in the run's budget): the unreblog and the unbookmark of a status B
// never boosted or bookmarked ("no boost", "not bookmarked": 404, STATUS-REBLOG-5's and STATUS-BOOKMARK-3's), and the
// pin of a status not B's own (the 422 of STATUS-PIN-2's row).
const hiddenPairs = {
  favourite: hiddenPair('favourite', 'unfavourite', 'both'),
  reblog: hiddenPair('reblog', 'unreblog', 'move'),
  bookmark: hiddenPair('bookmark', 'unbookmark', 'move'),
  mute: hiddenPair('mute', 'unmute', 'both'),
  pin: hiddenPair('pin', 'unpin', 'undo'),
};

/**
 * The moves asked without a token (ERRORS-TOKEN-1's cells), each of a status of another visibility: each is undone at
 * once where it took. The reblog is asked only with B: its control, the reblog with a token, is B's boost of the reblog
 * row, which is not run without B (deletesForB). The other moves of the table, and their other visibilities, are not
 * asked: a request each of the run's budget (docs/performance.md, what the matrix still lacks).
 */
const TOKENLESS_MOVES = [
  { action: 'favourite', undo: 'unfavourite', visibility: 'private' } as const,
  ...(b ? [{ action: 'reblog', undo: 'unreblog', visibility: 'public' } as const] : []),
];

/** A move of TOKENLESS_MOVES, on A's status of its visibility, made as asked. */
const tokenlessMove = ({ action, undo, visibility }: (typeof TOKENLESS_MOVES)[number]) =>
  step(`the ${action} of A's ${visibility} status without a token`, { as: 'anonymous', needs: { id: visibility === 'public' ? subjectId : hiddenId }, cost: { api: 1 } }, ({ id }, { actor }) =>
    sent(moves.probe(actor, id, action, undo)),
  );

// Beside the rows, as B's refused pin: what a server took anyway is undone before the read of A's undos and B's boosts.
const tokenlessMoves = step(
  "the favourite of A's private status and, with B, the reblog of its public status, without a token",
  { as: 'anonymous', uses: Object.fromEntries(TOKENLESS_MOVES.map((move) => [move.action, tokenlessMove(move)])), cost: {} },
  // Each move's cell is the step made of it, above.
  async (cells) => made(TOKENLESS_MOVES.map((move) => ({ ...move, made: answerIn(cells[move.action] as StepOutcome<Exchange>) }))),
);

/** The steps whose moves on A's public status leave a state that the read of A's undos and B's boosts meet. */
const flagMoves = [favourites, bookmarks, mutes, pins, pinOthers, tokenlessMoves];

/** A's read of its public status that confirms its undos held, once every row had moved (none where none had to hold). */
const held = step(
  "A's read of its public status once the settle window has passed since its last undo",
  { as: 'A', needs: { subject }, changes: flagMoves, cost: { api: 1 } },
  async ({ subject }, { actor }) => {
    const holds = holdsOn(subject.ok ? subject.value.id : undefined);
    return made({ holds, read: subject.ok ? await holds.confirm(actor, subject.value.id) : undefined });
  },
);

/** The moves the sequences draw from, as the release has them (bookmarks, mutes and pins came with their clauses' releases). */
const SEQUENCE_MOVES: MoveName[] = [
  'favourite',
  'unfavourite',
  ...(releaseHas(config.serverVersion, 'STATUS-BOOKMARK-1') ? (['bookmark', 'unbookmark'] as const) : []),
  ...(releaseHas(config.serverVersion, 'STATUS-MUTE-1') ? (['mute', 'unmute'] as const) : []),
  ...(pinsExist ? (['pin', 'unpin'] as const) : []),
];
/** The undo of each move, for the ledger: what a move leaves set is undone at the end unless a move undid it before. */
const UNDO_OF: Partial<Record<string, string>> = { favourite: 'unfavourite', reblog: 'unreblog', bookmark: 'unbookmark', mute: 'unmute', pin: 'unpin' };
const other: Who = b ? 'B' : 'A';
type RedoneName = 'bookmark' | 'pin';
/**
 * A's moves made again after its rows undid them, where the release has them (made with B only: what stands goes with
 * the delete): a server that keeps an undone record and finds it again answers the flag as the undo left it. The pin
 * made again stands to the delete (a pin is no reason to keep a status). Not the mute: a thread's mute outlives its
 * status on a server that mutes conversations (Mastodon's), so one left standing to the delete stays on the server,
 * and its unmute after the mute again is one call past the line. The default run's request line is full (285 IP
 * access calls): the other sequences the state machine judges (the mute again, alone and twice at the same moment,
 * an undo again after an undo, the undos and B's unfavourite at the same moment, the pin twice at the same moment: 1
 * to 3 calls more each) are explored only (docs/performance.md, the budget decided).
 */
const REDONE_NAMES: RedoneName[] = b ? (['bookmark', 'pin'] as const).filter((name) => SEQUENCE_MOVES.includes(name)) : [];
const REDONE_MOVES: Record<RedoneName, Move[]> = {
  // Asked twice at the same moment, the bookmark is one bookmark: the unbookmark after it leaves none.
  bookmark: [
    { who: 'A', name: 'bookmark', atOnce: true },
    { who: 'A', name: 'unbookmark' },
  ],
  pin: [{ who: 'A', name: 'pin' }],
};
const REDONE: Move[] = REDONE_NAMES.flatMap((name) => REDONE_MOVES[name]);
/** The rows' moves and undos that REDONE makes again, for STATUS-SEQUENCE-1: where one did not take, its row's check fails it. */
const ROW_MOVES = { bookmark, unbookmark, pin };
type RowMove = keyof typeof ROW_MOVES;
const redoneRows: Partial<Record<RowMove, DeclaredStep<string>>> = Object.fromEntries(REDONE.map(({ name }) => [name, ROW_MOVES[name as RowMove]]));
/**
 * The default run's sequence, the favourite row's four transitions and the counts and list that show them: the other
 * account's favourite twice at the same moment (then read), once more while it stands (STATUS-FAV-2), and A's
 * unfavourite of the status it has not favourited while B's favourite stands (STATUS-FAV-4), then REDONE; without B,
 * A's favourite is undone twice (STATUS-FAV-3, -4). B's favourite stands to the delete, with which it goes.
 */
const COVERING: Move[] = [
  { who: other, name: 'favourite', atOnce: true },
  { who: other, name: 'favourite' },
  { who: 'A', name: 'unfavourite' },
  ...(b ? [] : [{ who: 'A' as const, name: 'unfavourite' as const }]),
  ...REDONE,
];
/** The record's entries up to the reads after the favourites at the same moment: the move, the read and favourited_by. */
const AT_ONCE_ENTRIES = 3;
/** The first move of the sequence, the favourites at the same moment: A reads what they left. */
const readAfter = (move: Move): Who[] => (move === COVERING[0] ? ['A'] : []);
/**
 * The requests of the default sequence: its moves (twice each at the same moment), the read and list after the first,
 * and at the end the other account's read and the list (A's read counts as B's: A has not favourited, and the reader's
 * own favourite is what STATUS-SEQUENCE-1's read may leave out).
 */
const COVERING_COST = COVERING.reduce((sum, move) => sum + (move.atOnce ? 2 : 1), 0) + 2 + 1 + 1;
/** The longest sequence an exploration draws (--explore N; CONFORMANCE_EXPLORE). */
const EXPLORED_MOVES = 6;
/** What the ledger sends for the exploration's last status, where no sequence deleted it: its delete and the read that shows it gone. */
const LAST_STATUS_CLEANUP = 2;

/**
 * The rows as a state machine, on A's public status once every row above has moved and A's undos held: the default
 * sequence (COVERING); then, with an exploration budget, sequences drawn from the seed by both accounts over every
 * move, the delete included (the unreblog and the delete spend the Deletion bucket: only there), on statuses of A's
 * made for them, again after each delete. Each move goes through the ledger.
 */
const sequences = step(
  'sequences of moves on A\'s public status by A and B, repeated, undone, interleaved and at the same moment, with the reads after them',
  { as: 'A', alsoAs: ['B'], needs: { subject, held }, changes: [...flagMoves, held], cost: { api: COVERING_COST + explorationBudget(config) } },
  async ({ subject, held }, { actor: a, also: { B: b } }): Promise<StepOutcome<{ record: SequenceRecord; exploration?: Exploration }>> => {
    if (!subject.ok) return notMade(subject.cause, subject.exchange);
    const { id } = subject.value;
    const ownerId = subject.value.account?.id;
    if (typeof ownerId !== 'string') return notMade(causeOf('RESOURCE-STATUS-1', 'a Status carries no account id', subject.exchange), subject.exchange);
    /** The statuses made for the exploration, on the ledger, and those a delete of a sequence answered 200 for. */
    const explored = new Map<string, Created<Status>>();
    const deleted = new Set<string>();
    const send = async (actor: Actor, statusId: string, name: string, atOnce = false): Promise<Exchange> => {
      if (name === 'delete') {
        const answer = await actor.delete(`/api/v1/statuses/${statusId}`);
        if (answer.status === 200) deleted.add(statusId);
        return answer;
      }
      const undo = UNDO_OF[name];
      // Of a move sent twice at the same moment whose repeat is STATUS-REPEAT-1's (a bookmark's), either may be the repeat:
      // the sequence judges a server error to either, not ERRORS-5XX-1.
      const repeated = atOnce && againOf(name as MoveName) === 'STATUS-REPEAT-1' ? { repeated: true } : undefined;
      return undo ? moves.move(actor, statusId, name, undo, undefined, repeated) : moves.undoMove(actor, statusId, name);
    };
    // A read showed a status a sequence deleted gone: its creation, and every move on it, went with it.
    const gone = (statusId: string) => {
      if (!deleted.has(statusId)) return;
      explored.get(statusId)?.settle();
      for (const actor of b ? [a, b] : [a]) moves.settleGone(actor, statusId);
    };
    const sequencer = new Sequencer({ A: a, ...(b ? { B: b } : {}) }, send, gone);
    // A's read that confirmed its undos shows the counts before the sequence: what no move of it made.
    const start = held.read ?? (await a.get(`/api/v1/statuses/${id}`));
    const shown = createdObject(start) ?? {};
    // A's flags as the rows left them (an undo that did not hold is its row's to fail); the base counts leave A's out.
    const owner = Object.fromEntries((['favourited', 'reblogged', 'bookmarked', 'muted', 'pinned'] as const).flatMap((flag) => (typeof shown[flag] === 'boolean' ? [[flag, shown[flag]]] : [])));
    const counted = (field: string, flag: 'favourited' | 'reblogged') => (typeof shown[field] === 'number' ? (shown[field] as number) : 0) - (owner[flag] ? 1 : 0);
    const record: SequenceRecord = { statusId: id, ownerId, base: { favourites: counted('favourites_count', 'favourited'), reblogs: counted('reblogs_count', 'reblogged') }, owner, sent: [] };
    // Read by A, who has not favourited: the count and the list show the favourites at the same moment, whoever reads.
    await sendSequence(sequencer, record, COVERING, readAfter, sequenceJudging.shows);
    await readState(sequencer, record, [other], sequenceJudging.shows);
    const budget = explorationBudget(config);
    if (budget === 0) return made({ record });
    const make = async (): Promise<string | undefined> => {
      const created = await a.createStatus({ status: 'conformance probe: a public status to explore moves on', visibility: 'public' });
      if (!created.ok) return undefined;
      explored.set(created.value.id, created);
      return created.value.id;
    };
    const exploration = await explore(sequencer, ownerId, {
      names: [...SEQUENCE_MOVES, 'reblog', 'unreblog', 'delete'],
      accounts: b ? ['A', 'B'] : ['A'],
      seed: config.seed,
      budget: budget - LAST_STATUS_CLEANUP + sequencer.requests,
      maxMoves: EXPLORED_MOVES,
      make,
      // Each account's share of the Deletion bucket the exploration adds (its deletes, unreblogs and the undos of its
      // reblogs; A's ledger delete of the last status made), declared with the explored inputs' and creations'.
      deletions: { A: EXPLORE_DELETIONS.A.sequences, B: EXPLORE_DELETIONS.B.sequences },
      judging: sequenceJudging,
    });
    return made({ record, exploration });
  },
);

/**
 * A's unlisted boost of its own public status, where the release has the visibility parameter (STATUS-REBLOG-2's
 * unlisted cell): made by another account than B's boosts, it needs no unreblog to make room for B's private one, and
 * it stands for the delete, with which it goes (the ledger sends nothing for it). It comes once A's other moves on the
 * status are made and their undos confirmed, and before B's boosts: a status another account than its author boosted
 * may be answered as that boost, its author's moves included, and a boost of the author's own is no such boost.
 */
const ownBoost = step(
  "A's unlisted boost of its own public status",
  { as: 'A', needs: { id: subjectId }, changes: [...flagMoves, held, sequences], cost: { api: visibilityParameter ? 1 : 0 } },
  async ({ id }, { actor }): Promise<StepOutcome<{ visibility: string; made: Step<Exchange> } | undefined>> => {
    if (!visibilityParameter) return made(undefined);
    const boost = await moves.move(actor, id, 'reblog', 'unreblog', { visibility: 'unlisted' });
    return made({ visibility: 'unlisted', made: answered(boost) });
  },
);

// B's boosts of A's public status, a step per move: the refused visibilities, the public boost, a pin of it,
// reblogged_by before and after its unreblog, the unreblog again, then the private boost (A's own boost above is the
// unlisted one), which stands for the delete, with which it goes (the ledger sends nothing for this row). The
// visibility parameter's boosts and refusals are made only in a release that has it, and the pin only where pins
// exist. Every move of the row spends B's share of the Deletion bucket (its boosts are unreblogged, its probes
// undone): without B the row is not run (deletesForB).

/** A move of the reblog row that changes what B did to A's public status: the row's moves come one after another, after A's own boost. */
const ROW_CHANGES = [subject, ...flagMoves, held, ownBoost];

/**
 * How a move of the reblog row is made: `beside`, a move that leaves the boost as it is (a read, the unreblog again), run
 * side by side with the others of its kind (it reads A's public status, so the next move that changes it follows it);
 * `lands`, what must hold for the moves after it (the boost exists, or no boost is left), found from its answer or a read.
 */
interface ReblogMove {
  beside?: boolean;
  lands?: (actor: Actor, id: string, answer: Exchange) => Promise<Step<string>>;
}

/**
 * A move of the reblog row on A's public status, a step of its own: sent once the move it follows came to the status's
 * id (the planner blocks it otherwise, with that move's cause). A move that `lands` and did not is the cause of the
 * moves after it, its answer still its checks' to judge.
 */
const reblogMove = (name: string, follows: DeclaredStep<string>, send: (actor: Actor, id: string) => Promise<Exchange>, { beside = false, lands }: ReblogMove = {}) =>
  step(
    `B's ${name}`,
    { as: 'B', needs: { id: follows }, ...(beside ? { uses: { status: subject } } : { changes: ROW_CHANGES }), deletesForB: true, cost: { api: 1 }, mayAdd: lands ? 1 : 0 },
    async ({ id }, { actor }) => {
      const answer = await send(actor, id);
      const landed = lands ? await lands(actor, id, answer) : undefined;
      return landed && !landed.ok ? notMade(landed.cause, answer) : made(id, answer);
    },
  );

/** A reblog that must come to a boost of A's status: its answer, or else (`clause` judges that answer) a read shows the status reblogged. */
const boostLands = (clause: string) => (actor: Actor, id: string, answer: Exchange) => {
  const acted = succeeded({ id }, answer);
  return boostExists(actor, acted, answered(answer), boostOf(answered(answer), acted, clause), clause);
};
/** An unreblog that must leave no boost: its answer, or a read, shows the status not reblogged. */
const unreblogLands = (what: string) => (actor: Actor, id: string, answer: Exchange) => took(actor, succeeded({ id }, answer), answered(answer), 'reblogged', false, 'STATUS-REBLOG-4', what);
/** A probe of a move the server should refuse: what it takes anyway is undone at once (a call more, where it does). */
const PROBE_MAY_ADD = 1;

// The refusals come first: a server answers a repeated reblog with the boost it already has.
const refusedBoosts = (['direct', 'limited'] as const).map((visibility) =>
  step(
    `B's reblog of A's public status with visibility ${visibility}`,
    { as: 'B', needs: { id: subjectId }, changes: ROW_CHANGES, deletesForB: true, cost: { api: 1 }, mayAdd: PROBE_MAY_ADD },
    ({ id }, { actor }) => sent(moves.probe(actor, id, 'reblog', 'unreblog', { visibility }, { malformed: true })),
  ),
);
const publicBoost = reblogMove("reblog of A's public status", subjectId, (actor, id) => moves.move(actor, id, 'reblog', 'unreblog', visibilityParameter ? { visibility: 'public' } : undefined), {
  lands: boostLands('STATUS-REBLOG-1'),
});
/** The boost the public reblog answered, for what acts on the boost itself: a reblog that answered none is its cause (STATUS-REBLOG-1). */
const publicBoostStatus = step("the boost B's reblog of A's public status answered", { as: 'B', needs: { subject }, uses: { boost: publicBoost }, cost: {} }, async ({ subject, boost }) => {
  const boosted = boostOf(answerIn(boost), subject);
  return boosted.ok ? made(boosted.value, boosted.exchange) : notMade(boosted.cause, boosted.exchange);
});
// Without the visibility parameter the public boost is the last: it is repeated before its unreblog.
const publicBoostRepeated = reblogMove("reblog of A's public status repeated", publicBoost, (actor, id) => repeat(actor, id, 'reblog'));
// The pin probe (undone at once if it takes) and the read leave the boost as it is: made side by side.
const boostPinned = step(
  "B's pin of its boost of A's public status",
  { as: 'B', needs: { boost: publicBoostStatus }, uses: { status: subject }, deletesForB: true, cost: { api: 1 }, mayAdd: PROBE_MAY_ADD },
  ({ boost }, { actor }) => sent(moves.probe(actor, boost.id, 'pin', 'unpin')),
);
const rebloggedBy = reblogMove("reblogged_by of A's public status once boosted", publicBoost, (actor, id) => actor.get(on(id, 'reblogged_by')), { beside: true });
const unreblog = reblogMove("unreblog of A's public status", publicBoost, (actor, id) => moves.undoMove(actor, id, 'unreblog'), { lands: unreblogLands('unreblog') });
// Neither makes a boost: both meet the state the unreblog left.
const rebloggedByAfterUndo = reblogMove("reblogged_by of A's public status after the unreblog", unreblog, (actor, id) => actor.get(on(id, 'reblogged_by')), { beside: true });
const unreblogAgain = reblogMove("unreblog of A's public status again", unreblog, (actor, id) => actor.post(on(id, 'unreblog')), { beside: true });
// The private boost stands to the end: it is repeated as it was made, and stays for the delete of its original.
const privateBoost = reblogMove("private reblog of A's public status", unreblog, (actor, id) => moves.move(actor, id, 'reblog', 'unreblog', { visibility: 'private' }), {
  lands: boostLands('STATUS-REBLOG-2'),
});
const privateBoostRepeated = reblogMove("private reblog of A's public status repeated", privateBoost, (actor, id) => repeat(actor, id, 'reblog', { visibility: 'private' }));

/** A move's outcome as the step it came to: its value where it landed, else its cause with its answer. */
const landedIn = <T>(outcome: StepOutcome<T>): Step<T> => (outcome.ok ? succeeded(outcome.value, outcome.exchange as Exchange) : failed(outcome.cause, outcome.exchange));

/** The reblog row's moves as this release and configuration make them: the visibility parameter's, and the pin where pins exist. */
const reblogRow = {
  boost: publicBoost,
  boosted: publicBoostStatus,
  listed: rebloggedBy,
  unreblog,
  afterUndo: rebloggedByAfterUndo,
  unreblogAgain,
  ...(pinsExist ? { pinBoost: boostPinned } : {}),
  ...(visibilityParameter
    ? { direct: refusedBoosts[0], limited: refusedBoosts[1], private: privateBoost, repeated: privateBoostRepeated }
    : { repeated: publicBoostRepeated }),
} as Record<string, DeclaredStep<unknown>>;

/** The reblog row's answers by move, for its checks: it sends nothing, and ends with the last move of the row. */
const reblogs = step("B's boosts of A's public status, their unreblogs, a pin of a boost, and reblogged_by", { as: 'B', uses: reblogRow, cost: {} }, async (row) => {
  const answer = (move: string) => answerIn(row[move] as StepOutcome<unknown>);
  const optional = (move: string) => (row[move] ? answer(move) : undefined);
  return made({
    refused: visibilityParameter ? [answer('direct'), answer('limited')] : [],
    boost: answer('boost'),
    boosted: landedIn(row.boosted as StepOutcome<Status>),
    pinBoost: optional('pinBoost'),
    listed: answer('listed'),
    unreblog: answer('unreblog'),
    afterUndo: answer('afterUndo'),
    unreblogAgain: answer('unreblogAgain'),
    boostsByVisibility: [{ visibility: 'public', made: answer('boost') }, ...(row.private ? [{ visibility: 'private', made: answer('private') }] : [])],
    repeated: answer('repeated'),
    /** The original's id while B's last boost of it stands, at the end of the row. */
    standingBoost: row.private ? landedIn(row.private as StepOutcome<string>) : failed<string>({ summary: 'the reblog row left no boost standing' }),
  });
});

/** The moves repeated while their flag is set, by operation (STATUS-REPEAT-1): the pin's where pins exist. */
const repeating: Record<string, DeclaredStep<{ repeated?: Step<Exchange> }>> = pinsExist ? { pin: pins, reblog: reblogs } : { reblog: reblogs };

/** What the deletes came to: each part is there where the parts before it were. */
interface Deletes {
  boostStands: Step<string>;
  favourited: Step<string>;
  readBefore?: Exchange;
  /** Whether A's pin stood on the status when it deleted it (the default sequence's, REDONE). */
  pinned?: boolean;
  deletion?: Exchange;
  readAfter?: Exchange;
  /** The status no one else acted on: A's private status, or one made for the control where another account's move on that took. */
  untouched?: Created<Status>;
  /** The delete of the status no one else acted on, its read at the same moment and its read after; none where that status was not made as asked. */
  plain?: DeleteAndRead;
}

/**
 * What B did to the status that stands: its boost, its favourite or both. A favourite by B that did not take (a server
 * may answer a status its caller boosted as that boost, the status inside without the caller's flags) blocks nothing
 * where the boost stands: STATUS-FAV-1 judges A's favourite, not B's, so it cannot name the cause.
 */
const actedOn = ({ boostStands, favourited }: Pick<Deletes, 'boostStands' | 'favourited'>): Step<string> => (boostStands.ok ? boostStands : favourited.ok ? favourited : boostStands);

/**
 * The status of the plain delete, on which no one else acted: A's private status, whose moves by B are refused as B
 * cannot see it; where one of them took anyway (its own clause fails), a server may keep it as a status others acted
 * on, so A makes one here that no other step acts on (a creation and a deletion more, on such a server only).
 */
async function untouchedBy(a: Actor, others: Moves, hidden: Created<Status>): Promise<Created<Status>> {
  if (!hidden.ok || !others.movedByOthers(hidden.value.id, a)) return hidden;
  return a.createStatus({ status: 'conformance probe: a status no one else acts on', visibility: 'private' });
}

/**
 * A deletes `subject`, which B boosted and favourited, beside a status on which no one else acted: the plain delete is
 * the control that tells a status kept because others acted on it from deletes that keep every status (STATUS-DELETE-2,
 * -4). Both deletes and reads are the ledger's (counted with the statuses), made here in its place; B's favourite,
 * which goes with the status, is this step's own, and B's boost where the reblog row left none. No second delete: what
 * a delete of a deleted status answers is the Errors table's row, STATUS-DELETE-4's, and one more call of A's Deletion
 * bucket would keep two runs in a row from fitting it (docs/performance.md).
 */
const deletes = step(
  "B's favourite of A's public status, then A's deletes of its public and private statuses and the reads after them",
  {
    as: 'A',
    alsoAs: ['B'],
    needs: { subject, hidden, held, reblogs },
    // It comes last: after every step on either status.
    changes: [subject, hidden, ...flagMoves, pinHidden, unfavouriteAgain, unbookmarkAgain, ...Object.values(hiddenPairs), held, ownBoost, reblogs],
    // B's boost where the reblog row left none, and the read at the same moment as the plain delete. B's favourite is
    // the one the sequence of moves left standing (it comes before, on the same objects).
    cost: { api: (visibilityParameter ? 0 : 1) + 1 },
    // Its hold covers every call it may make, those it makes in the ledger's place too (counted with the statuses,
    // whose steps have ended and hold nothing when this one runs): A's read before, up to three deletes each with its
    // read after and, on a server that deletes in the background, the reads again (settle.ts), a status made where B
    // acted on the hidden one, and B's favourite with its read where none stands. With a bound of 6, measured, waits
    // came inside this step on windows.test's deviating server where the run was not split into windows.
    mayAdd: 1 + 3 * (2 + SETTLE_REREADS) + 1 + 2,
  },
  async ({ subject, hidden, held, reblogs: { standingBoost } }, { actor: a, also: { B } }): Promise<StepOutcome<Deletes>> => {
    if (!subject.ok) return notMade(subject.cause, subject.exchange);
    const other = B as Actor;
    const { id } = subject.value;
    // B's boost of the reblog row stands; where the row left none (a release without the parameter), B boosts here.
    let boostStands = standingBoost;
    if (!standingBoost.ok) {
      const boosting = answered(await moves.move(other, id, 'reblog', 'unreblog'));
      boostStands = await boostExists(other, subject, boosting, boostOf(boosting, subject), 'STATUS-REBLOG-1');
    }
    // B's favourite that the sequence left standing, where its answer showed it taken (as took() reads a move's answer).
    const standing = moves.standing(other, id, 'unfavourite');
    const favourited =
      standing && shows(standing, id, 'favourited', true).ok
        ? succeeded(id, standing)
        : await took(other, subject, answered(await moves.move(other, id, 'favourite', 'unfavourite')), 'favourited', true, 'STATUS-FAV-1', "B's favourite");
    // Either act of B's makes a status others acted on: one that did not take leaves the other to be judged.
    if (!actedOn({ boostStands, favourited }).ok) return made({ boostStands, favourited });
    // A's read that confirmed the undos held already showed whether A reads its status; else one read here.
    const readBefore = held.read ?? (await a.get(`/api/v1/statuses/${id}`));
    const untouched = await untouchedBy(a, moves, hidden);
    const pinned = moves.standing(a, id, 'unpin') !== undefined;
    const deleted = (status: Created<Status>, atOnce = false) => (status.ok ? deleteAndRead(a, status, status.value.id, atOnce) : undefined);
    // A's private status, where it is no control, is deleted beside it all the same, in the ledger's place. The plain
    // delete is read at the same moment too (STATUS-DELETE-8): a deletion the run makes anyway.
    const [acted, plain] = await Promise.all([deleteAndRead(a, subject, id), deleted(untouched, true), untouched === hidden ? undefined : deleted(hidden)]);
    if (acted.readAfter?.status === 404) {
      // B's boost and favourite went with the status, and A's own boost.
      moves.settleGone(other, id);
      moves.settleGone(a, id);
    }
    return made({ boostStands, favourited, readBefore, pinned, ...acted, untouched, plain });
  },
);

section('States and transitions', () => {
  section('favourite', () => {
    it('STATUS-FAV-1 favourite answers the Status with favourited = true', { needs: { subject, favourites } }, async ({ subject, favourites: { favourite } }, context) => {
      await observeLate(context, 'STATUS-FAV-1');
      expectFlag(favourite, subject, 'favourited', true);
    });

    it('STATUS-FAV-2 favourite of a status already favourited still answers 200, favourited unchanged', { needs: { subject, favourites } }, ({ subject, favourites: { again } }) => {
      expectFlag(again, subject, 'favourited', true);
    });

    it.runWide('ERRORS-5XX-1', { uses: { favourites } });

    it('STATUS-FAV-3 unfavourite answers the Status with favourited = false', { needs: { subject, favourites, held } }, ({ subject, favourites: { unfavourite }, held: { holds } }) => {
      expectFlag(unfavourite, subject, 'favourited', false);
      expectHeld(holds, 'STATUS-FAV-3');
    });

    it(
      'STATUS-FAV-4 unfavourite of a status not favourited still answers 200, favourited = false',
      { needs: { hidden, favourites, unfavouriteAgain } },
      ({ hidden, favourites: { unfavourite }, unfavouriteAgain }) => {
        // An answer other than 200 fails only where unfavourite answers at all: a server without it refuses everything.
        if (unfavouriteAgain.status !== 200) controlled(unfavourite, 'STATUS-FAV-3', "A's unfavourite of its favourited status");
        expectFlag(answered(unfavouriteAgain), unflagged(hidden), 'favourited', false);
      },
    );

    it(
      'STATUS-FAV-6 favourited_by lists the account that favourited, and no longer after its unfavourite',
      { needs: { subject, favourites, held } },
      ({ subject, favourites: { listed, afterUndo }, held: { holds } }) => {
        const [before, after] = [need(listed), need(afterUndo)];
        needHeld(holds, 'STATUS-FAV-3');
        expectListedUntilUndone(before, after, authorOf(need(subject), subject.exchange as Exchange), 'STATUS-FAVOURITEDBY-1', 'favourited_by');
      },
    );
  });

  section('reblog', () => {
    it('STATUS-REBLOG-1 reblog answers a new boost Status: its own id, the original in reblog with reblogged = true', { needs: { subject, reblogs } }, ({ subject, reblogs: { boost, boostsByVisibility } }) => {
      const [exchange, original] = [need(boost), need(subject)];
      const body = expectOk<Status>(exchange, 'Status');
      check(body.id !== original.id, `a boost id other than the original's ${original.id}`, `id ${body.id}`, exchange);
      expectEqual(body.reblog?.id, original.id, 'reblog.id', exchange);
      expectEqual(body.reblog?.reblogged, true, 'reblog.reblogged', exchange);
      // B's private boost is its boost made again after its unreblog of the public one (the States and transitions row
      // holds after any sequence of undos): the flag as the first boost's. Where it made no boost, STATUS-REBLOG-2 says so.
      const again = boostsByVisibility.find((b) => b.visibility === 'private')?.made;
      const redone = again?.ok ? (createdObject(again.exchange) as Partial<Status> | undefined) : undefined;
      if (again?.ok && redone?.reblog) expectEqual(redone.reblog.reblogged, true, 'reblog.reblogged of the boost made again after the unreblog', again.exchange);
    });

    it(
      'STATUS-REBLOG-2 the reblog visibility parameter (public, unlisted, private) is the visibility of the boost',
      { needs: { subject, reblogs, ownBoost } },
      ({ subject, reblogs: { boostsByVisibility }, ownBoost }) => {
        for (const { visibility, made } of [...boostsByVisibility, ...(ownBoost ? [ownBoost] : [])]) {
          // Whether the public boost is a boost at all is STATUS-REBLOG-1's to judge; the others' answers are this clause's.
          if (visibility === 'public') need(boostOf(made, subject));
          const exchange = need(made);
          const body = expectOk<Status>(exchange, 'Status');
          expectEqual(body.reblog?.id, need(subject).id, 'reblog.id (a boost of the original)', exchange);
          expectEqual(body.visibility, visibility, 'visibility of the boost', exchange);
        }
      },
    );

    it(
      'STATUS-REBLOG-3 reblog with visibility direct or limited is refused (any 4xx: the contract does not show the code)',
      { needs: { reblogs } },
      ({ reblogs: { boost, refused } }) => {
        // The same reblog with visibility public, the positive control: a server that refuses the parameter refuses all.
        controlled(boost, 'STATUS-REBLOG-1', 'the reblog with visibility public');
        for (const made of refused) expectRefusal(need(made));
      },
    );

    it('STATUS-REBLOG-4 unreblog when a boost by the caller exists answers the Status with reblogged = false', { needs: { subject, reblogs } }, ({ subject, reblogs: { unreblog } }) => {
      expectFlag(unreblog, subject, 'reblogged', false);
    });

    it('STATUS-REBLOG-5 unreblog when no boost by the caller exists answers 404 "Record not found"', { needs: { reblogs } }, ({ reblogs: { unreblogAgain } }) => {
      expectError(need(unreblogAgain), 404, 'Record not found');
    });

    it('STATUS-REBLOG-7 reblogged_by lists the account that boosted, and no longer after its unreblog', { needs: { reblogs } }, ({ reblogs: { listed, afterUndo, boosted } }) => {
      const [before, after, boostStatus] = [need(listed), need(afterUndo), need(boosted)];
      expectListedUntilUndone(before, after, authorOf(boostStatus, boosted.exchange as Exchange), 'STATUS-REBLOGGEDBY-1', 'reblogged_by');
    });

    it('STATUS-PIN-4 a boost cannot be pinned: pin of a boost answers 422', { needs: { pins, reblogs } }, ({ pins: { pin }, reblogs: { pinBoost } }) => {
      controlled(pin, 'STATUS-PIN-1', "A's pin of its own public status");
      // Made wherever pins exist, the only releases this check runs in.
      expectError(need(pinBoost as Step<Exchange>), 422);
    });
  });

  section('bookmark', () => {
    it('STATUS-BOOKMARK-1 bookmark answers the Status with bookmarked = true', { needs: { subject, bookmarks } }, ({ subject, bookmarks: { bookmark } }) => {
      expectFlag(bookmark, subject, 'bookmarked', true);
    });

    it(
      'STATUS-BOOKMARK-2 unbookmark of a bookmarked status answers the Status with bookmarked = false',
      { needs: { subject, bookmarks, held } },
      ({ subject, bookmarks: { unbookmark }, held: { holds } }) => {
        expectFlag(unbookmark, subject, 'bookmarked', false);
        expectHeld(holds, 'STATUS-BOOKMARK-2');
      },
    );

    it(
      'STATUS-BOOKMARK-3 unbookmark of a status that is not bookmarked answers 404 "Record not found"',
      { needs: { bookmarks, unbookmarkAgain } },
      ({ bookmarks: { unbookmark }, unbookmarkAgain }) => {
        // The positive control: unbookmark answered 2xx for a bookmarked status (a server without it answers 404 to all).
        controlled(unbookmark, 'STATUS-BOOKMARK-2', "A's unbookmark of its bookmarked status");
        expectError(unbookmarkAgain, 404, 'Record not found');
      },
    );
  });

  section('mute', () => {
    it('STATUS-MUTE-1 mute by a caller who takes part in the thread answers the Status with muted = true', { needs: { subject, mutes } }, ({ subject, mutes: { mute } }) => {
      expectFlag(mute, subject, 'muted', true);
    });

    it('STATUS-MUTE-2 mute of a thread already muted still answers 200, muted = true', { needs: { subject, mutes } }, ({ subject, mutes: { again } }) => {
      expectFlag(again, subject, 'muted', true);
    });

    it('STATUS-MUTE-3 unmute answers the Status with muted = false', { needs: { subject, mutes, held } }, ({ subject, mutes: { unmute }, held: { holds } }) => {
      expectFlag(unmute, subject, 'muted', false);
      expectHeld(holds, 'STATUS-MUTE-3');
    });

    it('STATUS-MUTE-4 unmute of a thread not muted still answers 200, muted = false', { needs: { subject, mutes, held } }, ({ subject, mutes: { unmute, unmuteAgain }, held: { holds } }) => {
      // Sent after the unmute it repeats: the thread is not muted where that undo held.
      needHeld(holds, 'STATUS-MUTE-3');
      // An answer other than 200 fails only where unmute answers at all: a server without it refuses everything.
      if (need(unmuteAgain).status !== 200) controlled(unmute, 'STATUS-MUTE-3', "A's unmute of its muted thread");
      expectFlag(unmuteAgain, subject, 'muted', false);
    });
  });

  section('pin', () => {
    // pinned is "present in some responses": the answers to pin and unpin are where the transition shows.
    it("STATUS-PIN-1 pin of the caller's own public status that is not a boost answers the Status with pinned = true", { needs: { subject, pins } }, ({ subject, pins: { pin } }) => {
      expectFlag(pin, subject, 'pinned', true);
    });

    it('STATUS-PIN-5 unpin answers the Status with pinned = false', { needs: { subject, pins, held } }, ({ subject, pins: { unpin }, held: { holds } }) => {
      expectFlag(unpin, subject, 'pinned', false);
      expectHeld(holds, 'STATUS-PIN-5');
    });

    it('STATUS-PIN-6 unpin of a status not pinned still answers 200, pinned = false', { needs: { subject, pins, held } }, ({ subject, pins: { unpinAgain }, held: { holds } }) => {
      needHeld(holds, 'STATUS-PIN-5');
      expectFlag(unpinAgain, subject, 'pinned', false);
    });

    it(
      'STATUS-PIN-2 pin of a status not owned by the caller answers 422 "Validation failed: Someone else\'s toot cannot be pinned"',
      { requires: [requirement(b, NEEDS_B)], needs: { pins, pinOthers } },
      ({ pins: { pin }, pinOthers }) => {
        controlled(pin, 'STATUS-PIN-1', "A's pin of its own public status");
        expectError(pinOthers, 422, "Validation failed: Someone else's toot cannot be pinned");
      },
    );

    it(
      'STATUS-PIN-3 pin of a non-public status answers 422 "Validation failed: Non-public toot cannot be pinned"',
      { needs: { pins, pinHidden } },
      ({ pins: { pin }, pinHidden }) => {
        controlled(pin, 'STATUS-PIN-1', "A's pin of its own public status");
        expectError(pinHidden, 422, 'Validation failed: Non-public toot cannot be pinned');
      },
    );
  });

  // B's pair of moves on A's private status, by row, each beside the other steps; a 404 counts only where the row's
  // moves answered 2xx for a status the caller sees.
  section('a status the caller cannot see', () => {
    it(
      'STATUS-FAV-5 favourite and unfavourite of a status the caller cannot see answer 404 "Record not found"',
      { requires: [requirement(b, NEEDS_B)], needs: { favourites, pair: hiddenPairs.favourite } },
      ({ favourites: { favourite, unfavourite }, pair }) => {
        controlledBy(favourite, unfavourite, 'favourite', 'unfavourite', 'STATUS-FAV-1');
        expectHidden(pair);
      },
    );

    it(
      'STATUS-REBLOG-6 reblog of a status the caller cannot see answers 404 "Record not found"',
      { requires: [requirement(b, NEEDS_B)], needs: { reblogs, pair: hiddenPairs.reblog } },
      ({ reblogs: { boost }, pair }) => {
        controlledBy(boost, undefined, 'reblog', 'unreblog', 'STATUS-REBLOG-1');
        expectHidden(pair);
      },
    );

    it(
      'STATUS-BOOKMARK-4 bookmark of a status the caller cannot see answers 404 "Record not found"',
      { requires: [requirement(b, NEEDS_B)], needs: { bookmarks, pair: hiddenPairs.bookmark } },
      ({ bookmarks: { bookmark }, pair }) => {
        controlledBy(bookmark, undefined, 'bookmark', 'unbookmark', 'STATUS-BOOKMARK-1');
        expectHidden(pair);
      },
    );

    it(
      'STATUS-MUTE-5 mute and unmute of a status the caller cannot see answer 404 "Record not found"',
      { requires: [requirement(b, NEEDS_B)], needs: { mutes, pair: hiddenPairs.mute } },
      ({ mutes: { mute, unmute }, pair }) => {
        controlledBy(mute, unmute, 'mute', 'unmute', 'STATUS-MUTE-1');
        expectHidden(pair);
      },
    );

    it(
      'STATUS-PIN-7 unpin of a status the caller cannot see answers 404 "Record not found"',
      { requires: [requirement(b, NEEDS_B)], needs: { pins, pair: hiddenPairs.pin } },
      ({ pins: { pin: control, unpin: undone }, pair }) => {
        controlledBy(control, undone, 'pin', 'unpin', 'STATUS-PIN-1');
        expectHidden(pair);
      },
    );
  });

  // The Errors row of a token operation called without a token, on the moves whose rows answered a token 2xx.
  section('a move without a token', () => {
    /** The tokenless moves and the same moves with a token, their controls: the reblog's, the reblog row's, only with B (TOKENLESS_MOVES). */
    const withControls: { favourites: typeof favourites; tokenlessMoves: typeof tokenlessMoves; reblogs?: typeof reblogs } = { favourites, tokenlessMoves, ...(b ? { reblogs } : {}) };
    it(
      'ERRORS-TOKEN-1 a favourite and a reblog without an Authorization header answer 401 "The access token is invalid"',
      { needs: withControls },
      ({ favourites: { favourite }, reblogs, tokenlessMoves }) => {
        // A cell counts where the same move with a token answered 2xx (a server without the move refuses every caller);
        // the check is blocked only where no cell has its control.
        // Without B every cell is the favourite's.
        const controlOf = (action: string) => (action === 'reblog' && reblogs ? { made: reblogs.boost, clause: 'STATUS-REBLOG-1' } : { made: favourite, clause: 'STATUS-FAV-1' });
        const answered = ({ made }: { made: Step<Exchange> }) => made.ok && made.value.status !== undefined && made.value.status >= 200 && made.value.status < 300;
        const judged = tokenlessMoves.filter((cell) => answered(controlOf(cell.action)));
        if (judged.length === 0) for (const { action } of tokenlessMoves) controlled(controlOf(action).made, controlOf(action).clause, `the ${action} with a token`);
        const cells: AccessCell[] = judged.map((cell) => ({ caller: 'no token', status: cell.visibility, operation: cell.action, exchange: need(cell.made) }));
        expectEveryCell(cells, 401, 'The access token is invalid');
      },
    );
  });

  // The rows read together (support/judge/state-machine.ts): a move's answer is its row's clause, a read the sequence's.
  section('sequences of moves', () => {
    it(
      'STATUS-FAV-2 a favourite asked twice at the same moment is one favourite: favourites_count counts it once, favourited_by lists the account once',
      { needs: { sequences } },
      ({ sequences: { record } }) => {
        judgeSequence(record, { to: AT_ONCE_ENTRIES });
      },
    );

    it(
      'STATUS-SEQUENCE-1 after moves repeated, undone and interleaved by A and B, each answer is its row\'s, and a read shows the flags, counts and lists the rows give',
      { needs: { sequences, held }, uses: redoneRows },
      ({ sequences: { record, exploration }, held: { holds }, ...rows }) => {
        // The sequences start from the state A's undos left: where one did not hold through the settle window (a flag
        // that came back), every read after it meets that undo's deviation, which its own check fails.
        for (const undo of ['STATUS-FAV-3', 'STATUS-BOOKMARK-2', 'STATUS-MUTE-3', 'STATUS-PIN-5']) needHeld(holds, undo);
        // The favourites at the same moment are STATUS-FAV-2's check, and this one judges the moves after them; where
        // the favourite did not take at all (its row's first clause), nothing after it is the sequence's to judge.
        const first = ROWS.favourite.first; // COVERING starts with the favourites at the same moment
        try {
          judgeSequence(record, { to: AT_ONCE_ENTRIES });
        } catch (error) {
          if (error instanceof ClauseFailure && error.data.clause === first) block(causeOf(first, `the favourites at the same moment answered ${error.data.actual}`));
        }
        try {
          judgeSequence(record, { from: AT_ONCE_ENTRIES });
        } catch (error) {
          // A move of REDONE that failed its row's first clause where the row's own move did not take either: the same
          // deviation, its row's check's to fail.
          if (error instanceof ClauseFailure) for (const [name, row] of Object.entries(rows)) if (!row.ok && ROWS[name as RowMove].first === error.data.clause) block(row.cause);
          throw error;
        }
        if (exploration) judgeExploration(exploration);
      },
    );
  });

  section('a move repeated', () => {
    it('STATUS-REPEAT-1 a reblog or pin repeated while its flag is set answers without a server error (5xx)', { needs: repeating }, (rows) => {
      // Each move that could be repeated is judged on its own answer, every server error listed; one that could not be
      // repeated blocks the check after the others were judged.
      const made = Object.values(rows).flatMap((row) => row.repeated ?? []);
      const answers = made.flatMap((step) => (step.ok ? [step.value] : []));
      checkEach(
        answers.map((exchange) => ({ holds: exchange.status !== undefined && exchange.status < 500, exchange })),
        `an answer below HTTP 500 to ${answers.map((exchange) => `${exchange.method} ${exchange.path}`).join(' and ')} (what it answers is not shown)`,
      );
      const unmade = made.find((step) => !step.ok);
      if (unmade) need(unmade);
    });
  });

  // A's deletes come after every other step (deletes, above): B boosted and favourited `subject`; no one else acted on
  // the control (`hidden`, or a status made for it where a move of B's on `hidden` took).
  section('delete of a status others acted on', () => {
    it(
      'STATUS-DELETE-7 deleting a status that B boosted or favourited (both, where both took): DELETE answers it, and a later read gives 404 "Record not found"',
      { requires: [requirement(b, NEEDS_B)], needs: { subject, hidden, deletes } },
      ({ subject, deletes: { boostStands, favourited, readBefore, pinned, deletion, readAfter, untouched, plain } }) => {
        need(subject);
        need(actedOn({ boostStands, favourited }));
        // The positive control of the 404s: A's read of the status answered it before the delete.
        const before = readBefore as Exchange;
        if (before.status !== 200) block(causeOf('STATUS-READ-1', `A's read of its own public status before the delete answered ${answerOf(before)}`, before));
        // The plain delete beside it: where A's status no one acted on is not deleted either, that is not this clause.
        const plainDeletion = plain?.deletion;
        if (!plainDeletion) block(untouched?.ok === false ? untouched.cause : { summary: "A's status no one else acted on was not deleted" });
        if (plainDeletion.status !== 200) block(causeOf('STATUS-DELETE-1', `DELETE of the caller's own status answered ${answerOf(plainDeletion)}`, plainDeletion));
        const plainRead = plain?.readAfter as Exchange;
        if (plainRead.status !== 404) block(causeOf('STATUS-DELETE-2', `a status no one else acted on still read as ${answerOf(plainRead)} after its DELETE answered 200`, plainRead));
        // Its author's pin stands on it: the owner's DELETE answers the Status all the same, the delete row's (a pin is no
        // reason to keep a status).
        if (pinned && deletion?.status !== 200) fail("HTTP 200 with the Status: the owner's DELETE of its status, which it pinned", statusLine(deletion as Exchange), deletion, 'STATUS-DELETE-1');
        expectEqual(expectOk<Status>(deletion as Exchange, 'Status').id, need(subject).id, 'id of the deleted status', deletion);
        expectError(readAfter as Exchange, 404, 'Record not found');
      },
    );
  });

  // The plain delete of the step above, with A's read of the status sent at the same moment: whichever the server takes
  // first, the read sees the status before the delete or none.
  section('a delete and a read at the same moment', () => {
    it(
      'STATUS-DELETE-8 a read of a status sent at the same moment as its DELETE answers the status whole or 404 "Record not found", never a server error',
      { needs: { deletes } },
      ({ deletes }) => {
        need(actedOn(deletes));
        const { plain, untouched } = deletes;
        if (!plain?.readAtOnce) block(untouched?.ok === false ? untouched.cause : { summary: "A's status no one else acted on was not deleted" });
        const { deletion, readAtOnce, readAfter } = plain;
        if (deletion.status !== 200) block(causeOf('STATUS-DELETE-1', `DELETE of the caller's own status answered ${answerOf(deletion)}`, deletion));
        if (readAfter?.status !== 404) block(causeOf('STATUS-DELETE-2', `the status still read as ${readAfter ? answerOf(readAfter) : 'nothing'} after its DELETE answered 200`, readAfter));
        if (readAtOnce.status === 404) return expectError(readAtOnce, 404, 'Record not found');
        // Its replay sends the DELETE and the read at the same moment again.
        const expected = 'HTTP 404 {"error": "Record not found"}, or HTTP 200 with the status whole: its id and its author\'s, as the DELETE answered them';
        if (readAtOnce.status !== 200) fail(expected, statusLine(readAtOnce), readAtOnce, undefined, [], deletion);
        const read = expectOk(readAtOnce, 'Status');
        const deleted = createdObject(deletion) ?? {};
        const author = (status: Record<string, unknown>) => (status.account as { id?: unknown } | null | undefined)?.id;
        const shown = { id: read.id, account: author(read) };
        if (shown.id !== deleted.id || shown.account !== author(deleted)) fail(expected, `HTTP 200 ${JSON.stringify(shown)}`, readAtOnce, undefined, [], deletion);
        countJudged();
      },
    );
  });
});

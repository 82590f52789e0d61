// The contract's "States and transitions" rows for a status, as a model: each account's flags, and the counts and
// lists that show them. A move is a row; what it leaves is the row's Result, whatever came before it (the "already"
// cases leave the state unchanged). The delete row ends them: after it every move answers 404, the Errors table's row
// for a deleted status, and a read gives 404. The model says what a move's answer and a later read must show, and under which
// clause each shows it; judge/state-machine.ts walks a recorded sequence through it, and sequence.ts draws the
// sequences it sends from it. Pure: no request, no verdict.
import type { Flag } from './moves.ts';

/** A, who owns the status; B, another account, who can see it and takes no part in its thread. */
export type Who = 'A' | 'B';

/** The rows that set or clear a flag. */
export type FlagMoveName = 'favourite' | 'unfavourite' | 'reblog' | 'unreblog' | 'bookmark' | 'unbookmark' | 'mute' | 'unmute' | 'pin' | 'unpin';
export type MoveName = FlagMoveName | 'delete';

/** A move of a sequence: `atOnce` sends it twice at the same moment, which the contract makes one move. */
export interface Move {
  who: Who;
  name: MoveName;
  atOnce?: boolean;
}

/** What a move asked again answers: the same state (the table's "already" case), 404, or what the table does not show. */
type Again = 'unchanged' | 'not-found' | 'not-shown';

interface Row {
  flag: Flag;
  value: boolean;
  /** The row's clause where the flag is not at `value` yet. */
  first: string;
  /** The clause of the move asked again, its flag already at `value`. */
  again: string;
  repeated: Again;
  /** Who may make the move: the owner only (pin, mute: the owner takes part in the thread), or either account. */
  owner?: true;
  /** The clause of the move on a deleted status: its row's 404 for a status the caller cannot see. */
  gone: string;
}

export const ROWS: Record<FlagMoveName, Row> = {
  favourite: { flag: 'favourited', value: true, first: 'STATUS-FAV-1', again: 'STATUS-FAV-2', repeated: 'unchanged', gone: 'STATUS-FAV-5' },
  unfavourite: { flag: 'favourited', value: false, first: 'STATUS-FAV-3', again: 'STATUS-FAV-4', repeated: 'unchanged', gone: 'STATUS-FAV-5' },
  reblog: { flag: 'reblogged', value: true, first: 'STATUS-REBLOG-1', again: 'STATUS-REPEAT-1', repeated: 'not-shown', gone: 'STATUS-REBLOG-6' },
  unreblog: { flag: 'reblogged', value: false, first: 'STATUS-REBLOG-4', again: 'STATUS-REBLOG-5', repeated: 'not-found', gone: 'STATUS-REBLOG-6' },
  bookmark: { flag: 'bookmarked', value: true, first: 'STATUS-BOOKMARK-1', again: 'STATUS-REPEAT-1', repeated: 'not-shown', gone: 'STATUS-BOOKMARK-4' },
  unbookmark: { flag: 'bookmarked', value: false, first: 'STATUS-BOOKMARK-2', again: 'STATUS-BOOKMARK-3', repeated: 'not-found', gone: 'STATUS-BOOKMARK-4' },
  mute: { flag: 'muted', value: true, first: 'STATUS-MUTE-1', again: 'STATUS-MUTE-2', repeated: 'unchanged', owner: true, gone: 'STATUS-MUTE-5' },
  unmute: { flag: 'muted', value: false, first: 'STATUS-MUTE-3', again: 'STATUS-MUTE-4', repeated: 'unchanged', owner: true, gone: 'STATUS-MUTE-5' },
  pin: { flag: 'pinned', value: true, first: 'STATUS-PIN-1', again: 'STATUS-REPEAT-1', repeated: 'not-shown', owner: true, gone: 'STATUS-PIN-7' },
  unpin: { flag: 'pinned', value: false, first: 'STATUS-PIN-5', again: 'STATUS-PIN-6', repeated: 'unchanged', owner: true, gone: 'STATUS-PIN-7' },
};

/**
 * The delete row: the owner's DELETE answers the Status, and the status no longer exists; another account's is the
 * Errors table's 404 for a status not owned, the owner's again its 404 for a status already deleted.
 */
export const DELETE_ROW = { first: 'STATUS-DELETE-1', notOwned: 'STATUS-DELETE-3', again: 'STATUS-DELETE-4', read: 'STATUS-DELETE-2', lists: 'STATUS-DELETE-6' } as const;

export const isFlagMove = (name: MoveName): name is FlagMoveName => name !== 'delete';

/** The clause of a move asked again (sent twice at the same moment: one move, however often it is asked). */
export const againOf = (name: MoveName): string => (isFlagMove(name) ? ROWS[name].again : DELETE_ROW.again);

/** The moves `who` may make on the status (the rows whose condition holds for that account; anyone may ask a delete). */
export const movesOf = (who: Who, names: readonly MoveName[]): MoveName[] => names.filter((name) => who === 'A' || !isFlagMove(name) || !ROWS[name].owner);

type Flags = Record<Flag, boolean>;

const UNSET: Flags = { favourited: false, reblogged: false, bookmarked: false, muted: false, pinned: false };

/** Each account's flags, and the counts as they were before the sequence (what other accounts did); `deleted` by its owner. */
export interface StatusModel {
  flags: Record<Who, Flags>;
  base: { favourites: number; reblogs: number };
  deleted?: true;
}

/**
 * The model of a status on which B has set no flag and A those `owner` shows (what the rows before the sequence left),
 * `base` the counts of every other account.
 */
export const freshModel = (base: StatusModel['base'], owner: Partial<Flags> = {}): StatusModel => ({ flags: { A: { ...UNSET, ...owner }, B: { ...UNSET } }, base });

/** favourites_count and reblogs_count as the model has them. */
export function countsOf(model: StatusModel): { favourites: number; reblogs: number } {
  const standing = (flag: Flag) => (['A', 'B'] as const).filter((who) => model.flags[who][flag]).length;
  return { favourites: model.base.favourites + standing('favourited'), reblogs: model.base.reblogs + standing('reblogged') };
}

/**
 * What a move's answer must show: its clause, and the flag it sets, 404, the status deleted (the DELETE's answer),
 * or, not shown, only no server error.
 */
interface Answered {
  clause: string;
  /** The counts before and after the move: an answer may show either (a server that counts in the background). */
  counts: { before: { favourites: number; reblogs: number }; after: { favourites: number; reblogs: number } };
}
export type Expected = (Answered & { answer: 'flag'; flag: Flag; value: boolean }) | (Answered & { answer: 'not-found' | 'not-shown' | 'deleted' });

/** What a move must answer in `model`, and the model after it. */
export function step(model: StatusModel, move: Move): { expected: Expected; next: StatusModel } {
  const counts = { before: countsOf(model), after: countsOf(model) };
  const refused = (clause: string) => ({ expected: { clause, answer: 'not-found' as const, counts }, next: model });
  if (move.name === 'delete') {
    if (move.who !== 'A') return refused(DELETE_ROW.notOwned);
    if (model.deleted) return refused(DELETE_ROW.again);
    return { expected: { clause: DELETE_ROW.first, answer: 'deleted', counts }, next: { ...model, deleted: true } };
  }
  const row = ROWS[move.name];
  if (model.deleted) return refused(row.gone);
  const already = model.flags[move.who][row.flag] === row.value;
  const next: StatusModel = { ...model, flags: { ...model.flags, [move.who]: { ...model.flags[move.who], [row.flag]: row.value } } };
  const clause = already ? row.again : row.first;
  const after = { before: countsOf(model), after: countsOf(next) };
  if (already && row.repeated !== 'unchanged') return { expected: { clause, answer: row.repeated, counts: after }, next };
  return { expected: { clause, answer: 'flag', flag: row.flag, value: row.value, counts: after }, next };
}

/** Each row that sets a flag and its undo, in the order the covering sequences take them (the delete's come last). */
const PAIRS: readonly (readonly [FlagMoveName, FlagMoveName])[] = [
  ['favourite', 'unfavourite'],
  ['bookmark', 'unbookmark'],
  ['mute', 'unmute'],
  ['pin', 'unpin'],
  ['reblog', 'unreblog'],
];

/**
 * The covering sequences, built from the rows, so that every (account, move, state before) a row names is sent
 * whatever a seed draws: for each pair of rows and each account that may make them, the move (its flag unset), the
 * move again (set: the "already" case), its undo and the undo again; then the move once more by the last of them,
 * its undo and the undo again (after an undo: what a server that finds an undone record again gets wrong). A repeated reblog is left out (what it
 * does is not shown). Last, the delete's: another account's (not owned), the owner's of the status it pinned, then
 * every move on the deleted status, by B where B may make it.
 */
export function coveringSequences(names: readonly MoveName[], accounts: readonly Who[]): Move[][] {
  const named = (name: MoveName) => names.includes(name);
  const pairs = PAIRS.filter(([set, unset]) => named(set) && named(unset)).flatMap(([set, unset]) => {
    const movers = accounts.filter((who) => movesOf(who, [set]).length > 0);
    const walk: MoveName[] = set === 'reblog' ? [set, unset, unset] : [set, set, unset, unset];
    const last = movers.at(-1);
    const again: MoveName[] = [set, unset, unset];
    return last ? [[...movers.flatMap((who) => walk.map((name) => ({ who, name }))), ...again.map((name) => ({ who: last, name }))]] : [];
  });
  if (!named('delete')) return pairs;
  const gone = names.filter(isFlagMove).map((name): Move => ({ who: accounts.includes('B') && movesOf('B', [name]).length > 0 ? 'B' : 'A', name }));
  const others: Move[] = accounts.includes('B') ? [{ who: 'B', name: 'delete' }] : [];
  const pinned: Move[] = named('pin') ? [{ who: 'A', name: 'pin' }] : [];
  return [...pairs, [...others, ...pinned, { who: 'A', name: 'delete' }, ...gone]];
}

/** The text of a move for a failure's sequence: "B favourite", "B favourite twice at the same moment". */
export const moveText = (move: Move) => `${move.who} ${move.name}${move.atOnce ? ' twice at the same moment' : ''}`;

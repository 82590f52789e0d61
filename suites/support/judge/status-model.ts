// The contract's "States and transitions" rows for a status, as a model: each account's flags, and the counts and
// lists that show them. A move is a row; what it leaves is the row's Result, whatever came before it (the "already"
// cases leave the state unchanged). The model says what a move's answer and a later read must show, and under which
// clause each shows it; sequence.ts walks a recorded sequence through it. Pure: no request, no verdict.
import type { Flag } from '../act/moves.ts';

/** A, who owns the status; B, another account, who can see it and takes no part in its thread. */
export type Who = 'A' | 'B';

export type MoveName = 'favourite' | 'unfavourite' | 'reblog' | 'unreblog' | 'bookmark' | 'unbookmark' | 'mute' | 'unmute' | 'pin' | 'unpin';

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
}

export const ROWS: Record<MoveName, Row> = {
  favourite: { flag: 'favourited', value: true, first: 'STATUS-FAV-1', again: 'STATUS-FAV-2', repeated: 'unchanged' },
  unfavourite: { flag: 'favourited', value: false, first: 'STATUS-FAV-3', again: 'STATUS-FAV-4', repeated: 'unchanged' },
  reblog: { flag: 'reblogged', value: true, first: 'STATUS-REBLOG-1', again: 'STATUS-REPEAT-1', repeated: 'not-shown' },
  unreblog: { flag: 'reblogged', value: false, first: 'STATUS-REBLOG-4', again: 'STATUS-REBLOG-5', repeated: 'not-found' },
  bookmark: { flag: 'bookmarked', value: true, first: 'STATUS-BOOKMARK-1', again: 'STATUS-REPEAT-1', repeated: 'not-shown' },
  unbookmark: { flag: 'bookmarked', value: false, first: 'STATUS-BOOKMARK-2', again: 'STATUS-BOOKMARK-3', repeated: 'not-found' },
  mute: { flag: 'muted', value: true, first: 'STATUS-MUTE-1', again: 'STATUS-MUTE-2', repeated: 'unchanged', owner: true },
  unmute: { flag: 'muted', value: false, first: 'STATUS-MUTE-3', again: 'STATUS-MUTE-4', repeated: 'unchanged', owner: true },
  pin: { flag: 'pinned', value: true, first: 'STATUS-PIN-1', again: 'STATUS-REPEAT-1', repeated: 'not-shown', owner: true },
  unpin: { flag: 'pinned', value: false, first: 'STATUS-PIN-5', again: 'STATUS-PIN-6', repeated: 'unchanged', owner: true },
};

/** The moves `who` may make on the status (the rows whose condition holds for that account). */
export const movesOf = (who: Who, names: readonly MoveName[]): MoveName[] => names.filter((name) => who === 'A' || !ROWS[name].owner);

type Flags = Record<Flag, boolean>;

const UNSET: Flags = { favourited: false, reblogged: false, bookmarked: false, muted: false, pinned: false };

/** Each account's flags, and the counts as they were before the sequence (what other accounts did). */
export interface StatusModel {
  flags: Record<Who, Flags>;
  base: { favourites: number; reblogs: number };
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

/** What a move's answer must show: its clause, and the flag it sets or 404 (or, not shown, only no server error). */
export interface Expected {
  clause: string;
  answer: 'flag' | 'not-found' | 'not-shown';
  flag: Flag;
  value: boolean;
  /** The counts before and after the move: an answer may show either (a server that counts in the background). */
  counts: { before: { favourites: number; reblogs: number }; after: { favourites: number; reblogs: number } };
}

/** What a move must answer in `model`, and the model after it. */
export function step(model: StatusModel, move: Move): { expected: Expected; next: StatusModel } {
  const row = ROWS[move.name];
  const already = model.flags[move.who][row.flag] === row.value;
  const next: StatusModel = { ...model, flags: { ...model.flags, [move.who]: { ...model.flags[move.who], [row.flag]: row.value } } };
  const answer = !already ? 'flag' : row.repeated === 'unchanged' ? 'flag' : row.repeated;
  return { expected: { clause: already ? row.again : row.first, answer, flag: row.flag, value: row.value, counts: { before: countsOf(model), after: countsOf(next) } }, next };
}

/** The text of a move for a failure's sequence: "B favourite", "B favourite twice at the same moment". */
export const moveText = (move: Move) => `${move.who} ${move.name}${move.atOnce ? ' twice at the same moment' : ''}`;

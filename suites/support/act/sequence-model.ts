// A sequence of moves on one status as recorded: what sequence.ts sent, the exploration it came to, and the judging
// it is handed. This module holds no request, so that the judges (judge/state-machine.ts) read the record without
// importing what sends, and sequence.ts takes its verdicts from them as parameters (SequenceJudging).
import { createdObject, type Exchange } from '../talk/http.ts';
import { isFlagMove, ROWS, type Move, type MoveName, type Who } from './status-model.ts';

/** One move of a sequence as sent: its answers (two where it was sent twice at the same moment). */
export interface SentMove {
  kind: 'move';
  who: Who;
  name: string;
  atOnce?: boolean;
  answers: Exchange[];
}

/** A read of the status by `who`, or of one of its accounts lists. */
export interface SentRead {
  kind: 'read';
  who: Who;
  exchange: Exchange;
}

export interface SentList {
  kind: 'list';
  list: 'favourited_by' | 'reblogged_by';
  exchange: Exchange;
}

export type Sent = SentMove | SentRead | SentList;

/** A sequence on one status: the status, its owner's account id, its counts when it began, and what was sent. */
export interface SequenceRecord {
  statusId: string;
  ownerId: string;
  base: { favourites: number; reblogs: number };
  /** A's flags when it began, as a read showed them (what the moves before it left); B's are all unset. */
  owner?: Partial<Record<'favourited' | 'reblogged' | 'bookmarked' | 'muted' | 'pinned', boolean>>;
  sent: Sent[];
  /** The moves and undos sent on the status before this sequence (earlier sequences' of an exploration): its replay sends them first. */
  prelude?: Exchange[];
}

/** What an exploration came to: the record to judge (the shortest failing sequence, else the last), and how it went. */
export interface Exploration {
  record?: SequenceRecord;
  runs: number;
  requests: number;
  seed: number;
  /** fast-check's path to the shrunk sequence, with the seed: what replays the draw. */
  path?: string;
  /** The covering sequence that failed and what it was shrunk to, where one did. */
  covering?: string;
}

/** The judges' part in sending a sequence (judge/state-machine.ts's, which the suite hands to sequence.ts). */
export interface SequenceJudging {
  /** Whether a read or a list shows what the model has at the end of the record: the settle window waits for it. */
  shows: (record: SequenceRecord) => (exchange: Exchange) => boolean;
  /** Judges the record so far against the model; throws where it fails. */
  judge: (record: SequenceRecord) => void;
  /** The clause a failure of `judge` names; undefined for any other error (no answer, one the budget refused). */
  clauseOf: (error: unknown) => string | undefined;
}

/** The status acted on as an answer shows it: itself, or inside a boost of it (a reblog's answer, or a server that answers the boost). */
export function actedIn(exchange: Exchange, statusId: string): Record<string, unknown> | undefined {
  const body = createdObject(exchange);
  const reblog = body?.reblog as Record<string, unknown> | null | undefined;
  return body?.id === statusId ? body : reblog?.id === statusId ? reblog : undefined;
}

/** The count a move's row changes: favourites for favourite and unfavourite, boosts for reblog and unreblog. */
export function countedBy(name: MoveName): 'favourites' | 'reblogs' | undefined {
  const flag = isFlagMove(name) ? ROWS[name].flag : undefined;
  return flag === 'favourited' ? 'favourites' : flag === 'reblogged' ? 'reblogs' : undefined;
}

export const asMove = (sent: SentMove): Move => ({ who: sent.who, name: sent.name as MoveName, ...(sent.atOnce ? { atOnce: true } : {}) });

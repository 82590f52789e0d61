// Requests at the same moment (issue 49 item 5), under --explore N only: the moves whose "States and transitions" row
// promises one outcome however often they are asked, each sent twice at the same moment on A's public status (the one
// the explored inputs name: no status made, no deletion), in short sequences that show what the pair left: the undo
// after a move asked twice (a move stored twice leaves its flag set), the read and list after an unfavourite asked
// twice (a count taken twice). The plan is fixed before the first request; judge/explore-at-once-oracle.ts judges the
// records against the rows' model. The favourite asked twice is the default run's (STATUS-FAV-2); the reblog and
// unreblog are left out: their undo spends the Deletion bucket, which the other explored parts fill (docs/exploring.md).
import type { Exchange } from '../talk/http.ts';
import { createdObject } from '../talk/http.ts';
import type { Actor } from './actors.ts';
import { moves } from './moves.ts';
import { Sequencer, type SequenceRecord } from './sequence.ts';

type Who = 'A' | 'B';
type Name = 'favourite' | 'unfavourite' | 'bookmark' | 'unbookmark' | 'mute' | 'unmute' | 'pin' | 'unpin';

/** A move of a sequence, by the names of judge/status-model.ts; `atOnce`: sent twice at the same moment. */
export interface AtOnceMove {
  who: Who;
  name: Name;
  atOnce?: true;
}

/** A sequence on A's public status: its moves, and whether the reads that show the counts follow the last. */
export interface AtOnceSequence {
  /** The flag its moves set and clear: a flag already set when it starts (what an earlier move left) sends none of it. */
  flag: 'favourited' | 'bookmarked' | 'muted' | 'pinned';
  who: Who;
  moves: readonly AtOnceMove[];
  /** A read of the status and of favourited_by after the last move: the count and the list an unfavourite changes. */
  readAfter: boolean;
}

const UNDO: Record<Name, Name | undefined> = { favourite: 'unfavourite', unfavourite: undefined, bookmark: 'unbookmark', unbookmark: undefined, mute: 'unmute', unmute: undefined, pin: 'unpin', unpin: undefined };

/**
 * A move and its undo, each asked twice at the same moment once: the move twice, its undo (which a move stored twice
 * leaves undone), the move again and the undo twice (its second the row's "already" case, or the other's 404).
 */
const bothAtOnce = (who: Who, move: Name, undo: Name): AtOnceMove[] => [
  { who, name: move, atOnce: true },
  { who, name: undo },
  { who, name: move },
  { who, name: undo, atOnce: true },
];

/**
 * The sequences --explore N sends, as the release has the rows (`released`: a clause's release), B's where B is
 * configured (another account's favourite and bookmark; the mute and pin are the owner's rows): the unfavourite asked
 * twice after a favourite, its count and list read; the bookmark, the mute and the pin each as bothAtOnce.
 */
export function atOnceSequences(explore: number | undefined, released: (clause: string) => boolean, withB: boolean): AtOnceSequence[] {
  if (explore === undefined || explore <= 0) return [];
  const other: Who = withB ? 'B' : 'A';
  return [
    { flag: 'favourited', who: other, moves: [{ who: other, name: 'favourite' }, { who: other, name: 'unfavourite', atOnce: true }], readAfter: true },
    ...(released('STATUS-BOOKMARK-1') ? [{ flag: 'bookmarked' as const, who: other, moves: bothAtOnce(other, 'bookmark', 'unbookmark'), readAfter: false }] : []),
    ...(released('STATUS-MUTE-1') ? [{ flag: 'muted' as const, who: 'A' as const, moves: bothAtOnce('A', 'mute', 'unmute'), readAfter: false }] : []),
    ...(released('STATUS-PIN-1') ? [{ flag: 'pinned' as const, who: 'A' as const, moves: bothAtOnce('A', 'pin', 'unpin'), readAfter: false }] : []),
  ];
}

/** A sequence's requests: the read that starts it, each move (twice at once: two), and the read and list after it. */
export const sequenceRequests = (sequence: AtOnceSequence) => 1 + sequence.moves.reduce((sum, move) => sum + (move.atOnce ? 2 : 1), 0) + (sequence.readAfter ? 2 : 0);

/** What the part costs, declared on its step as the other explored parts declare theirs: IP access calls, no deletion. */
export const atOnceCost = (sequences: readonly AtOnceSequence[]) => ({ api: sequences.reduce((sum, sequence) => sum + sequenceRequests(sequence), 0) });

/** A sequence sent: its record, or why none was sent. */
export type SentAtOnce = { sequence: AtOnceSequence; record: SequenceRecord } | { sequence: AtOnceSequence; leftOut: string; exchange: Exchange };

/**
 * Sends each sequence on the status, one after another: a read by its account first (the counts it starts from, and
 * its flag: one an earlier move left set is no state this sequence's rows start from, so it is not sent), then its moves
 * through the ledger (what a move sets is undone at the end where no undo of the sequence answered 200), then its reads.
 * `shows`: what a read must show for the settle window to stop waiting (judge/state-machine.ts showsModel).
 */
export async function sendAtOnce(
  actors: Partial<Record<Who, Actor>>,
  statusId: string,
  sequences: readonly AtOnceSequence[],
  shows: (record: SequenceRecord) => (exchange: Exchange) => boolean,
): Promise<SentAtOnce[]> {
  const sequencer = new Sequencer(actors, (actor, id, name) => {
    const undo = UNDO[name as Name];
    return undo ? moves.move(actor, id, name, undo) : moves.undoMove(actor, id, name);
  });
  const sent: SentAtOnce[] = [];
  for (const sequence of sequences) {
    const start = await sequencer.actor(sequence.who).get(`/api/v1/statuses/${statusId}`);
    const body = start.status === 200 ? createdObject(start) : undefined;
    const ownerId = (body?.account as { id?: unknown } | undefined)?.id;
    if (body?.id !== statusId || typeof ownerId !== 'string') {
      sent.push({ sequence, leftOut: `the read of status ${statusId} that starts it answered HTTP ${start.status ?? 'nothing'}`, exchange: start });
      continue;
    }
    if (body[sequence.flag] === true) {
      sent.push({ sequence, leftOut: `${sequence.flag} was already true on status ${statusId} (an earlier move left it set)`, exchange: start });
      continue;
    }
    const count = (field: string) => (typeof body[field] === 'number' ? (body[field] as number) : 0);
    const record: SequenceRecord = { statusId, ownerId, base: { favourites: count('favourites_count'), reblogs: count('reblogs_count') }, sent: [] };
    for (const move of sequence.moves) await sequencer.move(record, move.who, move.name, move.atOnce === true);
    if (sequence.readAfter) {
      await sequencer.read(record, sequence.who, shows(record));
      await sequencer.list(record, 'favourited_by', shows(record));
    }
    sent.push({ sequence, record });
  }
  return sent;
}

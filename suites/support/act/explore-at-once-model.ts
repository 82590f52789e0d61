// The model of the moves at the same moment: the sequences, their cost and the type of what was sent.
// explore-at-once.ts sends them; this module holds no request, so that the oracle (judge/explore-at-once-oracle.ts)
// reads it without importing what sends.
import type { Exchange } from '../talk/http.ts';
import type { SequenceRecord } from './sequence-model.ts';

export type Who = 'A' | 'B';
export type Name = 'favourite' | 'unfavourite' | 'bookmark' | 'unbookmark' | 'mute' | 'unmute' | 'pin' | 'unpin';

/** A move of a sequence, by the names of status-model.ts; `atOnce`: sent twice at the same moment. */
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

export const UNDO: Record<Name, Name | undefined> = { favourite: 'unfavourite', unfavourite: undefined, bookmark: 'unbookmark', unbookmark: undefined, mute: 'unmute', unmute: undefined, pin: 'unpin', unpin: undefined };

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

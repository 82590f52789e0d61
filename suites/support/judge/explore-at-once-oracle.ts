// The oracle of the requests at the same moment (act/explore-at-once.ts): each sequence's record judged against the
// rows' model (state-machine.ts judgeSequence), entry by entry, so that each explored check judges the entries of its
// own clause: a move asked twice at the same moment under its row's clause where neither answer shows it made, else
// under the row's "already" clause (the other answer neither the move made nor the move asked again; a count or a list
// that counts it twice); the undo after it under the undo's row (a move stored twice leaves its flag set). The first
// entry that breaks a clause ends its record's judgement: what came after met the state it left.
import { atOnceCost, atOnceSequences, type AtOnceSequence, type SentAtOnce } from '../act/explore-at-once-model.ts';
import type { SequenceRecord } from '../act/sequence-model.ts';
import { againOf, step, type MoveName } from '../act/status-model.ts';
import { ClauseFailure } from './clauses.ts';
import { judgeSequence, modelAfter } from './state-machine.ts';

const SEQUENCE = 'STATUS-SEQUENCE-1';
const LISTS = { favourited_by: ['STATUS-FAVOURITEDBY-1', 'STATUS-FAV-6'], reblogged_by: ['STATUS-REBLOGGEDBY-1', 'STATUS-REBLOG-7'] } as const;

/** The clauses entry `index` of a record may be judged under. */
export function entryClauses(record: SequenceRecord, index: number): string[] {
  const entry = record.sent[index];
  if (!entry) return [];
  const previous = record.sent[index - 1];
  const afterAtOnce = previous?.kind === 'move' && previous.atOnce ? [againOf(previous.name as MoveName)] : [];
  if (entry.kind === 'read') return [SEQUENCE, 'STATUS-READ-1', ...afterAtOnce];
  if (entry.kind === 'list') return [...LISTS[entry.list], ...afterAtOnce];
  const move = { who: entry.who, name: entry.name as MoveName };
  const { expected } = step(modelAfter(record, index), move);
  return [expected.clause, SEQUENCE, ...(entry.atOnce ? [againOf(move.name)] : [])];
}

/**
 * Judges the entries of `clauseId` in every record, each record up to its first entry that broke a clause (any): a
 * finding of `clauseId` is thrown (its replay sends the moves before it, and the other request of the pair beside it);
 * the number of entries of the clause judged is answered (0: none of this run's sequences reached it).
 */
export function judgeAtOnce(sent: readonly SentAtOnce[], clauseId: string): number {
  let judged = 0;
  let blocked: unknown;
  for (const item of sent) {
    if (!('record' in item)) continue;
    const { record } = item;
    for (let index = 0; index < record.sent.length; index += 1) {
      const concerns = entryClauses(record, index).includes(clauseId);
      try {
        judgeSequence(record, { from: index, to: index + 1 });
      } catch (error) {
        if (error instanceof ClauseFailure) {
          if (error.data.clause === clauseId) throw error;
        } else if (concerns) blocked ??= error;
        break;
      }
      if (concerns) judged += 1;
    }
  }
  // An entry of the clause that could not be judged (a read that answered no status) blocks the check where none was.
  if (judged === 0 && blocked !== undefined) throw blocked;
  return judged;
}

/** What --list shows of the moves at the same moment: each sequence this run sends, by whom, and what it costs. */
export function atOnceListing(explore: number | undefined, released: (clause: string) => boolean, withB: boolean): string[] {
  const sequences = atOnceSequences(explore, released, withB);
  const text = (sequence: AtOnceSequence) => `${sequence.moves.map((move) => `${move.who} ${move.name}${move.atOnce ? ' twice at once' : ''}`).join(', ')}${sequence.readAfter ? ', a read and favourited_by' : ''}`;
  return [
    'Moves asked twice at the same moment, on A\'s public status: both answers the row\'s (the second may be the move asked again), the undo or the reads after them as the rows leave them',
    ...(sequences.length > 0 ? [...sequences.map((sequence) => `  ${text(sequence)}`), `  This run sends them: ${atOnceCost(sequences).api} requests, no deletion`] : ['  This run sends none of them: --explore N sends them']),
  ];
}

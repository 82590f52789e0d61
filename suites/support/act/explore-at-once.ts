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
import { Sequencer } from './sequence.ts';
import type { SequenceRecord } from './sequence-model.ts';
import { type AtOnceSequence, type Name, type SentAtOnce, UNDO, type Who } from './explore-at-once-model.ts';
export * from './explore-at-once-model.ts';

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

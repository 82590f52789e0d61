// A sequence of moves on one status, sent and recorded: each move by its account (twice at the same moment where
// asked), and the reads that show its state; and the exploration of the "States and transitions" rows (fast-check's
// model-based testing): sequences drawn from a seed, sent, and where one fails, shrunk to the shortest that still
// fails, within a request budget. The record (sequence-model.ts) is what judge/state-machine.ts judges against the
// model; nothing here decides what a move must answer: the judging is handed in (SequenceJudging).
import fc from 'fast-check';
import type { Exchange } from '../talk/http.ts';
import { sentTogether } from '../talk/replay.ts';
import type { Actor } from './actors.ts';
import { actedIn, asMove, countedBy, type Exploration, type Sent, type SentList, type SentMove, type SentRead, type SequenceJudging, type SequenceRecord } from './sequence-model.ts';
import { now, settle } from './settle.ts';
import { coveringSequences, freshModel, moveText, movesOf, ROWS, step, type FlagMoveName, type Move, type MoveName, type StatusModel, type Who } from './status-model.ts';

/**
 * How a move reaches the server: the suite's own, which puts what it makes on the ledger and settles its undo;
 * `atOnce`: one of two sent at the same moment.
 */
export type SendMove = (actor: Actor, statusId: string, name: string, atOnce?: boolean) => Promise<Exchange>;

/** Sends a sequence's moves and reads on one status, recording each, and counting the requests it sent. */
export class Sequencer {
  requests = 0;

  /**
   * `gone`: told of each read of a status that answered 404, where a move of the sequence may have deleted it (what
   * a read shows gone, the ledger need not delete again).
   */
  constructor(
    readonly actors: Partial<Record<Who, Actor>>,
    readonly send: SendMove,
    readonly gone: (statusId: string) => void = () => {},
  ) {}

  actor(who: Who): Actor {
    const actor = this.actors[who];
    if (!actor) throw new Error(`a sequence move by ${who}, who is not configured`);
    return actor;
  }

  async move(record: SequenceRecord, who: Who, name: string, atOnce = false): Promise<SentMove> {
    const actor = this.actor(who);
    const answers = await Promise.all((atOnce ? [1, 2] : [1]).map(() => this.send(actor, record.statusId, name, atOnce)));
    this.requests += answers.length;
    // A replay of what came after sends the two at the same moment again: a race shows only so.
    const [first, second] = answers;
    if (first && second) sentTogether(first, second);
    const sent: SentMove = { kind: 'move', who, name, ...(atOnce ? { atOnce } : {}), answers };
    record.sent.push(sent);
    return sent;
  }

  /** A read by `who`, read again within the settle window (since `since`) while it does not show what `shows` wants. */
  async read(record: SequenceRecord, who: Who, shows: (exchange: Exchange) => boolean, since = now()): Promise<SentRead> {
    const actor = this.actor(who);
    const settled = await settle(
      () => {
        this.requests += 1;
        return actor.get(`/api/v1/statuses/${record.statusId}`);
      },
      shows,
      since,
    );
    if (settled.exchange.status === 404) this.gone(record.statusId);
    const sent: SentRead = { kind: 'read', who, exchange: settled.exchange };
    record.sent.push(sent);
    return sent;
  }

  /** An accounts list read by the owner, read again within the settle window while it does not show what `shows` wants. */
  async list(record: SequenceRecord, list: SentList['list'], shows: (exchange: Exchange) => boolean, since = now()): Promise<SentList> {
    const actor = this.actor('A');
    const settled = await settle(
      () => {
        this.requests += 1;
        return actor.get(`/api/v1/statuses/${record.statusId}/${list}`);
      },
      shows,
      since,
    );
    const sent: SentList = { kind: 'list', list, exchange: settled.exchange };
    record.sent.push(sent);
    return sent;
  }
}

/**
 * The requests `--explore N` gives the state machine beyond the default run's sequence: the run's configuration
 * (CONFORMANCE_EXPLORE), none unless a positive number. The run's own, not the process's environment: the fault runs
 * share one process.
 */
export function explorationBudget(config: { explore?: number }): number {
  const n = config.explore ?? 0;
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** Sends `moves` on the record's status, each followed by the reads of the accounts `readersAfter` names (none: no read). */
export async function sendSequence(sequencer: Sequencer, record: SequenceRecord, moves: readonly Move[], readersAfter: (move: Move) => readonly Who[], shows: SequenceJudging['shows']): Promise<void> {
  for (const move of moves) {
    await sequencer.move(record, move.who, move.name, move.atOnce);
    const readers = readersAfter(move);
    if (readers.length > 0) await readState(sequencer, record, readers, shows);
  }
}

/**
 * The reads that show the state: the status by each of `who`, and the accounts lists of the counts the moves touched,
 * each read again within the settle window while it does not show what `shows` has the model leave.
 */
export async function readState(sequencer: Sequencer, record: SequenceRecord, who: readonly Who[], shows: SequenceJudging['shows']): Promise<void> {
  const showing = shows(record);
  const moved = record.sent.filter((sent): sent is SentMove => sent.kind === 'move');
  const lists = (['favourited_by', 'reblogged_by'] as const).filter((list) => moved.some((sent) => countedBy(sent.name as MoveName) === (list === 'favourited_by' ? 'favourites' : 'reblogs')));
  await inOrderAsked(record, () => Promise.all([...new Set(who)].map((reader) => sequencer.read(record, reader, showing))));
  await inOrderAsked(record, () => Promise.all(lists.map((list) => sequencer.list(record, list, showing))));
}

/**
 * Sends requests together, each of which writes itself down in the record as its answer comes, and leaves them there in
 * the order asked: the judging walks the record in order, and the first read that fails or blocks is its verdict.
 */
async function inOrderAsked(record: SequenceRecord, together: () => Promise<readonly Sent[]>): Promise<void> {
  const from = record.sent.length;
  const asked = await together();
  record.sent.splice(from, asked.length, ...asked);
}

export interface ExploreOptions {
  names: readonly MoveName[];
  accounts: readonly Who[];
  seed: number;
  /** The requests the exploration may send; it stops drawing before a sequence could pass it. */
  budget: number;
  maxMoves: number;
  /**
   * The status the sequences act on, which they may delete: a status of the owner's that `make` makes (on the ledger)
   * for the first sequence and again after each delete.
   */
  make: () => Promise<string | undefined>;
  /**
   * Each account's calls of its Deletion bucket at most: its deletes, unreblogs and the undos of its reblogs, and for
   * the owner the delete of each status made (by a sequence or the ledger).
   */
  deletions: Record<Who, number>;
  /** How each sequence sent is judged, and what its reads wait for. */
  judging: SequenceJudging;
}

/**
 * The calls of its Deletion bucket a move takes of its account, reserved when it is sent: an unreblog without a boost
 * to undo (404, counted all the same), a reblog (its undo, by a later move or the reset), a delete.
 */
function deletionsOf(move: Move, model: StatusModel): number {
  // Any delete is counted when sent, beside the one reserved when its status was made: a server counts a refused
  // delete all the same (another's; the owner's of a pinned status, which the ledger then deletes with the
  // reservation), and a shrink sends the owner's again on the same status.
  if (move.name === 'delete') return 1;
  if (move.name !== 'reblog' && move.name !== 'unreblog') return 0;
  // On a deleted status a reblog takes nothing to undo; an unreblog is a call all the same.
  if (model.deleted) return move.name === 'unreblog' ? 1 : 0;
  return model.flags[move.who].reblogged ? 0 : 1;
}

/** The undo of each flag: what a reset sends for a flag the model may have left set. */
const UNDO: Partial<Record<FlagMoveName, FlagMoveName>> = { favourite: 'unfavourite', reblog: 'unreblog', bookmark: 'unbookmark', mute: 'unmute', pin: 'unpin' };

const NO_COUNTS = { favourites: 0, reblogs: 0 };

/** How a sequence sent went: it failed (a clause the judging named), passed, met no answer (a timeout, a 429), or was not sent whole. */
type Outcome = 'failed' | 'passed' | 'unanswered' | 'not-sent';

/**
 * Sends sequences of moves on a status, its flags reset before each by undoing what the last one left set (a status the
 * last one deleted is made again); every move is followed by a read of its account and of the lists it touched, and
 * judged. First the covering sequences (status-model.ts, coveringSequences), built from the rows, so that a row is
 * reached whatever the seed draws: one that fails is shrunk by leaving out each earlier move in turn, kept out where
 * the sequence still fails under the same clause. Then sequences drawn from `seed` (fast-check's commands), a failing
 * one shrunk by fast-check to the shortest that still fails. A sequence that met no answer ends the exploration, its
 * record handed on as it is. The repeat of a reblog is left out: what it does to reblogs_count is not shown; so is the
 * owner's delete of a status it deleted (STATUS-DELETE-4's own check sends it), and any move once the owner's
 * deletions are spent.
 */
export async function explore(sequencer: Sequencer, ownerId: string, options: ExploreOptions): Promise<Exploration> {
  const perMove = 1 + options.accounts.length + 2;
  // A sequence's reset: an undo per flag of each account, or a status made, and its first read.
  const perReset = options.accounts.length * Object.keys(UNDO).length + 1;
  let statusId: string | undefined;
  let left: StatusModel = freshModel(NO_COUNTS);
  // The ledger's delete of each status made is reserved when it is made.
  const deletions: Record<Who, number> = { ...options.deletions };
  /** The moves and undos sent on the status so far, for the replay of a sequence on it. */
  let history: Exchange[] = [];
  let last: SequenceRecord | undefined;
  let failing: SequenceRecord | undefined;
  let stopped = false;
  let runs = 0;
  let covering: string | undefined;

  /** Undoes the flags the last sequence left set on a status that stands. */
  const undoLeft = async (id: string): Promise<void> => {
    for (const who of options.accounts) {
      for (const [move, undo] of Object.entries(UNDO) as [FlagMoveName, FlagMoveName][]) {
        if (!left.flags[who][ROWS[move].flag] || !options.names.includes(undo)) continue;
        history.push(await sequencer.send(sequencer.actor(who), id, undo));
        sequencer.requests += 1;
      }
    }
  };

  /** The status as the next sequence starts on it, its counts read; undefined where no status could be made. */
  const reset = async (): Promise<SequenceRecord | undefined> => {
    if (statusId !== undefined && !left.deleted) await undoLeft(statusId);
    else {
      // No status is made whose delete the owner's deletions could not pay.
      if (deletions.A < 1) return undefined;
      deletions.A -= 1;
      statusId = await options.make();
      sequencer.requests += 1;
      history = [];
    }
    left = freshModel(NO_COUNTS);
    if (statusId === undefined) return undefined;
    const start = await sequencer.actor('A').get(`/api/v1/statuses/${statusId}`);
    sequencer.requests += 1;
    const body = actedIn(start, statusId);
    const count = (field: string) => (typeof body?.[field] === 'number' ? (body[field] as number) : 0);
    return { statusId, ownerId, base: { favourites: count('favourites_count'), reblogs: count('reblogs_count') }, sent: [], ...(history.length ? { prelude: [...history] } : {}) };
  };

  /** Whether a move may be sent in `model`: within its account's deletions, and not a move the exploration leaves out. */
  const admissible = (move: Move, model: Readonly<StatusModel>): boolean => {
    if (deletionsOf(move, model) > deletions[move.who]) return false;
    if (move.name === 'delete') return move.who !== 'A' || !model.deleted;
    return model.deleted === true || move.name !== 'reblog' || !model.flags[move.who].reblogged;
  };

  /** Sends a move and the reads after it, steps the model, and judges the record so far. */
  const send = async (move: Move, model: StatusModel, record: SequenceRecord): Promise<void> => {
    deletions[move.who] -= deletionsOf(move, model);
    history.push(...(await sequencer.move(record, move.who, move.name)).answers);
    const next = step(model, move).next;
    Object.assign(model, { flags: next.flags, ...(next.deleted ? { deleted: true } : {}) });
    left = { ...next, base: left.base };
    await readState(sequencer, record, [move.who], options.judging.shows);
    options.judging.judge(record);
  };

  /** Sends a sequence on the status, reset first; `clause`: a failure under another clause is no failure of it. */
  const sendSequenceOf = async (moves: readonly Move[], clause?: string): Promise<Outcome> => {
    if (stopped || sequencer.requests + perReset + perMove * moves.length > options.budget) return 'not-sent';
    runs += 1;
    const record = await reset();
    if (!record) {
      // No status to act on: the creation's own checks say why; nothing more to send.
      stopped = true;
      return 'unanswered';
    }
    last = record;
    const model = freshModel(record.base);
    try {
      for (const move of moves) {
        if (!admissible(move, model)) return 'not-sent';
        await send(move, model, record);
      }
      return 'passed';
    } catch (error) {
      const failed = options.judging.clauseOf(error);
      if (failed === undefined) {
        // No answer, or one the budget refused: evidence of nothing, and no reason to send more.
        stopped = true;
        return 'unanswered';
      }
      if (clause !== undefined && failed !== clause) return 'passed';
      failing = record;
      return 'failed';
    }
  };

  /** The moves of a failing covering sequence up to the one that failed, each earlier one left out where it still fails. */
  const shrinkCovering = async (record: SequenceRecord): Promise<Move[]> => {
    const shortest = record.sent.filter((sent): sent is SentMove => sent.kind === 'move').map(asMove);
    let failed: string | undefined;
    try {
      options.judging.judge(record);
    } catch (error) {
      failed = options.judging.clauseOf(error);
    }
    for (let i = shortest.length - 2; i >= 0; i -= 1) {
      const shorter = [...shortest.slice(0, i), ...shortest.slice(i + 1)];
      const outcome = await sendSequenceOf(shorter, failed);
      if (outcome === 'failed') shortest.splice(i, 1);
      else if (outcome === 'unanswered') break;
    }
    // `failing` is the record of the shortest that failed: the covering sequence's own where none shorter did.
    return shortest;
  };

  const sequences = coveringSequences(options.names, options.accounts);
  for (const [index, moves] of sequences.entries()) {
    const outcome = await sendSequenceOf(moves);
    if (outcome === 'unanswered') break;
    if (outcome !== 'failed' || !failing) continue;
    const shrunk = await shrinkCovering(failing);
    covering = `covering sequence ${index + 1} of ${sequences.length} (${moves.map(moveText).join(', ')}), shrunk to ${shrunk.map(moveText).join(', ')}`;
    break;
  }

  class MoveCommand implements fc.AsyncCommand<StatusModel, SequenceRecord> {
    constructor(readonly move: Move) {}
    check = (model: Readonly<StatusModel>) => admissible(this.move, model);
    run = (model: StatusModel, record: SequenceRecord) => send(this.move, model, record);
    toString = () => moveText(this.move);
  }

  const commands = options.accounts.flatMap((who) => movesOf(who, options.names).map((name) => fc.constant(new MoveCommand({ who, name }))));
  // The most a run sends: its moves, each with its reads, and the reset before it.
  const perRun = perMove * options.maxMoves + perReset;
  let path: string | undefined;
  if (!failing && !stopped) {
    const details = await fc.check(
      fc.asyncProperty(fc.commands(commands, { maxCommands: options.maxMoves }), async (sequence) => {
        // Past the budget (a shrink included), a sequence is not sent: fast-check counts it as skipped, not as passing.
        fc.pre(!stopped && sequencer.requests + perRun <= options.budget);
        runs += 1;
        const record = await reset();
        if (!record) {
          stopped = true;
          return;
        }
        last = record;
        try {
          await fc.asyncModelRun(() => ({ model: freshModel(record.base), real: record }), sequence);
        } catch (error) {
          if (options.judging.clauseOf(error) === undefined) {
            stopped = true;
            return;
          }
          failing = record;
          throw error;
        }
      }),
      // Most sequences send half what the longest would: as many are drawn, and those past the budget are skipped.
      { seed: options.seed, numRuns: Math.max(1, Math.floor((2 * options.budget) / perRun)), maxSkipsPerRun: 1000 },
    );
    path = failing ? details.counterexamplePath ?? undefined : undefined;
  }
  if (runs > 0 && statusId !== undefined && !left.deleted) await undoLeft(statusId);
  // Shrinking moves on only to a sequence that fails: the last that failed is the shortest.
  const record = failing ?? last;
  return { ...(record ? { record } : {}), runs, requests: sequencer.requests, seed: options.seed, ...(path ? { path } : {}), ...(covering ? { covering } : {}) };
}

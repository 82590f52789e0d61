// The "States and transitions" rows explored as a state machine (fast-check's model-based testing): a sequence of
// moves by the owner and another account, repeated, undone and interleaved, is sent on one status, and each answer
// and each read are judged against the model (status-model.ts). A move's answer is judged under its row's clause (the
// "already" clause where its flag was already set); a read, under STATUS-SEQUENCE-1, or under the "already" clause
// of a move sent twice at the same moment just before it (one favourite, however often it is asked). The judgement is
// a function of the record (judgeSequence); explore() draws sequences from a seed and, where one fails, lets
// fast-check shrink it to the shortest sequence that still fails, within a request budget, and hands that record on.
import fc from 'fast-check';
import { createdObject, jsonOf, type Exchange } from '../talk/http.ts';
import type { SentMove, SequenceRecord, Sequencer } from '../act/sequence.ts';
import { causeOf } from '../act/steps.ts';
import { clause, ClauseFailure } from './clauses.ts';
import { block, countJudged } from './preconditions.ts';
import { againOf, countsOf, coveringSequences, DELETE_ROW, freshModel, isFlagMove, moveText, movesOf, ROWS, step, type FlagMoveName, type Move, type MoveName, type StatusModel, type Who } from './status-model.ts';
import { fail, statusLine } from './verify.ts';

const SEQUENCE = 'STATUS-SEQUENCE-1';

/**
 * The requests `--explore N` gives the state machine beyond the default run's sequence: the run's configuration
 * (CONFORMANCE_EXPLORE), none unless a positive number. The run's own, not the process's environment: the fault runs
 * share one process.
 */
export function explorationBudget(config: { explore?: number }): number {
  const n = config.explore ?? 0;
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** What an answer or a read shows against what the model wants (`count`: only a count is off); undefined where it holds. */
type Problem = { expected: string; actual: string; count?: true } | undefined;

/** The status acted on as an answer shows it: itself, or inside a boost of it (a reblog's answer, or a server that answers the boost). */
function actedIn(exchange: Exchange, statusId: string): Record<string, unknown> | undefined {
  const body = createdObject(exchange);
  const reblog = body?.reblog as Record<string, unknown> | null | undefined;
  return body?.id === statusId ? body : reblog?.id === statusId ? reblog : undefined;
}

const COUNT_OF = { favourites: 'favourites_count', reblogs: 'reblogs_count' } as const;
type Counted = keyof typeof COUNT_OF;

/** The count a move's row changes: favourites for favourite and unfavourite, boosts for reblog and unreblog. */
function countedBy(name: MoveName): Counted | undefined {
  const flag = isFlagMove(name) ? ROWS[name].flag : undefined;
  return flag === 'favourited' ? 'favourites' : flag === 'reblogged' ? 'reblogs' : undefined;
}

/** A move's answer against what the model expects of it. */
function answerProblem(exchange: Exchange, statusId: string, move: Move, model: StatusModel): Problem {
  const { expected } = step(model, move);
  const acted = exchange.status === 200 ? actedIn(exchange, statusId) : undefined;
  switch (expected.answer) {
    case 'not-shown':
      return exchange.status !== undefined && exchange.status < 500 ? undefined : { expected: 'an answer below HTTP 500 (what it answers is not shown)', actual: statusLine(exchange) };
    case 'not-found':
      return exchange.status === 404 ? undefined : { expected: 'HTTP 404', actual: statusLine(exchange) };
    case 'deleted':
      return acted ? undefined : { expected: `HTTP 200 with status ${statusId}, the status deleted`, actual: statusLine(exchange) };
  }
  if (!acted) return { expected: `HTTP 200 with status ${statusId}, ${expected.flag} = ${expected.value}`, actual: statusLine(exchange) };
  if (acted[expected.flag] !== expected.value) return { expected: `${expected.flag} = ${expected.value}`, actual: `${expected.flag} = ${JSON.stringify(acted[expected.flag])}` };
  const counted = countedBy(move.name);
  if (!counted) return undefined;
  // A server may count in the background: the answer shows the count after the move or the one before it.
  const [before, after] = [expected.counts.before[counted], expected.counts.after[counted]];
  const shown = acted[COUNT_OF[counted]];
  if (typeof shown !== 'number' || shown === before || shown === after) return undefined;
  return { expected: `${COUNT_OF[counted]} = ${after}${before === after ? '' : ` (or ${before}, the count before the move)`}`, actual: `${COUNT_OF[counted]} = ${shown}`, count: true };
}

/**
 * The caller's other flags in a move's answer that shows the move made: each the caller's moves of the sequence set or
 * cleared, as they left it (a bookmark stands through a later favourite), where the answer carries it (pinned is in
 * some answers only). A flag no move of the sequence touched is the rows' before it to judge.
 */
function otherFlagsProblem(exchange: Exchange, statusId: string, move: Move, model: StatusModel, touched: ReadonlySet<string>): Problem {
  const { expected, next } = step(model, move);
  const acted = exchange.status === 200 ? actedIn(exchange, statusId) : undefined;
  if (expected.answer !== 'flag' || !acted) return undefined;
  const flags = next.flags[move.who];
  const wrong = (Object.keys(flags) as (keyof typeof flags)[]).filter((flag) => flag !== expected.flag && touched.has(`${move.who} ${flag}`) && typeof acted[flag] === 'boolean' && acted[flag] !== flags[flag]);
  if (wrong.length === 0) return undefined;
  return { expected: wrong.map((flag) => `${flag} = ${flags[flag]}`).join(', '), actual: wrong.map((flag) => `${flag} = ${JSON.stringify(acted[flag])}`).join(', ') };
}

/**
 * A read of the status: both counts, as the model has them. The reader's flags are its moves' answers to show (a
 * read's flags are the token's, which a read of a public status may not weigh: AUTH-BEARER-1's).
 */
function readProblem(exchange: Exchange, statusId: string, model: StatusModel): Problem {
  if (model.deleted) return exchange.status === 404 ? undefined : { expected: 'HTTP 404: the status deleted no longer exists', actual: statusLine(exchange) };
  const acted = exchange.status === 200 ? actedIn(exchange, statusId) : undefined;
  if (!acted) return { expected: `HTTP 200 with status ${statusId}`, actual: statusLine(exchange) };
  const wrong: string[] = [];
  const counts = countsOf(model);
  for (const counted of ['favourites', 'reblogs'] as const) {
    const shown = acted[COUNT_OF[counted]];
    if (typeof shown === 'number' && shown !== counts[counted]) wrong.push(`${COUNT_OF[counted]} = ${shown} (expected ${counts[counted]})`);
  }
  return wrong.length === 0 ? undefined : { expected: 'the counts as the moves left them', actual: wrong.join(', '), count: true };
}

/** An accounts list: each account whose favourite (boost) stands once, the owner only where its own stands. */
function listProblem(exchange: Exchange, list: 'favourited_by' | 'reblogged_by', ownerId: string, model: StatusModel): Problem {
  if (model.deleted) return exchange.status === 404 ? undefined : { expected: `${list}: HTTP 404, the status deleted`, actual: statusLine(exchange) };
  const json = jsonOf(exchange);
  if (exchange.status !== 200 || !json.ok || !Array.isArray(json.value)) return { expected: `${list}: HTTP 200 with an array of Account`, actual: statusLine(exchange) };
  const ids = json.value.map((account) => (account as { id?: unknown } | null)?.id);
  const [flag, counted] = list === 'favourited_by' ? (['favourited', 'favourites'] as const) : (['reblogged', 'reblogs'] as const);
  if (new Set(ids).size !== ids.length) return { expected: `${list} lists each account once`, actual: `${list} ${JSON.stringify(ids)}`, count: true };
  const wrong: string[] = [];
  if (ids.length !== countsOf(model)[counted]) wrong.push(`${ids.length} accounts (expected ${countsOf(model)[counted]})`);
  if (ids.includes(ownerId) !== model.flags.A[flag]) wrong.push(`the owner ${ids.includes(ownerId) ? 'listed' : 'not listed'} (its ${flag} is ${model.flags.A[flag]})`);
  return wrong.length === 0 ? undefined : { expected: `${list} lists each account whose ${flag === 'favourited' ? 'favourite' : 'boost'} stands, once`, actual: `${list} ${JSON.stringify(ids)}: ${wrong.join(', ')}` };
}

/** How far judgeSequence judges: from which entry of the record, and up to which (the rest is only walked). */
export interface Span {
  from?: number;
  to?: number;
}

const asMove = (sent: SentMove): Move => ({ who: sent.who, name: sent.name as MoveName, ...(sent.atOnce ? { atOnce: true } : {}) });

/** The model after the whole record (or its first `to` entries), whatever the answers showed. */
export function modelAfter(record: SequenceRecord, to = record.sent.length): StatusModel {
  return record.sent.slice(0, to).reduce((model, sent) => (sent.kind === 'move' ? step(model, asMove(sent)).next : model), freshModel(record.base, record.owner));
}

/** The accounts lists' own clauses (an answer that is no list blocks), and the rows that list what they show. */
const LISTS = {
  favourited_by: { shape: 'STATUS-FAVOURITEDBY-1', row: 'STATUS-FAV-6' },
  reblogged_by: { shape: 'STATUS-REBLOGGEDBY-1', row: 'STATUS-REBLOG-7' },
} as const;

/**
 * Judges a recorded sequence against the model: each answer under its row's clause, each read under
 * STATUS-SEQUENCE-1 (or the "already" clause of a move sent twice at the same moment right before it). A failure
 * names the moves before it, and its replay sends them first.
 */
export function judgeSequence(record: SequenceRecord, { from = 0, to = record.sent.length }: Span = {}): void {
  let model = freshModel(record.base, record.owner);
  /** `${who} ${flag}`: the flags the sequence's moves set or cleared, which its later answers show. */
  const touched = new Set<string>();
  let last: SentMove | undefined;
  const moves: Move[] = [];
  // A server may keep what no flag shows (who ever acted): the replay sends the moves before the sequence too.
  const before: Exchange[] = [...(record.prelude ?? [])];
  const earlier = record.prelude?.length ? ` (and ${record.prelude.length} moves and undos of earlier sequences on the status, which its replay sends first)` : '';
  const after = () => (moves.length || earlier ? `, after the moves ${moves.map(moveText).join(', ') || 'none of this sequence'}${earlier}` : '');
  record.sent.slice(0, to).forEach((sent, index) => {
    const judged = index >= from;
    const problemAt = (problem: Problem, exchange: Exchange, clause: string, alongside?: Exchange) => {
      if (!judged) return;
      if (problem) fail(problem.expected, `${problem.actual}${after()}`, exchange, clause, before, alongside);
      countJudged();
    };
    if (sent.kind === 'move') {
      const move = asMove(sent);
      // Sent twice at the same moment, either answer may be the first: each shows the move made, its count the one
      // before or after it, or the other may be the move asked again, its row's "already" answer (an unbookmark's
      // 404). Where one of them showed the move made, what is wrong with the other is its "already" clause (one move,
      // however often it is asked); where neither did, the move did not take: its row's clause.
      const clause = step(model, move).expected.clause;
      const problems = sent.answers.map((answer) => answerProblem(answer, record.statusId, move, model));
      const tookOnce = move.atOnce && problems.some((problem) => !problem || problem.count);
      const problemOf = (answer: Exchange, i: number): Problem => {
        const first = problems[i];
        if (!tookOnce || !first) return first;
        const again = answerProblem(answer, record.statusId, move, step(model, move).next);
        if (!again) return undefined;
        const expected = again.expected === first.expected ? first.expected : `${first.expected}, or as the move asked again: ${again.expected}`;
        return { ...first, expected, actual: `${first.actual} (one of the two sent at the same moment)` };
      };
      // Its replay sends the other at the same moment again: a race shows only so.
      const alongside = (i: number) => sent.answers.find((_, j) => j !== i);
      sent.answers.forEach((answer, i) => problemAt(problemOf(answer, i), answer, tookOnce ? againOf(move.name) : clause, alongside(i)));
      // The flags the move does not set are the rows before it: the sequence's to judge.
      const [answer] = sent.answers;
      if (answer && !move.atOnce) problemAt(otherFlagsProblem(answer, record.statusId, move, model, touched), answer, SEQUENCE);
      if (isFlagMove(move.name)) touched.add(`${move.who} ${ROWS[move.name].flag}`);
      model = step(model, move).next;
      moves.push(move);
      before.push(...sent.answers);
      last = sent;
      return;
    }
    // Right after a move sent twice at the same moment, a count or a list that counts it twice is its "already" clause.
    const atOnce = (problem: Problem) => (last?.atOnce && problem?.count ? againOf(last.name as MoveName) : undefined);
    const answered = !sent.exchange.unanswered && !sent.exchange.rateLimited;
    if (sent.kind === 'read') {
      // Once deleted, a read's 404 is the delete row's to judge; before, a read that answers no status blocks.
      if (judged && answered && !model.deleted && sent.exchange.status !== 200) block(causeOf('STATUS-READ-1', `a read of status ${record.statusId} by ${sent.who} answered ${statusLine(sent.exchange)}`, sent.exchange));
      const problem = readProblem(sent.exchange, record.statusId, model);
      problemAt(problem, sent.exchange, model.deleted ? DELETE_ROW.read : (atOnce(problem) ?? SEQUENCE));
    } else {
      const json = jsonOf(sent.exchange);
      const { shape, row } = LISTS[sent.list];
      if (judged && answered && !model.deleted && (sent.exchange.status !== 200 || !json.ok || !Array.isArray(json.value))) block(causeOf(shape, `${sent.list} answered ${statusLine(sent.exchange)}, not an array`, sent.exchange));
      const problem = listProblem(sent.exchange, sent.list, record.ownerId, model);
      problemAt(problem, sent.exchange, model.deleted ? DELETE_ROW.lists : (atOnce(problem) ?? row));
    }
    before.push(sent.exchange);
  });
}

/** Whether a read or a list shows what the model has at the end of the record: the settle window waits for it. */
export function showsModel(record: SequenceRecord): (exchange: Exchange) => boolean {
  const model = modelAfter(record);
  return (exchange) => {
    const list = /\/(favourited_by|reblogged_by)$/.exec(exchange.path.split('?')[0] ?? '')?.[1] as 'favourited_by' | 'reblogged_by' | undefined;
    return list ? !listProblem(exchange, list, record.ownerId, model) : !readProblem(exchange, record.statusId, model);
  };
}

/** Sends `moves` on the record's status, each followed by the reads of the accounts `readersAfter` names (none: no read). */
export async function sendSequence(sequencer: Sequencer, record: SequenceRecord, moves: readonly Move[], readersAfter: (move: Move) => readonly Who[]): Promise<void> {
  for (const move of moves) {
    await sequencer.move(record, move.who, move.name, move.atOnce);
    const readers = readersAfter(move);
    if (readers.length > 0) await readState(sequencer, record, readers);
  }
}

/** The reads that show the state: the status by each of `who`, and the accounts lists of the counts the moves touched. */
export async function readState(sequencer: Sequencer, record: SequenceRecord, who: readonly Who[]): Promise<void> {
  const shows = showsModel(record);
  const moved = record.sent.filter((sent): sent is SentMove => sent.kind === 'move');
  const lists = (['favourited_by', 'reblogged_by'] as const).filter((list) => moved.some((sent) => countedBy(sent.name as MoveName) === (list === 'favourited_by' ? 'favourites' : 'reblogs')));
  await Promise.all([...new Set(who)].map((reader) => sequencer.read(record, reader, shows)));
  await Promise.all(lists.map((list) => sequencer.list(record, list, shows)));
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

/** How a sequence sent went: it failed (a ClauseFailure), passed, met no answer (a timeout, a 429), or was not sent whole. */
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
    await readState(sequencer, record, [move.who]);
    judgeSequence(record);
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
      if (!(error instanceof ClauseFailure)) {
        // No answer, or one the budget refused: evidence of nothing, and no reason to send more.
        stopped = true;
        return 'unanswered';
      }
      if (clause !== undefined && error.data.clause !== clause) return 'passed';
      failing = record;
      return 'failed';
    }
  };

  /** The moves of a failing covering sequence up to the one that failed, each earlier one left out where it still fails. */
  const shrinkCovering = async (record: SequenceRecord): Promise<Move[]> => {
    const shortest = record.sent.filter((sent): sent is SentMove => sent.kind === 'move').map(asMove);
    let clauseOf: string | undefined;
    try {
      judgeSequence(record);
    } catch (error) {
      if (error instanceof ClauseFailure) clauseOf = error.data.clause;
    }
    for (let i = shortest.length - 2; i >= 0; i -= 1) {
      const shorter = [...shortest.slice(0, i), ...shortest.slice(i + 1)];
      const outcome = await sendSequenceOf(shorter, clauseOf);
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
          if (!(error instanceof ClauseFailure)) {
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

/** Judges an exploration's record; a failure says the seed and fast-check's path that draw its sequence again. */
export function judgeExploration(exploration: Exploration): void {
  if (!exploration.record) return;
  try {
    judgeSequence(exploration.record);
  } catch (error) {
    if (!(error instanceof ClauseFailure)) throw error;
    const { clause: id, expected, actual, exchange, reproduce, replay } = error.data;
    const drawn = exploration.covering
      ? `; found by the ${exploration.covering}, in ${exploration.runs} sequences`
      : `; drawn from CONFORMANCE_SEED=${exploration.seed} in ${exploration.runs} sequences${exploration.path ? `, shrunk along fast-check's path ${exploration.path}` : ''}`;
    throw new ClauseFailure(clause(id), expected, `${actual}${drawn}`, exchange, reproduce, replay);
  }
}

// The "States and transitions" rows explored as a state machine (fast-check's model-based testing): a sequence of
// moves by the owner and another account, repeated, undone and interleaved, is sent on one status (act/sequence.ts),
// and each answer and each read are judged against the model (act/status-model.ts). A move's answer is judged under
// its row's clause (the "already" clause where its flag was already set); a read, under STATUS-SEQUENCE-1, or under
// the "already" clause of a move sent twice at the same moment just before it (one favourite, however often it is
// asked). The judgement is a function of the record (judgeSequence); act/sequence.ts's explore() draws sequences from
// a seed and, where one fails, lets fast-check shrink it to the shortest sequence that still fails, judged by what
// this module hands it (sequenceJudging), and hands that record on. Nothing here sends a request.
import { jsonOf, type Exchange } from '../talk/http.ts';
import { actedIn, asMove, countedBy, type Exploration, type SentMove, type SequenceJudging, type SequenceRecord } from '../act/sequence-model.ts';
import { causeOf } from '../act/steps.ts';
import { againOf, countsOf, DELETE_ROW, freshModel, isFlagMove, moveText, ROWS, step, type Move, type MoveName, type StatusModel } from '../act/status-model.ts';
import { clause, ClauseFailure } from './clauses.ts';
import { block, countJudged } from './preconditions.ts';
import { fail, statusLine } from './verify.ts';

const SEQUENCE = 'STATUS-SEQUENCE-1';

/** What an answer or a read shows against what the model wants (`count`: only a count is off); undefined where it holds. */
type Problem = { expected: string; actual: string; count?: true } | undefined;

const COUNT_OF = { favourites: 'favourites_count', reblogs: 'reblogs_count' } as const;

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

/**
 * What act/sequence.ts's sending is handed to judge by: what a read waits for, the record judged after each move, and
 * the clause of a failure (any other error is no answer, which ends an exploration).
 */
export const sequenceJudging: SequenceJudging = {
  shows: showsModel,
  judge: (record) => judgeSequence(record),
  clauseOf: (error) => (error instanceof ClauseFailure ? error.data.clause : undefined),
};

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

// The oracle of the exploration (docs/exploring.md): for every explored operation and class of its id, what the
// contract says the answer is, and the clause of the catalogue that says it. A success is the operation's Returns
// column (the resource, its schema observed for the resource's clause) and then its effect (the States and transitions
// row's flag); a refusal is the Errors table's row (status and error text). Where the contract leaves the answer open,
// only a server error is judged, as a warning (ERRORS-5XX-1, run-wide).
import {
  CLASS_WORDS,
  classesOf,
  costOf,
  coverageLines,
  ID_CLASSES,
  operationNamed,
  OPERATIONS,
  scopeOf,
  type ExploreSettings,
  type IdClass,
  type Input,
  type Operation,
  type Sent,
} from '../act/explore-inputs-model.ts';
import { createdObject, jsonOf, type Exchange } from '../talk/http.ts';
import { ALL_CELLS, askedByDefault, CALLER_WORDS, drawWithMatrix, type SentCell } from '../act/explore-matrix-model.ts';
import { tableOf } from './access-cells.ts';
import { accessCellsOf, cellExpectation, matrixCoverageLines, matrixModelLines } from './explore-matrix-oracle.ts';
import { BOOST_REQUESTS, creationCost, type SentBoost, type SentCreation } from '../act/explore-create-model.ts';
import { AUTH_DRAWS, authCost, authCoverageLines, drawAuthInputs } from '../act/explore-auth-model.ts';
import { authModelLines } from './explore-auth-oracle.ts';
import { boostInstances, CREATE_CLAUSES, createInstances, createModelLines, releaseWords } from './explore-create-oracle.ts';
import { drawMediaAndStreams, mediaStreamCoverage, type SentUpdate, type SentUpload } from '../act/explore-media-model.ts';
import type { SentStream } from '../act/explore-streams-model.ts';
import type { SentAtOnce } from '../act/explore-at-once-model.ts';
import { atOnceListing } from './explore-at-once-oracle.ts';
import { judgedOnMedia, MEDIA_STREAM_CLAUSES, mediaStreamModelLines } from './explore-media-oracle.ts';
import { answerOf, causeOf } from '../act/steps.ts';
import { block, countJudged } from './preconditions.ts';
import { observeResource } from './resources.ts';
import { fail, observeErrorBody, statusLine } from './verify.ts';
import type { Expectation, Judged } from './explore-expectation.ts';
import type { ResourceName } from './schema.ts';

const NOT_FOUND = 'Record not found';
const NOT_OWNED = "Validation failed: Someone else's toot cannot be pinned";

export type { Expectation } from './explore-expectation.ts';

const answers = (clause: string, resource: Exclude<ResourceName, 'Error'>, more: { list?: boolean; flag?: { field: string; value: boolean }; status?: number[]; field?: string } = {}): Expectation => ({
  kind: 'answers',
  clause,
  status: more.status ?? [200],
  resource,
  ...(more.list ? { list: true } : {}),
  ...(more.flag ? { flag: more.flag } : {}),
  ...(more.field ? { field: more.field } : {}),
});
const notFound = (clause: string, ...also: { status: number; text: string }[]): Expectation => ({ kind: 'refused', clause, rows: [{ status: 404, text: NOT_FOUND }, ...also] });

/** The answer of a move that takes: the Status with its flag (States and transitions' Result column). */
const MOVES: Record<string, { clause: string; flag: string; value: boolean; unseen: string }> = {
  favourite: { clause: 'STATUS-FAV-1', flag: 'favourited', value: true, unseen: 'STATUS-FAV-5' },
  unfavourite: { clause: 'STATUS-FAV-4', flag: 'favourited', value: false, unseen: 'STATUS-FAV-5' },
  reblog: { clause: 'STATUS-REBLOG-1', flag: 'reblogged', value: true, unseen: 'STATUS-REBLOG-6' },
  bookmark: { clause: 'STATUS-BOOKMARK-1', flag: 'bookmarked', value: true, unseen: 'STATUS-BOOKMARK-4' },
  unbookmark: { clause: 'STATUS-BOOKMARK-2', flag: 'bookmarked', value: false, unseen: 'STATUS-BOOKMARK-4' },
  mute: { clause: 'STATUS-MUTE-1', flag: 'muted', value: true, unseen: 'STATUS-MUTE-5' },
  unmute: { clause: 'STATUS-MUTE-4', flag: 'muted', value: false, unseen: 'STATUS-MUTE-5' },
  pin: { clause: 'STATUS-PIN-1', flag: 'pinned', value: true, unseen: 'STATUS-PIN-7' },
  unpin: { clause: 'STATUS-PIN-6', flag: 'pinned', value: false, unseen: 'STATUS-PIN-7' },
};
/** The undo of a move's success, sent at once: its answer is the undo's Result (STATUS-FAV-3, ...). */
export const UNDONE: Record<string, string> = { unfavourite: 'STATUS-FAV-3', unreblog: 'STATUS-REBLOG-4', unbookmark: 'STATUS-BOOKMARK-2', unmute: 'STATUS-MUTE-3', unpin: 'STATUS-PIN-5' };

/** What reads answer for a status that exists and that the caller sees. */
const READS: Record<string, Expectation> = {
  read: answers('STATUS-READ-1', 'Status'),
  context: answers('STATUS-VIS-1', 'Context'),
  reblogged_by: answers('STATUS-REBLOGGEDBY-1', 'Account', { list: true }),
  favourited_by: answers('STATUS-FAVOURITEDBY-1', 'Account', { list: true }),
};
/** What reads answer for a status the caller cannot see (private, another's) and for a deleted one. */
const READS_UNSEEN: Record<string, { hidden: string; deleted: string }> = {
  read: { hidden: 'STATUS-READ-3', deleted: 'STATUS-DELETE-2' },
  context: { hidden: 'STATUS-VIS-5', deleted: 'STATUS-DELETE-6' },
  reblogged_by: { hidden: 'STATUS-VIS-8', deleted: 'STATUS-DELETE-6' },
  favourited_by: { hidden: 'STATUS-VIS-8', deleted: 'STATUS-DELETE-6' },
};

function statusExpectation(op: Operation, idClass: IdClass): Expectation {
  const seen = idClass === 'own' || idClass === 'visible';
  const read = READS[op.name];
  const unseen = READS_UNSEEN[op.name];
  if (read && unseen) {
    if (seen) return read;
    if (idClass === 'hidden' || idClass === 'deleted') return notFound(unseen[idClass]);
    // "404 | status does not exist": a malformed id names no status either.
    return notFound('STATUS-READ-5');
  }
  // "Error bodies for failed POST /api/v1/statuses calls: not shown": a reply to a status the caller cannot see is open.
  if (op.idParameter) return seen ? answers('STATUS-CREATE-6', 'Status', { field: op.idParameter }) : { kind: 'open', why: 'error bodies of a failed POST /api/v1/statuses are not shown' };
  if (op.name === 'delete') {
    if (idClass === 'deleted') return notFound('STATUS-DELETE-4');
    return notFound('STATUS-DELETE-3');
  }
  if (op.name === 'unreblog') return notFound(seen ? 'STATUS-REBLOG-5' : 'STATUS-REBLOG-6');
  if (op.name === 'unbookmark' && seen) return notFound('STATUS-BOOKMARK-3');
  const moved = MOVES[op.name];
  if (!moved) throw new Error(`the oracle has no row for ${op.name}`);
  // STATUS-PIN-7: pin of a status the caller cannot see may instead give the 422 of a status not owned.
  if (!seen) return op.name === 'pin' ? notFound(moved.unseen, { status: 422, text: NOT_OWNED }) : notFound(moved.unseen);
  if (op.name === 'pin' && idClass === 'visible') return { kind: 'refused', clause: 'STATUS-PIN-2', rows: [{ status: 422, text: NOT_OWNED }] };
  // "mute: caller participates in the thread": what a mute of another's thread answers is not shown.
  if (op.name === 'mute' && idClass === 'visible') return { kind: 'open', why: 'a mute by a caller who does not participate in the thread: its answer is not shown' };
  return answers(moved.clause, 'Status', { flag: { field: moved.flag, value: moved.value } });
}

function attachmentExpectation(op: Operation, idClass: IdClass): Expectation {
  const read = op.method === 'GET';
  if (idClass === 'own') return read ? answers('MEDIA-READ-1', 'Attachment', { status: [200, 206] }) : answers('MEDIA-UPDATE-1', 'Attachment');
  if (idClass === 'visible') return notFound(read ? 'MEDIA-READ-4' : 'MEDIA-UPDATE-2');
  return notFound(read ? 'MEDIA-READ-5' : 'MEDIA-UPDATE-4');
}

/** What the contract says the answer to an input is, and the clause that says it. */
export function expectationOf(operation: string, idClass: IdClass): Expectation {
  const op = operationNamed(operation);
  return op.resource === 'attachment' ? attachmentExpectation(op, idClass) : statusExpectation(op, idClass);
}

/** An answer judged against its expectation: whether it holds, and where not, what was expected. */
export interface Verdict {
  holds: boolean;
  expected: string;
}

const rowWords = (rows: readonly { status: number; text: string }[]) => rows.map(({ status, text }) => `HTTP ${status} {"error": "${text}"}`).join(' or ');

/**
 * The verdict on one answer. Where a row covers the input, a server error breaks that row's clause; where the contract
 * leaves the answer open, only a server error is a deviation, a warning of ERRORS-5XX-1. The error body's text is judged
 * with the status (the row gives both); a body that is no {error} object is ERRORS-BODY-1's, observed by verify.
 */
export function verdictOf(expectation: Expectation, exchange: Exchange, sentId?: string): Verdict {
  const status = exchange.status;
  if (expectation.kind === 'open') return { holds: status === undefined || status < 500, expected: `an answer below HTTP 500 (${expectation.why})` };
  if (expectation.kind === 'refused') {
    // A text that is not the row's is ERRORS-TEXT-1's (observed run-wide by the check), not this clause's: the status decides here.
    return { holds: expectation.rows.some((r) => r.status === status), expected: rowWords(expectation.rows) };
  }
  const { flag } = expectation;
  const carried = expectation.field ? ` with ${expectation.field} = ${sentId === undefined ? 'the id sent' : JSON.stringify(sentId)}` : '';
  const expected = `HTTP ${expectation.status.join(' or ')} with ${expectation.list ? `an array of ${expectation.resource}` : `the ${expectation.resource}`}${flag ? ` with ${flag.field} = ${flag.value}` : ''}${carried}`;
  if (status === undefined || !expectation.status.includes(status)) return { holds: false, expected };
  const json = jsonOf(exchange);
  const shaped = json.ok && (expectation.list ? Array.isArray(json.value) : typeof json.value === 'object' && json.value !== null && !Array.isArray(json.value));
  // A boost answers the boost, with the status boosted inside reblog: the flag is the boosted status's.
  const flagged = (body: unknown) => {
    if (!flag) return true;
    const status = body as Record<string, unknown>;
    const inner = flag.field === 'reblogged' && status.reblog && typeof status.reblog === 'object' ? (status.reblog as Record<string, unknown>) : undefined;
    // pinned is "present in some responses": an answer without it says nothing against pinned = false.
    const unshown = flag.field === 'pinned' && !flag.value && !(flag.field in status);
    return unshown || status[flag.field] === flag.value || inner?.[flag.field] === flag.value;
  };
  const body = json.ok ? json.value : undefined;
  const carries = !expectation.field || (body as Record<string, unknown> | undefined)?.[expectation.field] === sentId;
  return { holds: Boolean(shaped) && flagged(body) && carries, expected };
}

/** Every clause an explored answer may be judged under, in the catalogue's words' order of first use. */
export function exploredClauses(): string[] {
  const clauses = new Set<string>();
  for (const op of OPERATIONS) {
    for (const idClass of classesOf(op)) {
      const expectation = expectationOf(op.name, idClass);
      if (expectation.kind !== 'open') clauses.add(expectation.clause);
    }
    if (op.undo && UNDONE[op.undo]) clauses.add(UNDONE[op.undo] as string);
  }
  for (const id of CREATE_CLAUSES) clauses.add(id);
  for (const cell of ALL_CELLS.filter((c) => !askedByDefault(c))) {
    const expectation = cellExpectation(cell);
    if (expectation.kind !== 'open') clauses.add(expectation.clause);
  }
  for (const id of MEDIA_STREAM_CLAUSES) clauses.add(id);
  return [...clauses];
}

/** The clause an input is judged under. */
export function clauseOfInput(input: Pick<Input, 'operation' | 'idClass'>): string {
  const expectation = expectationOf(input.operation, input.idClass);
  return expectation.kind === 'open' ? 'ERRORS-5XX-1' : expectation.clause;
}

/** The model as --list and docs/exploring.md show it: per operation, each class and what it must answer. */
export function modelLines(): string[] {
  const lines: string[] = [];
  for (const op of OPERATIONS) {
    lines.push(`${op.name} (${op.method} ${op.path}${op.idParameter ? ` with ${op.idParameter}=:id` : ""})${op.deletes ? ', counted in the Deletion bucket' : ''}${releaseWords(op.releasedWith)}`);
    for (const idClass of ID_CLASSES) {
      if (!classesOf(op).includes(idClass)) continue;
      const e = expectationOf(op.name, idClass);
      const answer = e.kind === 'open' ? `open: ${e.why}; a 5xx is ERRORS-5XX-1's warning` : e.kind === 'refused' ? `${rowWords(e.rows)} (${e.clause})` : `${verdictOf(e, { status: -1 } as Exchange).expected} (${e.clause})`;
      lines.push(`  ${idClass.padEnd(13)} ${answer}`);
    }
  }
  return lines;
}

/** How an input reads in a finding: the operation, the class and the id sent. */
export function describeInput(input: Input, id: string | undefined): string {
  return `${input.operation} on ${CLASS_WORDS[input.idClass]}${id === undefined ? '' : ` (${id})`}`;
}

/** What the exploration sent, and each finding shrunk to its smallest input (its own entry where it could not shrink). */
export interface Explored {
  sent: readonly Sent[];
  smallest: ReadonlyMap<Sent, Sent>;
  /** The creations sent (rows of POST /api/v1/statuses's parameters), and each finding's shrunk row. */
  created?: readonly SentCreation[];
  smallestCreations?: ReadonlyMap<SentCreation, SentCreation>;
  /** The boosts with the reblog's visibility parameter, and their reads. */
  boosts?: readonly SentBoost[];
  /** The access matrix's cells sent (act/explore-matrix.ts), and each one's undo where its move took. */
  matrix?: readonly SentCell[];
  /** The explored uploads and updates (explore-media.ts), each finding's smallest row, and the streams opened. */
  uploads?: readonly SentUpload[];
  updates?: readonly SentUpdate[];
  smallestMedia?: ReadonlyMap<SentUpload | SentUpdate, SentUpload | SentUpdate>;
  streams?: readonly SentStream[];
  /** The moves asked twice at the same moment (act/explore-at-once.ts): judge/explore-at-once-oracle.ts judges them. */
  atOnce?: readonly SentAtOnce[];
}

/** The answers an explored check judges: each input and each undo whose clause is `clauseId`, with what it expects. */
function instancesOf(explored: Explored, clauseId: string): { sent: Sent; exchange: Exchange; expectation: Expectation; what: string }[] {
  const instances: { sent: Sent; exchange: Exchange; expectation: Expectation; what: string }[] = [];
  for (const sent of explored.sent) {
    const expectation = expectationOf(sent.input.operation, sent.input.idClass);
    if (clauseOfInput(sent.input) === clauseId) instances.push({ sent, exchange: sent.exchange, expectation, what: describeInput(sent.input, sent.id) });
    const undoName = operationNamed(sent.input.operation).undo;
    const undone = undoName ? UNDONE[undoName] : undefined;
    if (sent.undo && undoName && undone === clauseId) {
      const field = UNDO_FLAGS[undoName] ?? '';
      instances.push({ sent, exchange: sent.undo, expectation: answers(undone, 'Status', { flag: { field, value: false } }), what: `${undoName} at once after ${describeInput(sent.input, sent.id)}` });
    }
  }
  return instances;
}

/** The flag an undo clears. */
const UNDO_FLAGS: Record<string, string> = { unfavourite: 'favourited', unreblog: 'reblogged', unbookmark: 'bookmarked', unmute: 'muted', unpin: 'pinned' };

/** The answers of the inputs on ids that `clauseId` judges. */
function judgedOnIds(explored: Explored, clauseId: string): Judged[] {
  return instancesOf(explored, clauseId).map(({ sent, exchange, expectation, what }) => {
    const verdict = verdictOf(expectation, exchange, sent.id);
    const observe = () => {
      // A refusal that is no JSON may be a web server's answer for a path the server lacks (an operation it does not
      // have): its body says nothing of ERRORS-BODY-1 here, where no positive control shows the operation exists.
      if (expectation.kind === 'refused' && jsonOf(exchange).ok) observeErrorBody(exchange, expectation.rows.find((r) => r.status === exchange.status)?.text);
      if (expectation.kind === 'answers') {
        const json = jsonOf(exchange);
        if (json.ok) for (const body of expectation.list && Array.isArray(json.value) ? json.value : [json.value]) observeResource(expectation.resource, body, exchange);
      }
    };
    const smallest = explored.smallest.get(sent);
    const shrunk = smallest && smallest !== sent && exchange === sent.exchange ? { exchange: smallest.exchange, expected: verdictOf(expectation, smallest.exchange, smallest.id).expected, words: `shrunk from ${sent.id} to ${smallest.id}` } : undefined;
    return { holds: verdict.holds, expected: verdict.expected, exchange, what, observe, ...(shrunk ? { smallest: shrunk } : {}) };
  });
}

/** The answers of the explored creations that `clauseId` judges; a finding's shrunk row, where it shrank, tells the clause of a refusal. */
function judgedOnCreations(explored: Explored, clauseId: string): Judged[] {
  const boosts = (explored.boosts ?? []).flatMap(boostInstances).filter((instance) => instance.clause === clauseId);
  return [...boosts, ...judgedOnMadeStatuses(explored, clauseId)];
}

function judgedOnMadeStatuses(explored: Explored, clauseId: string): Judged[] {
  return (explored.created ?? []).flatMap((sent) => {
    const smallest = explored.smallestCreations?.get(sent);
    return createInstances(sent, smallest)
      .filter((instance) => instance.clause === clauseId)
      .map((instance) => {
        const shrunk = smallest && smallest !== sent ? createInstances(smallest, smallest).find((i) => i.clause === clauseId && !i.holds) : undefined;
        const observe = () => {
          const body = createdObject(instance.exchange);
          if (body && !('scheduled_at' in body)) observeResource('Status', body, instance.exchange);
        };
        return { holds: instance.holds, expected: instance.expected, exchange: instance.exchange, what: instance.what, observe, ...(shrunk ? { smallest: { exchange: shrunk.exchange, expected: shrunk.expected, words: `shrunk to ${shrunk.what}` } } : {}) };
      });
  });
}

/** The row of the Errors table an answer is observed against: the one of its status and text, else the first of its status. */
const rowOf = (rows: readonly { status: number; text: string }[], exchange: Exchange) => {
  const json = jsonOf(exchange);
  const text = json.ok && typeof json.value === 'object' && json.value !== null ? (json.value as Record<string, unknown>).error : undefined;
  return (rows.find((r) => r.status === exchange.status && r.text === text) ?? rows.find((r) => r.status === exchange.status))?.text;
};

/** The answers of the access matrix's cells, and of their undos, that `clauseId` judges. */
function judgedOnMatrix(explored: Explored, clauseId: string): Judged[] {
  return (explored.matrix ?? []).flatMap((sent) => {
    const { cell, exchange, undo } = sent;
    const what = `${cell.operation} by ${CALLER_WORDS[cell.caller]} on A's ${cell.visibility} status (${sent.id})`;
    const expectation = cellExpectation(cell);
    const undoName = operationNamed(cell.operation).undo;
    const undoClause = undoName ? UNDONE[undoName] : undefined;
    const instances: { exchange: Exchange; expectation: Expectation; what: string }[] = [];
    if (expectation.kind !== 'open' && expectation.clause === clauseId) instances.push({ exchange, expectation, what });
    if (undo && undoName && undoClause === clauseId) instances.push({ exchange: undo, expectation: answers(undoClause, 'Status', { flag: { field: UNDO_FLAGS[undoName] ?? '', value: false } }), what: `${undoName} at once after ${what}` });
    return instances.map(({ exchange: answer, expectation: expected, what: words }) => {
      const verdict = verdictOf(expected, answer);
      const observe = () => {
        if (expected.kind === 'refused' && jsonOf(answer).ok) observeErrorBody(answer, rowOf(expected.rows, answer));
        if (expected.kind === 'answers') {
          const json = jsonOf(answer);
          if (json.ok) for (const body of expected.list && Array.isArray(json.value) ? json.value : [json.value]) observeResource(expected.resource, body, answer);
        }
      };
      const onToken = expected.kind === 'refused' && expected.rows.some((r) => r.status === 401);
      return { holds: verdict.holds, expected: verdict.expected, exchange: answer, what: words, observe, cell: sent, ...(onToken ? { onToken } : {}) };
    });
  });
}

/** The access matrix's table of `clauseId`'s cells, where one of them broke it: what each cell answered. */
function matrixTable(explored: Explored, clauseId: string, deviations: readonly Judged[]): string {
  if (!deviations.some((d) => d.cell)) return '';
  const cells = (explored.matrix ?? []).filter((sent) => judgedOnMatrix({ ...explored, matrix: [sent] }, clauseId).length > 0);
  return `\n  the access matrix's cells of ${clauseId} (A's statuses):\n${tableOf(accessCellsOf(cells))}`;
}

/**
 * Judges every explored answer of `clauseId` and fails once with each that broke it, the first (shrunk to its smallest
 * input) with its exchange and replay. Returns false where this run's inputs reach none of the clause.
 */
export function judgeExplored(explored: Explored, clauseId: string): boolean {
  const instances = [...judgedOnIds(explored, clauseId), ...judgedOnCreations(explored, clauseId), ...judgedOnMatrix(explored, clauseId), ...judgedOnMedia(explored, clauseId)];
  if (instances.length === 0) return false;
  const broken: Judged[] = [];
  for (const instance of instances) {
    if (instance.holds) instance.observe?.();
    else if (!instance.exchange.unanswered && !instance.exchange.rateLimited) broken.push(instance);
  }
  // A token refused (401, 403) says nothing of the id: the operation never looked at it (a 403 to A's broad scopes is
  // ACCESS-BROAD-1's), so it blocks the check where no other answer broke the clause.
  // Where the token's refusal is the answer expected (a move without a token), any other answer is the verdict.
  const deviations = broken.filter(({ exchange, onToken }) => onToken || (exchange.status !== 401 && exchange.status !== 403));
  const [refused] = broken;
  if (deviations.length === 0 && refused) block(causeOf(clauseId, `${refused.what} answered ${answerOf(refused.exchange)}`, refused.exchange));
  countJudged(instances.length - deviations.length);
  const [first] = deviations;
  if (!first) return true;
  const shown = first.smallest ?? { exchange: first.exchange, expected: first.expected, words: '' };
  const listed = deviations.map(({ what, exchange: answer }, i) => `  ${i + 1}. ${what}: ${statusLine(answer)}`);
  const table = matrixTable(explored, clauseId, deviations);
  fail(shown.expected, `${deviations.length} of ${instances.length} explored inputs broke it:\n${listed.join('\n')}${table}\n  the first one${shown.words ? ` (${shown.words})` : ''}:`, shown.exchange, clauseId);
}

/** The registration, OAuth and relations inputs (--explore N only): the model, then what this run sends of it. */
function authListing(explored: boolean, seed: number): string[] {
  const inputs = explored ? drawAuthInputs(seed) : [];
  const cost = authCost(inputs);
  return [
    'Explored inputs of Client registration, OAuth and Account relations: each parameter\'s classes and what each must answer',
    ...authModelLines().map((line) => `  ${line}`),
    explored ? `This run sends ${inputs.length} of them (${AUTH_DRAWS} seeded draws after the covering set), ${cost.api} /api and ${cost.oauth} /oauth requests at most` : 'This run sends none of them: --explore N sends them',
    ...(explored ? authCoverageLines(inputs).map((line) => `  ${line}`) : []),
  ];
}

/** What --list shows of the exploration: the model (each operation, each class, what it must answer), then what this run's scope gives each operation. */
export function exploreListing(settings: ExploreSettings, seed: number): string[] {
  const scope = scopeOf(settings);
  const { inputs, creations, matrix } = drawWithMatrix(scope, settings, seed);
  const requests = matrix.requests + inputs.reduce((sum, input) => sum + costOf(input).requests, 0) + creations.reduce((sum, c) => sum + creationCost(c.row).requests, 0) + (scope.creation ? BOOST_REQUESTS : 0);
  const share = settings.explore === undefined ? `the default share (${settings.share} requests: ids that name nothing, on the operations that delete nothing)` : settings.explore === 0 ? 'off (--explore 0)' : `the default share and --explore ${settings.explore}`;
  return [
    '',
    'Explored inputs (docs/exploring.md): the model, each operation with what each class of its id must answer',
    ...modelLines().map((line) => `  ${line}`),
    ...createModelLines().map((line) => `  ${line}`),
    ...matrixModelLines().map((line) => `  ${line}`),
    ...mediaStreamModelLines().map((line) => `  ${line}`),
    `This run explores ${share}, seed ${seed}: ${matrix.cells.length} cells of the access matrix first, then ${inputs.length} inputs and ${creations.length} creations, ${requests} requests at most`,
    ...matrixCoverageLines(matrix).map((line) => `  ${line}`),
    ...coverageLines(scope, inputs, creations).map((line) => `  ${line}`),
    ...mediaStreamCoverage(drawMediaAndStreams(settings.explore, settings.released, settings.withList ?? false, seed), settings.released).map((line) => `  ${line}`),
    ...authListing(scope.objects, seed),
    ...atOnceListing(settings.explore, settings.released, settings.withB),
  ];
}

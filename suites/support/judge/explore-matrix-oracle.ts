// The oracle of the access matrix's cells (act/explore-matrix.ts, docs/exploring.md "The access matrix"): for every
// status operation x caller x visibility of A's status, what the contract says the answer is, under the clause the
// default run's matrix judges that row by (the Statuses table's Access column, the Errors table, the States and
// transitions rows). Where the contract leaves a cell open, only a server error is judged (ERRORS-5XX-1's warning).
import { CALLER_WORDS, CALLERS, DEFAULT_ASKED, MATRIX_OPERATIONS, VISIBILITIES, visibleTo, type Caller, type Cell, type MatrixPlan, type SentCell, type Visibility } from '../act/explore-matrix-model.ts';
import { operationNamed } from '../act/explore-inputs-model.ts';
import type { Expectation } from './explore-expectation.ts';
import type { AccessCell } from './access-cells.ts';

const NOT_FOUND = 'Record not found';
const TOKEN_INVALID = 'The access token is invalid';
const NOT_OWNED = "Validation failed: Someone else's toot cannot be pinned";
const NOT_PUBLIC = 'Validation failed: Non-public toot cannot be pinned';

const refused = (clause: string, ...rows: { status: number; text: string }[]): Expectation => ({ kind: 'refused', clause, rows });
const notFound = (clause: string, ...also: { status: number; text: string }[]) => refused(clause, { status: 404, text: NOT_FOUND }, ...also);
const status = (clause: string, flag?: { field: string; value: boolean }): Expectation => ({ kind: 'answers', clause, status: [200], resource: 'Status', ...(flag ? { flag } : {}) });
const open = (why: string): Expectation => ({ kind: 'open', why });

/** The reads of a status the caller sees, and of one it does not, by visibility and caller (the default run's clauses). */
const READ_CLAUSES: Record<'read' | 'context', Record<Caller, Record<Visibility, string>>> = {
  read: {
    owner: { public: 'STATUS-VIS-1', unlisted: 'STATUS-VIS-1', private: 'STATUS-READ-2', direct: 'STATUS-VIS-6' },
    other: { public: 'STATUS-VIS-1', unlisted: 'STATUS-VIS-1', private: 'STATUS-READ-3', direct: 'STATUS-VIS-7' },
    none: { public: 'STATUS-READ-1', unlisted: 'STATUS-VIS-3', private: 'STATUS-READ-4', direct: 'STATUS-VIS-7' },
  },
  context: {
    owner: { public: 'STATUS-VIS-1', unlisted: 'STATUS-VIS-1', private: 'STATUS-VIS-4', direct: 'STATUS-VIS-6' },
    other: { public: 'STATUS-VIS-1', unlisted: 'STATUS-VIS-1', private: 'STATUS-VIS-5', direct: 'STATUS-VIS-7' },
    none: { public: 'STATUS-VIS-2', unlisted: 'STATUS-VIS-2', private: 'STATUS-VIS-5', direct: 'STATUS-VIS-7' },
  },
};

/** A move's answer where it takes (its flag), and the clause of its refusal where the caller cannot see the status. */
const MOVES: Record<string, { clause: string; flag: string; value: boolean; unseen: string }> = {
  favourite: { clause: 'STATUS-FAV-1', flag: 'favourited', value: true, unseen: 'STATUS-FAV-5' },
  unfavourite: { clause: 'STATUS-FAV-4', flag: 'favourited', value: false, unseen: 'STATUS-FAV-5' },
  reblog: { clause: 'STATUS-REBLOG-1', flag: 'reblogged', value: true, unseen: 'STATUS-REBLOG-6' },
  unreblog: { clause: 'STATUS-REBLOG-5', flag: 'reblogged', value: false, unseen: 'STATUS-REBLOG-6' },
  bookmark: { clause: 'STATUS-BOOKMARK-1', flag: 'bookmarked', value: true, unseen: 'STATUS-BOOKMARK-4' },
  unbookmark: { clause: 'STATUS-BOOKMARK-3', flag: 'bookmarked', value: false, unseen: 'STATUS-BOOKMARK-4' },
  mute: { clause: 'STATUS-MUTE-1', flag: 'muted', value: true, unseen: 'STATUS-MUTE-5' },
  unmute: { clause: 'STATUS-MUTE-4', flag: 'muted', value: false, unseen: 'STATUS-MUTE-5' },
  pin: { clause: 'STATUS-PIN-1', flag: 'pinned', value: true, unseen: 'STATUS-PIN-7' },
  unpin: { clause: 'STATUS-PIN-6', flag: 'pinned', value: false, unseen: 'STATUS-PIN-7' },
};

function moveExpectation(cell: Cell): Expectation {
  const { operation, caller, visibility } = cell;
  const move = MOVES[operation];
  if (!move) throw new Error(`the access matrix has no row for ${operation}`);
  // STATUS-PIN-7: pin of a status the caller cannot see may instead give the 422 of a status not owned.
  if (!visibleTo(cell)) return operation === 'pin' ? notFound(move.unseen, { status: 422, text: NOT_OWNED }) : notFound(move.unseen);
  // "a boost by the caller exists": none does, the matrix makes none beforehand. "not bookmarked: 404".
  if (operation === 'unreblog' || operation === 'unbookmark') return notFound(move.clause);
  if (operation === 'pin') {
    if (caller === 'other') return refused('STATUS-PIN-2', { status: 422, text: NOT_OWNED }, { status: 422, text: NOT_PUBLIC });
    return visibility === 'public' ? status(move.clause, { field: move.flag, value: true }) : refused('STATUS-PIN-3', { status: 422, text: NOT_PUBLIC });
  }
  if (operation === 'reblog' && (visibility === 'private' || visibility === 'direct')) {
    return open('a boost of its own private or direct status: a boost is never direct, and what a boost of a status only its author and followers see answers is not shown');
  }
  if (operation === 'mute' && caller === 'other') return open('a mute by a caller who does not participate in the thread: its answer is not shown');
  return status(move.clause, { field: move.flag, value: move.value });
}

/** What the contract says a cell answers, and the clause that says it. */
export function cellExpectation(cell: Cell): Expectation {
  const { operation, caller, visibility } = cell;
  if (operation === 'read' || operation === 'context') {
    const clause = READ_CLAUSES[operation][caller][visibility];
    const seen = caller === 'none' ? visibility === 'public' || visibility === 'unlisted' : visibleTo(cell);
    return seen ? { kind: 'answers', clause, status: [200], resource: operation === 'read' ? 'Status' : 'Context' } : notFound(clause);
  }
  if (operation === 'reblogged_by' || operation === 'favourited_by') {
    if (visibility === 'public' || visibility === 'unlisted') {
      return { kind: 'answers', clause: operation === 'reblogged_by' ? 'STATUS-REBLOGGEDBY-1' : 'STATUS-FAVOURITEDBY-1', status: [200], resource: 'Account', list: true };
    }
    // The Errors row says a private status answers 404, and STATUS-READ-2 that its owner reads it: its lists are left open.
    if (caller === 'owner') return open("the accounts lists of the owner's own private or direct status: the Errors table's 404 for a private status and its owner's read both bear on it");
    return notFound('STATUS-VIS-8');
  }
  // "Authorization header is required on the write operations": every move and DELETE, whatever the status.
  if (caller === 'none') return refused('ERRORS-TOKEN-1', { status: 401, text: TOKEN_INVALID });
  if (operation === 'delete') return caller === 'owner' ? status('STATUS-DELETE-1') : notFound('STATUS-DELETE-3');
  return moveExpectation(cell);
}

/** The cells of a sent matrix as the table of a finding: who asked, about which status, by which operation, what answered. */
export function accessCellsOf(sent: readonly SentCell[]): AccessCell[] {
  return sent.flatMap(({ cell, exchange, undo }) => {
    const row = { caller: CALLER_WORDS[cell.caller], status: `A's ${cell.visibility}` };
    const undone = undo ? [{ ...row, operation: `${operationNamed(cell.operation).undo} at once after`, exchange: undo }] : [];
    return [{ ...row, operation: cell.operation, exchange }, ...undone];
  });
}

const short = (e: Expectation) => (e.kind === 'open' ? 'open' : e.kind === 'refused' ? `${e.rows.map((r) => r.status).join('/')} ${e.clause}` : `${e.status.join('/')} ${e.clause}`);

/** The matrix as --list shows it: per operation, each caller's answer on each visibility, or the default run's check that asks it. */
export function matrixModelLines(): string[] {
  const lines = [`the access matrix (A's statuses; a cell: the answer and its clause, "default" where the default run asks it)`];
  for (const op of MATRIX_OPERATIONS) {
    lines.push(`  ${op.name}`);
    for (const caller of CALLERS) {
      const cells = VISIBILITIES.map((visibility) => {
        const asked = DEFAULT_ASKED[op.name]?.[caller]?.includes(visibility);
        return `${visibility} ${asked ? 'default' : short(cellExpectation({ operation: op.name, caller, visibility }))}`;
      });
      lines.push(`    ${CALLER_WORDS[caller].padEnd(9)} ${cells.join('; ')}`);
    }
  }
  return lines;
}

/** What this run's matrix sends and what it leaves out, and why, for --list. */
export function matrixCoverageLines(plan: MatrixPlan): string[] {
  const words = (c: Cell) => `${c.operation} by ${CALLER_WORDS[c.caller]} on ${c.visibility}`;
  const reasons = new Map<string, Cell[]>();
  for (const { cell, why } of plan.leftOut) reasons.set(why, [...(reasons.get(why) ?? []), cell]);
  return [
    `access matrix: ${plan.cells.length} cells sent first, ${plan.requests} requests with A's ${'unlisted, private and direct'} statuses`,
    ...[...reasons].map(([why, cells]) => `  left out, ${why} (${cells.length})${why === 'asked by the default run' ? '' : `: ${cells.map(words).join(', ')}`}`),
  ];
}

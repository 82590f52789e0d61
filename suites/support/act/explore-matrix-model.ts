// The model of the access matrix's callers, visibilities and cells, what the default run asks, the plan the budget buys,
// and the type of a cell sent. explore-matrix.ts sends the cells; this module holds no request, so that the oracle
// (judge/explore-matrix-oracle.ts) reads it without importing what sends.
import type { Exchange } from '../talk/http.ts';
import { drawExploration, EXPLORE_DELETIONS, operationNamed, OPERATIONS, type Exploration, type ExploreSettings, type Operation, type Scope } from './explore-inputs-model.ts';

export const CALLERS = ['owner', 'other', 'none'] as const;
export type Caller = (typeof CALLERS)[number];
export const VISIBILITIES = ['public', 'unlisted', 'private', 'direct'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** Who each caller is, in the words of a finding's table. */
export const CALLER_WORDS: Record<Caller, string> = { owner: 'A (owner)', other: 'B', none: 'no token' };

/** The operations of the matrix: the Statuses table's status operations on one id (the explored ones but the reply). */
export const MATRIX_OPERATIONS: readonly Operation[] = OPERATIONS.filter((op) => op.resource === 'status' && !op.idParameter);

export interface Cell {
  operation: string;
  caller: Caller;
  visibility: Visibility;
}

const EVERY: readonly Visibility[] = VISIBILITIES;
/**
 * The cells a default run with B asks, by operation and caller (docs/performance.md, "The access matrix's cost"): they
 * are not sent again. Owner's: Statuses and States and transitions (and Authentication's unreblog); another
 * account's: Statuses, States and transitions, Streaming (the mute and unmute of another's public status); no token's:
 * Statuses and ERRORS-TOKEN-1's two moves.
 */
export const DEFAULT_ASKED: Readonly<Record<string, Partial<Record<Caller, readonly Visibility[]>>>> = {
  read: { owner: ['public', 'private', 'direct'], other: EVERY, none: EVERY },
  context: { owner: ['unlisted', 'private', 'direct'], other: EVERY, none: EVERY },
  reblogged_by: { other: ['public', 'private'], none: ['public'] },
  favourited_by: { owner: ['public'], none: ['public', 'direct'] },
  favourite: { owner: ['public'], other: ['public', 'private'], none: ['private'] },
  unfavourite: { owner: ['public', 'private'], other: ['private'] },
  reblog: { owner: ['public'], other: ['public', 'private'], none: ['public'] },
  unreblog: { owner: ['public'], other: ['public'] },
  bookmark: { owner: ['public'], other: ['private'] },
  unbookmark: { owner: ['public', 'private'] },
  mute: { owner: ['public'], other: ['public', 'private'] },
  unmute: { owner: ['public', 'private'], other: ['public', 'private'] },
  pin: { owner: ['public', 'private'], other: ['public'] },
  unpin: { owner: ['public'], other: ['private'] },
  delete: { owner: EVERY, other: ['public'] },
};

export const askedByDefault = (cell: Cell) => DEFAULT_ASKED[cell.operation]?.[cell.caller]?.includes(cell.visibility) ?? false;

/** Every cell of the matrix, operation by operation in the contract's order, then caller, then visibility. */
export const ALL_CELLS: readonly Cell[] = MATRIX_OPERATIONS.flatMap((op) => CALLERS.flatMap((caller) => VISIBILITIES.map((visibility) => ({ operation: op.name, caller, visibility }))));

/** Whether the status is visible to the caller: the owner sees each of its own, another account the public and unlisted ones. */
export const visibleTo = (cell: Cell) => cell.caller === 'owner' || cell.visibility === 'public' || cell.visibility === 'unlisted';

/**
 * Whether the cell's move takes on a server that answers as the contract says (the States and transitions row's
 * Condition), so that its undo is sent at once: a favourite, bookmark or reblog of a status the caller sees, the
 * owner's mute of its own thread and pin of its public status. A boost of a private or direct status is left open (a
 * boost is never direct, and the reference server refuses both): see the oracle.
 */
export function grants(cell: Cell): boolean {
  const op = operationNamed(cell.operation);
  if (!op.undo || cell.caller === 'none' || !visibleTo(cell)) return false;
  if (op.name === 'pin') return cell.caller === 'owner' && cell.visibility === 'public';
  if (op.name === 'mute') return cell.caller === 'owner';
  if (op.name === 'reblog') return cell.visibility === 'public' || cell.visibility === 'unlisted';
  return true;
}

/**
 * What a cell costs: its request, and its undo where the move takes; an account's deletions (DELETE, unreblog)
 * besides, counted where a server may take the move whether the contract says it takes or leaves it open (a boost of
 * a status the caller sees: its undo is an unreblog).
 */
export function cellCost(cell: Cell): { requests: number; deletions: number } {
  const op = operationNamed(cell.operation);
  const undo = op.undo ? operationNamed(op.undo) : undefined;
  // No token, no account: the Deletion bucket is per account, and a tokenless call spends none.
  if (cell.caller === 'none') return { requests: 1, deletions: 0 };
  const mayUndo = undo !== undefined && visibleTo(cell) && (grants(cell) || op.name === 'reblog');
  return { requests: grants(cell) ? 2 : 1, deletions: (op.deletes ? 1 : 0) + (mayUndo && undo.deletes ? 1 : 0) };
}

/** The statuses the matrix makes: A's of each visibility but public (the explored inputs' own status is its public one). */
export const MATRIX_STATUSES: readonly Visibility[] = ['unlisted', 'private', 'direct'];
/** What making them costs: each made, deleted by the ledger and read gone. */
export const MATRIX_OBJECT_REQUESTS = MATRIX_STATUSES.length * 3;

/** What of the run the matrix may take: B configured, whitelist mode, what the server's release has, its deletions besides its statuses'. */
export interface MatrixSettings {
  withB: boolean;
  whitelistMode: boolean;
  released: (clause: string) => boolean;
  /** The deletions its cells may spend, per account (the owner A's, the other B's), beside those of its statuses. */
  deletions: Record<'owner' | 'other', number>;
}

/** Why a cell of the matrix is not sent in this run, or undefined where its scope has it. */
export function leftOutBecause(cell: Cell, settings: Omit<MatrixSettings, 'deletions'>): string | undefined {
  const op = operationNamed(cell.operation);
  if (askedByDefault(cell)) return 'asked by the default run';
  if (op.releasedWith && !settings.released(op.releasedWith)) return 'not in the server\'s release';
  if (cell.caller === 'other' && !settings.withB) return 'needs account B';
  // In whitelist mode every tokenless read is refused whatever it reads (STATUS-WHITELIST-1's): it shows no guard of its own.
  if (cell.caller === 'none' && op.method === 'GET' && settings.whitelistMode) return 'a tokenless read in whitelist mode';
  return undefined;
}

/** The matrix of a run: the cells it sends, in order, and each cell it leaves out with why. */
export interface MatrixPlan {
  cells: Cell[];
  leftOut: { cell: Cell; why: string }[];
  /** What it takes of the exploration's requests: its statuses and its cells. */
  requests: number;
}

/**
 * The cells a run sends, within `requests` and the deletions of `settings`: every cell the default run does not ask,
 * the guards first (cells a contract-faithful server refuses: another account's and no token's, where a missing guard
 * shows), then the owner's; a tokenless DELETE last of all (a server that takes it takes the status every later cell
 * names). Nothing where the requests do not pay for its statuses.
 */
export function planMatrix(settings: MatrixSettings, requests: number): MatrixPlan {
  const plan: MatrixPlan = { cells: [], leftOut: [], requests: 0 };
  const inScope = ALL_CELLS.filter((cell) => {
    const why = leftOutBecause(cell, settings);
    if (why) plan.leftOut.push({ cell, why });
    return !why;
  });
  const rank = (cell: Cell) => (cell.operation === 'delete' ? 3 : cell.caller === 'owner' ? 2 : 1);
  const ordered = [...inScope].sort((x, y) => rank(x) - rank(y));
  if (requests < MATRIX_OBJECT_REQUESTS || ordered.length === 0) {
    plan.leftOut.push(...ordered.map((cell) => ({ cell, why: 'beyond the requests' })));
    return plan;
  }
  plan.requests = MATRIX_OBJECT_REQUESTS;
  const spent: Record<'owner' | 'other', number> = { owner: 0, other: 0 };
  for (const cell of ordered) {
    const cost = cellCost(cell);
    const account = cell.caller === 'none' ? undefined : cell.caller;
    if (account && spent[account] + cost.deletions > settings.deletions[account]) plan.leftOut.push({ cell, why: "beyond the matrix's deletions" });
    else if (plan.requests + cost.requests > requests) plan.leftOut.push({ cell, why: 'beyond the requests' });
    else {
      plan.cells.push(cell);
      plan.requests += cost.requests;
      if (account) spent[account] += cost.deletions;
    }
  }
  return plan;
}

/**
 * The matrix's settings of a run's exploration: its cells may spend what EXPLORE_DELETIONS gives the matrix beside its
 * statuses (A's part, none of B's): none today, so the cells that spend a deletion (an unreblog, another's DELETE, a
 * boost's undo) are left to the default run and to the explored inputs on ids.
 */
export const matrixSettingsOf = (settings: ExploreSettings): MatrixSettings => ({
  withB: settings.withB,
  whitelistMode: settings.whitelistMode ?? false,
  released: settings.released,
  deletions: { owner: EXPLORE_DELETIONS.A.matrix - MATRIX_STATUSES.length, other: 0 },
});

/**
 * What a run explores, the access matrix first: its cells within the scope's requests (none in the default share,
 * which makes no object), then the inputs on ids and the creations (drawExploration) with what it leaves.
 */
export function drawWithMatrix(scope: Scope & { objects: boolean }, settings: ExploreSettings, seed: number): Exploration & { matrix: MatrixPlan } {
  const matrix = scope.objects ? planMatrix(matrixSettingsOf(settings), scope.requests) : { cells: [], leftOut: [], requests: 0 };
  return { matrix, ...drawExploration({ ...scope, requests: scope.requests - matrix.requests }, seed) };
}

/**
 * What the announcement of --explore N says of the matrix: the requests it takes first, and whether N completes it
 * (with B, on a release that has every operation: the most it takes).
 */
export function matrixAnnouncement(n: number): string {
  const most = matrixSettingsOf({ withB: true, released: () => true, share: 0 });
  const whole = planMatrix(most, Number.MAX_SAFE_INTEGER);
  const within = planMatrix(most, n);
  const complete = within.cells.length === whole.cells.length ? 'the whole matrix' : `${within.cells.length} of its ${whole.cells.length} cells (--explore ${whole.requests} sends them all)`;
  return `The access matrix takes the first ${within.requests} of them: ${complete}, the cells the default run does not ask, with A's unlisted, private and direct statuses (${MATRIX_STATUSES.length} of A's deletions); then the inputs on ids and the creations.`;
}

/** A's statuses of each visibility, by visibility: the ids the cells name. */
export type MatrixStatuses = Partial<Record<Visibility, string>>;

/** One cell as it was sent: its id and answer, and the answer of its undo where the move took. */
export interface SentCell {
  cell: Cell;
  id: string;
  exchange: Exchange;
  undo?: Exchange;
}

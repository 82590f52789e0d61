// The model of the exploration's operations on one id, the classes of ids, the covering order, the costs and what the
// announcement says, and the types of what was sent. explore-inputs.ts sends; this module holds no request, so that the
// oracle (judge/explore-oracle.ts) reads it without importing what sends.
import fc from 'fast-check';
import { matching } from './matching.ts';
import type { Config } from '../talk/config.ts';
import type { FormParams } from '../talk/form.ts';
import type { Exchange } from '../talk/http.ts';
import { BOOST_REQUESTS, BOOST_VISIBILITIES, createCovering, creationCost, parametersOf, randomRows, CREATE_PARAMETERS, type CreateInput, type CreateParameter } from './explore-create-model.ts';
import { createdId } from './created.ts';

export const ID_CLASSES = ['own', 'visible', 'hidden', 'deleted', 'never-existed', 'malformed'] as const;
export type IdClass = (typeof ID_CLASSES)[number];

/** What each class is, in the words a finding is read in. */
export const CLASS_WORDS: Record<IdClass, string> = {
  own: "the caller's own",
  visible: "another account's, visible to the caller",
  hidden: "another account's, not visible to the caller (private)",
  deleted: 'deleted by its owner',
  'never-existed': 'an id that never named anything',
  malformed: 'a malformed id',
};

/** The classes that need no object: ids that name nothing, which the default run's share explores. */
export const NAMING_NOTHING: readonly IdClass[] = ['never-existed', 'malformed'];

export type ExploredResource = 'status' | 'attachment';

export interface Operation {
  /** The operation as the contract's tables name it: `favourite`, `media read`. */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path with `:id` where the id goes. */
  path: string;
  resource: ExploredResource;
  /** Counted in the contract's Deletion bucket (DELETE of a status, unreblog): never in the default run. */
  deletes?: boolean;
  /** The operation that undoes a move that took, sent at once, so that every input meets the objects as they were. */
  undo?: string;
  /** A form the operation is sent with (the update's description). */
  form?: FormParams;
  /** The form parameter the id goes in, where it is not in the path (POST /api/v1/statuses's in_reply_to_id). */
  idParameter?: string;
  /** The clause of the catalogue whose release brought the operation (the Versioning table): its `since` gates it. */
  releasedWith?: string;
}

const statusPath = (suffix: string) => `/api/v1/statuses/:id${suffix}`;
/** The path of an operation on an id, the id encoded as one path segment. */
export const pathOf = (op: Operation, id: string) => op.path.replace(':id', encodeURIComponent(id));
const move = (name: string, undo?: string, releasedWith?: string): Operation => ({
  name,
  method: 'POST',
  path: statusPath(`/${name}`),
  resource: 'status',
  ...(undo ? { undo } : {}),
  ...(name === 'unreblog' ? { deletes: true } : {}),
  ...(releasedWith ? { releasedWith } : {}),
});

/** The operations explored, in the order of the contract's tables: the covering set reaches them in this order. */
export const OPERATIONS: readonly Operation[] = [
  { name: 'read', method: 'GET', path: statusPath(''), resource: 'status' },
  { name: 'context', method: 'GET', path: statusPath('/context'), resource: 'status' },
  { name: 'reblogged_by', method: 'GET', path: statusPath('/reblogged_by'), resource: 'status' },
  { name: 'favourited_by', method: 'GET', path: statusPath('/favourited_by'), resource: 'status' },
  move('favourite', 'unfavourite'),
  move('unfavourite'),
  move('reblog', 'unreblog'),
  move('unreblog'),
  move('bookmark', 'unbookmark', 'STATUS-BOOKMARK-1'),
  move('unbookmark', undefined, 'STATUS-BOOKMARK-1'),
  move('mute', 'unmute', 'STATUS-MUTE-1'),
  move('unmute', undefined, 'STATUS-MUTE-1'),
  move('pin', 'unpin', 'STATUS-PIN-1'),
  move('unpin', undefined, 'STATUS-PIN-1'),
  { name: 'delete', method: 'DELETE', path: statusPath(''), resource: 'status', deletes: true },
  // POST /api/v1/statuses parameters: in_reply_to_id, the table's id parameter. A reply made is a status of the caller's,
  // on the ledger: its undo is a deletion.
  { name: 'reply', method: 'POST', path: '/api/v1/statuses', resource: 'status', idParameter: 'in_reply_to_id', form: { status: 'conformance probe: an explored reply' }, deletes: true },
  // The Media table shows no path for these; Mastodon's, as the rest of the suite uses.
  { name: 'media read', method: 'GET', path: '/api/v1/media/:id', resource: 'attachment', releasedWith: 'MEDIA-READ-1' },
  { name: 'media update', method: 'PUT', path: '/api/v1/media/:id', resource: 'attachment', form: { description: 'conformance probe: an explored update' } },
];

export function operationNamed(name: string): Operation {
  const found = OPERATIONS.find((op) => op.name === name);
  if (!found) throw new Error(`no explored operation "${name}"`);
  return found;
}

/**
 * The classes an operation's id takes. An attachment is never visible to another account (only its creator reads or
 * updates it), so "another account's" is one class there. A delete of the caller's own status would take the object
 * every other input shares: the Statuses checks judge it.
 */
export function classesOf(op: Operation): IdClass[] {
  if (op.resource === 'attachment') return ID_CLASSES.filter((c) => c !== 'hidden');
  if (op.name === 'delete') return ID_CLASSES.filter((c) => c !== 'own');
  return [...ID_CLASSES];
}

/** An id that no server has given out: far above any snowflake of this century, drawn so that runs of other seeds differ. */
const neverExisted: fc.Arbitrary<string> = fc.bigInt({ min: 10n ** 17n * 9n, max: 10n ** 18n - 1n }).map(String);

/**
 * A malformed id: characters no id of a numeric or snowflake server carries, yet safe in a path segment (letters,
 * signs, dots): a server must answer it as an id that names nothing.
 */
const malformed: fc.Arbitrary<string> = fc.oneof(
  matching(/^[a-z][a-z0-9_]{0,11}$/),
  fc.integer({ min: 1, max: 99_999 }).map((n) => `-${n}`),
  fc.tuple(fc.integer({ min: 0, max: 9_999 }), fc.integer({ min: 1, max: 99 })).map(([a, b]) => `${a}.${b}`),
  fc.tuple(fc.integer({ min: 1, max: 9_999 }), matching(/^[a-z]{1,4}$/)).map(([n, s]) => `${n}${s}`),
  fc.bigInt({ min: 10n ** 30n, max: 10n ** 40n }).map(String),
);

const VALUES: Record<'never-existed' | 'malformed', fc.Arbitrary<string>> = { 'never-existed': neverExisted, malformed };

/** Whether a value still belongs to the malformed class: not an id of digits, and safe in a path. */
// Dots alone are a path's own segments (. and ..), which a client resolves away before sending.
export const isMalformed = (value: string) => /^[A-Za-z0-9_.-]+$/.test(value) && !/^\.+$/.test(value) && !/^\d{1,20}$/.test(value);

/** One input: an operation, its id's class, and for the ids that name nothing, the id drawn. */
export interface Input {
  operation: string;
  idClass: IdClass;
  /** The drawn id, for the classes that name nothing; the others take the object the run holds. */
  value?: string;
  /** Which part of the exploration drew it. */
  drawnBy: 'covering' | 'random';
}

/** The cells (operation, class) of the space, in covering order: round r gives each operation its next class. */
export function coveringOrder(operations: readonly Operation[], classes: (op: Operation) => readonly IdClass[]): { operation: string; idClass: IdClass; round: number }[] {
  const perOperation = operations.map((op) => {
    const own = classes(op);
    // Each operation starts at another class, so that the first round already meets every class; one that deletes
    // starts at the caller's own and the visible (its success, or its "no boost" row), which the Deletion bucket
    // reaches first where it cannot carry every class.
    const start = op.deletes ? 0 : operations.indexOf(op) % Math.max(own.length, 1);
    return { op, order: [...own.slice(start), ...own.slice(0, start)] };
  });
  const rounds = Math.max(0, ...perOperation.map(({ order }) => order.length));
  const cells: { operation: string; idClass: IdClass; round: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const { op, order } of perOperation) {
      const idClass = order[round];
      if (idClass) cells.push({ operation: op.name, idClass, round });
    }
  }
  return cells;
}

/**
 * The calls of each account's Deletion bucket (DELETE of a status, unreblog) that --explore N adds, by what spends
 * them, declared once: beside a run's own 15 (suites/self/budget.test.ts), each account's stay within the bucket's 30
 * per 30 minutes, so that no run waits for its reset, with a fault or without. `objects`: the statuses of the classes
 * (A's deleted at once and its public one; B's public and private ones), deleted by the ledger. A's `inputs`: the
 * explored deletes, unreblogs and replies. B's `creations`: each status its creations and their shrinking make, deleted
 * by the ledger, and the unreblog of each boost with the reblog's visibility parameter; kept while the run sends (a
 * DeletionShare: every row, a refused one too, and B's boosts in the access matrix take one before they are sent), so
 * that a server that makes what it should refuse spends what the creations would have sent later, never more. `sequences`: the state
 * machine's (statuses-interactions.test.ts), each account's deletes, unreblogs and the undos of its reblogs, and A's
 * ledger delete of the last status made. A's `matrix`: the access matrix's statuses (act/explore-matrix.ts), its
 * unlisted, private and direct ones, deleted by the ledger (3 of the inputs' 9 before issue 50's decision).
 */
export const EXPLORE_DELETIONS = {
  A: { objects: 2, inputs: 6, matrix: 3, sequences: 4 },
  B: { objects: 2, creations: 8, sequences: 5 },
} as const;

/** The deletions and unreblogs --explore N adds to an account's, all parts together. */
export const exploreDeletionsOf = (who: keyof typeof EXPLORE_DELETIONS): number => Object.values(EXPLORE_DELETIONS[who]).reduce((sum: number, n: number) => sum + n, 0);

/** What the exploration may take: the operations and classes it may send, and how many requests. */
export interface Scope {
  operations: readonly Operation[];
  classes: (op: Operation) => readonly IdClass[];
  requests: number;
  deletions: number;
  /** The parameters of POST /api/v1/statuses the explored creations vary (none: no creation), and B's deletions they may spend. */
  creation?: { parameters: readonly CreateParameter[]; deletions: number };
}

/** An input's move takes where its id names a status the caller sees: its undo is sent at once. */
export const takes = (op: Operation, idClass: IdClass) => op.undo !== undefined && (idClass === 'own' || (idClass === 'visible' && op.name !== 'pin' && op.name !== 'mute'));

/** What an input costs on a server that answers as the contract says: its request, and its undo where the move takes. */
export function costOf(cell: { operation: string; idClass: IdClass }): { requests: number; deletions: number } {
  const op = operationNamed(cell.operation);
  // A reply that is made is deleted by the ledger, which reads it gone: three requests, one deletion.
  if (op.idParameter) return { requests: 3, deletions: 1 };
  const undone = takes(op, cell.idClass);
  const undo = undone ? operationNamed(op.undo as string) : undefined;
  return { requests: undone ? 2 : 1, deletions: (op.deletes ? 1 : 0) + (undo?.deletes ? 1 : 0) };
}

/**
 * What of a run's configuration the exploration takes: --explore N (undefined: the default share alone), the default
 * share (the requests the run's plan leaves of one IP access window: run/run-plan.ts derives it), what the server's
 * release has, whether B is configured.
 */
export interface ExploreSettings {
  explore?: number;
  share: number;
  /** Whether the server's release has a clause: the catalogue's `since` (judge/clauses.ts releaseHas), asked by the caller. */
  released: (clause: string) => boolean;
  withB: boolean;
  /** Whether the instance runs in whitelist mode (tokenless reads refused): the access matrix leaves those cells out. */
  whitelistMode?: boolean;
  /** Whether a list of A's is configured (CONFORMANCE_LIST_ID): the explored list stream's own class. */
  withList?: boolean;
}

/**
 * The exploration's settings of a configuration, the default share the run's plan leaves it and what its release has:
 * the embedded server always has B.
 */
export const exploreSettingsOf = (config: Config, share: number, released: (clause: string) => boolean): ExploreSettings => ({
  ...(config.explore === undefined ? {} : { explore: config.explore }),
  share,
  released,
  withB: config.embedded || config.tokenB !== undefined,
  whitelistMode: config.whitelistMode,
  withList: config.listId !== undefined,
});

/**
 * What a run explores. The default share sends ids that name nothing on the operations that delete nothing: no object
 * made, no deletion, no undo. --explore N adds N requests, every class (the objects of each class made first, on the
 * ledger), and A's deletions up to EXPLORE_DELETIONS.A.inputs; --explore 0 turns the exploration off.
 */
export function scopeOf(settings: ExploreSettings): Scope & { objects: boolean } {
  const released = OPERATIONS.filter((op) => !op.releasedWith || settings.released(op.releasedWith));
  const withB = (classes: readonly IdClass[]) => (settings.withB ? [...classes] : classes.filter((c) => c !== 'visible' && c !== 'hidden'));
  if (settings.explore === 0) return { operations: [], classes: () => [], requests: 0, deletions: 0, objects: false };
  // The explored creations are B's, its deletions their budget: a run without B makes none.
  // The boosts with the reblog's visibility parameter take theirs first (an unreblog each).
  const creation = settings.withB ? { creation: { parameters: parametersOf(settings.released), deletions: EXPLORE_DELETIONS.B.creations - BOOST_VISIBILITIES.length } } : {};
  if (settings.explore === undefined) {
    return { operations: released.filter((op) => !op.deletes), classes: () => NAMING_NOTHING, requests: settings.share, deletions: 0, objects: false };
  }
  return { operations: released, classes: (op) => withB(classesOf(op)), requests: settings.share + settings.explore, deletions: EXPLORE_DELETIONS.A.inputs, objects: true, ...creation };
}

/** What a run explores: the inputs on ids, and the creations (rows of POST /api/v1/statuses's parameters). */
export interface Exploration {
  inputs: Input[];
  creations: CreateInput[];
}

/**
 * The inputs of a run, the same for one seed: the covering set first, as far as the scope's requests and deletions
 * go, round after round (each operation's next class, and the creations' next covering row, so that every operation
 * is reached before any is reached twice), then random draws until the requests are spent: an (operation, class)
 * pair, or a creation's row drawn whole. The ids that name nothing are drawn by fast-check from the seed.
 */
export function drawExploration(scope: Scope, seed: number): Exploration {
  const covering = coveringOrder(scope.operations, scope.classes);
  const rows = scope.creation ? createCovering(scope.creation.parameters) : [];
  // The boosts with the reblog's visibility parameter go with the creations, first.
  const spent = { requests: scope.creation ? BOOST_REQUESTS : 0, deletions: 0, creationDeletions: 0 };
  const fits = (cost: { requests: number; deletions: number }, creation: boolean) => {
    const deletions = creation ? spent.creationDeletions : spent.deletions;
    const most = creation ? (scope.creation?.deletions ?? 0) : scope.deletions;
    if (spent.requests + cost.requests > scope.requests || deletions + cost.deletions > most) return false;
    spent.requests += cost.requests;
    if (creation) spent.creationDeletions += cost.deletions;
    else spent.deletions += cost.deletions;
    return true;
  };
  const cells: Omit<Input, 'value'>[] = [];
  const creations: Omit<CreateInput, 'drawn'>[] = [];
  const rounds = Math.max(rows.length, ...covering.map((c) => c.round + 1));
  for (let round = 0; round < rounds; round++) {
    for (const cell of covering.filter((c) => c.round === round)) if (fits(costOf(cell), false)) cells.push({ operation: cell.operation, idClass: cell.idClass, drawnBy: 'covering' });
    const row = rows[round];
    if (row && fits(creationCost(row), true)) creations.push({ row, drawnBy: 'covering' });
  }
  const left = scope.requests - spent.requests;
  const choices = covering.length + (scope.creation ? 1 : 0);
  if (left > 0 && choices > 0) {
    // A draw per request left, at most: one that does not fit (a deletion past the scope's) is passed over.
    const picks = fc.sample(fc.integer({ min: 0, max: choices - 1 }), { seed, numRuns: left });
    // The creations' rows drawn whole, from a stream of the seed of their own.
    const rowsDrawn = randomRows(scope.creation?.parameters ?? [], seed + 7919, picks.filter((i) => i === covering.length).length);
    for (const i of picks) {
      const cell = covering[i];
      if (cell) {
        if (fits(costOf(cell), false)) cells.push({ operation: cell.operation, idClass: cell.idClass, drawnBy: 'random' });
        continue;
      }
      const row = rowsDrawn.shift();
      if (row && fits(creationCost(row), true)) creations.push({ row, drawnBy: 'random' });
    }
  }
  const drawn = (idClass: IdClass, k: number): string | undefined => {
    if (idClass !== 'never-existed' && idClass !== 'malformed') return undefined;
    // A value per input, each from its own stream of the seed: adding an input never changes the ones before it.
    return fc.sample(VALUES[idClass], { seed: seed + k, numRuns: 1 })[0];
  };
  return {
    inputs: cells.map((cell, k) => {
      const value = drawn(cell.idClass, k);
      return { ...cell, ...(value === undefined ? {} : { value }) };
    }),
    creations: creations.map((creation, k) => ({ ...creation, drawn: drawn('never-existed', 1_000_003 + k) as string })),
  };
}

/** The inputs on ids of a run (drawExploration). */
export const drawInputs = (scope: Scope, seed: number): Input[] => drawExploration(scope, seed).inputs;

/** What a scope's inputs reach, and what they leave out, per operation: for --list and the results. */
export function coverageLines(scope: Scope, inputs: readonly Input[], creations: readonly CreateInput[] = []): string[] {
  return [...idCoverageLines(scope, inputs), creationCoverageLine(scope, creations)];
}

/** What the creations reach: how many rows, and each parameter's classes that no row sent, and why. */
function creationCoverageLine(scope: Scope, creations: readonly CreateInput[]): string {
  if (!scope.creation) return 'create: outside the scope (the default share makes nothing; --explore N with account B explores it)';
  const covering = creations.filter((c) => c.drawnBy === 'covering').length;
  const leftOut: string[] = [];
  for (const p of CREATE_PARAMETERS) {
    const inScope = scope.creation?.parameters.includes(p) ?? false;
    for (const choice of p.choices) {
      if (choice.kind === 'absent' || creations.some((c) => c.row[p.name] === choice.name)) continue;
      leftOut.push(`${p.name} ${choice.name} (${inScope ? 'beyond the requests and deletions' : 'outside the scope'})`);
    }
  }
  const made = `${creations.length} row${creations.length === 1 ? '' : 's'} (${covering} covering, ${creations.length - covering} random)`;
  return `create: ${made}${leftOut.length ? `; left out: ${leftOut.join(', ')}` : '; every class of every parameter reached'}`;
}

function idCoverageLines(scope: Scope, inputs: readonly Input[]): string[] {
  return OPERATIONS.map((op) => {
    const sent = inputs.filter((i) => i.operation === op.name);
    const reached = [...new Set(sent.map((i) => i.idClass))];
    const all = classesOf(op);
    const inScope = scope.operations.includes(op) ? scope.classes(op) : [];
    const leftOut = all.filter((c) => !reached.includes(c));
    const why = (c: IdClass) => (inScope.includes(c) ? 'beyond the requests and deletions' : 'outside the scope');
    return `${op.name}: ${sent.length} input${sent.length === 1 ? '' : 's'}${reached.length ? ` (${reached.join(', ')})` : ''}${leftOut.length ? `; left out: ${leftOut.map((c) => `${c} (${why(c)})`).join(', ')}` : ''}`;
  });
}

/**
 * Smaller malformed ids than `value`, smallest first, that are still malformed: the shrinker's candidates (a finding
 * is reported with the smallest input that still shows it, found within a bounded number of requests).
 */
export function smallerMalformed(value: string): string[] {
  const candidates = new Set<string>();
  for (let length = 1; length < value.length; length++) {
    candidates.add(value.slice(0, length));
    candidates.add(value.slice(value.length - length));
  }
  return [...candidates].filter(isMalformed).sort((x, y) => x.length - y.length || (x < y ? -1 : 1));
}

/** The objects of each class the run holds, by resource: the id an input of that class names. */
export type Held = Partial<Record<ExploredResource, Partial<Record<IdClass, string>>>>;

/** The id an input names: the one drawn, or the object of its class the run holds (undefined where none was made). */
export function idOf(input: Input, held: Held): string | undefined {
  return input.value ?? held[operationNamed(input.operation).resource]?.[input.idClass];
}

/** One input as it was sent: its id and answer, and the answer of its undo where the move took. */
export interface Sent {
  input: Input;
  id: string;
  exchange: Exchange;
  undo?: Exchange;
}

/** The most requests shrinking one finding may send, and the most findings shrunk: a deviating server's bound. */
export const SHRINK_BOUND = { requestsPerFinding: 4, findings: 5 } as const;

/**
 * The deletions the inputs sent spent of the caller's Deletion bucket: each DELETE and unreblog sent, each reply that
 * made a status (the ledger deletes it), each undo that is an unreblog.
 */
export function deletionsSpent(sent: readonly Sent[]): number {
  return sent.reduce((sum, s) => {
    const op = operationNamed(s.input.operation);
    const own = op.deletes && (!op.idParameter || createdId(s.exchange) !== undefined || s.exchange.error !== undefined) ? 1 : 0;
    const undo = s.undo && operationNamed(op.undo as string).deletes ? 1 : 0;
    return sum + own + undo;
  }, 0);
}

/** The requests the objects of the classes cost under --explore N (each made, and undone or read gone by the ledger). */
export const OBJECT_REQUESTS = 21;

/** What the media and streaming exploration adds beside N (explore-media.ts): its requests, A's uploads, its streams. */
export interface MediaAnnounced {
  requests: number;
  /** Each account's uploads --explore N adds, the objects' among them (explore-media.ts EXPLORE_UPLOADS). */
  uploads: { A: number; B: number };
  streams: number;
}

/** What the run's plan holds beside the explore group's parts: whether the state machine's sequences run, and the plan's IP access calls in all. */
export interface RunAnnounced {
  sequences: boolean;
  plannedCalls: number;
}

/**
 * The line --explore N prints before the run: what each part adds (N to the explore group's matrix, inputs on ids and
 * creations, N to the state machine's sequences where they run; the objects, the registration, OAuth and relations
 * inputs, the media and the streams beside N), the run's plan in all, and the windows of the IP access bucket the run
 * then takes, of `budget` calls each and `periodMinutes` long (run/cli.ts counts them from the run's plan, each step
 * whole: `fewest` where the steps' calls fill every window, `most` where each step, held with its bound, waits for the
 * next window once the one it meets cannot hold it); `auth`: what the registration, OAuth and relations inputs add
 * (act/explore-auth.ts authCost).
 */
export function exploreAnnouncement(n: number, windows: { fewest: number; most: number }, budget: number, periodMinutes: number, auth = { api: 0, oauth: 0 }, media?: MediaAnnounced, run?: RunAnnounced): string {
  const { fewest, most } = windows;
  const count = fewest === most ? `${fewest}` : `${fewest} to ${most}`;
  const waits = fewest === most ? `${fewest - 1}` : `${fewest - 1} to ${most - 1}`;
  const extra =
    most > 1
      ? `the run then takes ${count} windows of the IP access bucket (${budget} calls each: each step starts only once the bucket holds its calls and what a deviating server may add to them), so it waits ${waits} times, up to ${periodMinutes} minutes each, for a reset`
      : 'the run still fits one window of the IP access bucket';
  const parts = (who: keyof typeof EXPLORE_DELETIONS) => `${exploreDeletionsOf(who)} more of ${who}'s (${Object.entries(EXPLORE_DELETIONS[who]).map(([part, k]) => `${k} ${part}`).join(', ')})`;
  const mediaWords = media ? `, ${media.requests} for the media uploads and updates (up to ${media.uploads.A} more of A's uploads and ${media.uploads.B} of B's, the objects' included, each account within its Uploading bucket) and ${media.streams} streams` : '';
  const sequences = run?.sequences ? ` and up to ${n} to the state machine's sequences` : '';
  const planned = run ? `; the run's plan then counts at most ${run.plannedCalls} IP access calls in all, streams included (each part at its most)` : '';
  return `Explore: --explore ${n} gives up to ${n} requests to the explored inputs (the access matrix first, then the inputs on ids and the creations)${sequences}, and adds beside them ${OBJECT_REQUESTS} for the objects its classes name and up to ${auth.api + auth.oauth} for the registration, OAuth and relations inputs (${auth.api} /api, ${auth.oauth} /oauth)${mediaWords}${planned}; beside the run's own deletions and unreblogs up to ${parts('A')} and ${parts('B')}, each account within its Deletion bucket: ${extra}.`;
}

// Pacing: stay inside the contract's rate-limit budgets by reading the X-RateLimit headers of every
// response, and wait for the reset instead of being refused when a bucket is about to run out.
// The contract's Limits table lives here too, in one home: the suite counts and paces by it, and the
// reference server enforces it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { perFile } from './file-state.ts';

export type Bucket = 'Account access' | 'IP access' | 'App sign-up' | 'Uploading' | 'Deletion';

export interface BucketRule {
  periodMs: number;
  limit: number;
  /** Whose calls share one counter. */
  per: 'account' | 'IP';
}

const MINUTE = 60_000;

/** The contract's Limits table, row by row (the two Deletion rows are one bucket). */
export const LIMITS: Readonly<Record<Bucket, BucketRule>> = {
  'Account access': { periodMs: 5 * MINUTE, limit: 300, per: 'account' },
  'IP access': { periodMs: 5 * MINUTE, limit: 300, per: 'IP' },
  'App sign-up': { periodMs: 30 * MINUTE, limit: 5, per: 'IP' },
  Uploading: { periodMs: 30 * MINUTE, limit: 30, per: 'account' },
  Deletion: { periodMs: 30 * MINUTE, limit: 30, per: 'account' },
};

/** The buckets a call spends: every /api/* call spends the Account and IP access buckets; some spend one more. */
export function bucketsOf(method: string, path: string): Bucket[] {
  const p = path.split('?')[0] ?? '';
  if (!p.startsWith('/api/')) return [];
  const buckets: Bucket[] = ['Account access', 'IP access'];
  if (method === 'POST' && p === '/api/v1/accounts') buckets.push('App sign-up');
  // "The v2 upload is equal to v1 in all other aspects": it is an upload for the Uploading bucket too.
  if (method === 'POST' && (p === '/api/v1/media' || p === '/api/v2/media')) buckets.push('Uploading');
  if ((method === 'DELETE' && /^\/api\/v1\/statuses\/[^/]+$/.test(p)) || (method === 'POST' && /^\/api\/v1\/statuses\/[^/]+\/unreblog$/.test(p))) {
    buckets.push('Deletion');
  }
  return buckets;
}

/**
 * Of `buckets`, those that count a call of `actor`: a call that carries no token (no actor) has no account, and the
 * Limits table's per-account buckets (Account access, Deletion, Uploading) do not count it; the per-IP ones do.
 */
const countingBuckets = (actor: string | undefined, buckets: readonly Bucket[]): Bucket[] => buckets.filter((bucket) => actor !== undefined || LIMITS[bucket].per !== 'account');

/**
 * The counters calls of `actor` spend in these buckets, as the server keeps them: a per-account bucket once for each
 * actor (the suite's accounts, or an application for its tokens), a per-IP bucket once for the whole run.
 */
const keysOf = (actor: string | undefined, buckets: readonly Bucket[]) => countingBuckets(actor, buckets).map((bucket) => (LIMITS[bucket].per === 'account' ? `${bucket} of ${actor}` : bucket));

/** The counters a call spends under the contract's Limits table (`actor` undefined: a call without a token). */
export function budgetKeysOf(actor: string | undefined, method: string, path: string): string[] {
  return keysOf(actor, bucketsOf(method, path));
}

const ISO_8601 = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const UNIX_SECONDS = /^\d{10}(\.\d+)?$/;

/**
 * The time (ms since the epoch) an X-RateLimit-Reset value names. The contract does not show its format, so
 * the timestamp forms servers use are all read: ISO 8601 (Mastodon), HTTP-date and Unix seconds. A count of
 * seconds until the reset is not a timestamp and gives undefined.
 */
export function resetTimeOf(value: string | undefined): number | undefined {
  const v = value?.trim() ?? '';
  if (UNIX_SECONDS.test(v)) return Number(v) * 1000;
  if (!ISO_8601.test(v) && !HTTP_DATE.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/** A whole number of requests as the Limit and Remaining headers carry it, or undefined. */
export function countOf(value: string | undefined): number | undefined {
  return value !== undefined && /^\s*\d+\s*$/.test(value) ? Number(value) : undefined;
}

/** Time as pacing sees it; our own tests substitute a clock they move instead of waiting. */
export interface PacingClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const realClock: PacingClock = { now: () => Date.now(), sleep: async (ms) => void (await sleep(ms)) };
let clock = realClock;

export function usePacingClock(next: PacingClock | undefined): void {
  clock = next ?? realClock;
}

/**
 * What pacing knows of one counter of the server's: what its last reading said, and our calls since. What is left is
 * what the server said, less our calls it had not counted yet and the calls running steps hold (leftOf): the server's
 * count, not a model of it, so a server that counts less than we thought is believed at its next answer.
 */
interface Counter {
  /** X-RateLimit-Remaining of the reading: the answer to the latest-sent of our calls that carried the headers. */
  remaining: number;
  /** On our clock: the server's Reset corrected by the difference between its clock and ours; 0: nothing known. */
  resetAt: number;
  /** How many of our calls counted against it had been sent when the call that gave the reading was (it included). */
  readAt: number;
  /** Our calls counted against it so far. */
  sent: number;
  /** Calls that running steps and sections hold and have not sent yet. */
  held: number;
  /** X-RateLimit-Limit of the reading. */
  limit: number;
}
const unknownCounter = (): Counter => ({ remaining: 0, resetAt: 0, readAt: 0, sent: 0, held: 0, limit: 0 });

// Never wait longer than the contract's longest period (and a little) for one reset.
export const LONGEST_WAIT_MS = 31 * MINUTE;
// The server's Date header has whole seconds: wait that much past the reset so the new period has begun.
const CLOCK_SLACK_MS = 1000;
const counters = new Map<string, Counter>();
/** The waits of this file's calls for a reset, as spans of time: calls that waited side by side waited once. */
let waited: WaitSpan[] = [];
/** Where this file's waits came: before a section or a step (its boundary), or between two calls of one step. */
let waitsAt: WaitPlaces = { sections: 0, steps: 0, calls: 0, insideSteps: [] };
/**
 * Whether the server counts calls outside /api (/oauth, /auth, files) in its access buckets too, as some do (a
 * popular Go server counts every path in one bucket of 300 per 5 minutes): it showed so by rate-limit headers on
 * such an answer, or the command learned it before the run (CONFORMANCE_BUDGET_AT_START). From then on those calls
 * are paced and counted against the access buckets as well.
 */
let countsEveryPath = false;
/** Whether the command split the run into windows of the bucket: each section then holds its worst case before it starts. */
let windowed = false;

/**
 * The IP access bucket is one counter of the server's for every group of the run, so its counter is one for every
 * worker thread too, in memory the run's configuration shares (prepareRun makes it): the reading (remaining, reset,
 * limit), whether the server counts every path (1) and the longest period a reading showed, as numbers; our calls
 * (readAt, sent, held) as integers changed atomically. A file that starts while another has spent the bucket then
 * paces from its first call, where its own counter would start from nothing and be refused. Where the workers are
 * processes (no memory shared), each file keeps its own counter, as before.
 */
const NUMBERS = { remaining: 0, resetAt: 1, limit: 2, everyPath: 3, period: 4 } as const;
const CALLS = { readAt: 0, sent: 1, held: 2, spare: 3, spareKnown: 4 } as const;
const CALLS_OFFSET = Object.keys(NUMBERS).length * Float64Array.BYTES_PER_ELEMENT;
/** The windows of a run split between sections that the shared memory follows; later ones, if any, start as sections hold. */
const MOST_WINDOWS = 16;
const WINDOWS_OFFSET = CALLS_OFFSET + 2 * Object.keys(CALLS).length * Int32Array.BYTES_PER_ELEMENT;
const SHARED_BYTES = WINDOWS_OFFSET + MOST_WINDOWS * (Float64Array.BYTES_PER_ELEMENT + 3 * Int32Array.BYTES_PER_ELEMENT);
const SHARED_KEY = 'IP access';
// Two readings whose resets are this close are of one period (whole seconds of the Date header, and our slack).
const SAME_PERIOD_MS = 2 * CLOCK_SLACK_MS;

/**
 * Where the run is split into windows, what every worker knows of each window: when it opens (0: not decided yet),
 * whether that is being decided (0 no, 1 deciding, 2 decided), how many of its sections have started, and how many
 * of them are running (started, their file's cleanup not ended).
 */
interface WindowsState {
  opensAt: Float64Array;
  deciding: Int32Array;
  started: Int32Array;
  running: Int32Array;
}
const windowsIn = (buffer: ArrayBufferLike, offset = 0): WindowsState => {
  const ints = offset + MOST_WINDOWS * Float64Array.BYTES_PER_ELEMENT;
  return {
    opensAt: new Float64Array(buffer, offset, MOST_WINDOWS),
    deciding: new Int32Array(buffer, ints, MOST_WINDOWS),
    started: new Int32Array(buffer, ints + MOST_WINDOWS * Int32Array.BYTES_PER_ELEMENT, MOST_WINDOWS),
    running: new Int32Array(buffer, ints + 2 * MOST_WINDOWS * Int32Array.BYTES_PER_ELEMENT, MOST_WINDOWS),
  };
};
/** Where no memory is shared (workers that are processes), each file knows its own sections only. */
const localWindows = (): WindowsState => windowsIn(new ArrayBuffer(SHARED_BYTES - WINDOWS_OFFSET));
let shared: { numbers: Float64Array; calls: Int32Array; windows: WindowsState } | undefined;
let ownWindows = localWindows();
const windowsState = (): WindowsState => shared?.windows ?? ownWindows;
/**
 * The longest period a reading of this file showed for each counter (Reset less the time of the answer), where none is
 * shared: a bucket's own, as a 30-minute bucket's reset says nothing of when a 5-minute bucket's next period ends.
 */
const periodsSeen = new Map<string, number>();

/** The memory of a run's shared counter of the IP access bucket (prepareRun). */
export const runReading = (): SharedArrayBuffer => new SharedArrayBuffer(SHARED_BYTES);

/** Points this worker's pacing at the run's shared counter (actors.ts, once the file knows its run). */
export function shareRunReading(buffer: unknown): void {
  if (!(buffer instanceof SharedArrayBuffer) || buffer.byteLength < SHARED_BYTES) return void (shared = undefined);
  if (shared?.numbers.buffer === buffer) return;
  const local = counters.get(SHARED_KEY);
  shared = { numbers: new Float64Array(buffer, 0, Object.keys(NUMBERS).length), calls: new Int32Array(buffer, CALLS_OFFSET, Object.keys(CALLS).length), windows: windowsIn(buffer, WINDOWS_OFFSET) };
  // A reading this file took before it knew its run (the command's, CONFORMANCE_BUDGET_AT_START) starts the shared one.
  if (local && shared.numbers[NUMBERS.resetAt] === 0) {
    const sent = counterOf(SHARED_KEY).sent;
    update(SHARED_KEY, () => ({ remaining: local.remaining, resetAt: local.resetAt, limit: local.limit, readAt: sent - (local.sent - local.readAt) }));
  }
  if (countsEveryPath) shared.numbers[NUMBERS.everyPath] = 1;
  if (seededSpare !== undefined) knowSpare(seededSpare);
}

/**
 * The calls the IP access bucket holds beyond the run's plan, where the command knew them (its reading): what a deviating
 * server adds to the plan is taken from them, each step's bound (mayAdd) held while they last, so that the plan's own
 * calls always find their room and a run within the plan never waits. One figure for the run, in its shared memory
 * (each file its own where none is shared); not known (undefined), each step holds its whole bound, as ever.
 */
let seededSpare: number | undefined;
let ownSpare: number | undefined;

/** Sets the run's spare, once for every worker. */
function knowSpare(calls: number): void {
  if (!shared) return void (ownSpare = calls);
  if (Atomics.compareExchange(shared.calls, CALLS.spareKnown, 0, 1) === 0) Atomics.store(shared.calls, CALLS.spare, calls);
}

const spareKnown = (): boolean => (shared ? Atomics.load(shared.calls, CALLS.spareKnown) === 1 : ownSpare !== undefined);

/** Takes up to `n` of the spare; returns how many it took. */
function takeSpare(n: number): number {
  if (!shared) {
    const taken = Math.max(0, Math.min(n, ownSpare ?? 0));
    if (ownSpare !== undefined) ownSpare -= taken;
    return taken;
  }
  for (;;) {
    const had = Atomics.load(shared.calls, CALLS.spare);
    const taken = Math.max(0, Math.min(n, had));
    if (taken === 0 || Atomics.compareExchange(shared.calls, CALLS.spare, had, had - taken) === had) return taken;
  }
}

function giveSpare(n: number): void {
  if (n <= 0) return;
  if (shared) Atomics.add(shared.calls, CALLS.spare, n);
  else if (ownSpare !== undefined) ownSpare += n;
}

const everyPathCounted = (): boolean => countsEveryPath || shared?.numbers[NUMBERS.everyPath] === 1;
const periodShown = (key: string): number => Math.max(periodsSeen.get(key) ?? 0, key === SHARED_KEY ? (shared?.numbers[NUMBERS.period] ?? 0) : 0);

function counterOf(key: string): Counter {
  if (key !== SHARED_KEY || !shared) return { ...(counters.get(key) ?? unknownCounter()) };
  const { numbers, calls } = shared;
  return {
    remaining: numbers[NUMBERS.remaining] as number,
    resetAt: numbers[NUMBERS.resetAt] as number,
    limit: numbers[NUMBERS.limit] as number,
    readAt: Atomics.load(calls, CALLS.readAt),
    sent: Atomics.load(calls, CALLS.sent),
    held: Atomics.load(calls, CALLS.held),
  };
}

/** Changes some fields of a counter (in shared memory, only those: another worker may write the others meanwhile). */
function update(key: string, change: (counter: Counter) => Partial<Counter>): void {
  const changed = change(counterOf(key));
  if (key !== SHARED_KEY || !shared) return void counters.set(key, { ...counterOf(key), ...changed });
  for (const [field, value] of Object.entries(changed) as [keyof Counter, number][]) {
    if (field in NUMBERS) shared.numbers[NUMBERS[field as keyof typeof NUMBERS]] = value;
    else Atomics.store(shared.calls, CALLS[field as keyof typeof CALLS], value);
  }
}

/** Adds `n` to our calls sent or held against a counter; returns the new count. */
function addTo(key: string, field: 'sent' | 'held', n: number): number {
  if (key === SHARED_KEY && shared) return Atomics.add(shared.calls, CALLS[field], n) + n;
  const counter = counters.get(key) ?? unknownCounter();
  counter[field] += n;
  counters.set(key, counter);
  return counter[field];
}

/** What is left of a counter for calls no one holds: undefined where no reading of this period is known. */
function leftOf(key: string): number | undefined {
  const c = counterOf(key);
  if (c.resetAt === 0 || c.resetAt <= clock.now()) return undefined;
  return c.remaining - (c.sent - c.readAt) - c.held;
}

const resetOf = (key: string): number => counterOf(key).resetAt;

/**
 * A reading of the headers, of the answer to our call that was the `seq`-th counted against the counter: it replaces
 * what is known where it is as late (the answer of a call sent after the one that gave the known reading), or of a
 * later period; an answer that arrives after a later one (sent before it) says less, and is passed over.
 */
function noteReading(key: string, reading: { remaining: number; resetAt: number; limit: number }, seq: number): void {
  const known = counterOf(key);
  const laterPeriod = known.resetAt === 0 || known.resetAt <= clock.now() || reading.resetAt > known.resetAt + SAME_PERIOD_MS;
  if (!laterPeriod && (reading.resetAt < known.resetAt - SAME_PERIOD_MS || seq < known.readAt)) return;
  update(key, () => ({ remaining: reading.remaining, resetAt: laterPeriod ? reading.resetAt : known.resetAt, readAt: seq, limit: reading.limit }));
}

/** After a wait for its reset: the period waited out is over, and the next one, until a reading, is taken as whole. */
function periodEnded(key: string): void {
  const known = counterOf(key);
  if (known.resetAt > clock.now()) return;
  // Another worker may have read the new period meanwhile (then resetAt is later, and kept above).
  const period = periodShown(key);
  update(key, () => (known.limit > 0 && period > 0 ? { remaining: known.limit, readAt: known.sent, resetAt: known.resetAt + period } : { resetAt: 0 }));
}

perFile(() => {
  // A section the file before did not end (its cleanup threw) gives back what it held of the run's shared counter.
  endSection();
  ownWindows = localWindows();
  plannedWindows = [];
  counters.clear();
  waited = [];
  waitsAt = { sections: 0, steps: 0, calls: 0, insideSteps: [] };
  countsEveryPath = false;
  windowed = false;
  periodsSeen.clear();
  section = undefined;
  seededSpare = undefined;
  ownSpare = undefined;
  seedFromStart();
});

/**
 * About how many calls of a full run a server counts in its IP access bucket (suites/self/budget.test.ts holds a run
 * there, within 300): what the budget at the start is measured against where the run's plan cannot say (run/run-plan.ts).
 */
export const RUN_ACCESS_CALLS = 285;

/** The IP access bucket as the command read it before the run (CONFORMANCE_BUDGET_AT_START): remaining, and its reset on our clock. */
interface Reading {
  remaining: number;
  limit: number;
  resetAt: number;
  /** The server counts every path (it sent rate-limit headers on HEAD /): the sections plan their /oauth, /auth and file calls too. */
  everyPath?: boolean;
  /** The run is split into windows of the bucket: each section holds its worst case before its first call. */
  windowed?: boolean;
  /** The windows the start line named, in order: the sections of each start only once those of the windows before ended. */
  windows?: PlannedWindow[];
  /** Where the run is not split: the calls the bucket holds beyond the run's plan (seededSpare). */
  spare?: number;
}

/** A window of the bucket as the command planned it: its sections (by heading), and their worst case in all. */
export interface PlannedWindow {
  sections: string[];
  worst: number;
}

/** A section of the run's plan, in the order sections start: its calls when all goes well, and what a deviating server may add. */
export interface SectionPlan {
  name: string;
  cost: FlowCost;
  mayAdd: number;
}

/** What the command is about to run (run-command.ts). */
export interface StartPlan {
  /** The whole suite: where the budget left cannot carry it, it waits for a reset that comes soon enough before it starts. */
  wholeRun: boolean;
  /** The settle window (CONFORMANCE_SETTLE_MS): groups wait for it to confirm undos, each wait over 2 s a line of its own. */
  settleMs: number;
  /** The IP access calls of the run's plan (run/run-plan.ts), where every group it runs is planned. */
  runCalls?: number;
  /** The run's sections (run/run-plan.ts), where every group it runs is planned: the run is split into windows between them. */
  sections?: readonly SectionPlan[];
  /** The server counts every path in its access buckets (rate-limit headers on the preflight's HEAD /). */
  everyPath?: boolean;
  /**
   * The command's own /api calls before the reading, the reading's own included: where the server counted more in its
   * period, it counts other paths too (the preflight's HEAD /) or calls before ours, and the run plans every path.
   */
  ownApiCalls?: number;
  /**
   * The rate-limit headers (and Date) of the command's /api calls answered before it sent HEAD / (the preflight's token
   * reads): where one is of the reading's counter and period, the calls the server counted between it and the reading
   * tell whether it counted HEAD /; where each is of an earlier period, a period began around HEAD /, and the count
   * cannot tell.
   */
  readingsBeforeHead?: readonly Record<string, string>[];
}

/** The calls of a cost a server counts in its IP access bucket: /api and streams, and where it counts every path the rest too. */
export const countedCalls = (cost: FlowCost, everyPath: boolean): number => (cost.api ?? 0) + (cost.streams ?? 0) + (everyPath ? (cost.oauth ?? 0) + (cost.files ?? 0) : 0);

/** The windows of the bucket a run's sections need, in order: the first is what is left now (it may take none). */
export function windowsOf(sections: readonly SectionPlan[], everyPath: boolean, usableNow: number, perWindow: number): SectionPlan[][] {
  const windows: SectionPlan[][] = [[]];
  let left = usableNow;
  for (const s of sections) {
    const worst = countedCalls(s.cost, everyPath) + s.mayAdd;
    // A section that does not fit what is left of the window starts the next one (one larger than a window, alone).
    if (worst > left) {
      windows.push([s]);
      left = perWindow - worst;
    } else {
      (windows[windows.length - 1] as SectionPlan[]).push(s);
      left -= worst;
    }
  }
  return windows;
}

/**
 * The fewest windows of `perWindow` calls that hold steps each whole, by their worst case (each step in the first window
 * with room for it, the largest first): where the steps run side by side, each starting once the bucket holds it, a run
 * needs no fewer.
 */
export function fewestWindows(worsts: readonly number[], perWindow: number): number {
  const left: number[] = [];
  for (const worst of [...worsts].sort((x, y) => y - x)) {
    const i = left.findIndex((room) => room >= worst);
    if (i >= 0) left[i] = (left[i] as number) - worst;
    else left.push(perWindow - worst);
  }
  return Math.max(1, left.length);
}

/** Whether the server counts paths outside /api, as the count of the budget's read shows it, and how that is known, for the start line. */
interface OtherPaths {
  everyPath: boolean;
  howKnown: string;
}

const WORST_CASE = 'so the run plans with /oauth, /auth and files counted';

/**
 * Where the headers of HEAD / did not say, the count may. The preflight sent HEAD / alone between its token reads and
 * this read: where a token read's reading is of this one's counter and period (its Limit, its Reset, more left), the
 * calls counted after it are this read and, where the server counts other paths, HEAD /; more than this read alone,
 * the run plans every path (the worst case: another client's calls came between). Where every token read's reading is
 * of an earlier period, a period began around HEAD /, and a count from then on cannot tell whether HEAD / was in it:
 * the worst case too. Without such readings, the count against the command's own /api calls: more, and the run cannot
 * tell our HEAD / from calls before ours; fewer, and a period began among them (a second run soon after a first met
 * that on a loaded machine, planned /api alone on a server counting every path, and waited inside its steps:
 * suites/self/windows.test.ts); the worst case in both.
 */
function otherPathsCounted(reading: { limit: number; remaining: number; reset: number }, plan: StartPlan): OtherPaths {
  const before = (plan.readingsBeforeHead ?? []).flatMap((headers) => {
    const [limit, remaining, reset] = [countOf(headers['x-ratelimit-limit']), countOf(headers['x-ratelimit-remaining']), resetTimeOf(headers['x-ratelimit-reset'])];
    return limit === reading.limit && remaining !== undefined && reset !== undefined ? [{ remaining, reset }] : [];
  });
  // Resets on the server's clock, each as its answer named it.
  const ofThisPeriod = before.filter((r) => Math.abs(r.reset - reading.reset) <= SAME_PERIOD_MS && r.remaining > reading.remaining);
  if (ofThisPeriod.length > 0) {
    const between = Math.min(...ofThisPeriod.map((r) => r.remaining)) - reading.remaining - 1;
    if (between === 0) return { everyPath: false, howKnown: '' };
    const calls = `${between} call${between === 1 ? '' : 's'}`;
    return { everyPath: true, howKnown: `; it counted ${calls} besides this read since the command's token reads, when the command sent HEAD / alone: it counts other paths too, or others' calls came between, ${WORST_CASE}` };
  }
  if (before.length > 0 && before.every((r) => r.reset < reading.reset - SAME_PERIOD_MS)) {
    return { everyPath: true, howKnown: `; its period began after the command's token reads, around its HEAD /: the count cannot tell whether it counts other paths, ${WORST_CASE}` };
  }
  const counted = reading.limit - reading.remaining;
  if (plan.ownApiCalls === undefined || counted === plan.ownApiCalls) return { everyPath: false, howKnown: '' };
  return counted > plan.ownApiCalls
    ? { everyPath: true, howKnown: `; it counted ${counted} calls, more than the command's ${plan.ownApiCalls} on /api: it counts other paths too, or calls before ours, ${WORST_CASE}` }
    : { everyPath: true, howKnown: `; it counted ${counted} calls, fewer than the command's ${plan.ownApiCalls} on /api: its period began among them, so the count cannot tell whether it counts other paths, ${WORST_CASE}` };
}

/**
 * What the headers of the command's first call (GET /api/v1/instance) say of the budget: the reading for every file to
 * start from, and where the run cannot fit in what is left, a line that says so and names every wait it foresees.
 */
export function budgetAtStart(headers: Record<string, string>, plan: StartPlan): { reading: Reading; warning?: string; waitBeforeStart?: boolean; foreseenWaits?: number } | undefined {
  const limit = countOf(headers['x-ratelimit-limit']);
  const remaining = countOf(headers['x-ratelimit-remaining']);
  const reset = resetTimeOf(headers['x-ratelimit-reset']);
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  const serverNow = Date.parse(headers.date ?? '');
  const resetAt = Date.now() + reset - (Number.isNaN(serverNow) ? Date.now() : serverNow) + CLOCK_SLACK_MS;
  const { everyPath, howKnown } = plan.everyPath
    ? { everyPath: true, howKnown: '; it counts every path, /oauth, /auth and files too, as the headers of HEAD / showed' }
    : plan.sections === undefined
      ? { everyPath: false, howKnown: '' }
      : otherPathsCounted({ limit, remaining, reset }, plan);
  const reserve = reserveOf('IP access');
  const usableNow = Math.max(0, remaining - reserve);
  const perPeriod = Math.max(1, limit - reserve);
  const untilReset = `${duration(Math.max(0, resetAt - Date.now()))} from now`;
  const reading: Reading = { remaining, limit, resetAt, ...(everyPath ? { everyPath } : {}) };
  const said = `Rate limit: the server reports ${remaining} of ${limit} requests left until ${clockTime(resetAt)} UTC (X-RateLimit headers of GET /api/v1/instance${howKnown}); `;
  const narrow = `where a run in the last ${LIMITS.Deletion.periodMs / MINUTE} minutes spent them, for the reset of the Deletion and Uploading buckets (${LIMITS.Deletion.limit} per ${LIMITS.Deletion.periodMs / MINUTE} minutes each)`;
  const settle = plan.settleMs > ANNOUNCED_WAIT_MS ? [`for the settle window (${plan.settleMs} ms) where a group confirms its undos held`] : [];
  if (plan.sections) {
    const planned = plan.sections.reduce((sum, s) => sum + countedCalls(s.cost, everyPath), 0);
    const worst = plan.sections.reduce((sum, s) => sum + countedCalls(s.cost, everyPath) + s.mayAdd, 0);
    // What a deviating server adds to the plan is taken from what is left beyond it: the plan's calls keep their room.
    const spare = usableNow - planned;
    if (worst <= usableNow) return { reading: { ...reading, spare } };
    const perStep = `each step starts only when the bucket holds its calls and what a deviating server may add to them (every step's bound: at most ${worst} calls in all)`;
    // The plan fits what is left: a contract-faithful server never waits. Only a deviating one may, once it added more
    // than the spare: at most as many resets as its whole bound needs, which the run counts as foreseen.
    if (planned <= usableNow) {
      const mayWait = Math.ceil((worst - usableNow) / perPeriod);
      const waits = mayWait === 1 ? `a wait for the reset (${untilReset})` : `up to ${mayWait} waits, the first for the reset (${untilReset})`;
      const warning =
        said +
        `this run's plan makes ${planned} calls it counts, within what is left (${reserve} kept in hand); each step starts only when the bucket holds its calls, and what a deviating server may add to them (at most ${worst - planned} in all) is taken from the ${spare} calls the plan leaves while they last, so a server that adds more may need ${waits} before one of its calls, and the run says so if it does.`;
      return { reading: { ...reading, spare }, warning, foreseenWaits: mayWait };
    }
    const now = windowsOf(plan.sections, everyPath, usableNow, perPeriod);
    // A whole run that would start in what is left and wait no less than from a fresh period waits for the reset
    // first: every section then starts as in a run before it (the Limits group's checks need headroom in the buckets).
    const fresh = windowsOf(plan.sections, everyPath, perPeriod, perPeriod);
    const waitBeforeStart = plan.wholeRun && resetAt - Date.now() <= LONGEST_WAIT_MS && fresh.length <= now.length - 1;
    const windows = waitBeforeStart ? [[], ...fresh] : now;
    const period = duration(LIMITS['IP access'].periodMs);
    const names = (w: SectionPlan[]) => w.map((s) => s.name).join(', ');
    const waits = windows.flatMap((w, i) =>
      i === 0 ? [] : [`${i === 1 ? `for the reset (${untilReset})` : `for the next reset (up to ${period}: a period, less the time the sections before took in it)`} before ${i === 1 && waitBeforeStart ? 'it starts, ' : ''}${names(w)}`],
    );
    const first = windows[0]?.length ? `its sections run in ${windows.length} windows of the bucket (now: ${names(windows[0])}; ` : `its sections run in ${windows.length - 1} windows of the bucket (`;
    const warning =
      said +
      `this run's plan makes ${planned} calls it counts, and ${perStep}: ${first}${perPeriod} calls each, ${reserve} of ${limit} kept in hand), so the run waits only between sections: ${waits.join(', then ')}; ` +
      `a server that adds fewer calls than the bounds may need fewer of these waits, one that adds more than a step's bound may wait inside that step; it also waits ${[narrow, ...settle].join(', ')}, and says so each time it does; it may wait more where other clients spend the same budget.`;
    const planWindows: PlannedWindow[] = windows.map((w) => ({ sections: w.map((s) => s.name), worst: w.reduce((sum, s) => sum + countedCalls(s.cost, everyPath) + s.mayAdd, 0) }));
    return { reading: { ...reading, windowed: true, windows: planWindows }, warning, waitBeforeStart, foreseenWaits: waits.length };
  }
  // What is left against what a run spends, less the reserve pacing keeps in hand: a fresh period (the version hint's
  // own call aside) fits a run.
  const runCalls = plan.runCalls ?? RUN_ACCESS_CALLS;
  if (usableNow >= runCalls) return { reading };
  const waitBeforeStart = plan.wholeRun && resetAt - Date.now() <= LONGEST_WAIT_MS;
  // Each period after the first reset carries the limit less the reserve: what is left of the run then waits again.
  const further = Math.max(0, Math.ceil((runCalls - (waitBeforeStart ? 0 : usableNow) - perPeriod) / perPeriod));
  const waits = [
    waitBeforeStart ? `for the reset (${untilReset}) before it starts` : `for the reset (${untilReset}) once the ${remaining} calls left are spent (${reserve} of them kept in hand)`,
    ...(further > 0 ? [`then ${further === 1 ? 'once more' : `${further} more times`}, each time the next period's ${perPeriod} calls are spent`] : []),
    // A short access bucket is most often a run's before this one, which spent the narrow buckets too; no header shows them before a call of theirs.
    narrow,
    ...settle,
  ];
  const warning =
    said +
    `${plan.runCalls === undefined ? `a full run makes about ${RUN_ACCESS_CALLS}` : `this run's plan makes ${runCalls}`} calls it counts, so the run waits ${waits.join(', ')}, and says so each time it does; it may wait more where other clients spend the same budget.`;
  return { reading, warning, waitBeforeStart, foreseenWaits: 1 + further };
}

/** A reading that says nothing but the calls beyond the plan (CONFORMANCE_BUDGET_AT_START), where no budget was read. */
export const spareAlone = (spare: number): string => JSON.stringify({ remaining: LIMITS['IP access'].limit, limit: LIMITS['IP access'].limit, resetAt: 0, spare } satisfies Reading);

/** Starts the file's counter of the IP access bucket from the command's reading, while that period lasts. */
function seedFromStart(): void {
  const text = process.env.CONFORMANCE_BUDGET_AT_START;
  if (!text) return;
  const reading = JSON.parse(text) as Reading;
  if (reading.everyPath) countsEveryPath = true;
  if (reading.windowed) windowed = true;
  plannedWindows = reading.windows ?? [];
  if (reading.spare !== undefined) knowSpare((seededSpare = reading.spare));
  // The shared counter, once another file has read the bucket, knows more than the command's reading before the run.
  if (reading.resetAt > clock.now() && resetOf(SHARED_KEY) === 0) update(SHARED_KEY, (c) => ({ remaining: reading.remaining, resetAt: reading.resetAt, limit: reading.limit, readAt: c.sent }));
}

/** A wait longer than this prints one progress line: a run that waits says for what, how long, and until when. */
export const ANNOUNCED_WAIT_MS = 2000;

/** Where progress lines go: the terminal (a worker's stderr reaches it), or our own tests' collector. */
let announcer: (line: string) => void = (line) => void process.stderr.write(`${line}\n`);

export function useAnnouncer(next: ((line: string) => void) | undefined): void {
  announcer = next ?? ((line) => void process.stderr.write(`${line}\n`));
}

const clockTime = (at: number) => new Date(at).toISOString().slice(11, 19);
const duration = (ms: number) => {
  const seconds = Math.ceil(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
};

/** Says that the run waits `ms` for `what`, when that is long enough for a person to wonder: one line, before the wait. */
export function announceWait(ms: number, what: string): void {
  if (ms <= ANNOUNCED_WAIT_MS) return;
  announcer(`… waiting ${duration(ms)}, until ${clockTime(Date.now() + ms)} UTC, ${what}`);
}

/** The buckets pacing holds a call to: the contract's, and the access buckets for any path where the server counts every path. */
function pacedBucketsOf(method: string, path: string): Bucket[] {
  const buckets = bucketsOf(method, path);
  return buckets.length === 0 && everyPathCounted() ? ['Account access', 'IP access'] : buckets;
}


/**
 * Calls kept in hand: other workers of the run spend the same buckets between our look at the headers and our
 * next call, so pacing waits once Remaining is down to this. A run's budget is the limit less the reserve
 * (suites/self/budget.test.ts). The access buckets keep 5%; the narrow ones (30 or 5 per 30 minutes) keep
 * none: a run within its budget cannot be refused there, and a reserve would cut that budget below the limit.
 */
export function reserveOf(bucket: Bucket): number {
  const { limit } = LIMITS[bucket];
  return limit >= 100 ? Math.ceil(limit / 20) : 0;
}

const exhausting = new AsyncLocalStorage<true>();

/** Runs a check that sets out to exhaust a bucket: its calls are neither paced nor counted as refusals. */
export function unpaced<T>(check: () => Promise<T>): Promise<T> {
  return exhausting.run(true, check);
}

export function isUnpaced(): boolean {
  return exhausting.getStore() === true;
}

/**
 * Calls a step or a section holds in hand, of each counter it holds (the IP access bucket, and the access bucket of
 * each account the step acts as): its own calls spend them, without a wait for the access buckets, until none is left.
 */
interface Hold {
  what: string;
  left: Map<string, number>;
  /** Of what it holds, the calls taken from the run's spare (a step's bound): given back to it where not spent. */
  fromSpare: number;
}
const flows = new AsyncLocalStorage<Hold>();
/** The hold of the section this file runs, where the run is split into windows: every call of the file spends it. */
let section: Hold | undefined;
/**
 * What this file's steps held of their planned calls and did not spend, where the run's spare is known: their plan
 * holds the undo of what they made and its read, which the cleanup sends after them, outside any step. Kept for it
 * until the file ends: the cleanup's calls then find their room, and a call beyond it is one a deviating server added.
 */
let filePool: Hold | undefined;
/** The windows the command planned (CONFORMANCE_BUDGET_AT_START), and the one of the section this file runs. */
let plannedWindows: readonly PlannedWindow[] = [];
let sectionWindow: number | undefined;

/** Where a file's waits for a reset came: before a section or a step (at its boundary), before a call outside any step, or inside a step. */
export interface WaitPlaces {
  sections: number;
  steps: number;
  calls: number;
  /** A wait between two calls of one step: what the step was, and the call that waited. */
  insideSteps: string[];
}

/** What a flow costs by path: a step's declared cost (counts.ts PathCost, which cannot be imported here: counts.ts imports pacing). */
export type FlowCost = Partial<Record<'api' | 'oauth' | 'files' | 'streams', number>>;

/** Records a wait from `from` to `to` at `place`. */
function recordWait(from: number, to: number, place: 'sections' | 'steps' | 'calls', what: string): void {
  waited.push([from, to]);
  const flow = flows.getStore();
  if (place === 'calls' && flow) waitsAt.insideSteps.push(`${what}, inside ${flow.what}`);
  else waitsAt[place] += 1;
}

/** Records a wait of `ms` from now at `place`, says so, and waits. */
async function waitFor(ms: number, place: 'sections' | 'steps' | 'calls', what: string): Promise<void> {
  recordWait(clock.now(), clock.now() + ms, place, what);
  announceWait(ms, what);
  await clock.sleep(ms);
}

/**
 * What a wait's line says is left of a counter: none, where our calls sent and held since the server's last reading
 * outnumber what it said was left (the calls a section or step holds ahead count as spent).
 */
const leftLine = (key: string): string => `${key}: ${Math.max(0, leftOf(key) ?? 0)} left`;

/**
 * Holds `needed` calls of a counter where what is left of it covers them and `spent` beside what others hold; false
 * where it does not. Of the run's shared counter, atomically: two workers that look at once never both take the last room.
 */
function tryToHold(key: string, needed: number, spent: number): boolean {
  for (;;) {
    const c = counterOf(key);
    const known = c.resetAt !== 0 && c.resetAt > clock.now();
    if (known && c.remaining - (c.sent - c.readAt) - c.held < needed + spent) return false;
    if (key !== SHARED_KEY || !shared) return addTo(key, 'held', needed), true;
    if (Atomics.compareExchange(shared.calls, CALLS.held, c.held, c.held + needed) === c.held) return true;
  }
}

/** Holds `needed` of every counter, or none of them where one cannot carry it. */
function tryToHoldAll(keys: readonly string[], needed: number, spent: number): boolean {
  const taken: string[] = [];
  for (const key of keys) {
    if (!tryToHold(key, needed, spent)) {
      for (const done of taken) addTo(done, 'held', -needed);
      return false;
    }
    taken.push(key);
  }
  return true;
}

/**
 * Waits, where the IP access bucket (and the access bucket of each of `actors`) cannot carry `needed` calls and `mayAdd`
 * beside what others hold, for the reset, looks again (others may have taken the new period meanwhile), then holds
 * them: a section or a step that starts only when the budget covers all of it never waits between its calls. Where
 * the run's spare is known, `mayAdd` is held only as far as the spare holds it. `spent` calls (stream connections,
 * never paced call by call) are counted at once.
 */
async function hold(what: string, actors: readonly string[], planned: number, mayAdd: number, spent: number, place: 'sections' | 'steps'): Promise<Hold> {
  const keys = [SHARED_KEY, ...actors.flatMap((actor) => keysOf(actor, ['Account access']))];
  const fromSpare = spareKnown() ? takeSpare(mayAdd) : 0;
  const needed = planned + (spareKnown() ? fromSpare : mayAdd);
  for (;;) {
    const short = keys.filter((key) => (leftOf(key) ?? Infinity) < needed + spent);
    if (short.length === 0) {
      if (tryToHoldAll(keys, needed, spent)) break;
      // Another worker took the room meanwhile: look again.
      continue;
    }
    const wait = Math.max(0, ...short.map((key) => resetOf(key) - clock.now()));
    // Where no reset is known to wait for, or the bucket could never carry it all, it starts as it is.
    if (wait <= 0 || wait > LONGEST_WAIT_MS || needed + spent > LIMITS['IP access'].limit) {
      for (const key of keys) addTo(key, 'held', needed);
      break;
    }
    const left = short.map(leftLine).join(', ');
    await waitFor(wait, place, `for the reset of the server's rate limit (${left}) before ${what}, which may make ${needed + spent} calls: it starts only when the budget covers all of them`);
    for (const key of short) periodEnded(key);
  }
  addTo(SHARED_KEY, 'sent', spent);
  return { what, left: new Map(keys.map((key) => [key, needed])), fromSpare };
}

/** Spends one call a hold holds of a counter, where it holds any. */
function spendHeld(held: Hold, key: string): void {
  const left = held.left.get(key) ?? 0;
  if (left <= 0) return;
  held.left.set(key, left - 1);
  addTo(key, 'held', -1);
}

/** Gives back what a hold did not spend. */
function release(held: Hold): void {
  for (const [key, left] of held.left) addTo(key, 'held', -left);
  held.left.clear();
}

/**
 * Where the run's spare is known, a step that ends gives back to it what it took and did not spend (its planned calls
 * are spent first), and keeps the rest of its planned calls of the IP access bucket held for the file's cleanup
 * (filePool); elsewhere it gives back all it did not spend. An account's counter gets back all the step did not spend:
 * a step of two accounts holds its whole plan on each (which of them sends a call is the server's answers' to decide),
 * so keeping that would hold on B's counter the calls A made (a run's sequences, --explore 200: B's bucket held empty,
 * a five-minute wait), and the cleanup's calls are paced on each account's bucket as every call is.
 */
function endStep(held: Hold): void {
  if (!spareKnown()) return release(held);
  filePool ??= { what: "the cleanup's calls its steps planned", left: new Map(), fromSpare: 0 };
  for (const [key, left] of held.left) {
    if (key !== SHARED_KEY) {
      addTo(key, 'held', -left);
      continue;
    }
    const back = Math.min(held.fromSpare, left);
    addTo(key, 'held', -back);
    giveSpare(back);
    filePool.left.set(key, (filePool.left.get(key) ?? 0) + left - back);
  }
  held.left.clear();
}

/**
 * Runs a step of the plan (a web sign-in, an upload and its processing reads, a move and its read) only once the IP
 * access bucket covers its worst case: its planned calls and `mayAdd`, the calls a deviating server can add to them
 * (re-reads, controls, retries, a web sign-in's pages). Where the budget cannot carry them, it waits for the reset
 * before the step's first call, never between two of its calls (a code or a sign-in's session may not outlive a wait).
 * Those calls are held at once; the step's own calls then spend them without a wait, and what it did not spend is
 * given back when it ends. Within a section that holds its own worst case (a run split into windows), the step holds nothing more.
 */
export async function withinFlow<T>(what: string, actors: readonly string[], cost: FlowCost, mayAdd: number, run: () => Promise<T>): Promise<T> {
  if (isUnpaced() || flows.getStore()) return run();
  if (section) return flows.run({ what, left: new Map(), fromSpare: 0 }, run);
  const calls = countedCalls({ ...cost, streams: 0 }, everyPathCounted());
  const held = await hold(what, actors, calls, mayAdd, cost.streams ?? 0, 'steps');
  try {
    return await flows.run(held, run);
  } finally {
    endStep(held);
  }
}

/** How often a section that waits for the sections of the windows before looks whether they ended. */
const WINDOW_POLL_MS = 200;
/**
 * How long a section waits for a section of a window before that has not started (the files start in the windows'
 * order, so it is loading): one that never starts (its file failed to load) must not hold the run.
 */
export const UNSTARTED_SECTION_MS = 120_000;

/** The window a section is in, where the command planned it in one the shared memory follows. */
function windowOf(heading: string): number | undefined {
  const k = plannedWindows.findIndex((w) => w.sections.includes(heading));
  return k >= 0 && k < MOST_WINDOWS ? k : undefined;
}

/**
 * When window `k` opens, decided once for every worker by its first section to look, once the windows before ended:
 * now where what is left of the bucket holds the window's worst case, else at the reset.
 */
async function openingOf(k: number): Promise<number> {
  const state = windowsState();
  for (;;) {
    if (Atomics.compareExchange(state.deciding, k, 0, 1) === 0) {
      const room = leftOf(SHARED_KEY) ?? Infinity;
      state.opensAt[k] = room >= (plannedWindows[k]?.worst ?? 0) ? clock.now() : resetOf(SHARED_KEY);
      Atomics.store(state.deciding, k, 2);
    }
    if (Atomics.load(state.deciding, k) === 2) return state.opensAt[k] as number;
    await clock.sleep(1);
  }
}

/**
 * A section of window `k` starts only once every section of the windows before it has ended (its cleanup included),
 * and then at the window's opening: sections still running at a reset would spend the next window's calls, and the
 * run would need more windows than the start line named. One wait, however long each part of it.
 */
async function windowOpens(k: number, what: string): Promise<void> {
  const state = windowsState();
  Atomics.add(state.started, k, 1);
  Atomics.add(state.running, k, 1);
  sectionWindow = k;
  const from = clock.now();
  const before = plannedWindows.slice(0, k);
  const pending = () => before.some((w, j) => Atomics.load(state.running, j) > 0 || (Atomics.load(state.started, j) < w.sections.length && clock.now() - from < UNSTARTED_SECTION_MS));
  const afterOthers = pending();
  if (afterOthers) announcer(`… waiting for the sections of the window before (${before.flatMap((w) => w.sections).join(', ')}) to end before ${what}: a window starts only once the one before ended`);
  while (pending()) await clock.sleep(WINDOW_POLL_MS);
  const opensAt = await openingOf(k);
  const wait = opensAt - clock.now();
  const forReset = wait > 0 && wait <= LONGEST_WAIT_MS;
  if (forReset) {
    announceWait(wait, `for the reset of the server's rate limit (${leftLine(SHARED_KEY)}) before ${what}, the first of its window to start, which may make ${plannedWindows[k]?.worst} calls in all`);
    await clock.sleep(wait);
    periodEnded(SHARED_KEY);
  }
  // One wait, from the section's start to its window's opening (not the moment another worker took to decide it).
  if (afterOthers || forReset) recordWait(from, clock.now(), 'sections', what);
}

/**
 * Where the command split the run into windows of the bucket (CONFORMANCE_BUDGET_AT_START): the section starts only once
 * the sections of the windows before ended and the bucket holds its worst case, its planned calls and what a deviating
 * server may add, and every call of its file, its cleanup's included, spends that hold: the run waits between sections
 * only. Elsewhere its steps hold their own.
 */
export async function startSection(heading: string, cost: FlowCost, mayAdd: number): Promise<void> {
  if (!windowed || isUnpaced()) return;
  const k = windowOf(heading);
  // A second section of one file runs in its file's hold; it has started all the same.
  if (section) return void (k !== undefined && Atomics.add(windowsState().started, k, 1));
  const what = `the section "${heading}"`;
  if (k !== undefined) await windowOpens(k, what);
  section = await hold(what, [], countedCalls({ ...cost, streams: 0 }, everyPathCounted()) + mayAdd, 0, cost.streams ?? 0, 'sections');
}

/** A planned section that will not run (the run stopped before it): the windows after it need not wait for it. */
export function sectionNotRun(heading: string): void {
  const k = windowed ? windowOf(heading) : undefined;
  if (k !== undefined) Atomics.add(windowsState().started, k, 1);
}

/** The section's file ended, its cleanup too (setup.ts): what its hold did not spend is given back, and its window knows. */
export function endSection(): void {
  if (section) release(section);
  section = undefined;
  if (filePool) release(filePool);
  filePool = undefined;
  if (sectionWindow !== undefined) Atomics.sub(windowsState().running, sectionWindow, 1);
  sectionWindow = undefined;
}

/** Which of this file's calls (by counter) a response answers: what its reading knew of our calls. */
export type Ticket = Readonly<Record<string, number>>;

/** Waits for the reset when a bucket this call spends is nearly spent, then counts the call against it (`actor` undefined: a call without a token). */
export async function paceBefore(actor: string | undefined, method: string, path: string): Promise<Ticket> {
  if (isUnpaced()) return {};
  const buckets = countingBuckets(actor, pacedBucketsOf(method, path));
  // A call of a step or section spends the IP access calls it holds, while it holds any, and waits for neither access
  // bucket (it started only once both covered it): no wait inside a step. The narrow buckets pace it as ever.
  const holder = buckets.includes('IP access') ? [flows.getStore(), section, filePool].find((h) => (h?.left.get(SHARED_KEY) ?? 0) > 0) : undefined;
  if (holder) for (const key of [SHARED_KEY, ...keysOf(actor, ['Account access'])]) spendHeld(holder, key);
  // A call beyond what is held, where the run's spare is known, is one a deviating server added: taken from the spare
  // while it lasts, its room is known, and the reserve kept in hand against the run's own calls is not for it (it waits
  // only where the server's count leaves nothing: another client spent the room).
  const beyondPlan = !holder && buckets.includes('IP access') && spareKnown() && takeSpare(1) === 1;
  const keys = keysOf(actor, buckets);
  const spent = keys.filter((key, i) => {
    const bucket = buckets[i] as Bucket;
    const access = bucket === 'IP access' || bucket === 'Account access';
    // The file's pool holds IP access calls alone (endStep): a cleanup call is paced on its account's bucket.
    if (holder && access && (bucket === 'IP access' || holder !== filePool)) return false;
    const left = leftOf(key);
    return left !== undefined && left <= (beyondPlan && access ? 0 : reserveOf(bucket));
  });
  const wait = Math.max(0, ...spent.map((key) => resetOf(key) - clock.now()));
  if (wait > 0 && wait <= LONGEST_WAIT_MS) {
    const left = spent.map(leftLine).join(', ');
    await waitFor(wait, 'calls', `for the reset of the server's rate limit (${left}) before ${method} ${path.split('?')[0]} (${actor === undefined ? 'without a token' : `as ${actor}`})`);
    for (const key of spent) periodEnded(key);
  }
  return Object.fromEntries(keys.map((key) => [key, addTo(key, 'sent', 1)]));
}

/** Waits as long as a 429 named before the call is sent once more: a wait of the run's pacing, where it came said. */
export async function waitForRefusal(ms: number, what: string): Promise<void> {
  await waitFor(ms, 'calls', what);
}

/**
 * Notes what the headers of a response say: what is left is what the server says (`ticket`: which of our calls it
 * answers). They report the bucket closest to exhaustion: it is the one of this call's buckets whose contract limit
 * is the reported Limit (both access buckets when it is 300), or, when none matches, every one of them, since each
 * has at least the reported Remaining left.
 */
export function paceAfter(actor: string | undefined, method: string, path: string, headers: Record<string, string>, ticket: Ticket = {}): void {
  const limit = countOf(headers['x-ratelimit-limit']);
  const remaining = countOf(headers['x-ratelimit-remaining']);
  const reset = resetTimeOf(headers['x-ratelimit-reset']);
  if (limit === undefined || remaining === undefined || reset === undefined) return;
  const serverNow = Date.parse(headers.date ?? '');
  const resetAt = clock.now() + reset - (Number.isNaN(serverNow) ? clock.now() : serverNow) + CLOCK_SLACK_MS;
  // Headers on a call outside /api: the server counts such calls too, in a bucket of the limit they report.
  if (bucketsOf(method, path).length === 0) {
    countsEveryPath = true;
    if (shared) shared.numbers[NUMBERS.everyPath] = 1;
  }
  const buckets = countingBuckets(actor, pacedBucketsOf(method, path));
  const keys = keysOf(actor, buckets);
  const matching = keys.filter((_, i) => LIMITS[buckets[i] as Bucket].limit === limit);
  for (const key of matching.length ? matching : keys) {
    // Its period, as long as the longest time to a reset an answer named for it: after a wait, the next reset comes that much later.
    periodsSeen.set(key, Math.max(periodsSeen.get(key) ?? 0, resetAt - clock.now()));
    if (shared && key === SHARED_KEY) shared.numbers[NUMBERS.period] = Math.max(shared.numbers[NUMBERS.period] ?? 0, periodsSeen.get(key) ?? 0);
    noteReading(key, { remaining, resetAt, limit }, ticket[key] ?? counterOf(key).sent);
  }
}

/**
 * How long to wait before sending again a call the server refused with 429: until the reset its X-RateLimit-Reset
 * names (on our clock, as paceAfter reads it), else as long as its Retry-After says; undefined where it names neither
 * or more than the longest period of the contract.
 */
export function refusalWaitMs(headers: Record<string, string>): number | undefined {
  const reset = resetTimeOf(headers['x-ratelimit-reset']);
  const serverNow = Date.parse(headers.date ?? '');
  const retryAfter = headers['retry-after']?.trim() ?? '';
  const untilReset = reset === undefined ? undefined : reset - (Number.isNaN(serverNow) ? clock.now() : serverNow) + CLOCK_SLACK_MS;
  const retryMs = /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : HTTP_DATE.test(retryAfter) ? Date.parse(retryAfter) - clock.now() : undefined;
  const wait = untilReset ?? retryMs;
  return wait === undefined || wait > LONGEST_WAIT_MS ? undefined : Math.max(0, wait);
}

/** A span of time from its start to its end, in ms. */
export type WaitSpan = [from: number, to: number];

/** The spans pacing waited for resets in this suite file: a run within its budget never waits. */
export function pacingWaits(): WaitSpan[] {
  return waited.map(([from, to]) => [from, to]);
}

/** Where this suite file's waits came. */
export function pacingPlaces(): WaitPlaces {
  return { ...waitsAt, insideSteps: [...waitsAt.insideSteps] };
}

/** The wall time the spans cover: spans that overlap count once. */
export function wallMs(spans: readonly WaitSpan[]): number {
  let total = 0;
  let end = -Infinity;
  for (const [from, to] of [...spans].sort((x, y) => x[0] - y[0])) {
    if (to > end) total += to - Math.max(from, end);
    end = Math.max(end, to);
  }
  return total;
}

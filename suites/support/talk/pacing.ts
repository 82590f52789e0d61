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
 * The counters calls of `actor` spend in these buckets, as the server keeps them: a per-account bucket once for each
 * actor (the suite's accounts, or an application for its tokens), a per-IP bucket once for the whole run.
 */
const keysOf = (actor: string, buckets: readonly Bucket[]) => buckets.map((bucket) => (LIMITS[bucket].per === 'account' ? `${bucket} of ${actor}` : bucket));

/** The counters a call spends under the contract's Limits table. */
export function budgetKeysOf(actor: string, method: string, path: string): string[] {
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

interface Estimate {
  remaining: number;
  /** On our clock: the server's Reset corrected by the difference between its clock and ours. */
  resetAt: number;
}

// Never wait longer than the contract's longest period (and a little) for one reset.
export const LONGEST_WAIT_MS = 31 * MINUTE;
// The server's Date header has whole seconds: wait that much past the reset so the new period has begun.
const CLOCK_SLACK_MS = 1000;
const estimates = new Map<string, Estimate>();
/** The waits of this file's calls for a reset, as spans of time: calls that waited side by side waited once. */
let waited: WaitSpan[] = [];
/**
 * Whether the server counts calls outside /api (/oauth, /auth, files) in its access buckets too, as some do (a
 * popular Go server counts every path in one bucket of 300 per 5 minutes): it showed so by rate-limit headers on
 * such an answer. From then on those calls are paced and counted against the access buckets as well.
 */
let countsEveryPath = false;

/**
 * The IP access bucket is one counter of the server's for every group of the run, so its estimate is one for every
 * worker thread too, in memory the run's configuration shares (prepareRun makes it): slots remaining, resetAt (0:
 * nothing known) and whether the server counts every path (1). A file that starts while another has spent the bucket
 * then paces from its first call, where its own estimate would start from nothing and be refused. Where the workers
 * are processes (no memory shared), each file keeps its own estimate, as before.
 */
const SHARED = { remaining: 0, resetAt: 1, everyPath: 2 } as const;
const SHARED_KEY = 'IP access';
// Two readings whose resets are this close are of one period (whole seconds of the Date header, and our slack).
const SAME_PERIOD_MS = 2 * CLOCK_SLACK_MS;
let shared: Float64Array | undefined;

/** The memory of a run's shared estimate of the IP access bucket (prepareRun). */
export const runReading = (): SharedArrayBuffer => new SharedArrayBuffer(3 * Float64Array.BYTES_PER_ELEMENT);

/** Points this worker's pacing at the run's shared estimate (actors.ts, once the file knows its run). */
export function shareRunReading(buffer: unknown): void {
  const next = buffer instanceof SharedArrayBuffer && buffer.byteLength >= 3 * Float64Array.BYTES_PER_ELEMENT ? new Float64Array(buffer) : undefined;
  if (next && shared?.buffer === next.buffer) return;
  shared = next;
  // A reading this file took before it knew its run (the command's, CONFORMANCE_BUDGET_AT_START) starts the shared one.
  const local = estimates.get(SHARED_KEY);
  if (shared && local && shared[SHARED.resetAt] === 0) setEstimate(SHARED_KEY, local);
}

const everyPathCounted = (): boolean => countsEveryPath || shared?.[SHARED.everyPath] === 1;

function estimateOf(key: string): Estimate | undefined {
  if (key !== SHARED_KEY || !shared) return estimates.get(key);
  return (shared[SHARED.resetAt] ?? 0) > 0 ? { remaining: shared[SHARED.remaining] as number, resetAt: shared[SHARED.resetAt] as number } : undefined;
}

function setEstimate(key: string, estimate: Estimate): void {
  if (key !== SHARED_KEY || !shared) return void estimates.set(key, estimate);
  shared[SHARED.remaining] = estimate.remaining;
  shared[SHARED.resetAt] = estimate.resetAt;
}

/**
 * A reading of the headers: within the period the estimate knows, Remaining only falls, so an answer that arrives
 * after a later one (sent before it) does not raise it; a reading of a later period starts afresh.
 */
function noteReading(key: string, reading: Estimate): void {
  const known = estimateOf(key);
  if (key !== SHARED_KEY || !shared || !known) return setEstimate(key, reading);
  if (reading.resetAt < known.resetAt - SAME_PERIOD_MS) return;
  const samePeriod = reading.resetAt <= known.resetAt + SAME_PERIOD_MS;
  setEstimate(key, samePeriod ? { remaining: Math.min(known.remaining, reading.remaining), resetAt: known.resetAt } : reading);
}

function forgetEstimate(key: string): void {
  if (key !== SHARED_KEY || !shared) return void estimates.delete(key);
  shared[SHARED.resetAt] = 0;
}

perFile(() => {
  estimates.clear();
  waited = [];
  countsEveryPath = false;
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
}

/** What the command is about to run (run-command.ts). */
export interface StartPlan {
  /** The whole suite: where the budget left cannot carry it, it waits for a reset that comes soon enough before it starts. */
  wholeRun: boolean;
  /** The settle window (CONFORMANCE_SETTLE_MS): groups wait for it to confirm undos, each wait over 2 s a line of its own. */
  settleMs: number;
  /** The IP access calls of the run's plan (run/run-plan.ts), where every group it runs is planned. */
  runCalls?: number;
}

/**
 * What the headers of the command's first call (GET /api/v1/instance) say of the budget: the reading for every file to
 * start from, and where the run cannot fit in what is left, a line that says so and names every wait it foresees.
 */
export function budgetAtStart(headers: Record<string, string>, plan: StartPlan): { reading: Reading; warning?: string; waitBeforeStart?: boolean } | undefined {
  const limit = countOf(headers['x-ratelimit-limit']);
  const remaining = countOf(headers['x-ratelimit-remaining']);
  const reset = resetTimeOf(headers['x-ratelimit-reset']);
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  const serverNow = Date.parse(headers.date ?? '');
  const resetAt = Date.now() + reset - (Number.isNaN(serverNow) ? Date.now() : serverNow) + CLOCK_SLACK_MS;
  const reading = { remaining, limit, resetAt };
  // What is left against what a run spends, less the reserve pacing keeps in hand: a fresh period (the version hint's
  // own call aside) fits a run.
  const runCalls = plan.runCalls ?? RUN_ACCESS_CALLS;
  const reserve = reserveOf('IP access');
  const usableNow = Math.max(0, remaining - reserve);
  if (usableNow >= runCalls) return { reading };
  const untilReset = `${duration(Math.max(0, resetAt - Date.now()))} from now`;
  const waitBeforeStart = plan.wholeRun && resetAt - Date.now() <= LONGEST_WAIT_MS;
  // Each period after the first reset carries the limit less the reserve: what is left of the run then waits again.
  const perPeriod = Math.max(1, limit - reserve);
  const further = Math.max(0, Math.ceil((runCalls - (waitBeforeStart ? 0 : usableNow) - perPeriod) / perPeriod));
  const waits = [
    waitBeforeStart ? `for the reset (${untilReset}) before it starts` : `for the reset (${untilReset}) once the ${remaining} calls left are spent (${reserve} of them kept in hand)`,
    ...(further > 0 ? [`then ${further === 1 ? 'once more' : `${further} more times`}, each time the next period's ${perPeriod} calls are spent`] : []),
    // A short access bucket is most often a run's before this one, which spent the narrow buckets too; no header shows them before a call of theirs.
    `where a run in the last ${LIMITS.Deletion.periodMs / MINUTE} minutes spent them, for the reset of the Deletion and Uploading buckets (${LIMITS.Deletion.limit} per ${LIMITS.Deletion.periodMs / MINUTE} minutes each)`,
    ...(plan.settleMs > ANNOUNCED_WAIT_MS ? [`for the settle window (${plan.settleMs} ms) where a group confirms its undos held`] : []),
  ];
  const warning =
    `Rate limit: the server reports ${remaining} of ${limit} requests left until ${clockTime(resetAt)} UTC (X-RateLimit headers of GET /api/v1/instance); ` +
    `${plan.runCalls === undefined ? `a full run makes about ${RUN_ACCESS_CALLS}` : `this run's plan makes ${runCalls}`} calls it counts, so the run waits ${waits.join(', ')}, and says so each time it does; it may wait more where other clients spend the same budget.`;
  return { reading, warning, waitBeforeStart };
}

/** Starts the file's estimate of the IP access bucket from the command's reading, while that period lasts. */
function seedFromStart(): void {
  const text = process.env.CONFORMANCE_BUDGET_AT_START;
  if (!text) return;
  const reading = JSON.parse(text) as Reading;
  // The shared estimate, once another file has read the bucket, knows more than the command's reading before the run.
  if (reading.resetAt > clock.now() && !estimateOf(SHARED_KEY)) setEstimate(SHARED_KEY, { remaining: reading.remaining, resetAt: reading.resetAt });
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

/** The IP access calls a flow holds in hand: its own calls spend them, without a wait, until none is left. */
interface Flow {
  left: number;
}
const flows = new AsyncLocalStorage<Flow>();

/**
 * Calls the budget must have left besides a flow's planned cost before it starts: what the plan cannot know (the
 * pages of a server's web sign-in, a redirect, a read sent once more). Only asked for, not held: flows start side by side.
 */
const FLOW_MARGIN = 4;

/** What a flow costs by path: a step's declared cost (counts.ts PathCost, which cannot be imported here: counts.ts imports pacing). */
type FlowCost = Partial<Record<'api' | 'oauth' | 'files' | 'streams', number>>;

/**
 * Runs a multi-step flow (a step of the plan: a web sign-in, an upload and its processing reads, a move and its read)
 * only once the IP access bucket covers all of it: where the estimate cannot carry its calls and FLOW_MARGIN, it waits
 * for the reset before the flow's first call, never between two of its calls (a sign-in's session may not outlive a
 * wait). Its planned calls are taken from the estimate at once; the flow's own calls then spend them without a wait,
 * and what it did not spend is given back when it ends. A flow larger than the bucket itself is paced call by call, as before.
 */
export async function withinFlow<T>(what: string, actor: string, cost: FlowCost, run: () => Promise<T>): Promise<T> {
  if (isUnpaced() || flows.getStore()) return run();
  // Where only /api calls are counted, a sign-in's pages and redirects are not: the margin is for every-path servers.
  const margin = everyPathCounted() ? FLOW_MARGIN : 0;
  const calls = (cost.api ?? 0) + (everyPathCounted() ? (cost.oauth ?? 0) + (cost.files ?? 0) : 0);
  const streams = cost.streams ?? 0;
  const needed = calls + streams + margin;
  // The reserve of single calls is for calls in flight that the estimate has not taken yet: a flow takes its calls
  // from the shared estimate before it starts, so it needs only the bucket itself to cover it.
  const short = [SHARED_KEY, ...keysOf(actor, ['Account access'])].filter((key) => {
    const known = estimateOf(key);
    return known !== undefined && known.resetAt > clock.now() && known.remaining < needed;
  });
  const wait = Math.max(0, ...short.map((key) => (estimateOf(key) as Estimate).resetAt - clock.now()));
  if (wait > 0 && wait <= LONGEST_WAIT_MS && needed <= LIMITS['IP access'].limit) {
    waited.push([clock.now(), clock.now() + wait]);
    const left = short.map((key) => `${key}: ${(estimateOf(key) as Estimate).remaining} left`).join(', ');
    announceWait(wait, `for the reset of the server's rate limit (${left}) before ${what}, which makes about ${needed} calls: a flow starts only when the budget covers all of it`);
    await clock.sleep(wait);
    for (const key of short) if ((estimateOf(key)?.resetAt ?? 0) <= clock.now()) forgetEstimate(key);
  }
  const take = (n: number) => {
    const estimate = estimateOf(SHARED_KEY);
    if (estimate) setEstimate(SHARED_KEY, { ...estimate, remaining: estimate.remaining - n });
  };
  // The flow holds its planned calls (the margin was only asked to be there); stream connections, never paced call
  // by call, it spends here for good.
  take(calls + streams);
  const flow: Flow = { left: calls };
  try {
    return await flows.run(flow, run);
  } finally {
    take(-flow.left);
  }
}

/** Waits for the reset when a bucket this call spends is nearly spent, then counts the call against it. */
export async function paceBefore(actor: string, method: string, path: string): Promise<void> {
  if (isUnpaced()) return;
  const buckets = pacedBucketsOf(method, path);
  // A call of a flow spends the IP access calls the flow holds, while it holds any, and waits for neither access
  // bucket (the flow started only once both covered it): no wait inside a flow. The narrow buckets pace it as ever.
  const flow = flows.getStore();
  const held = flow !== undefined && flow.left > 0 && buckets.includes('IP access');
  if (held) flow.left -= 1;
  const counted = buckets.filter((bucket) => !(held && bucket === 'IP access'));
  const keys = keysOf(actor, counted);
  const spent = keys.filter((key, i) => {
    const bucket = counted[i] as Bucket;
    const estimate = estimateOf(key);
    return !(held && bucket === 'Account access') && estimate !== undefined && estimate.remaining <= reserveOf(bucket) && estimate.resetAt > clock.now();
  });
  const wait = Math.max(0, ...spent.map((key) => (estimateOf(key) as Estimate).resetAt - clock.now()));
  if (wait > 0 && wait <= LONGEST_WAIT_MS) {
    waited.push([clock.now(), clock.now() + wait]);
    const left = spent.map((key) => `${key}: ${(estimateOf(key) as Estimate).remaining} left`).join(', ');
    announceWait(wait, `for the reset of the server's rate limit (${left}) before ${method} ${path.split('?')[0]} (as ${actor})`);
    await clock.sleep(wait);
    // Another worker may have read the new period meanwhile: only an estimate of the period waited out is forgotten.
    for (const key of spent) if ((estimateOf(key)?.resetAt ?? 0) <= clock.now()) forgetEstimate(key);
  }
  for (const key of keys) {
    const estimate = estimateOf(key);
    if (estimate) setEstimate(key, { ...estimate, remaining: estimate.remaining - 1 });
  }
}

/**
 * Notes what the headers of a response say. They report the bucket closest to exhaustion: it is the one of
 * this call's buckets whose contract limit is the reported Limit (both access buckets when it is 300), or,
 * when none matches, every one of them, since each has at least the reported Remaining left.
 */
export function paceAfter(actor: string, method: string, path: string, headers: Record<string, string>): void {
  const limit = countOf(headers['x-ratelimit-limit']);
  const remaining = countOf(headers['x-ratelimit-remaining']);
  const reset = resetTimeOf(headers['x-ratelimit-reset']);
  if (limit === undefined || remaining === undefined || reset === undefined) return;
  const serverNow = Date.parse(headers.date ?? '');
  const resetAt = clock.now() + reset - (Number.isNaN(serverNow) ? clock.now() : serverNow) + CLOCK_SLACK_MS;
  // Headers on a call outside /api: the server counts such calls too, in a bucket of the limit they report.
  if (bucketsOf(method, path).length === 0) {
    countsEveryPath = true;
    if (shared) shared[SHARED.everyPath] = 1;
  }
  const buckets = pacedBucketsOf(method, path);
  const keys = keysOf(actor, buckets);
  const matching = keys.filter((_, i) => LIMITS[buckets[i] as Bucket].limit === limit);
  for (const key of matching.length ? matching : keys) noteReading(key, { remaining, resetAt });
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

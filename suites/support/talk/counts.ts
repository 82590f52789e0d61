// The request counter of one worker: total, per account, per rate-limit bucket, and the writes the
// contract's budgets care about. Each suite file hands its counts to the reporter, which adds them up.
import { AsyncLocalStorage } from 'node:async_hooks';
import { perFile } from './file-state.ts';
import { budgetKeysOf, bucketsOf, pacingPlaces, pacingWaits, wallMs, type WaitPlaces, type WaitSpan } from './pacing.ts';

export interface Counts {
  total: number;
  perAccount: Record<string, number>;
  /** Per rate-limit counter as the server keeps it: "Deletion of A", "IP access" (see budgetKeysOf). */
  perBucket: Record<string, number>;
  /** Per kind of path, as a server that counts them in one bucket would: /api, /oauth, /auth, and files (the rest). */
  perPath: Record<string, number>;
  /** Of `total`, the requests the command sent itself before the groups (its preflight, its budget reads): no HAR records them. */
  commandRequests: number;
  /** The longest time the file had no request of its own in flight between its first request and its last. */
  longestIdleMs: number;
  /**
   * Statuses the server published: POST /api/v1/statuses answered 2xx with a status not seen before. A refused probe
   * creates nothing, nor does a resubmission the Idempotency-Key answers with the status it made already: each is a request.
   */
  statusCreations: number;
  /** Scheduled statuses the server made (a 2xx ScheduledStatus): never published, the run cancels each. */
  scheduledStatuses: number;
  deletions: number;
  uploads: number;
  streamConnections: number;
  /** Calls refused (429) outside the check that exhausts a bucket on purpose: pacing should prevent every one. */
  refusals: number;
  /** Time pacing waited for a reset instead of being refused: wall time, calls that waited side by side counted once. */
  pacedMs: number;
  /** The spans pacing waited, which pacedMs covers: the files' spans are merged, not added. */
  pacedSpans?: WaitSpan[];
  /** Where pacing's waits came: before sections, before steps, before calls outside any step, and inside steps (which no run should show). */
  pacedAt?: WaitPlaces;
  /** The waits for a reset the start line named (the command's reading of the budget): no more may come. */
  foreseenWaits?: number;
  /** The windows of the bucket the start line split the run into, between sections (a windowed plan only). */
  foreseenWindows?: number;
  /** The slowest answer of the run: how long it took and to what (a slow server is waited for, and this says how slow). */
  slowest?: { ms: number; request: string };
  /** Requests that got no (complete) answer within CONFORMANCE_TIMEOUT_MS. */
  timeouts: number;
  /** Requests sent once more on a new connection: the reused one they went on closed before any answer (connections.ts). */
  resent: number;
  /** The server closed a connection right after its answer (or reset a reused one): from then on none was reused. */
  connectionsClosed: boolean;
}

export const emptyCounts = (): Counts => ({
  total: 0,
  perAccount: {},
  perBucket: {},
  perPath: {},
  commandRequests: 0,
  longestIdleMs: 0,
  statusCreations: 0,
  scheduledStatuses: 0,
  deletions: 0,
  uploads: 0,
  streamConnections: 0,
  refusals: 0,
  pacedMs: 0,
  timeouts: 0,
  resent: 0,
  connectionsClosed: false,
});

const counts = emptyCounts();
/** The ids of the statuses this file's creations answered, so that an answer repeated counts once. */
const created = new Set<string>();
/** This file's requests in flight, and since when it had none (undefined before its first request). */
let inFlight = 0;
let idleSince: number | undefined;
perFile(() => {
  parts.length = 0;
  outsideParts = zero();
  Object.assign(counts, emptyCounts());
  delete counts.slowest;
  created.clear();
  inFlight = 0;
  idleSince = undefined;
});

/**
 * Requests by the kind of path servers count them on (pathKind), with stream connections apart: what a declared
 * step costs (run/checks.ts), and what a section's plan adds up to before its first request.
 */
export interface PathCost {
  api: number;
  oauth: number;
  files: number;
  streams: number;
}

/** The kind of a path: the first segment for /api, /oauth and /auth; files for the rest (attachments' files). */
export const pathKind = (path: string): string => /^\/(api|oauth|auth)(\/|\?|$)/.exec(path)?.[1] ?? 'files';

/** A request of this file leaves (its answer is counted by requestEnded): the idle time before it is measured. */
export function countRequest(actor: string, method: string, path: string, withToken = true): void {
  if (inFlight++ === 0 && idleSince !== undefined) counts.longestIdleMs = Math.max(counts.longestIdleMs, Math.round(performance.now() - idleSince));
  tally(counts, actor, method, path, withToken);
  // The web sign-in's /auth pages are counted beside the plan's kinds, as the group's counts have them.
  const part = sending.getStore();
  const kind = pathKind(path);
  if (kind !== 'api' && kind !== 'oauth' && kind !== 'files') return;
  if (part) part.sent[kind] += 1;
  else outsideParts[kind] += 1;
}

/**
 * A part of a group's plan (a declared step) with what it sent: its own requests, and those of the ledger that undo
 * and read gone what it made (the ledger runs them in the part that remembered them). What a plan declares is a
 * step's cost when all goes well, each input at its most where the server's answer decides (an undo where a move
 * takes, the reads and deletion of a status made); `sent` says what the answers made of it.
 */
export interface PartCount {
  name: string;
  planned: PathCost;
  sent: PathCost;
  /** What a deviating server may add to `planned` (run/plan.ts mayAddOf): what a part sends under faults stays within both. */
  mayAdd?: number;
  /** Its step's order of declaration: of several applications, the cleanup reads that of the step declared first. */
  order?: number;
  /** What its step came to: a value, a root cause, or an error of the suite (`threw` until it ends). */
  outcome?: 'made' | 'not made' | 'threw';
}
const parts: PartCount[] = [];
const sending = new AsyncLocalStorage<PartCount>();
const zero = (): PathCost => ({ api: 0, oauth: 0, files: 0, streams: 0 });
/** The file's requests sent outside every part: our tests want none (every request is some step's). */
let outsideParts = zero();

/** Runs a step's calls counted in its part (`planned`: the step's declared cost; `more`: its mayAdd and order); gives the part too. */
export function inPart<T>(name: string, planned: Partial<PathCost>, calls: (part: PartCount) => Promise<T>, more: Pick<PartCount, 'mayAdd' | 'order'> = {}): Promise<T> {
  const part: PartCount = { name, planned: { ...zero(), ...planned }, sent: zero(), ...more };
  parts.push(part);
  return sending.run(part, () => calls(part));
}

/** The part the running calls are counted in, for the ledger to run an undo in its maker's part. */
export const currentPart = (): PartCount | undefined => sending.getStore();

/** Runs the ledger's calls for what `part` made in that part (none: outside every part, the group's own cleanup). */
export function inPartOf<T>(part: PartCount | undefined, calls: () => Promise<T>): Promise<T> {
  return part ? sending.run(part, calls) : calls();
}

/** The part each request was sent in (by its exchange), for calls another step makes in the ledger's place (inPartThatSent). */
const sentIn = new WeakMap<object, PartCount>();
export function noteSentIn(exchange: object): void {
  const part = sending.getStore();
  if (part) sentIn.set(exchange, part);
}

/** The part that sent an exchange, if any. */
export const partThatSent = (exchange: object): PartCount | undefined => sentIn.get(exchange);

/**
 * Runs `calls` that a step makes in the ledger's place on what `creation` made (its delete, the read that shows it
 * gone) in the part that sent the creation, whose cost holds the ledger's undo and read.
 */
export const inPartThatSent = <T>(creation: object, calls: () => Promise<T>): Promise<T> => inPartOf(sentIn.get(creation) ?? sending.getStore(), calls);

/**
 * This file's parts, planned and sent, in their steps' order of declaration (those without one last, as they started):
 * steps run side by side, and the order they started in moves with the server's timing, which the reports must not.
 */
export const partsSnapshot = (): PartCount[] => structuredClone(parts).sort((x, y) => (x.order ?? Number.MAX_SAFE_INTEGER) - (y.order ?? Number.MAX_SAFE_INTEGER));

/** This file's requests sent outside every part, by path. */
export const outsidePartsSnapshot = (): PathCost => ({ ...outsideParts });

/**
 * Adds one request to `counts` as servers count it: in all, per actor, per kind of path and per bucket (a request
 * without a token, `withToken` false, in no account's bucket: it has no account).
 */
export function tally(counts: Counts, actor: string, method: string, path: string, withToken = true): void {
  counts.total += 1;
  counts.perAccount[actor] = (counts.perAccount[actor] ?? 0) + 1;
  const kind = pathKind(path);
  counts.perPath[kind] = (counts.perPath[kind] ?? 0) + 1;
  const buckets = bucketsOf(method, path);
  for (const key of budgetKeysOf(withToken ? actor : undefined, method, path)) counts.perBucket[key] = (counts.perBucket[key] ?? 0) + 1;
  if (buckets.includes('Deletion')) counts.deletions += 1;
  if (buckets.includes('Uploading')) counts.uploads += 1;
}

/**
 * An answer: a status creation when it is a 2xx answer to POST /api/v1/statuses with a status this file has not seen
 * (a body that names none counts too, as the server may have made one); a scheduled status when it is a ScheduledStatus.
 */
export function countAnswer(method: string, path: string, status: number, body: string): void {
  if (method !== 'POST' || path.split('?')[0] !== '/api/v1/statuses' || status < 200 || status >= 300) return;
  const answered = parsedObject(body);
  const id = typeof answered?.id === 'string' ? answered.id : undefined;
  if (id && typeof answered?.scheduled_at === 'string') counts.scheduledStatuses += 1;
  else if (id === undefined || !created.has(id)) counts.statusCreations += 1;
  if (id) created.add(id);
}

function parsedObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A request of this file ended, answered or not. */
export function requestEnded(): void {
  if (--inFlight === 0) idleSince = performance.now();
}

/** A request's answer time (undefined when none came), and whether it ran out of time. */
export function countTiming(request: string, ms: number | undefined, timedOut: boolean): void {
  if (timedOut) counts.timeouts += 1;
  if (ms !== undefined && ms > (counts.slowest?.ms ?? -1)) counts.slowest = { ms, request };
}

/** A request sent once more on a new connection; countRequest counts it as the request it is, as the server does. */
export function countResent(): void {
  counts.resent += 1;
}

export function countConnectionsClosed(): void {
  counts.connectionsClosed = true;
}

export function countRefusal(): void {
  counts.refusals += 1;
}

export function countStreamConnection(): void {
  counts.streamConnections += 1;
  const part = sending.getStore();
  if (part) part.sent.streams += 1;
  else outsideParts.streams += 1;
}

export function countsSnapshot(): Counts {
  const pacedSpans = pacingWaits();
  return { ...structuredClone(counts), pacedMs: wallMs(pacedSpans), pacedSpans, pacedAt: pacingPlaces() };
}

/** What `counts` holds, which it then holds no more: counts handed on once. */
export function drained(counts: Counts): Counts {
  const held = structuredClone(counts);
  Object.assign(counts, emptyCounts());
  return held;
}

export function addCounts(into: Counts, from: Counts): Counts {
  into.total += from.total;
  into.commandRequests += from.commandRequests ?? 0;
  for (const [k, v] of Object.entries(from.perAccount)) into.perAccount[k] = (into.perAccount[k] ?? 0) + v;
  for (const [k, v] of Object.entries(from.perBucket)) into.perBucket[k] = (into.perBucket[k] ?? 0) + v;
  for (const [k, v] of Object.entries(from.perPath ?? {})) into.perPath[k] = (into.perPath[k] ?? 0) + v;
  into.longestIdleMs = Math.max(into.longestIdleMs, from.longestIdleMs ?? 0);
  into.statusCreations += from.statusCreations;
  into.scheduledStatuses += from.scheduledStatuses;
  into.deletions += from.deletions;
  into.uploads += from.uploads;
  into.streamConnections += from.streamConnections;
  into.refusals += from.refusals;
  // Groups wait side by side for the same reset: the run waited the wall time their spans cover, not their sum.
  into.pacedSpans = [...(into.pacedSpans ?? []), ...(from.pacedSpans ?? [])];
  into.pacedMs = wallMs(into.pacedSpans);
  if (from.foreseenWaits !== undefined) into.foreseenWaits = (into.foreseenWaits ?? 0) + from.foreseenWaits;
  if (from.foreseenWindows !== undefined) into.foreseenWindows = (into.foreseenWindows ?? 0) + from.foreseenWindows;
  if (from.pacedAt) {
    const at = (into.pacedAt ??= { sections: 0, steps: 0, calls: 0, insideSteps: [] });
    at.sections += from.pacedAt.sections;
    at.steps += from.pacedAt.steps;
    at.calls += from.pacedAt.calls;
    at.insideSteps.push(...from.pacedAt.insideSteps);
  }
  into.timeouts += from.timeouts ?? 0;
  into.resent += from.resent ?? 0;
  into.connectionsClosed ||= from.connectionsClosed ?? false;
  if (from.slowest && from.slowest.ms > (into.slowest?.ms ?? -1)) into.slowest = { ...from.slowest };
  return into;
}

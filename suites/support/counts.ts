// The request counter of one worker: total, per account, per rate-limit bucket, and the writes the
// contract's budgets care about. Each suite file hands its counts to the reporter, which adds them up.
import { perFile } from './file-state.ts';
import { budgetKeysOf, bucketsOf, pacingWaitedMs } from './pacing.ts';

export interface Counts {
  total: number;
  perAccount: Record<string, number>;
  /** Per rate-limit counter as the server keeps it: "Deletion of A", "IP access" (see budgetKeysOf). */
  perBucket: Record<string, number>;
  /** Statuses the server created: POST /api/v1/statuses answered 2xx. A refused probe creates nothing; it is a request. */
  statusCreations: number;
  deletions: number;
  uploads: number;
  streamConnections: number;
  /** Calls refused (429) outside the check that exhausts a bucket on purpose: pacing should prevent every one. */
  refusals: number;
  /** Time pacing waited for a reset instead of being refused. */
  pacedMs: number;
}

export const emptyCounts = (): Counts => ({
  total: 0,
  perAccount: {},
  perBucket: {},
  statusCreations: 0,
  deletions: 0,
  uploads: 0,
  streamConnections: 0,
  refusals: 0,
  pacedMs: 0,
});

const counts = emptyCounts();
perFile(() => void Object.assign(counts, emptyCounts()));

export function countRequest(actor: string, method: string, path: string): void {
  counts.total += 1;
  counts.perAccount[actor] = (counts.perAccount[actor] ?? 0) + 1;
  const buckets = bucketsOf(method, path);
  for (const key of budgetKeysOf(actor, method, path)) counts.perBucket[key] = (counts.perBucket[key] ?? 0) + 1;
  if (buckets.includes('Deletion')) counts.deletions += 1;
  if (buckets.includes('Uploading')) counts.uploads += 1;
}

/** An answer: a status creation when it is a 2xx answer to POST /api/v1/statuses. */
export function countAnswer(method: string, path: string, status: number): void {
  if (method === 'POST' && path.split('?')[0] === '/api/v1/statuses' && status >= 200 && status < 300) counts.statusCreations += 1;
}

export function countRefusal(): void {
  counts.refusals += 1;
}

export function countStreamConnection(): void {
  counts.streamConnections += 1;
}

export function countsSnapshot(): Counts {
  return { ...structuredClone(counts), pacedMs: pacingWaitedMs() };
}

export function addCounts(into: Counts, from: Counts): Counts {
  into.total += from.total;
  for (const [k, v] of Object.entries(from.perAccount)) into.perAccount[k] = (into.perAccount[k] ?? 0) + v;
  for (const [k, v] of Object.entries(from.perBucket)) into.perBucket[k] = (into.perBucket[k] ?? 0) + v;
  into.statusCreations += from.statusCreations;
  into.deletions += from.deletions;
  into.uploads += from.uploads;
  into.streamConnections += from.streamConnections;
  into.refusals += from.refusals;
  into.pacedMs += from.pacedMs;
  return into;
}

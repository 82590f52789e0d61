// Pacing: stay inside the contract's rate-limit budgets by reading the X-RateLimit headers of every
// response, and wait for the reset instead of being refused when a bucket is about to run out.
import { setTimeout as sleep } from 'node:timers/promises';

/** The contract's Limits table: every /api/* call spends the Account and IP access buckets; some spend one more. */
export type Bucket = 'Account access' | 'IP access' | 'App sign-up' | 'Uploading' | 'Deletion';

export function bucketsOf(method: string, path: string): Bucket[] {
  const p = path.split('?')[0] ?? '';
  if (!p.startsWith('/api/')) return [];
  const buckets: Bucket[] = ['Account access', 'IP access'];
  if (method === 'POST' && p === '/api/v1/accounts') buckets.push('App sign-up');
  if (method === 'POST' && (p === '/api/v1/media' || p === '/api/v2/media')) buckets.push('Uploading');
  if ((method === 'DELETE' && /^\/api\/v1\/statuses\/[^/]+$/.test(p)) || (method === 'POST' && /^\/api\/v1\/statuses\/[^/]+\/unreblog$/.test(p))) {
    buckets.push('Deletion');
  }
  return buckets;
}

/** The narrowest bucket a call spends: the one its headers are most likely to report. */
function keyOf(actor: string, method: string, path: string): string {
  return `${actor} ${bucketsOf(method, path).at(-1) ?? 'none'}`;
}

interface Budget {
  remaining: number;
  resetAt: number;
}

// Keep a few calls in hand for cleanup, which must run even when a budget is nearly spent.
const RESERVE = 3;
// Never wait longer than the contract's longest period for one reset.
const LONGEST_WAIT_MS = 30 * 60 * 1000;
const budgets = new Map<string, Budget>();
let waitedMs = 0;

/** Waits for the reset when the last response of this bucket said it was nearly spent. */
export async function paceBefore(actor: string, method: string, path: string): Promise<void> {
  const budget = budgets.get(keyOf(actor, method, path));
  if (!budget || budget.remaining > RESERVE) return;
  const wait = budget.resetAt - Date.now();
  if (wait <= 0 || wait > LONGEST_WAIT_MS) return;
  waitedMs += wait;
  await sleep(wait);
}

/** Notes what the headers of a response say about the bucket the call spent. */
export function paceAfter(actor: string, method: string, path: string, headers: Record<string, string>): void {
  const remaining = Number(headers['x-ratelimit-remaining']);
  const resetAt = Date.parse(headers['x-ratelimit-reset'] ?? '');
  if (!Number.isFinite(remaining) || Number.isNaN(resetAt)) return;
  budgets.set(keyOf(actor, method, path), { remaining, resetAt });
}

export function pacingWaitedMs(): number {
  return waitedMs;
}

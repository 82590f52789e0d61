// The plan of a stability run (--repeat N), printed before its first request: how many times the selection runs,
// what the repeats spend of the contract's buckets, and every wait for a reset that this foresees. Against a configured
// server the IP access calls of one repeat are the run plan's (run-plan.ts: the declared costs of the selected checks'
// steps); the rest, and everything of the embedded server (whose accounts exist only once it starts), is a full run's
// spend (docs/performance.md) in the share of the full run's checks that the selection takes.
import { LIMITS, RUN_ACCESS_CALLS, type Bucket } from '../talk/pacing.ts';

/** What a full run spends of each bucket that repeats can exhaust (Deletion and Uploading: of the account that spends most). */
export const FULL_RUN_SPEND: Readonly<Partial<Record<Bucket, number>>> = { 'IP access': RUN_ACCESS_CALLS, Deletion: 15, Uploading: 9 };

export interface PlannedWaits {
  bucket: Bucket;
  /** The calls all the repeats spend of it, about. */
  calls: number;
  /** The resets the run waits for: a period each, at most. */
  waits: number;
}

/**
 * What `repeats` runs of a selection of `selected` checks out of `all` spend of each bucket, and the resets they wait
 * for; `ipCalls`, where the run's plan knows them, are one repeat's IP access calls.
 */
export function plannedWaits(repeats: number, selected: number, all: number, ipCalls?: number): PlannedWaits[] {
  return Object.entries(FULL_RUN_SPEND).map(([bucket, perFullRun]) => {
    const perRepeat = bucket === 'IP access' && ipCalls !== undefined ? ipCalls : Math.ceil((perFullRun * selected) / Math.max(1, all));
    const calls = repeats * perRepeat;
    return { bucket: bucket as Bucket, calls, waits: Math.max(0, Math.ceil(calls / LIMITS[bucket as Bucket].limit) - 1) };
  });
}

const minutes = (ms: number) => `${ms / 60_000} min`;

/** The plan as the command prints it: one line, then one per bucket whose reset the run waits for. */
export function stabilityPlan(repeats: number, selected: number, all: number, seed: number, ipCalls?: number): string {
  const waits = plannedWaits(repeats, selected, all, ipCalls);
  const head =
    `Stability run: ${repeats} repeats of ${selected} check${selected === 1 ? '' : 's'}, one after another, each with fresh objects, seed ${seed} and the same settings; ` +
    `a check whose verdict differs between them is reported as intermittent. About ${waits.map((w) => `${w.calls} calls of ${w.bucket}`).join(', ')} in all`;
  const foreseen = waits.filter((w) => w.waits > 0);
  if (foreseen.length === 0) return `${head}: within one period of every bucket, no wait for a reset foreseen.`;
  const lines = foreseen.map(({ bucket, calls, waits: n }) => {
    const { limit, periodMs, per } = LIMITS[bucket];
    return `  ${bucket} (${limit} per ${minutes(periodMs)} per ${per === 'IP' ? 'address' : 'account'}): about ${calls} calls, so ${n} wait${n === 1 ? '' : 's'} for its reset, up to ${minutes(periodMs)} each`;
  });
  return [`${head}; waits foreseen (pacing waits for each reset rather than be refused):`, ...lines].join('\n');
}

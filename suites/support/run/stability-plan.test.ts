import { describe, expect, it } from 'vitest';
import { RUN_ACCESS_CALLS } from '../talk/pacing.ts';
import { plannedWaits, stabilityPlan } from './stability-plan.ts';

describe('the plan of a stability run', () => {
  it('should foresee no wait for a small selection repeated a few times', () => {
    const plan = stabilityPlan(3, 10, 200, 1);
    expect(plan).toMatch(/^Stability run: 3 repeats of 10 checks, one after another, each with fresh objects, seed 1 and the same settings/);
    expect(plan).toContain('no wait for a reset foreseen');
  });

  it('should foresee a reset of each bucket that the repeats of a full run spend past its limit', () => {
    // A full run's IP access calls, three times: past two resets of the bucket's 300.
    const calls = 3 * RUN_ACCESS_CALLS;
    expect(plannedWaits(3, 200, 200)).toEqual([
      { bucket: 'IP access', calls, waits: 2 },
      { bucket: 'Deletion', calls: 45, waits: 1 },
      { bucket: 'Uploading', calls: 27, waits: 0 },
    ]);
    const plan = stabilityPlan(3, 200, 200, 7).split('\n');
    expect(plan.slice(1)).toEqual([
      `  IP access (300 per 5 min per address): about ${calls} calls, so 2 waits for its reset, up to 5 min each`,
      '  Deletion (30 per 30 min per account): about 45 calls, so 1 wait for its reset, up to 30 min each',
    ]);
  });

  it("should take each repeat's IP access calls from the run's plan where it knows them", () => {
    expect(plannedWaits(2, 20, 200, 140)[0]).toEqual({ bucket: 'IP access', calls: 280, waits: 0 });
    expect(stabilityPlan(2, 20, 200, 1, 140)).toContain('About 280 calls of IP access');
  });
});

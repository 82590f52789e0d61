import { describe, expect, it } from 'vitest';
import { InFlight, inFlightCount } from './in-flight.ts';

/** Runs `tasks` requests of a few ms each through the limiters in turn, and answers the most that ran at once. */
async function peakOf(limiters: readonly InFlight[], tasks: number): Promise<number> {
  let running = 0;
  let peak = 0;
  const request = async () => {
    running++;
    peak = Math.max(peak, running);
    await new Promise((done) => setTimeout(done, 5));
    running--;
  };
  await Promise.all(Array.from({ length: tasks }, (_, i) => (limiters[i % limiters.length] as InFlight).run(request)));
  return peak;
}

describe('in-flight limit', () => {
  it('should keep at most the limit of requests in flight, and run them all', async () => {
    expect(await peakOf([new InFlight(3)], 20)).toBe(3);
  });

  it('should hold the limit across limiters that share one count, as the workers of a run do', async () => {
    const shared = inFlightCount();
    expect(await peakOf([new InFlight(2, shared), new InFlight(2, shared), new InFlight(2, shared)], 30)).toBe(2);
  });

  it('should free the slot of a request that failed', async () => {
    const limiter = new InFlight(1);
    await expect(limiter.run(() => Promise.reject(new Error('reset')))).rejects.toThrow('reset');
    expect(await limiter.run(async () => 'sent')).toBe('sent');
  });
});

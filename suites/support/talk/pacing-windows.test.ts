// Exact pacing (issues 50 and 52): steps that waited for one reset take the new period only as far as it holds them,
// a step holds the access bucket of every account it acts as, and the sections of a window split between sections
// start only once those of the window before ended. Two workers of a run are two instances of pacing.ts sharing the
// run's memory; time is a clock the test moves: nothing here reads the wall clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Pacing = typeof import('./pacing.ts');

const START = Date.parse('2026-01-01T00:00:00Z');
const MINUTE = 60_000;
const LIMIT = 300;

/** The server's access buckets as the reference server keeps them: a period starts at the first call after the last ended. */
class Bucket {
  count = 0;
  resetAt = 0;
  refusals = 0;
  constructor(
    private readonly now: () => number,
    private readonly periodMs: number,
  ) {}

  spend(): Record<string, string> {
    if (this.resetAt <= this.now()) [this.count, this.resetAt] = [0, this.now() + this.periodMs];
    this.count += 1;
    if (this.count > LIMIT) this.refusals += 1;
    return { 'x-ratelimit-limit': String(LIMIT), 'x-ratelimit-remaining': String(Math.max(0, LIMIT - this.count)), 'x-ratelimit-reset': new Date(this.resetAt).toISOString(), date: new Date(this.now()).toUTCString() };
  }
}

let now: number;
/** Timed events of the other workers: each runs once the clock reaches its time. */
let events: { at: number; run: () => void }[];

/** A fresh instance of the pacing module (and its file state), as another worker of the run loads it. */
async function worker(buffer: SharedArrayBuffer): Promise<Pacing> {
  vi.resetModules();
  const [pacing, fileState] = await Promise.all([import('./pacing.ts'), import('./file-state.ts')]);
  pacing.useAnnouncer(() => undefined);
  // A sleep ends at its own time: sleepers side by side do not add up, and the events due by then run first.
  pacing.usePacingClock({
    now: () => now,
    sleep: async (ms) => {
      const until = now + ms;
      await Promise.resolve();
      for (const event of events.filter((e) => e.at <= until).sort((x, y) => x.at - y.at)) {
        events.splice(events.indexOf(event), 1);
        now = Math.max(now, event.at);
        event.run();
      }
      now = Math.max(now, until);
    },
  });
  pacing.shareRunReading(buffer);
  fileState.startFile();
  return pacing;
}

beforeEach(() => {
  now = START;
  events = [];
});

afterEach(() => {
  delete process.env.CONFORMANCE_BUDGET_AT_START;
});

/** Calls of `actor` through pacing against the bucket, answered with its headers. */
async function calls(pacing: Pacing, bucket: Bucket, actor: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) pacing.paceAfter(actor, 'GET', '/api/v1/statuses/1', bucket.spend(), await pacing.paceBefore(actor, 'GET', '/api/v1/statuses/1'));
}

describe('steps that wait for one reset', () => {
  it('should take the new period only as far as it holds them: the others wait for the next reset, and the server refuses none', async () => {
    const first = await worker(new SharedArrayBuffer(0));
    const bucket = new Bucket(() => now, MINUTE);
    await calls(first, bucket, 'A', 230);
    // Three steps that each fit a period, together not (243 + 101 + 131): after the reset, one by one as it holds them.
    const started: Record<string, number> = {};
    const step = (name: string, actor: string, n: number) =>
      first.withinFlow(name, [actor], { api: n }, 0, async () => {
        started[name] = now;
        await calls(first, bucket, actor, n);
      });
    await Promise.all([step('sequences', 'A', 243), step('creations', 'B', 101), step('inputs', 'A', 131)]);
    expect(bucket.refusals).toBe(0);
    // No period carried more than it holds: at most two of the three started in one period.
    const periods = Object.values(started).map((at) => Math.floor((at - START) / MINUTE));
    expect(new Set(periods).size).toBeGreaterThanOrEqual(2);
    expect(first.pacingPlaces().insideSteps).toEqual([]);
  });

  it("should hold the access bucket of every account a step acts as: B's, nearly spent, makes a step of A and B wait", async () => {
    const bucketOfB = new Bucket(() => now, MINUTE);
    /** A worker whose reading says B's bucket has 20 left (its own period) and the IP bucket 290 (a later one). */
    const nearlySpentB = async () => {
      const pacing = await worker(new SharedArrayBuffer(0));
      for (let i = 0; i < 280; i++) bucketOfB.spend();
      pacing.paceAfter('B', 'GET', '/api/v1/statuses/1', bucketOfB.spend(), { 'Account access of B': 0, 'IP access': 0 });
      const ip = { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '290', 'x-ratelimit-reset': new Date(bucketOfB.resetAt + 30_000).toISOString(), date: new Date(now).toUTCString() };
      pacing.paceAfter('anonymous', 'GET', '/api/v1/timelines/public', ip, { 'IP access': 1 });
      return pacing;
    };
    const both = await nearlySpentB();
    let startedAt = 0;
    await both.withinFlow('the step "moves of A and B"', ['A', 'B'], { api: 30 }, 0, async () => void (startedAt = now));
    expect(startedAt).toBeGreaterThanOrEqual(bucketOfB.resetAt);
    expect(both.pacingPlaces()).toMatchObject({ steps: 1, insideSteps: [] });
    // Declared as A alone, the same step starts at once: the hold covers the accounts it names.
    const onlyA = await nearlySpentB();
    await onlyA.withinFlow('the step "moves of A"', ['A'], { api: 30 }, 0, async () => undefined);
    expect(onlyA.pacingPlaces().steps).toBe(0);
  });
});

describe('the windows steps held whole take', () => {
  it('should count the fewest windows that hold every step whole, the largest first: never fewer than the largest steps need apart', async () => {
    const { fewestWindows } = await worker(new SharedArrayBuffer(0));
    // --explore 200's three large steps: the two smaller share a window, and what is left of each takes the small ones.
    expect(fewestWindows([243, 131, 101, 40, 40], 285)).toBe(2);
    expect(fewestWindows([243, 131, 101, 60], 285)).toBe(3);
    expect(fewestWindows([], 285)).toBe(1);
  });
});

describe('the windows of a run split between sections', () => {
  /** The command's reading: 40 of 300 left until a minute from now; Limits now, then Statuses and OAuth in the next window. */
  function plannedRun(): SharedArrayBuffer {
    process.env.CONFORMANCE_BUDGET_AT_START = JSON.stringify({
      remaining: 40,
      limit: LIMIT,
      resetAt: START + MINUTE,
      windowed: true,
      windows: [
        { sections: ['Limits'], worst: 30 },
        { sections: ['Statuses', 'OAuth'], worst: 250 },
      ],
    });
    return new SharedArrayBuffer(1024);
  }

  /** Limits runs in one worker until `endsAt`, making `callsAfterReset` calls in the next period; Statuses starts in another meanwhile. */
  async function windowsRun(endsAt: number, callsAfterReset: number): Promise<{ startedAt: number; second: Pacing; bucket: Bucket }> {
    const buffer = plannedRun();
    const [first, second] = [await worker(buffer), await worker(buffer)];
    const bucket = new Bucket(() => now, 5 * MINUTE);
    // The server's period began 4 minutes ago and ends in a minute, 260 calls spent.
    bucket.resetAt = START + MINUTE;
    bucket.count = 260;
    await first.startSection('Limits', { api: 25 }, 5);
    await calls(first, bucket, 'A', 10);
    events.push({ at: START + MINUTE + 1000, run: () => void calls(first, bucket, 'A', callsAfterReset) });
    events.push({ at: endsAt, run: () => first.endSection() });
    let startedAt = 0;
    await second.startSection('Statuses', { api: 150 }, 20);
    startedAt = now;
    return { startedAt, second, bucket };
  }

  it('should start a window at the reset where the sections of the window before ended before it', async () => {
    const { startedAt, second } = await windowsRun(START + 10_000, 0);
    expect(startedAt).toBeGreaterThanOrEqual(START + MINUTE);
    expect(startedAt).toBeLessThan(START + MINUTE + 5000);
    // One wait, before the section.
    expect(second.pacingWaits()).toHaveLength(1);
    expect(second.pacingPlaces()).toEqual({ sections: 1, steps: 0, calls: 0, insideSteps: [] });
  });

  it('should start no section of a window while one of the window before still runs past the reset, then in the period it ended in where that holds the window', async () => {
    // Limits ran 30 s past the reset, 20 calls in the new period: 280 left hold the window's 250.
    const endsAt = START + MINUTE + 30_000;
    const { startedAt, second } = await windowsRun(endsAt, 20);
    expect(startedAt).toBeGreaterThanOrEqual(endsAt);
    expect(startedAt).toBeLessThan(endsAt + 1000);
    expect(second.pacingWaits()).toHaveLength(1);
  });

  it('should wait for the next reset where the period the window before ended in cannot hold the window: still one wait', async () => {
    // Limits spent 100 calls of the new period: 200 left cannot hold the window's 250.
    const endsAt = START + MINUTE + 30_000;
    const { startedAt, second, bucket } = await windowsRun(endsAt, 100);
    expect(startedAt).toBeGreaterThanOrEqual(bucket.resetAt);
    expect(second.pacingWaits()).toHaveLength(1);
    expect(bucket.refusals).toBe(0);
  });
});

describe("the calls beyond a run's plan, where the command knew what its bucket holds beyond it", () => {
  /** Each of two files: steps side by side, each planned with its undo and that undo's read, which the cleanup sends after them. */
  const STEPS = 14;
  const IN_STEP = 8;
  const UNDO = 2;
  const MAY_ADD = 3;

  /** The command's reading: 298 of 300 left (its own two calls), the plan's 280 calls and 3 more within the 283 usable. */
  function plannedRun(spare: number | undefined): SharedArrayBuffer {
    process.env.CONFORMANCE_BUDGET_AT_START = JSON.stringify({ remaining: 298, limit: LIMIT, resetAt: START + 5 * MINUTE, ...(spare === undefined ? {} : { spare }) });
    return new SharedArrayBuffer(1024);
  }

  /** A file's steps, then its cleanup's calls, outside any step. */
  async function file(pacing: Pacing, bucket: Bucket, actor: string): Promise<void> {
    const steps = Array.from({ length: STEPS }, (_, i) => pacing.withinFlow(`the step "${actor} ${i}"`, [actor], { api: IN_STEP + UNDO }, MAY_ADD, () => calls(pacing, bucket, actor, IN_STEP)));
    await Promise.all(steps);
    await calls(pacing, bucket, actor, STEPS * UNDO);
  }

  async function twoFiles(spare: number | undefined): Promise<{ first: Pacing; second: Pacing; bucket: Bucket }> {
    const buffer = plannedRun(spare);
    const [first, second] = [await worker(buffer), await worker(buffer)];
    const bucket = new Bucket(() => now, 5 * MINUTE);
    [bucket.count, bucket.resetAt] = [2, START + 5 * MINUTE];
    await Promise.all([file(first, bucket, 'A'), file(second, bucket, 'B')]);
    return { first, second, bucket };
  }

  it("should never wait in a run within its plan and the spare, its cleanup's calls included, and pace the first call beyond them", async () => {
    const { first, second, bucket } = await twoFiles(3);
    // A deviating server's reads again: three calls of the cleanup beyond its plan, the spare's.
    await calls(second, bucket, 'B', 3);
    expect([...first.pacingWaits(), ...second.pacingWaits()]).toEqual([]);
    // One more is beyond what the start line bounded: paced, and the server refuses none.
    await calls(second, bucket, 'B', 1);
    expect(second.pacingPlaces()).toMatchObject({ calls: 1, steps: 0, insideSteps: [] });
    expect(bucket.refusals).toBe(0);
  });

  it('should wait where each step holds its whole bound instead: the test above has teeth', async () => {
    const { first, second } = await twoFiles(undefined);
    expect(first.pacingPlaces().steps + second.pacingPlaces().steps).toBeGreaterThan(0);
  });
});

describe("a step's unspent calls, where the run's spare is known", () => {
  it("should give back to B's counter the calls a step of A and B held there and A sent: a step of B alone then starts at once", async () => {
    process.env.CONFORMANCE_BUDGET_AT_START = JSON.stringify({ remaining: 298, limit: LIMIT, resetAt: START + 5 * MINUTE, spare: 10 });
    const pacing = await worker(new SharedArrayBuffer(1024));
    const ipBucket = new Bucket(() => now, 5 * MINUTE);
    [ipBucket.count, ipBucket.resetAt] = [2, START + 5 * MINUTE];
    // B's own bucket: 59 left until a minute from now, room for one step of 40 and not for two.
    const bucketOfB = new Bucket(() => now, MINUTE);
    for (let i = 0; i < 240; i++) bucketOfB.spend();
    pacing.paceAfter('B', 'GET', '/api/v1/statuses/1', bucketOfB.spend(), { 'Account access of B': 0 });
    const STEP = 40;
    // The server's answers had A make every call of the step: B's counter held 40 calls that no one sent.
    await pacing.withinFlow('the step "moves of A and B"', ['A', 'B'], { api: STEP }, 0, () => calls(pacing, ipBucket, 'A', STEP));
    let startedAt: number | undefined;
    await pacing.withinFlow('the step "moves of B"', ['B'], { api: STEP }, 0, async () => void (startedAt = now));
    expect(startedAt).toBe(START);
    expect(pacing.pacingWaits()).toEqual([]);
    expect(pacing.pacingPlaces()).toMatchObject({ steps: 0, insideSteps: [] });
  });
});

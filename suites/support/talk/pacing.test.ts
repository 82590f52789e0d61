// Pacing against the reference server, whose test clock stands in for time: a run that paces itself by the
// X-RateLimit headers waits for the reset instead of being refused; one that does not is refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../../fixtures/reference-server/server.ts';
import { startFile } from './file-state.ts';
import { HttpClient } from './http.ts';
import { budgetAtStart, budgetKeysOf, countedCalls, paceAfter, paceBefore, pacingPlaces, reserveOf, resetTimeOf, RUN_ACCESS_CALLS, unpaced, useAnnouncer, usePacingClock, windowsOf, withinFlow, type SectionPlan } from './pacing.ts';

const MINUTE = 60_000;
const MISSING_ID = '999999999999999999';

let server: ReferenceServer;
let slept: number[];
let announced: string[];

beforeEach(async () => {
  server = await startReferenceServer();
  slept = [];
  announced = [];
  useAnnouncer((line) => announced.push(line));
  usePacingClock({
    now: () => server.clock.now().getTime(),
    sleep: async (ms) => {
      slept.push(ms);
      server.clock.advance(ms);
    },
  });
});

afterEach(async () => {
  usePacingClock(undefined);
  useAnnouncer(undefined);
  await server.close();
});

/** 40 deletions of a missing status: 10 more than the Deletion bucket allows in one period. */
async function deleteMany(client: HttpClient): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) statuses.push((await client.send('DELETE', `/api/v1/statuses/${MISSING_ID}`)).status ?? 0);
  return statuses;
}

describe('pacing', () => {
  it('should wait for the reset instead of being refused when a bucket runs out', async () => {
    const startedAt = server.clock.now().getTime();
    const statuses = await deleteMany(new HttpClient(server.url, 'A', server.users.a.token, 10_000));
    // The time the deletions took on this machine: the server's clock, less the wait it was moved on by.
    const tookMs = server.clock.now().getTime() - startedAt - (slept[0] ?? 0);
    expect(statuses.filter((s) => s !== 404)).toEqual([]);
    expect(slept).toHaveLength(1);
    // The period from the first deletion, less what the deletions before the wait took: measured here, not assumed.
    expect(slept[0]).toBeGreaterThan(30 * MINUTE - tookMs);
    // The Date header has whole seconds, and pacing waits one more second past the reset.
    expect(slept[0]).toBeLessThanOrEqual(30 * MINUTE + 2000);
    // Announced in one line: which bucket, how long (the wait it slept: the period less the time the deletions took,
    // which a busy machine lengthens), until when, before what.
    const seconds = Math.ceil((slept[0] ?? 0) / 1000);
    expect(announced).toHaveLength(1);
    expect(announced[0]).toContain(`… waiting ${Math.floor(seconds / 60)} min ${seconds % 60} s, until`);
    expect(announced[0]).toMatch(/^… waiting \d+ min \d+ s, until \d\d:\d\d:\d\d UTC, for the reset of the server's rate limit \(Deletion of A: 0 left\) before DELETE \/api\/v1\/statuses\/\d+ \(as A\)$/);
  });

  it('should be refused without pacing: the test above has teeth', async () => {
    const statuses = await unpaced(() => deleteMany(new HttpClient(server.url, 'A', server.users.a.token, 10_000)));
    expect(statuses.indexOf(429)).toBe(30);
    expect(slept).toEqual([]);
  });

  it('should read the timestamp forms of X-RateLimit-Reset and nothing else', () => {
    const at = Date.parse('2025-01-02T03:04:05Z');
    expect(resetTimeOf('2025-01-02T03:04:05.000Z')).toBe(at);
    expect(resetTimeOf('2025-01-02T03:04:05.000000+00:00')).toBe(at);
    expect(resetTimeOf('Thu, 02 Jan 2025 03:04:05 GMT')).toBe(at);
    expect(resetTimeOf(String(at / 1000))).toBe(at);
    for (const notATimestamp of ['300', '1', 'soon', '', undefined]) expect(resetTimeOf(notATimestamp)).toBeUndefined();
  });

  it('should count per-account buckets per actor, none for a call without a token, and per-IP buckets once', () => {
    expect(budgetKeysOf('A', 'DELETE', '/api/v1/statuses/1')).toEqual(['Account access of A', 'IP access', 'Deletion of A']);
    expect(budgetKeysOf(undefined, 'DELETE', '/api/v1/statuses/1')).toEqual(['IP access']);
    expect(budgetKeysOf('anonymous', 'POST', '/api/v1/accounts')).toEqual(['Account access of anonymous', 'IP access', 'App sign-up']);
    expect(budgetKeysOf('B', 'POST', '/api/v2/media?x=1')).toEqual(['Account access of B', 'IP access', 'Uploading of B']);
    expect(budgetKeysOf('A', 'POST', '/oauth/token')).toEqual([]);
  });
});

describe('the start line of a run the budget left cannot carry', () => {
  const headers = (limit: number, remaining: number, resetInMs: number) => ({
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': new Date(Date.now() + resetInMs).toISOString(),
    date: new Date().toUTCString(),
  });

  it('should say nothing where a period carries the run', () => {
    expect(budgetAtStart(headers(300, 300, MINUTE), { wholeRun: true, settleMs: 3000 })?.warning).toBeUndefined();
  });

  it('should name every wait it foresees: the reset before the start (or once the calls left are spent), each further period, the settle window', () => {
    const whole = budgetAtStart(headers(300, 40, MINUTE), { wholeRun: true, settleMs: 3000 });
    expect(whole?.waitBeforeStart).toBe(true);
    expect(whole?.warning).toMatch(/so the run waits for the reset \(\d+ s from now\) before it starts, where a run in the last 30 minutes spent them, for the reset of the Deletion and Uploading buckets \(30 per 30 minutes each\), for the settle window \(3000 ms\) where a group confirms its undos held, and says so each time it does; it may wait more where other clients spend the same budget\.$/);
    // 25 calls of the 40 left (15 kept in hand), then 85 a period: a full run's calls wait once, then as many more
    // times as the periods the rest takes.
    const further = Math.ceil((RUN_ACCESS_CALLS - 25) / 85) - 1;
    const part = budgetAtStart(headers(100, 40, MINUTE), { wholeRun: false, settleMs: 1000 });
    expect(part?.waitBeforeStart).toBe(false);
    const told = part?.warning?.match(/so the run waits for the reset \(\d+ s from now\) once the 40 calls left are spent \(15 of them kept in hand\), then (\d+) more times, each time the next period's 85 calls are spent, where a run in the last 30 minutes spent them, for the reset of the Deletion and Uploading buckets \(30 per 30 minutes each\), and says so each time it does; it may wait more where other clients spend the same budget\.$/);
    expect(told, part?.warning).not.toBeNull();
    expect(Number(told?.[1])).toBe(further);
  });

  it('should foresee the second wait of a whole run that one period less the reserve cannot carry', () => {
    // A plan of 298 calls: 285 a period of 300 (15 kept in hand), so once more after the reset before the start.
    const whole = budgetAtStart(headers(300, 40, MINUTE), { wholeRun: true, settleMs: 1000, runCalls: 298 });
    expect(whole?.warning).toMatch(/waits for the reset \(\d+ s from now\) before it starts, then once more, each time the next period's 285 calls are spent,/);
    expect(budgetAtStart(headers(300, 280, MINUTE), { wholeRun: true, settleMs: 1000 })?.warning).toMatch(/this run|a full run makes about \d+ calls/);
  });
});

describe('a flow (a step of the plan)', () => {
  const START = Date.parse('2026-01-01T00:00:00Z');
  let now: number;
  let slept: number[];
  let announced: string[];
  /** The answer of another call, which says how much of the access buckets (300 each) is left until a minute from now. */
  const answered = (remaining: number) =>
    paceAfter('A', 'GET', '/api/v1/statuses/1', {
      'x-ratelimit-limit': '300',
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': new Date(now + MINUTE).toISOString(),
      date: new Date(now).toUTCString(),
    });
  const call = () => paceBefore('A', 'GET', '/api/v1/statuses/1');

  beforeEach(() => {
    // The counters of the tests above are of another clock's period: each test here starts from nothing, as a file does.
    startFile();
    now = START;
    slept = [];
    announced = [];
    useAnnouncer((line) => announced.push(line));
    usePacingClock({ now: () => now, sleep: async (ms) => void (slept.push(ms), (now += ms)) });
  });

  afterEach(() => {
    usePacingClock(undefined);
    useAnnouncer(undefined);
  });

  it('should wait for the reset before its first call where the budget left cannot cover all of it', async () => {
    // A flow takes its calls from the estimate before it starts, so only the bucket itself must cover it, not pacing's reserve.
    answered(2);
    const waitsBefore = slept.length;
    await withinFlow('the step "a sign-in"', ['A'], { api: 3 }, 0, async () => {
      expect(slept.length, 'waited before the flow').toBe(waitsBefore + 1);
      for (let i = 0; i < 3; i++) await call();
    });
    expect(slept).toHaveLength(1);
    expect(announced[0]).toMatch(/before the step "a sign-in", which may make 3 calls: it starts only when the budget covers all of them$/);
  });

  it('should never wait between two calls of a flow, even where other calls spend the bucket meanwhile', async () => {
    answered(reserveOf('IP access') + 20);
    await withinFlow('the step "an upload and its reads"', ['A'], { api: 5 }, 0, async () => {
      await call();
      // Another group spent the bucket down to its reserve: outside a flow, the next call would wait.
      answered(reserveOf('IP access'));
      for (let i = 0; i < 4; i++) await call();
    });
    expect(slept).toEqual([]);
    // Outside a flow, pacing waits as ever.
    await call();
    expect(slept).toHaveLength(1);
  });
});

describe("the server's count and a step's worst case", () => {
  const START = Date.parse('2026-01-01T00:00:00Z');
  let now: number;
  let slept: number[];
  const headersOf = (remaining: number) => ({
    'x-ratelimit-limit': '300',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': new Date(now + MINUTE).toISOString(),
    date: new Date(now).toUTCString(),
  });

  beforeEach(() => {
    startFile();
    now = START;
    slept = [];
    useAnnouncer(() => undefined);
    usePacingClock({ now: () => now, sleep: async (ms) => void (slept.push(ms), (now += ms)) });
  });

  afterEach(() => {
    usePacingClock(undefined);
    useAnnouncer(undefined);
  });

  /** A call of A, answered with the server's Remaining. */
  const callAnswered = async (remaining: number) => paceAfter('A', 'GET', '/api/v1/statuses/1', headersOf(remaining), await paceBefore('A', 'GET', '/api/v1/statuses/1'));

  it('should take what is left from the server, above its own count too, and pass over an answer of an earlier call', async () => {
    await callAnswered(100);
    // Ten calls it counted; the server says it counted two of them (another path, a cache: its count decides).
    const tickets = [];
    for (let i = 0; i < 10; i++) tickets.push(await paceBefore('A', 'GET', '/api/v1/statuses/1'));
    paceAfter('A', 'GET', '/api/v1/statuses/1', headersOf(98), tickets[9]);
    // An answer of an earlier call, arriving last, says less than the later one: passed over.
    paceAfter('A', 'GET', '/api/v1/statuses/1', headersOf(50), tickets[0]);
    await withinFlow('the step "98 calls"', ['A'], { api: 98 }, 0, async () => undefined);
    expect(slept).toEqual([]);
    await withinFlow('the step "99 calls"', ['A'], { api: 99 }, 0, async () => undefined);
    expect(slept).toHaveLength(1);
  });

  it("should take a bucket's next reset from its own period, never from a longer bucket's (a deletion's 30 minutes)", async () => {
    // A deletion answered with the Deletion bucket's headers: 30 of 30, reset in 30 minutes.
    paceAfter('A', 'DELETE', '/api/v1/statuses/1', { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '29', 'x-ratelimit-reset': new Date(now + 30 * MINUTE).toISOString(), date: new Date(now).toUTCString() }, await paceBefore('A', 'DELETE', '/api/v1/statuses/1'));
    // The access buckets nearly spent, their reset in a minute: a step of 100 waits for that reset, then takes the next period whole.
    await callAnswered(20);
    await withinFlow('the step "100 calls"', ['A'], { api: 100 }, 0, async () => undefined);
    expect(slept).toHaveLength(1);
    expect(slept[0]).toBeLessThanOrEqual(MINUTE + 5000);
    // The new period spent (250 calls sent, no answer read), a step of 100 waits for the next reset: a minute later (its own period), not 30.
    for (let i = 0; i < 250; i++) await paceBefore('A', 'GET', '/api/v1/statuses/1');
    await withinFlow('the step "100 calls"', ['A'], { api: 100 }, 0, async () => undefined);
    expect(slept).toHaveLength(2);
    expect(slept[1]).toBeLessThanOrEqual(MINUTE + 5000);
  });

  it('should wait before a step until the bucket holds its planned calls and what a deviating server may add, then never inside it', async () => {
    await callAnswered(10);
    await withinFlow('the step "eight calls and five more"', ['A'], { api: 8 }, 5, async () => {
      expect(slept, 'waited before the step').toHaveLength(1);
      for (let i = 0; i < 13; i++) await callAnswered(Math.max(0, 300 - 15 - i));
    });
    expect(slept).toHaveLength(1);
    expect(pacingPlaces()).toEqual({ sections: 0, steps: 1, calls: 0, insideSteps: [] });
  });

  it('should say where a step waited between its calls: the calls beyond its bound are paced one by one', async () => {
    await callAnswered(100);
    await withinFlow('the step "one call, none added"', ['A'], { api: 1 }, 0, async () => {
      await callAnswered(reserveOf('IP access'));
      await callAnswered(200);
    });
    expect(pacingPlaces().insideSteps).toEqual([expect.stringMatching(/before GET \/api\/v1\/statuses\/1 \(as A\), inside the step "one call, none added"$/)]);
  });
});

describe('the windows of a run its bucket cannot carry', () => {
  const section = (name: string, api: number, mayAdd = 0): SectionPlan => ({ name, cost: { api }, mayAdd });
  const headers = (remaining: number) => ({
    'x-ratelimit-limit': '300',
    'x-ratelimit-remaining': String(remaining),
    'x-ratelimit-reset': new Date(Date.now() + MINUTE).toISOString(),
    date: new Date().toUTCString(),
  });

  it('should fill each window in the order sections start, with their worst case, and start none in what cannot hold it', () => {
    const sections = [section('a', 90, 10), section('b', 90, 10), section('c', 90, 10), section('d', 90, 10)];
    expect(windowsOf(sections, false, 150, 285).map((w) => w.map((s) => s.name))).toEqual([['a'], ['b', 'c'], ['d']]);
    expect(windowsOf(sections, false, 50, 285).map((w) => w.map((s) => s.name))).toEqual([[], ['a', 'b'], ['c', 'd']]);
    // The /oauth calls and files count where the server counts every path.
    expect(countedCalls({ api: 2, oauth: 3, files: 1, streams: 4 }, true)).toBe(10);
    expect(countedCalls({ api: 2, oauth: 3, files: 1, streams: 4 }, false)).toBe(6);
  });

  it('should name each wait between sections at the start, and plan every path where the server counted more than the command sent on /api', () => {
    const sections = [section('Limits', 20), section('Statuses', 150, 20), section('OAuth', 10, 5)];
    const start = budgetAtStart(headers(296), { wholeRun: true, settleMs: 1000, sections: sections.map((s) => ({ ...s, cost: { ...s.cost, oauth: 40 } })), ownApiCalls: 3 });
    // 4 counted, the command's 3 /api calls and its HEAD /: the /oauth calls count too.
    expect(start?.reading.everyPath).toBe(true);
    expect(start?.reading.windowed).toBe(true);
    expect(start?.foreseenWaits).toBe(1);
    expect(start?.warning).toMatch(/its sections run in 2 windows of the bucket \(now: Limits, Statuses; 285 calls each, 15 of 300 kept in hand\), so the run waits only between sections: for the reset \(\d+ s from now\) before OAuth;/);
    // A fresh period that holds the worst case: nothing to say, no window.
    const fits = budgetAtStart(headers(297), { wholeRun: true, settleMs: 1000, sections, ownApiCalls: 3 });
    expect(fits?.warning).toBeUndefined();
    expect(fits?.reading.windowed).toBeUndefined();
  });

  it('should plan every path where the server counted fewer than the command sent on /api: a period began among its calls, and the count cannot tell', () => {
    const sections = [section('Limits', 20), section('Statuses', 150, 20), section('OAuth', 10, 5)].map((s) => ({ ...s, cost: { ...s.cost, oauth: 40 } }));
    // 1 counted of the command's 3 /api calls: its reset came between the preflight and the reading. Planned by /api
    // alone the run would fit; a server that counts every path would then make it wait inside its steps.
    const start = budgetAtStart(headers(299), { wholeRun: true, settleMs: 1000, sections, ownApiCalls: 3 });
    expect(start?.reading.everyPath).toBe(true);
    expect(start?.reading.windowed).toBe(true);
    expect(start?.foreseenWaits).toBe(1);
    expect(start?.warning).toMatch(/it counted 1 calls, fewer than the command's 3 on \/api: its period began among them/);
    // As many as the command sent: the server counts /api alone, and the plan fits.
    expect(budgetAtStart(headers(297), { wholeRun: true, settleMs: 1000, sections, ownApiCalls: 3 })?.reading.everyPath).toBeUndefined();
  });

  it('should not split a run whose plan fits what is left, and say a deviating server may wait once it added more than the plan leaves', () => {
    const sections = [section('Limits', 20, 10), section('Statuses', 250, 40)];
    const start = budgetAtStart(headers(297), { wholeRun: true, settleMs: 1000, sections, ownApiCalls: 3 });
    expect(start?.reading.windowed).toBeUndefined();
    expect(start?.reading.spare).toBe(12);
    expect(start?.waitBeforeStart).toBeFalsy();
    // A wait at most, where a deviating server adds its whole bound: 320 calls against the 282 left.
    expect(start?.foreseenWaits).toBe(1);
    expect(start?.warning).toMatch(/this run's plan makes 270 calls it counts, within what is left \(15 kept in hand\); each step starts only when the bucket holds its calls, and what a deviating server may add to them \(at most 50 in all\) is taken from the 12 calls the plan leaves while they last, so a server that adds more may need a wait for the reset \(\d+ s from now\) before one of its calls/);
  });

  it('should wait for the reset before a whole run that would wait as often starting in what is left', () => {
    const sections = [section('Limits', 20), section('Statuses', 150), section('OAuth', 150)];
    // 40 left: Limits now, then a window each for Statuses and OAuth; from a fresh period, two windows.
    const whole = budgetAtStart(headers(55), { wholeRun: true, settleMs: 1000, sections, ownApiCalls: 3 });
    expect(whole?.waitBeforeStart).toBe(true);
    expect(whole?.foreseenWaits).toBe(2);
    expect(whole?.warning).toMatch(/so the run waits only between sections: for the reset \(\d+ s from now\) before it starts, Limits, Statuses, then for the next reset \(up to 5 min 0 s: a period, less the time the sections before took in it\) before OAuth;/);
    // A selection starts at once.
    expect(budgetAtStart(headers(55), { wholeRun: false, settleMs: 1000, sections, ownApiCalls: 3 })?.waitBeforeStart).toBe(false);
  });
});

describe('what the count at the start says of the paths a server counts', () => {
  const VERIFY = '/api/v1/accounts/verify_credentials';
  /** The preflight's calls and the budget's read, in the order the command makes them: HEAD / alone between the token reads (answered) and the read. */
  const CALLS = [VERIFY, VERIFY, '/', '/api/v1/instance'];
  const sections: SectionPlan[] = [{ name: 'Statuses', cost: { api: 100, oauth: 200 }, mayAdd: 10 }];

  /**
   * The readings of those calls from a server that counts in periods starting at the first call after the last one
   * ended (as the reference server does), with its headers on /api answers only; its clock moves a second per call.
   * A run before ours spent 200 of the period, which ends right before the call at `endsBefore` (never, where none is given).
   */
  function readings(countsEveryPath: boolean, endsBefore?: number): { beforeHead: Record<string, string>[]; instance: Record<string, string> } {
    const start = Date.now();
    let count = 200;
    let resetAt = endsBefore === undefined ? start + MINUTE : start + endsBefore * 1000 - 500;
    const answers = CALLS.map((path, i) => {
      const now = start + i * 1000;
      if (i === endsBefore) [count, resetAt] = [0, now + 5 * MINUTE];
      const api = path.startsWith('/api/');
      if (api || countsEveryPath) count += 1;
      const rateLimit = { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': String(300 - count), 'x-ratelimit-reset': new Date(resetAt).toISOString() };
      return { date: new Date(now).toUTCString(), ...(api ? rateLimit : {}) };
    });
    return { beforeHead: answers.slice(0, 2), instance: answers[3] as Record<string, string> };
  }

  const everyPathPlanned = (countsEveryPath: boolean, endsBefore?: number): boolean | undefined => {
    const { beforeHead, instance } = readings(countsEveryPath, endsBefore);
    return budgetAtStart(instance, { wholeRun: true, settleMs: 1000, sections, ownApiCalls: 3, readingsBeforeHead: beforeHead })?.reading.everyPath;
  };

  it('should plan every path on a server that counts HEAD /, wherever a period ends among the command\'s calls', () => {
    for (const endsBefore of [undefined, 0, 1, 2, 3]) expect(everyPathPlanned(true, endsBefore), `a period that ends before call ${endsBefore}`).toBe(true);
  });

  it('should plan /api alone on a server that counts /api alone, but where a period ends around HEAD /, which no count can place', () => {
    // In a period a run before ours spent, fresh, or one that began between the token reads: the count after them tells.
    for (const endsBefore of [undefined, 0, 1]) expect(everyPathPlanned(false, endsBefore), `a period that ends before call ${endsBefore}`).toBeUndefined();
    // Before HEAD / or before the read: the worst case, and the start line says why.
    for (const endsBefore of [2, 3]) expect(everyPathPlanned(false, endsBefore), `a period that ends before call ${endsBefore}`).toBe(true);
    const { beforeHead, instance } = readings(false, 2);
    expect(budgetAtStart(instance, { wholeRun: true, settleMs: 1000, sections, ownApiCalls: 3, readingsBeforeHead: beforeHead })?.warning).toMatch(/its period began after the command's token reads, around its HEAD \/: the count cannot tell/);
  });

  it('should read a count of another counter than the token reads\' by the command\'s calls alone', () => {
    // The token reads report their accounts' buckets, fresh, and the read an IP bucket that counted it alone (a period began among our calls).
    const { instance } = readings(false, 3);
    const accounts = [0, 1].map(() => ({ ...instance, 'x-ratelimit-remaining': '299' }));
    expect(budgetAtStart(instance, { wholeRun: true, settleMs: 1000, sections, ownApiCalls: 3, readingsBeforeHead: accounts })?.reading.everyPath).toBe(true);
  });
});

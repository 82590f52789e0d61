// The contract's "Limits" section: the rate-limit headers and the buckets of the Limits table. The probes spend
// buckets without creating anything: reads, deletions and unreblogs of a status that does not exist, uploads
// without a file. Servers count a call against its buckets whatever it answers, so a 404 or a 422 spends them.
// The rules for every response are registered checks (support/judge/registered-checks.ts) that the reporter judges
// over the whole run; the LIMITS-HEADERS checks here judge this group's own responses with the same functions.
// The preparation only calls and reads headers. A check whose readings those rules show unusable (no header, not
// a number, Remaining above Limit), or whose counts do not count down at all, is blocked by that clause.
import type { TestContext } from 'vitest';
import { actors, type Actor } from './support/act/actors.ts';
import type { Exchange } from './support/talk/http.ts';
import { holdBuckets } from './support/talk/bucket-turns.ts';
import { LIMITS, resetTimeOf, unpaced } from './support/talk/pacing.ts';
import { causeOf, type RootCause, type StepOutcome } from './support/act/steps.ts';
import { block, needs } from './support/judge/preconditions.ts';
import { violationsOf } from './support/judge/registered-checks.ts';
import { check, expectRefusal, fail } from './support/judge/verify.ts';
import { it, made, NEEDS_B_DELETIONS, requirement, section, step } from './support/run/checks.ts';

const { config } = actors();
// Uploads without a file and sign-ups without their parameters are malformed on purpose: they create nothing.
const PROBE = { malformed: true };
// An id no server has given out: far above any snowflake of this century.
const MISSING_ID = '999999999999999999';
const ACCESS = LIMITS['Account access'];
const DELETION = LIMITS.Deletion;
const SIGN_UP = LIMITS['App sign-up'];
// Every probe here stays far from the 300 of the access buckets while this many calls are left in them.
const ACCESS_HEADROOM = 60;
// Resets within this of each other are one period: servers with whole-second timestamps round them.
const SAME_PERIOD_MS = 2000;

interface Reading {
  limit?: number;
  remaining?: number;
  reset?: number;
  exchange: Exchange;
}

// Lenient on purpose: whether the values are whole numbers is LIMITS-HEADERS-2's to judge, not these checks'.
const numberOf = (value: string | undefined) => (value !== undefined && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : undefined);

function readingOf(exchange: Exchange): Reading {
  const { headers } = exchange;
  return {
    limit: numberOf(headers['x-ratelimit-limit']),
    remaining: numberOf(headers['x-ratelimit-remaining']),
    reset: resetTimeOf(headers['x-ratelimit-reset']),
    exchange,
  };
}

const shown = (r: Reading) => `X-RateLimit-Limit ${r.exchange.headers['x-ratelimit-limit'] ?? '(none)'}, X-RateLimit-Remaining ${r.exchange.headers['x-ratelimit-remaining'] ?? '(none)'}`;
const remainings = (readings: readonly Reading[]) => readings.map((r) => r.remaining ?? '(none)').join(' -> ');

/** A period that ends between two calls refills the bucket: nothing can be judged from that pair. */
function samePeriod(readings: readonly Reading[]): boolean {
  const resets = readings.map((r) => r.reset).filter((t): t is number => t !== undefined);
  return resets.length === 0 || Math.max(...resets) - Math.min(...resets) <= SAME_PERIOD_MS;
}

function inOnePeriod(context: TestContext, readings: readonly Reading[]): void {
  if (!samePeriod(readings)) context.skip('a rate-limit period ended between the calls; the next run judges this again');
}

const isRefusal = (exchange: Exchange) => exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500;

// What each registered rule leaves unreadable: the count and limit the checks compare.
const READABLE_BY = ['LIMITS-HEADERS-1', 'LIMITS-HEADERS-2', 'LIMITS-HEADERS-3'];

/** Why the checks cannot compare these readings' Limit and Remaining: no answer, or a registered rule rejects them. */
function unreadable(...readings: Reading[]): RootCause | undefined {
  for (const { exchange } of readings) {
    if (exchange.error) return causeOf(undefined, `${exchange.method} ${exchange.path} got no answer (${exchange.error})`, exchange);
    const violations = violationsOf(exchange);
    for (const id of READABLE_BY) {
      const violation = violations.get(id);
      if (violation) return causeOf(id, `${exchange.method} ${exchange.path} answered ${violation.actual}`, exchange);
    }
  }
  return undefined;
}

/** Readings whose Limit and Remaining the checks can compare; one the registered rules reject blocks the check with their clause. */
function readable(...readings: Reading[]): void {
  const cause = unreadable(...readings);
  if (cause) block(cause);
}

/** Why A's count cannot be read going down: unreadable, or A's two uploads of one period leave Remaining as it was. */
function notCountingDown([first, second]: readonly [Reading, Reading]): RootCause | undefined {
  const cause = unreadable(first, second);
  if (cause) return cause;
  if (samePeriod([first, second]) && (second.remaining as number) >= (first.remaining as number)) {
    return causeOf('LIMITS-REMAINING-1', `X-RateLimit-Remaining ${remainings([first, second])} on two calls of A within a period`, second.exchange);
  }
  return undefined;
}

/** The checks of a bucket read its count going down: where A's two calls of one period leave Remaining as it was, they cannot. */
function countsDown(calls: readonly [Reading, Reading]): void {
  const cause = notCountingDown(calls);
  if (cause) block(cause);
}

/** The narrow buckets (limit 30) are the closest to exhaustion only while the access buckets have headroom. */
function accessHasHeadroom(context: TestContext, reading: Reading): void {
  readable(reading);
  needs(context, (reading.remaining ?? 0) >= ACCESS_HEADROOM, `the access buckets are nearly spent (${shown(reading)}): they, not the bucket under test, are the closest to exhaustion`);
}

/** What the buckets read: an ordinary call of A, uploads of A, B and A taking turns, and B's deletion, unreblog and deletion. */
interface Readings {
  /** A's ordinary call: the access buckets. */
  first: Reading;
  /** A's two uploads (v1 both), the calls whose count going down every check of a bucket relies on. */
  uploads: [Reading, Reading];
  /** B's upload between A's two (v2), when B is configured. */
  uploadsOfB: Reading[];
  /** LIMITS-UPLOAD-1's v2 upload: B's between A's two, or A's after them where B is not configured. */
  v2: Reading;
  /**
   * B's deletion, unreblog and deletion, when B is configured: the other groups spend A's share of the Deletion bucket
   * (15 a run), and B's is where the group's 3 fit.
   */
  triple?: [deletion: Reading, unreblog: Reading, deletion: Reading];
}

/** What the buckets read of B's deletions: the checks that judge them require B, and are never judged without it. */
function tripleOf({ triple }: Readings): NonNullable<Readings['triple']> {
  if (!triple) throw new Error('a check requiring B was judged without CONFORMANCE_TOKEN_B');
  return triple;
}

/** Why the checks of the Deletion bucket are skipped without B. */
const withB = requirement(config.tokenB, NEEDS_B_DELETIONS);

// One step, the calls one after another: A's uploads have B's between them, so that the counts each check compares
// come from calls no other call of the group falls between, and the two of A are of one endpoint, so of one bucket.
// Where a period ended between A's uploads, the turns go once more: an upload of A, and one of B where B takes turns.
const readings = step('the buckets read: a call of A, uploads of A, B and A taking turns, and B\'s deletion, unreblog and deletion', { as: 'A', alsoAs: ['anonymous', 'B'], cost: { api: (config.destructive ? 7 : 8) - (config.tokenB ? 0 : 3) }, mayAdd: config.tokenB ? 2 : 1 }, async (_, { actor: a, also: { anonymous, B: b } }): Promise<StepOutcome<Readings>> => {
  // An ordinary call of A: a read of a status that does not exist, which spends the access buckets as any read does.
  const first = readingOf(await a.get(`/api/v1/statuses/${MISSING_ID}`));
  // A call without a token, whose headers are the IP access bucket's: the sign-ups of LIMITS-SIGNUP-1 are such
  // calls, where the configuration allows them.
  if (!config.destructive) await (anonymous as Actor).get(`/api/v1/statuses/${MISSING_ID}`);
  const upload = async (actor: Actor, path: string) => readingOf(await actor.post(path, undefined, PROBE));
  // A's two uploads are v1 (one endpoint, one bucket, whatever the server does with v2): B's v2 upload between them
  // is LIMITS-UPLOAD-1's v2 reading; without B, A's own v2 upload comes after them.
  // The turns hold their bucket: no upload or deletion of another group falls between them (bucket-turns.ts).
  // A period of A's bucket that ended between its two uploads refills it and leaves nothing to compare: the turns go
  // once more from A's second upload, in the new period (a call of A and one of B more, on such a run only: a verdict
  // does not hang on where a period of the server's clock happened to end).
  const { uploads, uploadsOfB, v2 } = await holdBuckets(['Uploading'], async () => {
    const turns = async (a1: Reading) => {
      const uploadsOfB = b ? [await upload(b, '/api/v2/media')] : [];
      const uploads: Readings['uploads'] = [a1, await upload(a, '/api/v1/media')];
      return { uploads, uploadsOfB };
    };
    let taken = await turns(await upload(a, '/api/v1/media'));
    if (!samePeriod(taken.uploads)) taken = await turns(taken.uploads[1]);
    return { ...taken, v2: taken.uploadsOfB[0] ?? (await upload(a, '/api/v2/media')) };
  });
  if (!b) return made({ first, uploads, uploadsOfB, v2 });
  const deletion = async () => readingOf(await b.delete(`/api/v1/statuses/${MISSING_ID}`));
  const triple = await holdBuckets(['Deletion'], async (): Promise<NonNullable<Readings['triple']>> => [await deletion(), readingOf(await b.post(`/api/v1/statuses/${MISSING_ID}/unreblog`)), await deletion()]);
  return made({ first, uploads, uploadsOfB, v2, triple });
});

/** What spending the App sign-up bucket showed: each call's reading, and the refusal that ended it. */
interface SignUps {
  calls: Reading[];
  /** Why the count could not be read going down: the bucket is then judged by its refusal alone. */
  countless?: RootCause;
  /** Why a call of the count could not be read: nothing can be judged of it. */
  unreadable?: RootCause;
  refusal?: Exchange;
  /** The answer the same call got within the budget, for the observation of the refusal. */
  withinBudget?: Exchange;
}

/**
 * Spends the App sign-up bucket: the calls until Remaining reaches 0, and one more, which the budget refuses. Where the
 * headers cannot be read going down, the calls until one is refused (an earlier run may have spent the bucket already,
 * so a refusal may come sooner). No other check of the run calls POST /api/v1/accounts, so the groups running beside
 * this one are not refused, whatever the order of the groups.
 */
async function spendSignUps(anon: Actor, { uploads }: Readings): Promise<SignUps> {
  const calls: Reading[] = [];
  const call = async () => {
    const reading = readingOf(await anon.post('/api/v1/accounts', undefined, PROBE));
    calls.push(reading);
    return reading;
  };
  return unpaced(async (): Promise<SignUps> => {
    let last = await call();
    if (last.exchange.error) return { calls, unreadable: unreadable(last) as RootCause };
    const countless = notCountingDown(uploads) ?? unreadable(last);
    if (countless) {
      // The probe is malformed, so the server refuses it within the budget too: the bucket's refusal is a 429, or
      // another refusal than the first answer gave.
      const opening = last.exchange;
      const limited = (e: Exchange) => e.status === 429 || (isRefusal(e) && e.status !== opening.status);
      for (let count = 1; count <= SIGN_UP.limit && !limited(last.exchange); count++) last = await call();
      const refusal = limited(last.exchange) ? last.exchange : undefined;
      return { calls, countless, ...(refusal ? { refusal } : {}), ...(refusal !== opening ? { withinBudget: opening } : {}) };
    }
    // Unless an earlier run spent the bucket, this first answer is the operation's own, for the observation.
    const withinBudget = (last.remaining ?? 0) > 0 ? last.exchange : undefined;
    const budget = withinBudget ? { withinBudget } : {};
    for (let count = 1; count < SIGN_UP.limit && last.remaining !== 0; count++) {
      last = await call();
      const cause = unreadable(last);
      if (cause) return { calls, unreadable: cause, ...budget };
    }
    // A count that did not reach 0 within the limit is LIMITS-SIGNUP-1's failure: no refusal is asked for.
    if (last.remaining !== 0) return { calls, ...budget };
    return { calls, refusal: await anon.post('/api/v1/accounts', undefined, PROBE), ...budget };
  });
}

const DESTRUCTIVE = 'spends the App sign-up bucket of this address for 30 minutes: set CONFORMANCE_DESTRUCTIVE';
const signUps = step('the App sign-up bucket spent: POST /api/v1/accounts until it is refused', { as: 'anonymous', needs: { readings }, cost: { api: 6 } }, async ({ readings }, { actor }) =>
  made(await spendSignUps(actor, readings)),
);

section('Limits', () => {
  it('LIMITS-REMAINING-1 X-RateLimit-Remaining decreases from one call of the caller to the next within a period', { needs: { readings } }, ({ readings: { uploads } }, context) => {
    // A's two uploads of one endpoint, which report one bucket whichever it is. Any number that can be compared will
    // do: whole numbers are LIMITS-HEADERS-2's.
    const [first, second] = uploads;
    if (first.remaining === undefined || second.remaining === undefined) readable(first, second);
    inOnePeriod(context, [first, second]);
    const decreased = first.remaining !== undefined && second.remaining !== undefined && second.remaining < first.remaining;
    check(decreased, 'X-RateLimit-Remaining lower on the second of two calls', `X-RateLimit-Remaining ${remainings([first, second])}`, second.exchange);
  });

  it('LIMITS-ACCESS-1 an ordinary /api/* call reports limit 300 and a reset within 5 minutes', { needs: { readings } }, ({ readings: { first } }) => {
    if (first.limit === undefined) readable(first);
    const reset = first.exchange.headers['x-ratelimit-reset'];
    // A reset that is missing or no timestamp is the registered rules' (LIMITS-HEADERS-1, -4) to judge.
    if (first.reset === undefined) block(causeOf(reset === undefined ? 'LIMITS-HEADERS-1' : 'LIMITS-HEADERS-4', `X-RateLimit-Reset: ${reset ?? '(none)'} on an ordinary call`, first.exchange));
    check(first.limit === ACCESS.limit, `X-RateLimit-Limit ${ACCESS.limit} (Account access and IP access)`, shown(first), first.exchange);
    // By the server's own clock when it sends its Date header; its whole seconds are allowed for.
    const date = Date.parse(first.exchange.headers.date ?? '');
    const answeredAt = Number.isNaN(date) ? Date.now() : date;
    const within = first.reset !== undefined && first.reset - answeredAt <= ACCESS.periodMs + SAME_PERIOD_MS;
    check(within, 'X-RateLimit-Reset at most 5 minutes after the response', `X-RateLimit-Reset ${first.exchange.headers['x-ratelimit-reset'] ?? '(none)'}, Date ${first.exchange.headers.date ?? '(none)'}`, first.exchange);
  });

  it(
    'LIMITS-ACCOUNT-1 the Uploading bucket of one account is not spent by the calls of another',
    { requires: [requirement(config.tokenB, 'needs a second account: CONFORMANCE_TOKEN_B')], needs: { readings } },
    ({ readings: { uploads, uploadsOfB } }, context) => {
      const [ofB] = uploadsOfB as [Reading];
      const turns = [uploads[0], ofB, uploads[1]];
      readable(...turns);
      // A's count falls between its own uploads (else LIMITS-REMAINING-1 blocks this), once its period is one.
      countsDown(uploads);
      // The Account access bucket cannot show it: both accounts call from one address, so the headers report IP access.
      const offBucket = turns.find((r) => r.limit !== LIMITS.Uploading.limit);
      if (offBucket) block(causeOf('LIMITS-UPLOAD-1', `the headers of an upload do not report the Uploading bucket (${shown(offBucket)})`, offBucket.exchange));
      // Each account's bucket has its own period: A's started with the run's first upload, B's with B's.
      inOnePeriod(context, uploads);
      const [a1, b1, a2] = turns.map((r) => r.remaining ?? Number.NaN) as [number, number, number];
      // One bucket for both would count down at every turn, so B's reading would fall strictly between A's two. Other
      // groups of the run upload as A and as B meanwhile, so A's own count need not fall by exactly 1 (asking that
      // failed a conforming server when both uploaded elsewhere at once); the count of B's bucket of its own falls
      // strictly between A's only where A's fell by 2 or more and B's happens to stand just there. A reset of B's outside
      // A's period is of a period of its own, so of a bucket of its own: one bucket for both has one period.
      check(
        !samePeriod(turns) || !(a1 > b1 && b1 > a2),
        "each account's Uploading Remaining counted on its own: B's reading, between A's two, not one count falling at every call",
        `A ${remainings(uploads)}, B ${remainings([ofB])}, taking turns A B A`,
        ofB.exchange,
      );
    },
  );

  it('LIMITS-UPLOAD-1 the headers of an upload (v1 and v2) report the Uploading bucket: limit 30, Remaining below 30', { needs: { readings } }, ({ readings: { first, uploads, v2 } }, context) => {
    accessHasHeadroom(context, first);
    // A's v1 upload and the v2 upload (B's where B is configured: an account's Uploading bucket is judged the same).
    const judged = [uploads[0], v2];
    readable(...judged);
    countsDown(uploads);
    const limit = LIMITS.Uploading.limit;
    for (const upload of judged) {
      const reported = upload.limit === limit && upload.remaining !== undefined && upload.remaining < limit;
      check(reported, `X-RateLimit-Limit ${limit} and X-RateLimit-Remaining below ${limit} (Uploading, the bucket closest to exhaustion)`, shown(upload), upload.exchange);
    }
  });

  it('LIMITS-DELETION-1 the headers of DELETE /api/v1/statuses/:id report the Deletion bucket: limit 30, Remaining below 30', { requires: [withB], needs: { readings } }, ({ readings }, context) => {
    const { first, uploads } = readings;
    accessHasHeadroom(context, first);
    const [deletion] = tripleOf(readings);
    readable(deletion);
    countsDown(uploads);
    const reported = deletion.limit === DELETION.limit && deletion.remaining !== undefined && deletion.remaining < DELETION.limit;
    check(reported, `X-RateLimit-Limit ${DELETION.limit} and X-RateLimit-Remaining below ${DELETION.limit} (Deletion, the bucket closest to exhaustion)`, shown(deletion), deletion.exchange);
  });

  it('LIMITS-DELETION-2 a deletion, an unreblog and a deletion count down one Deletion bucket', { requires: [withB], needs: { readings } }, ({ readings }, context) => {
    const { first, uploads } = readings;
    const triple = tripleOf(readings);
    accessHasHeadroom(context, first);
    readable(...triple);
    countsDown(uploads);
    // That DELETE reports the Deletion bucket is LIMITS-DELETION-1's; here, that the unreblog shares it.
    const [, unreblog] = triple;
    const offBucket = triple.find((r) => r !== unreblog && r.limit !== DELETION.limit);
    if (offBucket) block(causeOf('LIMITS-DELETION-1', `the headers of a deletion do not report the Deletion bucket (${shown(offBucket)})`, offBucket.exchange));
    if (unreblog.limit !== DELETION.limit) fail(`X-RateLimit-Limit ${DELETION.limit} on the unreblog, as on the deletions`, shown(unreblog), unreblog.exchange);
    // The two deletions tell whether a period ended between the calls; the unreblog's own Reset may differ only
    // where it spends another bucket, which is what this check is to find.
    inOnePeriod(context, [triple[0], triple[2]]);
    const [d1, u, d2] = triple.map((r) => r.remaining ?? Number.NaN) as [number, number, number];
    // Two buckets could not put the unreblog's count strictly between the two deletions' counts.
    check(d1 > u && u > d2, 'the unreblog Remaining strictly between the Remaining of the deletion before it and after it', `Remaining ${remainings(triple)}`, triple[1].exchange);
  });

  it(
    'LIMITS-SIGNUP-1 POST /api/v1/accounts, 5 calls per 30 minutes per IP: Remaining reaches 0, then the call is refused',
    { requires: [requirement(config.destructive, DESTRUCTIVE)], needs: { signUps } },
    async ({ signUps: { calls, countless, unreadable: cause, refusal } }, context) => {
      if (cause) block(cause);
      const last = calls.at(-1) as Reading;
      if (countless) {
        const said = `X-RateLimit-Remaining could not be read going down (${countless.clause ?? 'outside the contract'}: ${countless.summary})`;
        await context.annotate(`${said}: the bucket was judged by its refusal alone`, 'observation');
        const expected = `a refusal within ${SIGN_UP.limit + 1} calls (App sign-up: ${SIGN_UP.limit} per 30 minutes): HTTP 429, or another 4xx than the call answered within the budget`;
        check(refusal !== undefined, expected, `${calls.length} calls, the last answered HTTP ${last.exchange.status}`, last.exchange);
        return;
      }
      check(last.remaining === 0, `X-RateLimit-Remaining 0 within ${SIGN_UP.limit} calls (App sign-up: ${SIGN_UP.limit} per 30 minutes)`, shown(last), last.exchange);
      const refused = refusal as Exchange;
      expectRefusal(refused);
      check(readingOf(refused).remaining === 0, 'X-RateLimit-Remaining 0 on the refusal', shown(readingOf(refused)), refused);
    },
  );

  it(
    'LIMITS-REFUSAL-1 the response when a rate limit is exceeded is not shown: observed',
    { requires: [requirement(config.destructive, 'the App sign-up bucket is exhausted only by LIMITS-SIGNUP-1: set CONFORMANCE_DESTRUCTIVE')], needs: { signUps } },
    async ({ signUps: { calls, unreadable: cause, refusal, withinBudget } }, context) => {
      if (!refusal) {
        // Why LIMITS-SIGNUP-1 made no refusal: a sign-up that got no answer, or its own failure to spend the bucket.
        if (cause) block(cause);
        const last = calls.at(-1) as Reading;
        block(causeOf('LIMITS-SIGNUP-1', `the App sign-up bucket was not spent: ${calls.length} calls, the last answered HTTP ${last.exchange.status} (${shown(last)})`, last.exchange));
      }
      const usual = refusal.status === 429 && /^\s*\{\s*"error"\s*:/.test(refusal.text) ? ', what real servers answer' : '';
      const before = withinBudget ? `; within the budget the same call was answered HTTP ${withinBudget.status}` : '';
      await context.annotate(`the refusal: HTTP ${refusal.status} ${refusal.text.slice(0, 200)}${usual}${before}`, 'observation');
    },
  );

  it('LIMITS-RESET-FORMAT-1 the format of X-RateLimit-Reset is not shown: observed', { needs: { readings } }, async ({ readings: { first } }, context) => {
    const value = first.exchange.headers['x-ratelimit-reset'];
    if (value === undefined) readable(first);
    const read = first.reset === undefined ? 'not read as a timestamp' : `read as ${new Date(first.reset).toISOString()}`;
    await context.annotate(`X-RateLimit-Reset: ${value} (${read})`, 'observation');
  });

  // The run-wide rules, over this group's own responses: they need every step of the group to have ended.
  const everyResponse = { uses: { readings } };
  it.runWide('LIMITS-HEADERS-1', everyResponse);
  it.runWide('LIMITS-HEADERS-2', everyResponse);
  it.runWide('LIMITS-HEADERS-3', everyResponse);
  it.runWide('LIMITS-HEADERS-4', everyResponse);
});

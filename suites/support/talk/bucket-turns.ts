// Turns on a narrow bucket, across every worker of a run. The Limits group tells one bucket from two by the Remaining
// of calls that take turns (LIMITS-ACCOUNT-1: uploads of A, B and A; LIMITS-DELETION-2: a deletion, an unreblog and a
// deletion): that works only where no other call of the run spends the bucket between the turns. The other groups run
// side by side, and against a slow server (six groups at once) one of A's uploads in Media fell between Limits' turns
// and put B's count between A's two: a conforming server failed, in some runs only. While a step holds a bucket
// (`holdBuckets`), every other call of the run that spends it waits until the turns end; the turns start once the
// calls of it already in flight have ended. The waits are short (the turns are a few requests) and bounded: a worker
// that ended while holding, or while a call of it was in flight, stalls nobody for longer than `LONGEST_TURN_WAIT_MS`.
// The state lives in memory the run's configuration shares (prepareRun makes it), as in-flight.ts's count does.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Bucket } from './pacing.ts';

/** The buckets a step may hold: those a Limits check reads by turns. */
export type HeldBucket = Extract<Bucket, 'Uploading' | 'Deletion'>;
const HELD_BUCKETS: readonly HeldBucket[] = ['Uploading', 'Deletion'];
/** Per bucket, two counters: whether a step holds it, and the calls of other steps in flight. */
const HELD = 0;
const IN_FLIGHT = 1;
const SLOTS = 2;
/** How long a waiter sleeps before it looks again. */
const RECHECK_MS = 200;
/** The longest a call waits for turns to end, or turns for the calls in flight: a few requests' time, many times over. */
export const LONGEST_TURN_WAIT_MS = 60_000;

/** The memory of a run's turns, to be shared by every worker of one run. */
export const bucketTurnsMemory = (): SharedArrayBuffer => new SharedArrayBuffer(HELD_BUCKETS.length * SLOTS * Int32Array.BYTES_PER_ELEMENT);

let counters = new Int32Array(bucketTurnsMemory());

/** Points this worker's calls at the run's shared turns (actors.ts, once the file knows its run). */
export function shareBucketTurns(buffer: unknown): void {
  // Memory that crossed into another process arrives as a copy, or not at all: the worker then keeps turns of its own.
  if (!(buffer instanceof SharedArrayBuffer) || buffer.byteLength < HELD_BUCKETS.length * SLOTS * Int32Array.BYTES_PER_ELEMENT) return;
  if (counters.buffer !== buffer) counters = new Int32Array(buffer);
}

const slot = (bucket: HeldBucket, which: number) => HELD_BUCKETS.indexOf(bucket) * SLOTS + which;
const isHeld = (bucket: Bucket): bucket is HeldBucket => (HELD_BUCKETS as readonly Bucket[]).includes(bucket);

/** The buckets the step running here holds: its own calls take their turns without waiting. */
const holding = new AsyncLocalStorage<readonly HeldBucket[]>();

/** Waits, at most until `deadline`, while `counters[index]` is `value`. */
async function waitWhile(index: number, value: number, deadline: number): Promise<void> {
  const left = deadline - Date.now();
  if (left <= 0) return;
  const wait = Atomics.waitAsync(counters, index, value, Math.min(RECHECK_MS, left));
  if (wait.async) await wait.value;
}

/**
 * Runs `turns` holding `buckets`: no call of another step of the run spends them until `turns` ends. It starts once
 * no other step holds them and the calls of them already in flight have ended (each wait bounded).
 */
export async function holdBuckets<T>(buckets: readonly HeldBucket[], turns: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LONGEST_TURN_WAIT_MS;
  const taken: HeldBucket[] = [];
  try {
    for (const bucket of buckets) {
      const held = slot(bucket, HELD);
      let taking = Atomics.compareExchange(counters, held, 0, 1) === 0;
      while (!taking && Date.now() < deadline) {
        await waitWhile(held, 1, deadline);
        taking = Atomics.compareExchange(counters, held, 0, 1) === 0;
      }
      // Past the deadline another step's hold is not taken from it: the turns go without holding this bucket.
      if (!taking) continue;
      taken.push(bucket);
      // Set before reading the calls in flight, as a caller counts itself before it reads the hold: one of the two sees the other.
      for (let n = Atomics.load(counters, slot(bucket, IN_FLIGHT)); n > 0 && Date.now() < deadline; n = Atomics.load(counters, slot(bucket, IN_FLIGHT))) {
        await waitWhile(slot(bucket, IN_FLIGHT), n, deadline);
      }
    }
    return await holding.run(buckets, turns);
  } finally {
    for (const bucket of taken) {
      Atomics.store(counters, slot(bucket, HELD), 0);
      Atomics.notify(counters, slot(bucket, HELD));
    }
  }
}

/**
 * Sends a call that spends `buckets` in its turn (http.ts): where another step holds one of them, once its turns have
 * ended. A step's own calls of the buckets it holds go at once.
 */
export async function inTurn<T>(buckets: readonly Bucket[], send: () => Promise<T>): Promise<T> {
  const mine = holding.getStore() ?? [];
  const waiting = buckets.filter((bucket): bucket is HeldBucket => isHeld(bucket) && !mine.includes(bucket));
  if (waiting.length === 0) return send();
  const deadline = Date.now() + LONGEST_TURN_WAIT_MS;
  const counted: HeldBucket[] = [];
  for (const bucket of waiting) {
    for (;;) {
      Atomics.add(counters, slot(bucket, IN_FLIGHT), 1);
      if (Atomics.load(counters, slot(bucket, HELD)) === 0 || Date.now() >= deadline) break;
      // Held: step back, so that the turns can start, and wait for them to end.
      Atomics.sub(counters, slot(bucket, IN_FLIGHT), 1);
      Atomics.notify(counters, slot(bucket, IN_FLIGHT));
      await waitWhile(slot(bucket, HELD), 1, deadline);
    }
    counted.push(bucket);
  }
  try {
    return await send();
  } finally {
    for (const bucket of counted) {
      Atomics.sub(counters, slot(bucket, IN_FLIGHT), 1);
      Atomics.notify(counters, slot(bucket, IN_FLIGHT));
    }
  }
}

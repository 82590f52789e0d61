// At most CONFORMANCE_MAX_IN_FLIGHT requests in flight against the server, across every worker of a run: the groups
// run side by side in worker threads, and a small server (a few worker threads of its own) that gets more at once
// than it serves queues them until its own background work times out. The count lives in a SharedArrayBuffer that
// the run's configuration carries (prepareRun makes it), so every worker thread takes its slots from the same count;
// waiting for a slot is Atomics.waitAsync, which blocks no thread. A request holds its slot from its sending to the
// end of its body; pacing waits hold none, and neither do event streams, which stay open for a whole group (Mastodon
// serves them apart, and a server's workers do not wait on them). The conformance project always runs its files in
// threads (conformance-project.ts); under a configuration whose workers are processes (vitest's forks pool), no
// memory would be shared, and each worker would keep its own count of the same limit.

/** The slots in use, at index 0 of the shared count. */
const IN_USE = 0;
/** How long a waiter sleeps before it looks again: a worker that ended while holding a slot must not stall the run. */
const RECHECK_MS = 1_000;

/** A count of the slots in use, to be shared by every worker of one run. */
export const inFlightCount = (): SharedArrayBuffer => new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);

export class InFlight {
  private readonly count: Int32Array;

  constructor(
    readonly limit: number,
    shared: SharedArrayBuffer = inFlightCount(),
  ) {
    this.count = new Int32Array(shared);
  }

  shares(shared: SharedArrayBuffer | undefined): boolean {
    return shared !== undefined && this.count.buffer === shared;
  }

  /** Runs `send` once a slot is free, and frees it when `send` ends. */
  async run<T>(send: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await send();
    } finally {
      Atomics.sub(this.count, IN_USE, 1);
      Atomics.notify(this.count, IN_USE);
    }
  }

  private async acquire(): Promise<void> {
    for (;;) {
      const inUse = Atomics.load(this.count, IN_USE);
      if (inUse < this.limit) {
        if (Atomics.compareExchange(this.count, IN_USE, inUse, inUse + 1) === inUse) return;
        continue;
      }
      const wait = Atomics.waitAsync(this.count, IN_USE, inUse, RECHECK_MS);
      if (wait.async) await wait.value;
    }
  }
}

/** The default of CONFORMANCE_MAX_IN_FLIGHT: what a server with 4 workers of its own keeps up with. */
export const DEFAULT_MAX_IN_FLIGHT = 4;

let current = new InFlight(DEFAULT_MAX_IN_FLIGHT);

/** Points this worker's requests at the run's shared count (actors.ts, once the file knows its run). */
export function limitInFlight(limit: number, shared: unknown): void {
  // A count that crossed into another process arrives as a copy, or not at all.
  const count = shared instanceof SharedArrayBuffer && shared.byteLength >= Int32Array.BYTES_PER_ELEMENT ? shared : undefined;
  if (current.limit === limit && (count === undefined || current.shares(count))) return;
  current = new InFlight(limit, count);
}

/** Sends one request within the run's limit (http.ts). */
export const inFlight = <T>(send: () => Promise<T>): Promise<T> => current.run(send);

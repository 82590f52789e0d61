import type { ThreadsPoolWorker } from 'vitest/node';

/** Starts `count` worker threads loading vitest's thread runtime; vitest's pool takes them for the run's first files. */
export function warmWorkers(count: number): void;
/** Ends the warm workers beyond the first `count`: the run gives no file to them. */
export function keepWarm(count: number): void;
/** vitest's thread pool, taking the warm workers for its first workers (vitest's `pool` option). */
export function warmThreadsPool(threadsPoolWorker: typeof ThreadsPoolWorker): { name: string; createPoolWorker: (options: ConstructorParameters<typeof ThreadsPoolWorker>[0]) => ThreadsPoolWorker };

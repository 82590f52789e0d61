// vitest's worker threads started with the command, before vitest itself: each worker spends about 0.5 s loading
// vitest's worker runtime before its first file, which on a cold start begins only once the main thread has loaded
// vitest and vite and made the pool (about 0.7 s in), and the main thread idles meanwhile. A worker made here loads
// that runtime while the main thread loads the command, vitest and the embedded server; vitest's pool then takes it
// (warmThreadsPool) as its own ThreadsPoolWorker would have made it: the same entry, the same execArgv, and its
// environment set to the one vitest gives the worker before vitest's first message reaches it (warm-worker.mjs).
// A worker the run does not take is ended (keepWarm); one whose execArgv differs from vitest's is ended and made
// again by vitest. The command's modules are loaded twice (once by bin.mjs, once inside the compiled command), so the
// workers are kept on globalThis, under a key of their own.
import { isatty } from 'node:tty';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';

const KEY = Symbol.for('social-api-conformance.warm-workers');
const VITEST_DIST = new URL('./', import.meta.resolve('vitest/node'));

/**
 * The execArgv vitest's pool gives a worker of a project that adds no option of its own (vitest's resolveOptions, then
 * vite's default conditions for server-side modules).
 */
function vitestExecArgv() {
  return [
    ...process.execArgv.filter((arg) => arg.startsWith('--cpu-prof') || arg.startsWith('--heap-prof') || arg.startsWith('--diagnostic-dir')),
    '--experimental-import-meta-resolve',
    '--require',
    fileURLToPath(new URL('../suppress-warnings.cjs', VITEST_DIST)),
    '--conditions',
    'node',
    '--conditions',
    process.env.NODE_ENV === 'production' ? 'production' : 'development',
  ];
}

/** Starts `count` worker threads loading vitest's thread runtime; vitest's pool takes them for the run's first files. */
export function warmWorkers(count) {
  const execArgv = vitestExecArgv();
  // vitest's own variables (resolveOptions) from the start: its runtime reads the environment as it loads.
  const env = { ...process.env, TEST: 'true', VITEST: 'true', NODE_ENV: process.env.NODE_ENV || 'test', VITEST_MODE: 'RUN', FORCE_TTY: isatty(1) ? 'true' : '' };
  globalThis[KEY] = Array.from({ length: count }, () => {
    const { port1: control, port2: workerControl } = new MessageChannel();
    const thread = new Worker(new URL('./warm-worker.mjs', import.meta.url), {
      env,
      execArgv,
      stdout: true,
      stderr: true,
      workerData: { control: workerControl, entry: new URL('workers/threads.js', VITEST_DIST).href },
      transferList: [workerControl],
    });
    // Never what keeps the command alive: a run that ends before taking it ends it with the process.
    thread.unref();
    control.unref();
    return { thread, control, execArgv };
  });
}

/** Ends the warm workers beyond the first `count`: the run gives no file to them. */
export function keepWarm(count) {
  const warm = globalThis[KEY] ?? [];
  for (const { thread } of warm.splice(count)) void thread.terminate();
}

/** A warm worker made with `execArgv`, its environment set to `env`; none where none is left or it was made otherwise. */
async function adopted(env, execArgv) {
  const warm = globalThis[KEY]?.shift();
  if (!warm) return undefined;
  if (JSON.stringify(warm.execArgv) !== JSON.stringify(execArgv)) {
    void warm.thread.terminate();
    return undefined;
  }
  await new Promise((done) => {
    warm.control.once('message', done);
    warm.control.postMessage(env);
  });
  warm.control.close();
  warm.thread.ref();
  return warm.thread;
}

/** vitest's thread pool, taking the warm workers for its first workers (vitest's `pool` option). */
export function warmThreadsPool(ThreadsPoolWorker) {
  const name = 'warm-threads';
  class WarmThreadsPoolWorker extends ThreadsPoolWorker {
    name = name;
    async start() {
      this._thread ??= await adopted(this.env, this.execArgv);
      return super.start();
    }
  }
  return { name, createPoolWorker: (options) => new WarmThreadsPoolWorker(options) };
}

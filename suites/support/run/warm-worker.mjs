// A warm worker's entry (warm-workers.mjs): loads vitest's thread runtime, which then answers vitest's messages as in
// a worker vitest made; the environment vitest gives the worker arrives first, on a port of its own.
import { workerData } from 'node:worker_threads';

const { control, entry } = workerData;
control.once('message', (env) => {
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
  control.postMessage('set');
  control.close();
});
await import(entry);

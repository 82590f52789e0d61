// Two projects: "conformance" runs the suites/<section>.test.ts files against the configured server (or
// the embedded reference server); "self" runs our own tests of the support layer, the schemas, the
// reference server and the verdicts of the suite as a whole.
import { defineConfig } from 'vitest/config';
import { DEFAULT_TIMEOUT_MS } from './suites/support/config.ts';

const timeoutMs = Number(process.env.CONFORMANCE_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
// A check makes a handful of sequential requests, each bounded by the timeout; pacing may wait longer.
const checkTimeoutMs = Math.max(30_000, timeoutMs * 6);

export default defineConfig({
  test: {
    // Most of our own tests wait on child processes and timeouts, not on the CPU: three at a time keep both cores busy.
    maxWorkers: 3,
    minWorkers: 1,
    projects: [
      {
        test: {
          name: 'conformance',
          include: ['suites/*.test.ts'],
          globalSetup: ['suites/support/global-setup.ts'],
          setupFiles: ['suites/support/setup.ts'],
          testTimeout: checkTimeoutMs,
          hookTimeout: checkTimeoutMs,
        },
      },
      {
        test: {
          name: 'self',
          include: ['suites/support/**/*.test.ts', 'suites/self/**/*.test.ts', 'fixtures/**/*.test.ts', 'schemas/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

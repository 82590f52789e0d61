// "conformance" runs the suites/<section>.test.ts files against the configured server (or the embedded reference
// server). Our own tests of the support layer, the schemas, the reference server and the verdicts of the suite as a
// whole are "self", then "self-timed" (the hostile servers, whose time bounds must not share the cores with the fault
// runs), then "self-heavy" (the fault runs and the variations): groupOrder runs the groups one after another.
import { defineConfig } from 'vitest/config';
import { DEFAULT_TIMEOUT_MS } from './suites/support/config.ts';
import { LONGEST_WAIT_MS } from './suites/support/pacing.ts';

const timeoutMs = Number(process.env.CONFORMANCE_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
/**
 * vitest's own limit on a check or a group's preparation, a guard against a hang of the suite itself and never what
 * ends a step on a slow server: every wait of a step is bounded already (each request and stream wait by the
 * timeout, a silent server by the circuit breaker of http.ts), and a step makes far fewer than this many requests
 * one after another, besides at most one pacing wait for a rate-limit reset.
 */
const MOST_REQUESTS_OF_A_STEP = 100;
const checkTimeoutMs = LONGEST_WAIT_MS + MOST_REQUESTS_OF_A_STEP * timeoutMs;

const TIMED = ['suites/self/hostile-servers.test.ts'];
const HEAVY = ['suites/self/fault-exactness.test.ts', 'suites/self/variations.test.ts'];

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
          sequence: { groupOrder: 0 },
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
          exclude: [...TIMED, ...HEAVY, '**/node_modules/**'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 0 },
        },
      },
      { test: { name: 'self-timed', include: TIMED, testTimeout: 300_000, hookTimeout: 300_000, sequence: { groupOrder: 1 } } },
      { test: { name: 'self-heavy', include: HEAVY, testTimeout: 600_000, hookTimeout: 1_200_000, sequence: { groupOrder: 2 } } },
    ],
  },
});

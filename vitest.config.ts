// "conformance" runs the suites/<section>.test.ts files against the configured server (or the embedded reference
// server). Our own tests of the support layer, the schemas, the reference server and the verdicts of the suite as a
// whole are "self", then "self-timed" (the hostile servers and our mistakes, whose time bounds must not share the
// cores with other runs), then "self-heavy" (the fault runs and the variations): groupOrder runs the groups one after
// another.
// Two lanes: `npm test` runs every project (CI's full lane); `npm run test:unit` runs the fast lane, the part of
// "self" that starts no conformance run, no child process and no browser: the tests beside the support layer's
// modules (the layer rules among them: dependency-cruiser runs in the test's process), the reference server's and the
// schemas' (package.json). A test under suites/self/ is in the full lane only.
import { defineConfig } from 'vitest/config';
import { conformanceProject, GroupOrder } from './suites/support/run/conformance-project.ts';

const TIMED = ['suites/self/hostile-servers.test.ts', 'suites/self/cli-mistakes.test.ts'];
const HEAVY = ['suites/self/fault-exactness.test.ts', 'suites/self/variations.test.ts', 'suites/self/repeat.test.ts', 'suites/self/windows.test.ts'];

export default defineConfig({
  test: {
    // Most of our own tests wait on child processes and timeouts, not on the CPU: three at a time keep both cores busy.
    maxWorkers: 3,
    sequence: { sequencer: GroupOrder },
    projects: [
      { test: { ...conformanceProject(), sequence: { groupOrder: 0 } } },
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
      // One file at a time: each holds the command to a time bound that no other test's runs may share the cores with.
      { test: { name: 'self-timed', include: TIMED, fileParallelism: false, testTimeout: 300_000, hookTimeout: 300_000, sequence: { groupOrder: 1 } } },
      { test: { name: 'self-heavy', include: HEAVY, testTimeout: 600_000, hookTimeout: 1_200_000, sequence: { groupOrder: 2 } } },
    ],
  },
});

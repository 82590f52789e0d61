// "conformance" runs the suites/<section>.test.ts files against the configured server (or the embedded reference
// server). Our own tests of the support layer, the schemas, the reference server and the verdicts of the suite as a
// whole are "self", "self-timed" (the hostile servers, whose time bounds scale with a start measured in the same
// test, and our mistakes) and "self-heavy" (the fault runs and the variations, with longer timeouts).
// Two lanes: `npm test` runs every project (CI's full lane); `npm run test:unit` runs the fast lane, the part of
// "self" that starts no conformance run, no child process and no browser: the tests beside the support layer's
// modules (the layer rules among them: dependency-cruiser runs in the test's process), the reference server's and the
// schemas' (package.json). A test under suites/self/ is in the full lane only.
// Every project runs in one group, our longest files first (OurLongestFirst): the others fill the cores beside them.
// Groups one after another left both cores half idle while a group's last long file (the hostile servers' slow
// answers, the fault runs) ran alone. No test of ours asserts a wall-clock bound it does not control, so none needs
// the cores to itself.
import { defineConfig } from 'vitest/config';
import type { TestSpecification } from 'vitest/node';
import { conformanceProject, GroupOrder, transformCache } from './suites/support/run/conformance-project.ts';

const TIMED = ['suites/self/hostile-servers.test.ts', 'suites/self/cli-mistakes.test.ts'];
const HEAVY = ['suites/self/fault-exactness.test.ts', 'suites/self/fault-exactness-settings.test.ts', 'suites/self/variations.test.ts', 'suites/self/repeat.test.ts', 'suites/self/windows.test.ts'];

/**
 * Our files that take longest (2026-12-06, seconds on the 2-core machine under load), the fault runs first (250; two
 * files since 2026-12-07, the faults that need a setting apart, each about 390 s at a load of 9 to 26, side by side): the
 * hostile servers (100, mostly waiting for slow answers, beside the fault runs' CPU), the stability runs, the
 * variations, the live-safety runs (about 100 each), the ratchet (85), two runs in a row against `serve` (70, most of
 * it a wait for a reset), the seeded explorations (four runs of the exploration one after another: 148 s at a load of
 * 22, 2026-12-07). A fresh clone has no durations of a last run for vitest to order by; started last, one of them ran
 * alone at the end.
 */
const LONGEST = ['fault-exactness', 'fault-exactness-settings', 'windows', 'hostile-servers', 'repeat', 'variations', 'live-safety', 'write-expectations', 'serve-twice', 'explore-seed'].map((name) => `/suites/self/${name}.test.ts`);

class OurLongestFirst extends GroupOrder {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((end) => f.moduleId.endsWith(end));
      return i < 0 ? LONGEST.length : i;
    };
    return (await super.sort(files)).sort((x, y) => rank(x) - rank(y));
  }
}

/**
 * Our own files run in worker threads, not vitest's default of child processes: every file still gets its own module
 * graph (isolated), but a thread starts for less. The fast lane took 51 s of CPU so, 72 s in child processes (57 files,
 * 2026-12-07, measured back to back). Our tests share no state through the process: each command it starts is a child.
 */
const OURS = { pool: 'threads' as const };

export default defineConfig({
  test: {
    // Most of our own tests wait on child processes and timeouts, not on the CPU: four at a time left the cores idle
    // for 29% of an idle machine's npm test (14 minutes of CPU in 9 min 51 s on 2 cores, 2026-12-06); five.
    maxWorkers: 5,
    sequence: { sequencer: OurLongestFirst },
    // The transforms on disk, as the conformance command keeps them: a second npm test transforms only what changed.
    experimental: transformCache(),
    projects: [
      { test: conformanceProject() },
      {
        test: {
          name: 'self',
          ...OURS,
          include: ['suites/support/**/*.test.ts', 'suites/self/**/*.test.ts', 'fixtures/**/*.test.ts', 'schemas/**/*.test.ts'],
          exclude: [...TIMED, ...HEAVY, '**/node_modules/**'],
          testTimeout: 120_000,
          // The runs most files make in a hook, a guard against a hang only: a busy machine (a load of 40) took longer than 2 minutes.
          hookTimeout: 300_000,
        },
      },
      { test: { name: 'self-timed', ...OURS, include: TIMED, testTimeout: 300_000, hookTimeout: 300_000 } },
      { test: { name: 'self-heavy', ...OURS, include: HEAVY, testTimeout: 600_000, hookTimeout: 1_200_000 } },
    ],
  },
});

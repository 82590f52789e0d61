// The vitest project of the conformance suites: one definition for vitest.config.ts (npm test runs it among our own
// projects), the conformance command (cli.ts starts vitest with it, without loading and bundling the config file)
// and our runner of many runs (suites/self/suite-runner.ts).
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { DEFAULT_TIMEOUT_MS } from '../talk/config.ts';
import { LONGEST_WAIT_MS } from '../talk/pacing.ts';

/**
 * vitest's own limit on a check or a group's preparation, a guard against a hang of the suite itself and never what
 * ends a step on a slow server: every wait of a step is bounded already (each request and stream wait by the
 * timeout, a silent server by the circuit breaker of http.ts), and a step makes far fewer than this many requests
 * one after another, besides at most one pacing wait for a rate-limit reset.
 */
const MOST_REQUESTS_OF_A_STEP = 100;

export const SETUP_FILES = ['suites/support/run/setup.ts'];

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * vitest's cache of transformed modules on disk (its experimental fsModuleCache), beside the compiled schemas: a run
 * reads the transforms the last one made instead of making them again (about 0.7 s of a run's CPU, most of it before
 * the first group starts). vitest names an entry by its file's content, not by what else decides the transform: the
 * cache is a folder per tsconfig.json and vitest release, and the folders of others are removed. Where it cannot be
 * written (a read-only install), nothing is cached and the run transforms as before. `root` is the project's folder.
 */
export function transformCache(root = ROOT): { fsModuleCache: boolean; fsModuleCachePath?: string } {
  const caches = join(root, 'node_modules/.cache/social-api-conformance/transforms');
  try {
    const tsconfig = join(root, 'tsconfig.json');
    const vitest = (createRequire(import.meta.url)('vitest/package.json') as { version: string }).version;
    const key = createHash('sha256').update(JSON.stringify([vitest, existsSync(tsconfig) ? readFileSync(tsconfig, 'utf8') : ''])).digest('hex').slice(0, 16);
    const folder = join(caches, key);
    if (!existsSync(folder)) {
      mkdirSync(folder, { recursive: true });
      for (const other of readdirSync(caches)) if (other !== key) rmSync(join(caches, other), { recursive: true, force: true });
    }
    accessSync(folder, constants.W_OK);
    return { fsModuleCache: true, fsModuleCachePath: folder };
  } catch {
    return { fsModuleCache: false };
  }
}

export function conformanceProject(env: NodeJS.ProcessEnv = process.env) {
  const timeoutMs = Number(env.CONFORMANCE_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
  const checkTimeoutMs = LONGEST_WAIT_MS + MOST_REQUESTS_OF_A_STEP * timeoutMs;
  return {
    name: 'conformance',
    include: ['suites/*.test.ts'],
    globalSetup: ['suites/support/run/global-setup.ts'],
    setupFiles: SETUP_FILES,
    // Threads, not vitest's default of child processes: the configuration it provides to the files carries the run's
    // shared counts (a SharedArrayBuffer: in-flight requests, the rate-limit estimate), which only threads can share.
    pool: 'threads' as const,
    testTimeout: checkTimeoutMs,
    hookTimeout: checkTimeoutMs,
  };
}

const LIMITS_FILE = /(^|[\\/])limits\.test\.ts$/;
/** The groups that wait longest on nothing but time (the settle window; the media processing), in that order. */
const WAITING_FILES = [/(^|[\\/])statuses-interactions\.test\.ts$/, /(^|[\\/])media\.test\.ts$/];

/**
 * The order the files start in. Every Limits group starts first (in a run of many runs, each run's): its bucket
 * checks need the access buckets far from exhaustion (a narrow bucket is the one the headers report only while the
 * access buckets have more left), which they are only before the other groups have spent them; run last, the checks
 * were skipped for want of headroom. The conformance command's other groups follow, the same order every run: the two
 * that wait longest on nothing but time, then the rest by the size of their file, largest first, so that the two
 * workers end close together. vitest's own order puts first the files
 * that took longest in the last run of any setting (a run with 150 ms of latency reordered the next plain run, which
 * moved its time by a second); our own tests keep it, after the groups.
 */
export class GroupOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const isGroup = (f: TestSpecification) => f.project.name === 'conformance';
    return (await super.sort(files)).sort((x, y) => startRank(x.moduleId, isGroup(x)) - startRank(y.moduleId, isGroup(y)) || (isGroup(x) && isGroup(y) ? bySize(x.moduleId, y.moduleId) : 0));
  }
}

/** A file's place among those GroupOrder starts: Limits, then the waiting groups, then the other groups, then our own tests. */
function startRank(file: string, isGroup: boolean): number {
  const waiting = WAITING_FILES.findIndex((pattern) => pattern.test(file));
  return LIMITS_FILE.test(file) ? 0 : !isGroup ? 4 : waiting >= 0 ? 1 + waiting : 3;
}
const bySize = (x: string, y: string) => statSync(y).size - statSync(x).size || x.localeCompare(y);

/** The suite files (relative to `root`) in the order GroupOrder starts them: the run's plan splits them into windows in that order. */
export const startOrder = (root: string, files: readonly string[]): string[] =>
  [...files].sort((x, y) => startRank(x, true) - startRank(y, true) || bySize(resolve(root, x), resolve(root, y)));

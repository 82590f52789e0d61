// The vitest project of the conformance suites: one definition for vitest.config.ts (npm test runs it among our own
// projects), the conformance command (cli.ts starts vitest with it, without loading and bundling the config file)
// and our runner of many runs (suites/self/suite-runner.ts).
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

export function conformanceProject(env: NodeJS.ProcessEnv = process.env) {
  const timeoutMs = Number(env.CONFORMANCE_TIMEOUT_MS) || DEFAULT_TIMEOUT_MS;
  const checkTimeoutMs = LONGEST_WAIT_MS + MOST_REQUESTS_OF_A_STEP * timeoutMs;
  return {
    name: 'conformance',
    include: ['suites/*.test.ts'],
    globalSetup: ['suites/support/run/global-setup.ts'],
    setupFiles: SETUP_FILES,
    testTimeout: checkTimeoutMs,
    hookTimeout: checkTimeoutMs,
  };
}

const LIMITS_FILE = /(^|[\\/])limits\.test\.ts$/;

/**
 * The Limits group starts first. Its bucket checks need the access buckets far from exhaustion (a narrow bucket is
 * the one the headers report only while the access buckets have more left), which they are only before the other
 * groups have spent them; run last, the checks were skipped for want of headroom.
 */
export class LimitsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification) => LIMITS_FILE.test(f.moduleId);
    return [...sorted.filter(first), ...sorted.filter((f) => !first(f))];
  }
}

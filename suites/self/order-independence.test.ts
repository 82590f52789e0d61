// A verdict never moves with the run's own order (issue 39). Against servers where one step's change reaches an
// object other checks use, runs in a row must give the same verdicts, as a CI gate sees them: a baseline run writes
// the expectations, and four gate runs with them exit 0. Each server is one reference server for all five runs, its
// rate-limit periods shortened so that five runs in a row wait seconds, not minutes, where they spend a bucket.
// - boosted-answers-as-boost: a status another account boosted is answered as that boost to everyone; B's boosts act
//   on a status of their own, so no move of A's meets one, whichever chain ran first.
// - app-deleted-with-token: revoking a token deletes its application; a revocation acts only on an application that
//   nothing else in the run uses.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../fixtures/reference-server/server.ts';
import type { Variation } from '../../fixtures/reference-server/variations.ts';
import { eachCaseInParallel, runCli, serverEnv, verdictsOf, type CliRun } from './run-cli.ts';

const RUNS = 5;
const PERIOD_MS = 20_000;

interface Case {
  variation: Variation;
  groups: string[];
}

const CASES: Record<string, Case> = {
  'a server that answers a boosted status as the boost': { variation: 'boosted-answers-as-boost', groups: ['statuses-interactions'] },
  'a server that deletes an application with any of its tokens': { variation: 'app-deleted-with-token', groups: ['oauth', 'client-registration'] },
};

/** A baseline run that writes the expectations, then the gate runs that read them, one after another. */
async function runsInARow({ variation, groups }: Case): Promise<CliRun[]> {
  const server = await startReferenceServer({ variations: [variation], accessPeriodMs: PERIOD_MS, narrowPeriodMs: PERIOD_MS });
  try {
    const env = serverEnv(server);
    const expectations = join(mkdtempSync(join(tmpdir(), 'order-')), 'expectations.json');
    const select = groups.flatMap((group) => ['--group', group]);
    const runs = [await runCli([...select, '--write-expectations', expectations], env)];
    while (runs.length < RUNS) runs.push(await runCli([...select, '--expectations', expectations], env));
    return runs;
  } finally {
    await server.close();
  }
}

describe(`verdicts that do not move with the run's order, ${RUNS} runs in a row`, () => {
  const outcomes = new Map<string, CliRun[]>();

  beforeAll(async () => {
    await eachCaseInParallel(CASES, 2, runsInARow, outcomes);
  }, 400_000);

  for (const name of Object.keys(CASES)) {
    it(`${name}: the same verdict of every check in every run, and every gate run exits 0`, () => {
      const runs = outcomes.get(name) as CliRun[];
      const [baseline, ...gates] = runs.map(verdictsOf) as [Record<string, string>, ...Record<string, string>[]];
      expect(Object.keys(baseline).length, runs[0]?.stdout.slice(-1500)).toBeGreaterThan(0);
      gates.forEach((gate, i) => expect(gate, `run ${i + 2} against the baseline`).toEqual(baseline));
      expect(runs.slice(1).map((run) => run.code), runs.map((run) => run.stdout.slice(-800)).join('\n---\n')).toEqual(Array(RUNS - 1).fill(0));
    });
  }
});

// The budget, decided (issue 50, items 4 to 6): a server whose one bucket of 300 per period counts every path and a
// deviating server's extra calls cannot carry a run in one period. The plan splits the run between sections into
// windows, announced at the start; each section starts only when the bucket holds its worst case, so no step waits
// between its calls (a code kept a minute outlives no wait), and the verdicts are those of the server without the
// bucket. The periods are shortened (the server's Reset headers say so), so a wait is seconds: nothing here reads the
// wall clock, only where each wait came, how many resets the runs waited for and how many the start line named.
import { beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../fixtures/reference-server/server.ts';
import type { Variation } from '../../fixtures/reference-server/variations.ts';
import type { WaitSpan } from '../support/talk/pacing.ts';
import { eachCaseInParallel, problemsOfRunsInARow, runCli, serverEnv, verdictsOf, type CliRun } from './run-cli.ts';

/** A deviating server's extra calls: reads again of what it deletes late, 404s for routes it lacks, a web sign-in's pages, a made-up token sent once more. */
const DEVIATIONS: Variation[] = ['background-delete', 'no-poll-read', 'no-media-read', 'web-sign-in', 'made-up-tokens-read-relations'];
/** Short periods: a wait for the access bucket's reset is seconds; the codes of codes-expire-after-60s last a fifth of it. */
const PERIODS = { accessPeriodMs: 20_000, narrowPeriodMs: 30_000 };
const RUN_TIMEOUT_MS = 300_000;

interface Case {
  variations: Variation[];
  runs: number;
}

const API_HEADERS = 'one bucket for every path, its headers on /api answers only, and a deviating server';
const EVERY_HEADERS = 'one bucket for every path, its headers on every answer, and a deviating server';
const WITHOUT_BUCKET = 'the deviating server without the one bucket';
const CODES = 'codes that expire 60 s after approval, and one bucket for every path';
const CODES_WITHOUT_BUCKET = 'codes that expire 60 s after approval, without the one bucket';
const CASES: Record<string, Case> = {
  [API_HEADERS]: { variations: ['one-bucket-api-headers', ...DEVIATIONS], runs: 2 },
  [EVERY_HEADERS]: { variations: ['one-bucket-every-path', ...DEVIATIONS], runs: 2 },
  [WITHOUT_BUCKET]: { variations: DEVIATIONS, runs: 1 },
  [CODES]: { variations: ['codes-expire-after-60s', 'one-bucket-every-path'], runs: 1 },
  [CODES_WITHOUT_BUCKET]: { variations: ['codes-expire-after-60s'], runs: 1 },
};

async function runsInARow({ variations, runs }: Case): Promise<CliRun[]> {
  const server = await startReferenceServer({ variations, ...PERIODS });
  try {
    const env = { ...serverEnv(server), CONFORMANCE_TIMEOUT_MS: '10000' };
    const done: CliRun[] = [];
    for (let i = 0; i < runs; i++) done.push(await runCli([], env, RUN_TIMEOUT_MS));
    return done;
  } finally {
    await server.close();
  }
}

/** Resets this close are one: the groups that waited side by side for it waited once. */
const SAME_RESET_MS = 2000;

/** The resets a run waited for: its waits grouped by the moment each ended. */
function resetsWaited(spans: readonly WaitSpan[] = []): number {
  const ends = spans.map(([, to]) => to).sort((x, y) => x - y);
  return ends.filter((end, i) => i === 0 || end - (ends[i - 1] as number) > SAME_RESET_MS).length;
}

/** Where a run's waits came other than before a section: before a step, before a call, or between two calls of a step. */
function waitsInsideSections(run: CliRun): string[] {
  const at = run.results?.counts.pacedAt;
  if (!at) return ['the run reported no places of its waits'];
  return [...(at.steps ? [`${at.steps} before a step`] : []), ...(at.calls ? [`${at.calls} before a call`] : []), ...at.insideSteps.map((what) => `inside a step: ${what}`)];
}

/** The checks whose verdicts differ between two runs, of the files `files` (all where none is named). */
function differences(run: CliRun, other: CliRun, files?: readonly string[]): string[] {
  const [ours, theirs] = [verdictsOf(run), verdictsOf(other)];
  return Object.keys(theirs)
    .filter((check) => !files || files.some((file) => check.startsWith(`${file} `)))
    .filter((check) => ours[check] !== theirs[check])
    .map((check) => `${check}: ${ours[check]}, without the bucket ${theirs[check]}`);
}

describe('a run split into windows of one bucket (issue 50)', () => {
  const outcomes = new Map<string, CliRun[]>();

  beforeAll(async () => {
    await eachCaseInParallel(CASES, 3, runsInARow, outcomes);
    for (const [name, runs] of outcomes) {
      console.log(`${name}: ${runs.map((r) => `exit ${r.code}, ${r.results?.counts.total ?? '?'} requests, ${resetsWaited(r.results?.counts.pacedSpans)} resets waited of ${r.results?.counts.foreseenWaits ?? 0} foreseen in ${r.results?.counts.foreseenWindows ?? 1} windows, ${r.results?.counts.refusals ?? '?'} refusals`).join('; ')}`);
    }
  }, 3 * RUN_TIMEOUT_MS);

  for (const name of [API_HEADERS, EVERY_HEADERS]) {
    it(`${name}: two runs in a row give the verdicts of the server without the bucket`, () => {
      const runs = outcomes.get(name) as CliRun[];
      const without = (outcomes.get(WITHOUT_BUCKET) as CliRun[])[0] as CliRun;
      expect(problemsOfRunsInARow(runs)).toEqual([]);
      for (const run of runs) expect(differences(run, without)).toEqual([]);
    });

    it(`${name}: waits only between sections, for no more resets than the start line named, which splits the run into windows, the second run into at most one more than the first`, () => {
      const runs = outcomes.get(name) as CliRun[];
      for (const run of runs) {
        expect(waitsInsideSections(run), run.stdout.slice(-3000)).toEqual([]);
        const counts = run.results?.counts;
        expect(resetsWaited(counts?.pacedSpans), run.stdout.slice(0, 3000)).toBeLessThanOrEqual(counts?.foreseenWaits ?? 0);
      }
      // The bucket cannot carry a run: the first run's start line splits it into windows. Whether a run then waits is
      // the machine's speed (a run slower than a period sees the reset come by itself), so the count asserted is the plan's.
      const [first, second] = runs.map((run) => run.results?.counts.foreseenWindows ?? 0) as [number, number];
      expect(first).toBeGreaterThan(1);
      expect(second).toBeLessThanOrEqual(first + 1);
    });
  }

  it(`${EVERY_HEADERS}: no answer 429 in two runs in a row`, () => {
    expect((outcomes.get(EVERY_HEADERS) as CliRun[]).map((run) => run.results?.counts.refusals)).toEqual([0, 0]);
  });

  it(`${CODES}: every Authentication and OAuth check judged as without the bucket, where the start line splits the run into windows and no wait comes inside a section`, () => {
    const [run] = outcomes.get(CODES) as [CliRun];
    const [without] = outcomes.get(CODES_WITHOUT_BUCKET) as [CliRun];
    // The plan's windows, not the run's waits: a run slower than a period sees the reset come by itself.
    expect(run.results?.counts.foreseenWindows ?? 0, 'windows the start line names').toBeGreaterThan(1);
    expect(waitsInsideSections(run)).toEqual([]);
    expect(differences(run, without, ['suites/access.test.ts', 'suites/oauth.test.ts'])).toEqual([]);
  });
});

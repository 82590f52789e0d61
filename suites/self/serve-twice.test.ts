// Two full runs in a row against one `serve` with the contract's buckets, as a CI gate that runs on every push makes
// them (issue 39): the same verdicts, every wait announced, and the second run fits what the first left of the Deletion
// and Uploading buckets. Its own file, so that its wait for the access buckets' reset overlaps our other tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemsOfRunsInARow, ROOT, runCli, startStandaloneServer, type CliRun } from './run-cli.ts';

/** The access buckets' period of the server: a minute, so that the second run waits seconds, not minutes, for their reset. */
const ACCESS_PERIOD_MS = 60_000;
/** Long enough for a full run on a busy machine: a kill is no verdict. */
const RUN_TIMEOUT_MS = 600_000;
/** A reading of fewer calls left than this, at the second run's start, is what the first run spent: half the bucket. */
const SPENT_BY_A_RUN_BELOW = 150;

describe("two full runs in a row against one `serve` with the contract's buckets (a shorter access period)", () => {
  let runs: CliRun[] = [];
  let stop = () => {};

  beforeAll(async () => {
    // The narrow buckets keep the contract's 30 minutes: a run makes at most 15 deletions and unreblogs and 15 uploads
    // per account (budget.test.ts), so the second run fits what the first left of them. The access buckets' period is
    // a minute, so that the second run waits seconds, not minutes, for the reset of what the first spent of them.
    const server = await startStandaloneServer(process.execPath, [`${ROOT}/suites/support/run/bin.mjs`, 'serve', '--access-period-ms', String(ACCESS_PERIOD_MS)]);
    stop = server.stop;
    runs = [await runCli([], server.lines, RUN_TIMEOUT_MS), await runCli([], server.lines, RUN_TIMEOUT_MS)];
  }, 2 * RUN_TIMEOUT_MS + 60_000);

  afterAll(() => stop());

  it('should give the same verdicts, and announce every wait', () => {
    expect(problemsOfRunsInARow(runs)).toEqual([]);
    // The second run starts with what the first left of the access buckets, unless their period ended in between (a
    // busy machine may stretch the first run past it): its reading decides, not the runs' times. A full run needs some
    // 285 of the 300 calls, so a reading far below that is the first run's spending, and one near 300 a fresh period.
    const started = `${runs[1]?.stdout}${runs[1]?.stderr}`;
    const left = Number(/^Rate limit: the server reports (\d+) of 300 requests left/m.exec(runs[1]?.stdout ?? '')?.[1] ?? NaN);
    // Short: the start line foresaw a wait for the access buckets' reset (counts.foreseenWaits, from the command's reading).
    const short = (runs[1]?.results?.counts.foreseenWaits ?? 0) > 0;
    if (short || left < SPENT_BY_A_RUN_BELOW) {
      expect(runs[1]?.stdout).toMatch(/^Rate limit: the server reports \d+ of 300 requests left/m);
      // Before the run starts, or (where the run is split into windows) before its first section that what is left cannot hold.
      expect(started).toMatch(/^… waiting .+ for the reset of the server's rate limit (before the run starts|\(IP access: -?\d+ left\) before the section )/m);
    }
  });

  it('should not wait for the Deletion or the Uploading bucket in the second run', () => {
    const waits = `${runs[1]?.stdout}${runs[1]?.stderr}`.split('\n').filter((line) => line.startsWith('… waiting'));
    expect(waits.filter((line) => /Deletion|Uploading/.test(line))).toEqual([]);
    expect(runs.map((run) => run.results?.counts.refusals)).toEqual([0, 0]);
  });
});

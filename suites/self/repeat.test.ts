// Stability runs (issue 42), as a server team meets them. Against a server where an undone boost comes back after a
// random delay (undone-boost-returns, its draws seeded: the baseline's five repeats are known to show a boost back
// at once and not), a baseline --repeat 5 --write-expectations learns every check whose verdict moves, and ten gate
// runs with that file all pass, whichever way the boosts come back. Against a server where nothing depends on
// timing, --repeat 3 reports nothing intermittent and costs three times a run's requests. -x stops a run at its
// first failure, reports every check (those not run skipped), and the cleanup still undoes what it made: the report's
// list of what was left behind is the server's truth. Each server has access periods of 20 s: fifteen runs in a row wait seconds where they spend a bucket.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../fixtures/reference-server/server.ts';
import type { Variation } from '../../fixtures/reference-server/variations.ts';
import type { Fault } from '../../fixtures/reference-server/faults.ts';
import { parseExpectations } from '../support/report/expectations.ts';
import type { RunResults } from '../support/report/results.ts';
import { liveRun, reported, truth, type Verdict } from './live-run.ts';
import { runCli, serverEnv, type CliRun } from './run-cli.ts';

const GROUP = ['--group', 'statuses-interactions'];
const GATES = 10;
const PERIOD_MS = 20_000;
/**
 * What a boost back at once changes for sure: the second unreblog (404 no more), which undoes it. reblogged_by read
 * right after the undo (STATUS-REBLOG-7) lists B too where that read reaches the server before the second unreblog, as
 * it did in every run measured, and the boost B makes next (STATUS-REBLOG-2's private one) meets a boost only where the
 * second unreblog's own undo drew one back at once too: learned with the others, not asserted. (B's chain once had an
 * unlisted boost undone before the private one, whose return moved STATUS-REBLOG-2 for sure; A's own boost is that
 * cell now.)
 */
const MOVED_BY_RETURNS = ['STATUS-REBLOG-5'];
/** Faults that fail one check each in three groups (issue 52: under load, -x once lost them and passed). */
const STOPPING_FAULTS: Fault[] = ['STATUS-DELETE-3', 'STATUS-FAV-5', 'MEDIA-UPDATE-2'];

function results(run: CliRun): RunResults {
  if (!run.results) throw new Error(`the run wrote no results.json (exit ${run.code}): ${run.stdout.slice(-1500)}${run.stderr.slice(-500)}`);
  return run.results;
}

/** Runs `runs` in a row against one fresh reference server with the variation. */
async function againstServer<T>(variation: Variation, runs: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const server = await startReferenceServer({ variations: [variation], accessPeriodMs: PERIOD_MS, narrowPeriodMs: PERIOD_MS });
  try {
    return await runs(serverEnv(server));
  } finally {
    await server.close();
  }
}

describe('stability runs', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'conformance-stability-')), 'expectations.json');
  let baseline: CliRun;
  let gates: CliRun[];
  let single: CliRun;
  let repeated: CliRun;
  let stopped: Verdict;
  let whole: CliRun;

  beforeAll(async () => {
    const intermittent = againstServer('undone-boost-returns', async (env) => {
      baseline = await runCli([...GROUP, '--repeat', '5', '--write-expectations', file], env, 300_000);
      gates = [];
      while (gates.length < GATES) gates.push(await runCli([...GROUP, '--expectations', file], env));
    });
    const steady = againstServer('key-order', async (env) => {
      single = await runCli(GROUP, env);
      repeated = await runCli([...GROUP, '--repeat', '3'], env, 300_000);
    });
    // Three faults in three groups that run side by side: the run stops at the first failure, with statuses, boosts,
    // flags and media made before and after it. The same run without -x gives the totals.
    const exitFirst = liveRun({ faults: STOPPING_FAULTS, options: ['-x'] }).then((verdict) => (stopped = verdict));
    const unstopped = liveRun({ faults: STOPPING_FAULTS }).then((verdict) => (whole = verdict.run));
    await Promise.all([intermittent, steady, exitFirst, unstopped]);
    // A guard against a hang only: the runs took 6 minutes beside the rest of `npm test` at a load of 40.
  }, 1_200_000);

  it('should learn, in five repeats, every check whose verdict moves with the boosts that come back, as intermittent with the outcomes it showed', () => {
    const learned = results(baseline);
    expect(learned.repeats).toBe(5);
    const intermittent = learned.checks.filter((c) => c.intermittent);
    console.log(`intermittent in the baseline: ${intermittent.map((c) => `${c.clause} (${c.repeats?.map((r) => r.status).join(', ')})`).join('; ')}`);
    expect(intermittent.map((c) => c.clause), baseline.stdout.slice(-3000)).toEqual(expect.arrayContaining(MOVED_BY_RETURNS));
    for (const c of intermittent) {
      expect(c.repeats?.map((r) => r.status)).toContain('passed');
      // A failed repeat says what showed it.
      for (const r of c.repeats ?? []) if (r.status === 'failed') expect(r.evidence).toMatch(/^expected /);
    }
    expect(baseline.stdout).toMatch(/^Stability run: 5 repeats of \d+ checks/m);
    expect(baseline.stdout).toMatch(/^Intermittent: STATUS-REBLOG-5 .*: (passed|failed), /m);
    expect(baseline.reports['summary.md']).toContain('## Intermittent (5 repeats)');
    expect(baseline.reports['report.html']).toContain('<section id="intermittent">');
    const written = parseExpectations(readFileSync(file, 'utf8'), file);
    // Each entry is the check's own, keyed by its full title.
    for (const clause of MOVED_BY_RETURNS) expect(written.find((e) => e.check.startsWith(`${clause} `))?.expect, clause).toEqual(['fail', 'pass']);
  });

  it(`should let ${GATES} gate runs with the learned file pass, whichever way the boosts come back`, () => {
    const summary = gates.map((run, i) => `gate ${i + 1}: exit ${run.code}, failed ${results(run).checks.filter((c) => c.outcome === 'failed').map((c) => c.clause).join(', ') || 'none'}`);
    expect(gates.map((run) => run.code), summary.join('\n')).toEqual(Array(GATES).fill(0));
    // The learned entries were met both ways: some gate had a boost back at once, and some had none.
    const outcomes = new Set(gates.map((run) => results(run).checks.find((c) => c.clause === 'STATUS-REBLOG-5')?.status));
    expect([...outcomes].sort()).toEqual(['failed', 'passed']);
  });

  it('should report nothing intermittent where nothing depends on timing, and cost three times one run, not more', () => {
    expect(results(single).verdict).toBe('PASS');
    expect(results(repeated).verdict, repeated.stdout.slice(-2000)).toBe('PASS');
    expect(results(repeated).checks.filter((c) => c.intermittent)).toEqual([]);
    // The groups' requests: the command's own (its preflight once, a budget read before each repeat) come besides.
    const groupsOf = ({ counts }: RunResults) => counts.total - counts.commandRequests;
    expect(groupsOf(results(repeated))).toBe(3 * groupsOf(results(single)));
    expect(repeated.stdout).toContain('no wait for a reset foreseen');
  });

  it('should stop at the first failure with -x, report it and every check not run, and still undo what the run made', () => {
    const { run } = stopped;
    expect(run.code, run.stdout.slice(-2000)).toBe(1);
    const { checks, totals } = results(run);
    // The groups run side by side: another may meet its failure before it learns of the first. Each is reported.
    const failed = checks.filter((c) => c.status === 'failed').map((c) => c.clause);
    expect(failed.length).toBeGreaterThan(0);
    for (const clause of failed) expect(STOPPING_FAULTS).toContain(clause);
    expect(run.stdout).toMatch(new RegExp(`^✗ (${failed.join('|')}) `, 'm'));
    // Every check the run selects is reported: the checks not run count as skipped, saying why.
    expect(totals.checks).toBe(results(whole).totals.checks);
    expect(checks.map((c) => c.title).sort()).toEqual(results(whole).checks.map((c) => c.title).sort());
    expect(checks.filter((c) => c.skipReason === 'not run: the run stopped after 1 failed check (--max-failures, -x)').length).toBeGreaterThan(0);
    expect(stopped.leftBehind).toEqual([]);
    expect(stopped.tokensKept).toBe(0);
    expect(reported(stopped)).toEqual(truth(stopped));
  });
});

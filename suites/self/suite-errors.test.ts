// Errors of the suite against a real server: the cases that once tripped the invariant of blocks (a preparation
// exchange that broke another rule than the one its block named) pass through the ratchet as any deviation does, with
// no error of the suite; and where the invariant still trips, the check is not judged, the error is beside it, and the
// exit code is the server's verdict alone.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultClause, PROFILES } from '../../fixtures/reference-server/faults.ts';
import { parseExpectations } from '../support/report/expectations.ts';
import type { CheckResult, RunResults } from '../support/report/results.ts';
import { faultEnv } from './fault-runs.ts';
import { ROOT, runCli, runCommand, type CliRun } from './run-cli.ts';

const PROFILE = 'preparation-meets-other-rules';
const { faults, variations } = PROFILES[PROFILE] as (typeof PROFILES)[string];
// The groups whose preparation met those rules: the media-only status, its DELETE answer, sensitive, small images.
const GROUPS = ['statuses-create', 'statuses', 'media'].flatMap((g) => ['--group', g]);
const NOT_GITHUB = { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '' };

const work = mkdtempSync(join(tmpdir(), 'conformance-suite-errors-'));
const file = join(work, 'expectations.json');
let baseline: CliRun;
let gate: CliRun;

function results(run: CliRun): RunResults {
  if (!run.results) throw new Error(`the run wrote no results.json (exit ${run.code}): ${run.stderr.slice(0, 500)}`);
  return run.results;
}

/** Every error of the suite a run reports: outside checks, of a group, and beside a check. */
const suiteErrors = (r: RunResults) => [...r.errors, ...r.groups.flatMap((g) => g.errors), ...r.checks.flatMap((c) => (c.suiteError ? [c.suiteError] : []))];

beforeAll(async () => {
  // The default timeout: no stream is read here, and a loaded machine must not turn a slow answer into a failure.
  const env = { ...NOT_GITHUB, ...faultEnv(faults, variations), CONFORMANCE_TIMEOUT_MS: '10000' };
  baseline = await runCli([...GROUPS, '--write-expectations', file], env);
  gate = await runCli([...GROUPS, '--expectations', file], env);
}, 300_000);

afterAll(() => {
  for (const run of [baseline, gate]) if (run) rmSync(run.reportDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe(`the ratchet on profile ${PROFILE}`, () => {
  it("should fail the baseline on the profile's clauses alone, with no error of the suite", () => {
    expect(baseline.code).toBe(1);
    expect(suiteErrors(results(baseline))).toEqual([]);
    const failed = new Set(results(baseline).checks.filter((c) => c.status === 'failed').map((c) => c.failedClause ?? c.clause));
    expect([...failed].sort()).toEqual(faults.map(faultClause).sort());
    expect(results(baseline).checks.filter((c) => c.status === 'not-judged').map((c) => c.title)).toEqual([]);
  });

  it('should let the gate pass on the same server with the baseline, with no error of the suite', () => {
    expect(parseExpectations(readFileSync(file, 'utf8'), file).length).toBeGreaterThan(0);
    expect(gate.code, gate.stdout.slice(-2000)).toBe(0);
    expect(suiteErrors(results(gate))).toEqual([]);
    expect(results(gate).totals).toMatchObject({ failed: 0, unexpectedPasses: 0, notJudged: 0 });
  });
});

describe('a forced trip of the invariant of blocks', () => {
  /** A check of each of three clauses whose every check passed in the gate's run: a cause, a check to trip, a check to fail. */
  function cleanChecks(): [CheckResult, CheckResult, CheckResult] {
    const { checks } = results(gate);
    const clean = [...new Set(checks.map((c) => c.clause))].filter((id) => checks.every((c) => c.clause !== id || (c.status === 'passed' && c.severity === 'MUST')));
    return clean.slice(0, 3).map((id) => checks.find((c) => c.clause === id)) as [CheckResult, CheckResult, CheckResult];
  }

  /** The gate's run with one more check, blocked by a clause that passed there (the suite's mistake, forced), and `extra`. */
  async function mergedWithTrip(extra: CheckResult[]): Promise<{ code: number | null; merged: RunResults; summary: string }> {
    const run = results(gate);
    const [cause, other] = cleanChecks();
    const tripped: CheckResult = {
      ...other,
      title: `${other.clause} a check the suite blocked by mistake`,
      status: 'blocked',
      outcome: 'blocked',
      blockedBy: { clause: cause.clause, summary: 'forced: a cause that passed in this run' },
    };
    const dir = mkdtempSync(join(work, 'trip-'));
    const shard = join(dir, 'results.json');
    writeFileSync(shard, JSON.stringify({ ...run, checks: [...run.checks, tripped, ...extra] }));
    const out = join(dir, 'merged');
    const merge = await runCommand(process.execPath, ['--import', 'tsx', join(ROOT, 'suites/support/report/matrix.ts'), '--merge', shard, '--out', out], {}, 60_000);
    return { code: merge.code, merged: JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as RunResults, summary: readFileSync(join(out, 'summary.md'), 'utf8') };
  }

  it('should report the check not judged with the error of the suite beside it, and exit as the server passed: 0', async () => {
    const { code, merged, summary } = await mergedWithTrip([]);
    const tripped = merged.checks.find((c) => c.title.endsWith('a check the suite blocked by mistake'));
    expect(tripped).toMatchObject({ status: 'not-judged', outcome: 'not-judged' });
    expect(tripped?.suiteError).toMatch(/^internal error of the conformance suite: .* is blocked by .*forced: a cause that passed in this run.*, but .* passed in this run/);
    expect(merged.verdict).toBe('PASS');
    expect(code).toBe(0);
    expect(summary).toContain('## Errors of the suite beside checks not judged');
    expect(summary).toContain(tripped?.suiteError);
  });

  it('should exit 1 where the server failed a check, whatever the error of the suite beside another', async () => {
    const [, , failing] = cleanChecks();
    const failure: CheckResult = { ...failing, title: `${failing.clause} a check the server failed`, status: 'failed', outcome: 'failed', message: 'failed' };
    const { code, merged } = await mergedWithTrip([failure]);
    expect(merged.checks.filter((c) => c.suiteError)).toHaveLength(1);
    expect(merged.verdict).toBe('FAIL');
    expect(code).toBe(1);
  });
});

describe('a strict server that spends a code it refused for its redirect_uri', () => {
  // The contract allows it (RFC 6749 10.5 leaves it open): OAUTH-CODE-2 then has no code exchanged once to reuse.
  let strict: CliRun;

  beforeAll(async () => {
    strict = await runCli(['--group', 'oauth'], { ...NOT_GITHUB, CONFORMANCE_VARIATIONS: 'code-spent-on-refusal', CONFORMANCE_TIMEOUT_MS: '10000' });
  }, 120_000);

  afterAll(() => {
    if (strict) rmSync(strict.reportDir, { recursive: true, force: true });
  });

  it('should leave OAUTH-CODE-2 not judged, and fail nothing, with no error of the suite', () => {
    const run = results(strict);
    expect(suiteErrors(run)).toEqual([]);
    expect(run.checks.filter((c) => c.status === 'failed' || c.status === 'blocked').map((c) => c.title)).toEqual([]);
    const reuse = run.checks.find((c) => c.clause === 'OAUTH-CODE-2');
    expect(reuse).toMatchObject({ status: 'not-judged' });
    expect(reuse?.notJudged).toMatch(/^no code was exchanged once/);
    expect(strict.code).toBe(0);
  });
});

describe('a server that answers a boosted status as the boost, the status inside without the caller\'s flags', () => {
  // Issue 41, a small C server: B's favourite of the status B boosted never shows, and STATUS-DELETE-7 was blocked by
  // STATUS-FAV-1, which passed (STATUS-FAV-1 judges A's favourite): an error of the suite on every run.
  const profile = PROFILES['boost-answers-unflagged'] as (typeof PROFILES)[string];
  let run: CliRun;

  beforeAll(async () => {
    run = await runCli(['--group', 'statuses-interactions'], { ...NOT_GITHUB, ...faultEnv(profile.faults, profile.variations), CONFORMANCE_TIMEOUT_MS: '10000' });
  }, 120_000);

  afterAll(() => {
    if (run) rmSync(run.reportDir, { recursive: true, force: true });
  });

  it('should judge STATUS-DELETE-7 on the boost that stands, fail only the boost\'s clause, with no error of the suite', () => {
    const r = results(run);
    expect(suiteErrors(r)).toEqual([]);
    expect(r.checks.find((c) => c.clause === 'STATUS-DELETE-7')).toMatchObject({ status: 'passed' });
    const failed = new Set(r.checks.filter((c) => c.status === 'failed').map((c) => c.failedClause ?? c.clause));
    expect([...failed]).toEqual(profile.faults.map(faultClause));
  });
});

// The ratchet of a CI gate, as a server team meets it: a baseline written by --write-expectations from a run
// against a faulty reference server, a gate that then fails on exactly one regression, and a fixed fault
// reported as unexpectedly passing and widened to either outcome by the next --write-expectations (one run cannot
// tell a fix from a verdict that moves between runs), so that the gate passes whichever outcome comes next; and the
// same ratchet over a run split in shards, written by the merge.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectationsText, parseExpectations, type Expectation } from '../support/report/expectations.ts';
import type { RunResults } from '../support/report/results.ts';
import { ROOT, runCli, runCommand, type CliRun } from './run-cli.ts';

const GROUP = ['--group', 'client-registration'];
/** A failure of its own clause, and a schema failure (of the registration's check and the run-wide one) that blocks APPS-REGISTER-2. */
const TODAY = ['APPS-VERIFY-2', 'RESOURCE-APPLICATION-1'];
const REGRESSION = 'APPS-VERIFY-1';
/** The entries are keyed by the checks' full titles. */
const BLOCKED = 'APPS-REGISTER-2 the Application carries the client name and website given at registration';
const VERIFY = 'APPS-VERIFY-2 verify_credentials without a token answers 401 "The access token is invalid"';
const APPLICATION_RUN_WIDE = 'RESOURCE-APPLICATION-1 every Application the run met has the fields and types of the contract (run-wide)';
const APPLICATION = 'RESOURCE-APPLICATION-1 the registration answer has the Application fields and types of the contract';
const PERSONS_REASON = 'tokenless verify_credentials is open on purpose (ticket 7)';
const NOT_GITHUB = { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '' };

const work = mkdtempSync(join(tmpdir(), 'conformance-ratchet-'));
/** Does not exist before the baseline: the first --write-expectations creates it. */
const file = join(work, 'ci', 'expectations.json');
/** What a CI job keeps with its reports: the file updated by the gate's own run. */
const updatedCopy = join(work, 'reports', 'expectations.json');
const faults = (list: readonly string[]) => ['--fault', list.join(',')];

let baseline: CliRun;
let baselineFile: Expectation[];
let editedFile: Expectation[];
let gate: CliRun;
let regressed: CliRun;
let fixed: CliRun;
let fixedFile: Expectation[];
let afterFix: CliRun;
let flippedBack: CliRun;
/** The file as the person left it, which the shards run with. */
const shardBase = join(work, 'shard-expectations.json');
/** A fault of each shard's group: the baseline's failure of Client registration, and a new one of Account relations. */
const SHARD_FAULTS = ['APPS-VERIFY-2', 'RELATIONS-TOKEN-1'];
const mergedFile = join(work, 'merged-expectations.json');
let shards: CliRun[];
let merge: Awaited<ReturnType<typeof runCommand>>;

function results(run: CliRun): RunResults {
  if (!run.results) throw new Error(`the run wrote no results.json (exit ${run.code}): ${run.stderr.slice(0, 500)}`);
  return run.results;
}

const readFile = () => parseExpectations(readFileSync(file, 'utf8'), file);

beforeAll(async () => {
  // The environment variable, as a CI job would set it.
  baseline = await runCli([...GROUP, ...faults(TODAY)], { ...NOT_GITHUB, CONFORMANCE_WRITE_EXPECTATIONS: file });
  baselineFile = readFile();
  // A person gives one entry a reason of their own; the writer keeps it.
  writeFileSync(file, expectationsText(baselineFile.map((e) => (e.check === VERIFY ? { ...e, reason: PERSONS_REASON } : e))));
  editedFile = readFile();
  copyFileSync(file, shardBase);
  const shardRun = (shard: string) => runCli([...GROUP, '--group', 'account-relations', '--shard', shard, ...faults(SHARD_FAULTS), '--expectations', shardBase], NOT_GITHUB);
  [gate, regressed, ...shards] = await Promise.all([
    runCli([...GROUP, ...faults(TODAY), '--expectations', file, '--write-expectations', updatedCopy], NOT_GITHUB),
    runCli([...GROUP, ...faults([...TODAY, REGRESSION]), '--expectations', file], NOT_GITHUB),
    shardRun('1/2'),
    shardRun('2/2'),
  ]);
  const shardResults = shards.map((run) => join(run.reportDir, 'results.json'));
  const matrix = ['--import', 'tsx', join(ROOT, 'suites/support/report/matrix.ts'), '--merge', ...shardResults, '--out', join(work, 'merged'), '--write-expectations', mergedFile];
  merge = await runCommand(process.execPath, matrix, {}, 60_000);
  fixed = await runCli([...GROUP, ...faults(['APPS-VERIFY-2']), '--expectations', file, '--write-expectations', file], NOT_GITHUB);
  fixedFile = readFile();
  [afterFix, flippedBack] = await Promise.all([
    runCli([...GROUP, ...faults(['APPS-VERIFY-2']), '--expectations', file], NOT_GITHUB),
    runCli([...GROUP, ...faults(TODAY), '--expectations', file], NOT_GITHUB),
  ]);
  // A guard against a hang only: four runs in a row took more than the project's 2 minutes at a load of 40.
}, 900_000);

afterAll(() => {
  for (const run of [baseline, gate, regressed, fixed, afterFix, flippedBack, ...(shards ?? [])]) if (run) rmSync(run.reportDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('--write-expectations', () => {
  it("should write today's failures and blocked checks, each with the run's reason, into a file that did not exist", () => {
    expect(baseline.code).toBe(1);
    expect(baseline.stdout).toContain(`Expectations written to ${file}: 4 entries, 4 added`);
    expect(baselineFile.map((e) => e.check)).toEqual([BLOCKED, VERIFY, APPLICATION_RUN_WIDE, APPLICATION]);
    expect(baselineFile.every((e) => e.expect === 'fail')).toBe(true);
    const reasons = Object.fromEntries(baselineFile.map((e) => [e.check, e.reason]));
    expect(reasons[BLOCKED]).toBe(`blocked by RESOURCE-APPLICATION-1 (the registration answered name null, not a string)`);
    expect(reasons[APPLICATION]).toBe('expected Application /name: type string; actual Application /name: null (at Application /name)');
    expect(reasons[VERIFY]).toMatch(/^expected a refusal: HTTP 401 .*; actual HTTP 200 /);
  });

  it('should let the gate pass on the same server with that file', () => {
    expect(gate.code, gate.stdout.slice(-2000)).toBe(0);
    expect(results(gate).totals).toMatchObject({ failed: 0, unexpectedPasses: 0, blocked: 1 });
    expect(results(gate).totals.expectedFailures).toBeGreaterThanOrEqual(2);
    // Nothing changed, so the copy the gate writes from --expectations is the file itself, reasons included.
    expect(parseExpectations(readFileSync(updatedCopy, 'utf8'), updatedCopy)).toEqual(editedFile);
  });

  it('should fail the gate on exactly the one regression', () => {
    expect(regressed.code).toBe(1);
    expect(results(regressed).checks.filter((c) => c.outcome === 'failed').map((c) => c.clause)).toEqual([REGRESSION]);
    expect(results(regressed).totals.unexpectedPasses).toBe(0);
  });

  it('should report a fixed fault as unexpectedly passing, its blocked check included, and widen both entries instead of flipping them', () => {
    expect(fixed.code).toBe(1);
    const states = Object.fromEntries(results(fixed).expectations.entries.map((e) => [e.check, e.state]));
    expect(states).toEqual({ [BLOCKED]: 'unexpectedly passing', [VERIFY]: 'failing as expected', [APPLICATION_RUN_WIDE]: 'unexpectedly passing', [APPLICATION]: 'unexpectedly passing' });
    expect(results(fixed).checks.find((c) => c.title === BLOCKED)?.outcome).toBe('unexpectedly-passing');
    expect(fixed.stdout).toContain(`widened 3 that now pass to ["fail", "pass"] (remove an entry once it is fixed for good): ${BLOCKED}, ${APPLICATION_RUN_WIDE}, ${APPLICATION}`);
    expect(fixedFile.map((e) => [e.check, e.expect, e.reason])).toEqual([
      [BLOCKED, ['fail', 'pass'], baselineFile[0]?.reason],
      [VERIFY, 'fail', PERSONS_REASON],
      [APPLICATION_RUN_WIDE, ['fail', 'pass'], baselineFile[2]?.reason],
      [APPLICATION, ['fail', 'pass'], baselineFile[3]?.reason],
    ]);
  });

  it('should let the gate pass with the widened file whichever way the verdicts fall next', () => {
    expect(afterFix.code, afterFix.stdout.slice(-2000)).toBe(0);
    expect(results(afterFix).expectations.entries.map((e) => e.state)).toEqual(['passing as allowed', 'failing as expected', 'passing as allowed', 'passing as allowed']);
    expect(flippedBack.code, flippedBack.stdout.slice(-2000)).toBe(0);
    expect(results(flippedBack).totals).toMatchObject({ failed: 0, unexpectedPasses: 0 });
  });

  it("should write, on the merge of a sharded run, the file of the whole run: the shards' entries, what passes now in any shard widened, plus every shard's failures", () => {
    expect(merge.code, merge.stderr).toBe(1);
    expect(merge.stdout).toContain(`Expectations written to ${mergedFile}: 5 entries, 1 added; widened 3 that now pass to ["fail", "pass"]`);
    const written = parseExpectations(readFileSync(mergedFile, 'utf8'), mergedFile);
    expect(written.map((e) => [e.check, e.expect])).toEqual([
      [BLOCKED, ['fail', 'pass']],
      [VERIFY, 'fail'],
      [APPLICATION_RUN_WIDE, ['fail', 'pass']],
      [APPLICATION, ['fail', 'pass']],
      ['RELATIONS-TOKEN-1 following and followers without a token answer 401 "The access token is invalid"', 'fail'],
    ]);
    expect(written[1]?.reason).toBe(PERSONS_REASON);
  });

  it('should refuse a file to update that --expectations would refuse, before anything runs, and leave it as it was', async () => {
    const malformed = join(work, 'malformed.json');
    const text = '{"expectations": [{"check": "APPS-VERIFY-2", "expected": "fail", "reason": "r"}]}';
    writeFileSync(malformed, text);
    const run = await runCli(['--write-expectations', malformed], NOT_GITHUB, 30_000);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toMatch(/^social-api-conformance: .*malformed\.json: expectations\[0\] has unknown key expected/);
    expect(run.results).toBeUndefined();
    expect(readFileSync(malformed, 'utf8')).toBe(text);
  });
});

// A server that streams over WebSocket only: every server-sent-events check is blocked, each WebSocket check of the
// same clause passes. Each check has an entry of its own, so a regression of a WebSocket check fails the gate; a file
// keyed by clause (as files were written before) held it, and --write-expectations rewrites it per check.
describe('an expectation per check', () => {
  const STREAMING = ['--group', 'streaming'];
  const WEBSOCKET_ONLY = { ...NOT_GITHUB, CONFORMANCE_VARIATIONS: 'websocket-only' };
  const MUTED_SSE = 'STREAM-USER-3 after mute, a reply in the muted thread produces no notification (SSE)';
  const MUTED_WEBSOCKET = 'STREAM-USER-3 after mute, a reply in the muted thread produces no notification (WebSocket)';
  const perCheck = join(work, 'per-check.json');
  const byClause = join(work, 'by-clause.json');
  let streamBaseline: CliRun;
  let unchanged: CliRun;
  let streamRegressed: CliRun;
  let clauseRewrite: CliRun;
  let clauseRegressed: CliRun;

  beforeAll(async () => {
    streamBaseline = await runCli([...STREAMING, '--write-expectations', perCheck], WEBSOCKET_ONLY);
    writeFileSync(byClause, expectationsText([{ check: 'STREAM-USER-3', expect: 'fail', reason: 'no event stream (ticket 12)' }]));
    [unchanged, streamRegressed, clauseRewrite] = await Promise.all([
      runCli([...STREAMING, '--expectations', perCheck], WEBSOCKET_ONLY),
      runCli([...STREAMING, ...faults(['STREAM-USER-3']), '--expectations', perCheck], WEBSOCKET_ONLY),
      runCli([...STREAMING, '--expectations', byClause, '--write-expectations', byClause], WEBSOCKET_ONLY),
    ]);
    clauseRegressed = await runCli([...STREAMING, ...faults(['STREAM-USER-3']), '--expectations', byClause], WEBSOCKET_ONLY);
  });

  afterAll(() => {
    for (const run of [streamBaseline, unchanged, streamRegressed, clauseRewrite, clauseRegressed]) if (run) rmSync(run.reportDir, { recursive: true, force: true });
  });

  it('should write an entry for the blocked check of a clause and none for the check of the other transport that passes', () => {
    const written = parseExpectations(readFileSync(perCheck, 'utf8'), perCheck).map((e) => e.check);
    expect(written).toContain(MUTED_SSE);
    expect(written.filter((check) => check.startsWith('STREAM-USER-3'))).toEqual([MUTED_SSE]);
    expect(unchanged.code, unchanged.stdout.slice(-2000)).toBe(0);
  });

  it('should fail the gate when the check of the other transport regresses', () => {
    expect(streamRegressed.code).toBe(1);
    expect(results(streamRegressed).checks.filter((c) => c.outcome === 'failed').map((c) => c.title)).toEqual([MUTED_WEBSOCKET]);
    expect(results(streamRegressed).checks.find((c) => c.title === MUTED_SSE)?.outcome).toBe('blocked');
  });

  it('should read an entry keyed by a clause alone as every check of it, rewrite it per check, and then fail the gate on the regression', () => {
    expect(clauseRewrite.stdout).toContain('entries keyed by a clause alone rewritten as 1 of one check each');
    const rewritten = parseExpectations(readFileSync(byClause, 'utf8'), byClause);
    expect(rewritten.find((e) => e.check === MUTED_SSE)).toEqual({ check: MUTED_SSE, expect: 'fail', reason: 'no event stream (ticket 12)' });
    expect(rewritten.map((e) => e.check)).not.toContain(MUTED_WEBSOCKET);
    expect(clauseRegressed.code).toBe(1);
    expect(results(clauseRegressed).checks.filter((c) => c.outcome === 'failed').map((c) => c.title)).toEqual([MUTED_WEBSOCKET]);
  });
});

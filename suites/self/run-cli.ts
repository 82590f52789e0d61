// Runs the conformance command as a user would, in a child process, and collects what it left:
// exit code, output and results.json. Our own tests of the suite's verdicts are built on it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ReferenceServer } from '../../fixtures/reference-server/server.ts';
import type { RunResults } from '../support/report/results.ts';
import type { SuiteOutcome, SuiteRun } from './suite-runner.ts';
import type { FailureData } from '../support/judge/clauses.ts';
import { suiteErrorsOf } from '../support/report/blocks.ts';
import { ANNOUNCED_WAIT_MS } from '../support/talk/pacing.ts';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  reportDir: string;
  results?: RunResults;
  /** Every report file's text, for the searches for leaked secrets. */
  reports: Record<string, string>;
  ms: number;
}

/** A line of a stack trace, which no answer of the command to a user's mistake may show. */
export const STACK_FRAME = /^\s+at .*:\d+:\d+\)?$/m;

/**
 * What the command said of a mistake: its stderr less the notice of a wait that a server slowed by a busy machine may
 * get first (a second without an answer to the preflight, even where the connection is then refused), which is not a
 * line of the mistake.
 */
export const mistakeOf = (run: Pick<CliRun, 'stderr'>) => run.stderr.replace(/^… waiting for .*\n/, '');

/** A loopback port where nothing listens: bound by the system, then released. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A run's verdict of every check: its status, and a blocked check's cause (a clause, or outside the contract). */
export function verdictsOf(run: CliRun): Record<string, string> {
  return Object.fromEntries((run.results?.checks ?? []).map((c) => [`${c.file} ${c.title}`, `${c.status}${c.blockedBy ? ` by ${c.blockedBy.clause ?? 'a cause outside the contract'}` : ''}`]));
}

/**
 * How long the command takes to start on this machine now, timed with `--help` with tsx registered first: a run
 * against a server loads tsx and the planner before its first request, and the tests that bound the command's time take
 * their bounds from this start, so that a busy machine moves the bound with the command. (`--help` alone no longer
 * starts tsx: compiled-cli.mjs answers it, which would make the bound shorter than what it bounds.)
 */
export async function commandStartMs(): Promise<number> {
  return (await runCli(['--help'], { NODE_OPTIONS: '--import tsx' }, 120_000)).ms;
}

/** Environment of a clean run: nothing from the developer's shell reaches the suite's settings. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('CONFORMANCE_') && !k.startsWith('VITEST')) env[k] = v;
  return { ...env, ...extra };
}

interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a command in a clean environment, in `cwd`; killed after timeoutMs (code null). */
export async function runCommand(command: string, args: string[], env: Record<string, string>, timeoutMs: number, cwd = ROOT): Promise<ChildRun> {
  const started = performance.now();
  // Its own process group: a run that overstays is killed with every worker it started, none left orphaned.
  const child = spawn(command, args, { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const killGroup = () => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // The group has ended already.
    }
  };
  const timer = setTimeout(killGroup, timeoutMs);
  // Should this test process end first (a timeout of its own, an interrupted run), the group ends with it.
  process.once('exit', killGroup);
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearTimeout(timer);
  process.off('exit', killGroup);
  // Workers the child left behind (it was killed, or exited without closing them) end too.
  killGroup();
  return { code, stdout, stderr, ms: Math.round(performance.now() - started) };
}

export async function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<CliRun> {
  const reportDir = mkdtempSync(join(tmpdir(), 'conformance-'));
  const run = await runCommand(process.execPath, [join(ROOT, 'suites/support/run/bin.mjs'), ...args], { CONFORMANCE_REPORT_DIR: reportDir, ...env }, timeoutMs);
  const reports: Record<string, string> = {};
  for (const name of existsSync(reportDir) ? readdirSync(reportDir) : []) {
    if (!name.endsWith('.png')) reports[name] = readFileSync(join(reportDir, name), 'utf8');
  }
  const results = reports['results.json'] ? (JSON.parse(reports['results.json']) as RunResults) : undefined;
  return { ...run, reportDir, results, reports };
}

/** The settings that point the command at a reference server started in this process, as its KEY=VALUE lines would. */
export function serverEnv(server: ReferenceServer): Record<string, string> {
  const { a, b } = server.users;
  return {
    CONFORMANCE_BASE_URL: server.url,
    CONFORMANCE_TOKEN_A: a.token,
    CONFORMANCE_TOKEN_B: b.token,
    CONFORMANCE_USERNAME_A: a.account.username,
    CONFORMANCE_PASSWORD_A: a.password,
    CONFORMANCE_USERNAME_B: b.account.username,
    CONFORMANCE_PASSWORD_B: b.password,
    CONFORMANCE_LIST_ID: server.listId,
  };
}

const READY_WAIT_MS = 120_000;

/**
 * Starts a standalone reference server as a user does (`npm run reference-server`, `npx social-api-conformance
 * serve`) and resolves with its KEY=VALUE lines once it prints READY; `stop` ends its process group.
 */
export async function startStandaloneServer(command: string, args: string[], cwd = ROOT): Promise<{ lines: Record<string, string>; stop: () => void }> {
  // Its own process group, so that npm or npx, a shell and the server all stop together.
  const child = spawn(command, args, { cwd, env: cleanEnv({}), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = () => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGTERM');
  };
  let output = '';
  const lines = await new Promise<Record<string, string>>((resolve, reject) => {
    // A guard against a hang only: a fresh install's first start transforms the whole server, over 30 s on a busy machine.
    const timer = setTimeout(() => reject(new Error(`no READY within ${READY_WAIT_MS / 1000} s; output: ${output}`)), READY_WAIT_MS);
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
      if (!/^READY$/m.test(output)) return;
      clearTimeout(timer);
      resolve(Object.fromEntries(output.split('\n').flatMap((line) => (/^[A-Z_]+=/.test(line) ? [line.split(/=(.*)/s).slice(0, 2) as [string, string]] : []))));
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => reject(new Error(`the reference server exited with ${code}; output: ${output}`)));
  }).catch((error: unknown) => {
    stop();
    throw error;
  });
  return { lines, stop };
}

export interface SuiteRuns extends ChildRun {
  /** One per run that the runner reported on; missing when the runner did not finish. */
  outcomes: SuiteOutcome[];
}

/** Runs the conformance suites once per run, all in one vitest process (suite-runner.ts). */
export async function runSuites(runs: readonly SuiteRun[], timeoutMs = 600_000): Promise<SuiteRuns> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-runs-'));
  const planFile = join(dir, 'plan.json');
  const outcomesFile = join(dir, 'outcomes.json');
  writeFileSync(planFile, JSON.stringify(runs));
  // vitest is loaded before tsx registers its hooks, as the conformance command does (run/bin.mjs): loaded through
  // them, vitest's own modules kept tsx's thread busy for seconds (0.7 times the runner's CPU without them, paired).
  const runner = ['--import', 'vitest/node', '--import', 'tsx', join(ROOT, 'suites/self/suite-runner.ts'), planFile, outcomesFile];
  const run = await runCommand(process.execPath, runner, {}, timeoutMs);
  const outcomes = existsSync(outcomesFile) ? (JSON.parse(readFileSync(outcomesFile, 'utf8')) as SuiteOutcome[]) : [];
  return { ...run, outcomes };
}

/** Runs `task` over `items`, at most `limit` at a time. */
export async function inParallel<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Runs the task for each named case, at most `limit` at once, into `into` by the case's name. */
export async function eachCaseInParallel<C, R>(cases: Readonly<Record<string, C>>, limit: number, task: (c: C) => Promise<R>, into: Map<string, R>): Promise<void> {
  const names = Object.keys(cases);
  const results = await inParallel(names, limit, (name) => task(cases[name] as C));
  names.forEach((name, i) => into.set(name, results[i] as R));
}

/** What two runs in a row must not show: different verdicts, errors of the suite, a 429 as evidence, a wait not announced. */
export function problemsOfRunsInARow(runs: readonly CliRun[]): string[] {
  const problems: string[] = [];
  const [first, second] = runs.map(verdictsOf) as [Record<string, string>, Record<string, string>];
  if (Object.keys(first).length === 0) problems.push('the first run reported no check');
  for (const check of new Set([...Object.keys(first), ...Object.keys(second)])) {
    if (first[check] !== second[check]) problems.push(`${check}: ${first[check]} in the first run, ${second[check]} in the second`);
  }
  runs.forEach((run, i) => {
    const results = run.results;
    if (!results) return void problems.push(`run ${i + 1} wrote no results (exit ${run.code}): ${(run.stdout + run.stderr).slice(-1500)}`);
    for (const error of [...results.errors, ...results.groups.flatMap((g) => g.errors), ...suiteErrorsOf(results)]) problems.push(`run ${i + 1}: error of the suite: ${error.split('\n')[0]}`);
    // Read from the failure's data: the message's text also holds timings ("after 429 ms").
    const onA429 = (failure: FailureData | undefined) => failure !== undefined && (/^HTTP 429\b/.test(failure.actual) || /^\s*response: 429 /m.test(failure.exchange ?? ''));
    for (const c of results.checks.filter((c) => c.status === 'failed' && onA429(c.failure))) problems.push(`run ${i + 1}: ${c.title} failed on a 429`);
    const waits = (run.stdout + run.stderr).split('\n').filter((line) => line.startsWith('… waiting'));
    if (results.counts.pacedMs > 2000 && waits.length === 0) problems.push(`run ${i + 1} waited ${results.counts.pacedMs} ms for resets and announced no wait`);
    // An announced wait lasts longer than ANNOUNCED_WAIT_MS: the one before the start counts in "waited N s" and pacedMs
    // as the groups' waits do (issue 52: a run that waited 212 s before it started said pacedMs 0).
    if (waits.some((line) => line.includes('before the run starts')) && results.counts.pacedMs < ANNOUNCED_WAIT_MS) problems.push(`run ${i + 1} waited for the reset before it started and counted ${results.counts.pacedMs} ms waited for resets`);
  });
  return problems;
}

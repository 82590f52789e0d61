// The benchmark (`npm run bench -- [--runs N] [--out FILE]`): runs the conformance command against the
// embedded reference server several times: plainly, with one check selected (about the fixed cost of a run), with 150 ms of
// latency per response, and against the small-server model (4 workers); and reports how fast and how frugal a whole
// run is: wall and CPU time, time per group, requests by path and bucket, the longest idle wait, peak memory.
// A script, not a timed test: its figures depend on the machine, so it reports them and gates nothing.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { addCounts, emptyCounts, type Counts } from '../support/talk/counts.ts';
import { SETTINGS } from '../support/talk/config.ts';
import type { RunResults } from '../support/report/results.ts';
import { cleanEnv, ROOT } from './run-cli.ts';

const HELP = `Usage: npm run bench -- [--runs N] [--out FILE]

Runs the conformance command (node suites/support/run/bin.mjs, what \`npm run conformance\` runs) N times in each
scenario, one run at a time, alternating: against the embedded reference server; the same with one check
(--only APPS-VERIFY-2: about the fixed cost of a run; a selection of nothing is a usage error); with CONFORMANCE_VARIATIONS=latency (150 ms added to every response);
and with CONFORMANCE_VARIATIONS=small-server (4 workers, 20 ms each per request). Prints the figures as a Markdown
table and writes them as JSON.

  --runs N     runs per scenario (default 5, at least 1)
  --out FILE   the JSON report (default reports/bench.json)`;

interface Scenario {
  name: string;
  /** CONFORMANCE_VARIATIONS of the embedded server. */
  variations: string;
  /** Arguments of the command. */
  args: readonly string[];
  /** What this machine (2 cores) should achieve: the median wall time of a run. */
  targetWallMs: number;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'embedded', variations: '', args: [], targetWallMs: 2_500 },
  { name: 'one check', variations: '', args: ['--only', 'APPS-VERIFY-2'], targetWallMs: 1_500 },
  { name: 'latency 150 ms', variations: 'latency', args: [], targetWallMs: 14_000 },
  { name: 'small server (4 workers)', variations: 'small-server', args: [], targetWallMs: 4_000 },
];

// The group of the destructive Limits checks, which spend buckets on purpose (LIMITS-SIGNUP-1, LIMITS-DELETION-2):
// the budgets of an audit leave it aside.
const DESTRUCTIVE_GROUP_FILE = 'suites/limits.test.ts';
/** What a full audit may spend, the Limits group aside; a status creation is a status published (see Counts). */
const BUDGET = { requests: 150, statusCreations: 20, deletionsPerAccount: 20, uploads: 10 } as const;
/** What a whole run may send on every path together (/api, /oauth, /auth and files): one window of a server that counts them in one bucket. */
const WHOLE_RUN_REQUESTS = 300;
const RUN_TIMEOUT_MS = 300_000;
const MEMORY_POLL_MS = 100;

interface Memory {
  /** Peak resident set of the conformance command's own process (VmHWM): vitest, reporter, embedded server. */
  runnerKiB: number;
  /** The largest sum of resident sets of the command and all its descendants (the test workers) at one poll. */
  treeKiB: number;
}

interface RunFigures {
  scenario: string;
  wallMs: number;
  /** From the reporter's start to its end: the wall time less the start-up of node, tsx and vitest. */
  reportedMs: number;
  /** CPU time of the command and its workers: a figure that other load on the machine barely moves. */
  cpuMs?: number;
  verdict: RunResults['verdict'] | 'NO RESULTS';
  exitCode: number | null;
  groups: Array<{ name: string; file: string; durationMs: number; counts: Counts }>;
  counts: Counts;
  memory?: Memory;
}

// ---------------------------------------------------------------------------------------------------------
// Peak memory and CPU time, read from /proc (Linux); elsewhere these figures are left out.

function statusKiB(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0; // the process ended between the listing and the read
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

function treeOf(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...childrenOf(tree[i] as number));
  return tree;
}

// USER_HZ, the unit of the CPU times in /proc/<pid>/stat: 100 on every Linux architecture Node runs on.
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (ms) of the children this process has waited for, their own waited-for children included. */
function childrenCpuMs(): number | undefined {
  try {
    // Fields after the command name (which is in parentheses and may hold spaces): cutime and cstime are 16 and 17.
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Polls the memory of a process and its descendants until stopped; undefined where /proc is missing. */
function watchMemory(pid: number): () => Memory | undefined {
  if (!existsSync(`/proc/${pid}/task`)) return () => undefined;
  const peak: Memory = { runnerKiB: 0, treeKiB: 0 };
  const poll = () => {
    const runner = statusKiB(pid, 'VmHWM');
    // The last reading before the process exits is its peak: keep the highest seen.
    if (runner > 0) peak.runnerKiB = Math.max(peak.runnerKiB, runner);
    peak.treeKiB = Math.max(peak.treeKiB, treeOf(pid).reduce((sum, p) => sum + statusKiB(p, 'VmRSS'), 0));
  };
  const timer = setInterval(poll, MEMORY_POLL_MS);
  return () => {
    clearInterval(timer);
    return peak.runnerKiB > 0 ? peak : undefined;
  };
}

// ---------------------------------------------------------------------------------------------------------
// One run of the conformance command.

/**
 * The environment of a default run: every setting blank, so neither the developer's shell nor a .env file
 * (dotenv does not override what is set) points the run at a live server or switches faults on.
 */
function benchEnv(scenario: Scenario, reportDir: string): NodeJS.ProcessEnv {
  const blank = Object.fromEntries(SETTINGS.map((s) => [s.env, '']));
  return cleanEnv({
    ...blank,
    // What the embedded default run does when the setting is unset; blank would switch it off.
    CONFORMANCE_DESTRUCTIVE: 'true',
    CONFORMANCE_REPORT_DIR: reportDir,
    CONFORMANCE_VARIATIONS: scenario.variations,
    // Ten runs in a CI job must not write ten job summaries.
    GITHUB_ACTIONS: '',
  });
}

async function runOnce(scenario: Scenario): Promise<RunFigures> {
  const reportDir = mkdtempSync(join(tmpdir(), 'conformance-bench-'));
  const started = performance.now();
  const cpuBefore = childrenCpuMs();
  const child = spawn(process.execPath, [join(ROOT, 'suites/support/run/bin.mjs'), ...scenario.args], { cwd: ROOT, env: benchEnv(scenario, reportDir), stdio: ['ignore', 'ignore', 'pipe'] });
  const stopWatching = child.pid === undefined ? () => undefined : watchMemory(child.pid);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  const exitCode = await new Promise<number | null>((done) => child.on('close', done));
  clearTimeout(timer);
  const wallMs = Math.round(performance.now() - started);
  const memory = stopWatching();
  const cpuAfter = childrenCpuMs();
  const resultsFile = join(reportDir, 'results.json');
  const results = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResults) : undefined;
  rmSync(reportDir, { recursive: true, force: true });
  if (!results) process.stderr.write(`bench: a run left no results.json (exit ${exitCode}):\n${stderr.slice(-2000)}\n`);
  return {
    scenario: scenario.name,
    wallMs,
    reportedMs: results?.durationMs ?? 0,
    ...(cpuBefore !== undefined && cpuAfter !== undefined ? { cpuMs: Math.round(cpuAfter - cpuBefore) } : {}),
    verdict: results?.verdict ?? 'NO RESULTS',
    exitCode,
    groups: (results?.groups ?? []).map((g) => ({ name: g.name, file: g.file, durationMs: g.durationMs, counts: g.counts ?? emptyCounts() })),
    counts: results?.counts ?? emptyCounts(),
    ...(memory ? { memory } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Summaries.

interface Spread {
  median: number;
  min: number;
  max: number;
}

function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median: Math.round(median), min: sorted[0] ?? 0, max: sorted[sorted.length - 1] ?? 0 };
}

/** Median of each key over the runs; a key missing from a run counts 0 there. */
function medianRecord(records: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)))].sort();
  return Object.fromEntries(keys.map((k) => [k, spread(records.map((r) => r[k] ?? 0)).median]));
}

interface ScenarioSummary {
  scenario: string;
  variations: string;
  runs: number;
  passedRuns: number;
  wallMs: Spread;
  reportedMs: Spread;
  cpuMs?: Spread;
  /** Per group, in the order of the report: median duration and requests. */
  groups: Array<{ name: string; file: string; durationMs: number; requests: number }>;
  requests: {
    total: Spread;
    perAccount: Record<string, number>;
    perBucket: Record<string, number>;
    perPath: Record<string, number>;
  };
  /** The longest time a group had no request in flight (an event wait, a pause, a pacing wait). */
  longestIdleMs: Spread;
  /** What the budgets judge: the run less the destructive group. */
  audit: {
    requests: Spread;
    statusCreations: Spread;
    deletionsAndUnreblogs: Spread;
    /** Deletions and unreblogs per account: the Deletion bucket of each ("Deletion of A"). */
    deletionBuckets: Record<string, number>;
    uploads: Spread;
  };
  streamConnections: Spread;
  refusals: Spread;
  pacedMs: Spread;
  memory?: { runnerKiB: Spread; treeKiB: Spread };
  targets: Record<'wall' | 'requests' | 'wholeRun' | 'statusCreations' | 'deletions' | 'uploads', Target>;
}

interface Target {
  target: string;
  met: boolean;
}

const deletionBuckets = (perBucket: Record<string, number>) => Object.fromEntries(Object.entries(perBucket).filter(([k]) => k.startsWith('Deletion of ')));

function summarize(scenario: Scenario, runs: readonly RunFigures[]): ScenarioSummary {
  const of = (pick: (r: RunFigures) => number) => spread(runs.map(pick));
  const files = [...new Set(runs.flatMap((r) => r.groups.map((g) => g.file)))].sort();
  const groups = files.map((file) => {
    const seen = runs.flatMap((r) => r.groups.filter((g) => g.file === file));
    return { name: seen[0]?.name ?? file, file, durationMs: spread(seen.map((g) => g.durationMs)).median, requests: spread(seen.map((g) => g.counts.total)).median };
  });
  const audits = runs.map((r) => r.groups.filter((g) => g.file !== DESTRUCTIVE_GROUP_FILE).reduce((sum, g) => addCounts(sum, g.counts), emptyCounts()));
  const ofAudit = (pick: (c: Counts) => number) => spread(audits.map(pick));
  const perBucket = medianRecord(runs.map((r) => r.counts.perBucket));
  const memories = runs.map((r) => r.memory).filter((m): m is Memory => m !== undefined);
  const cpu = runs.map((r) => r.cpuMs).filter((ms): ms is number => ms !== undefined);
  const summary: Omit<ScenarioSummary, 'targets'> = {
    scenario: scenario.name,
    variations: scenario.variations,
    runs: runs.length,
    passedRuns: runs.filter((r) => r.verdict === 'PASS').length,
    wallMs: of((r) => r.wallMs),
    reportedMs: of((r) => r.reportedMs),
    ...(cpu.length ? { cpuMs: spread(cpu) } : {}),
    groups,
    requests: {
      total: of((r) => r.counts.total),
      perAccount: medianRecord(runs.map((r) => r.counts.perAccount)),
      perBucket,
      perPath: medianRecord(runs.map((r) => r.counts.perPath ?? {})),
    },
    longestIdleMs: of((r) => r.counts.longestIdleMs ?? 0),
    audit: {
      requests: ofAudit((c) => c.total),
      statusCreations: ofAudit((c) => c.statusCreations),
      deletionsAndUnreblogs: ofAudit((c) => c.deletions),
      deletionBuckets: deletionBuckets(medianRecord(audits.map((c) => c.perBucket))),
      uploads: ofAudit((c) => c.uploads),
    },
    streamConnections: of((r) => r.counts.streamConnections),
    refusals: of((r) => r.counts.refusals),
    pacedMs: of((r) => r.counts.pacedMs),
    ...(memories.length ? { memory: { runnerKiB: spread(memories.map((m) => m.runnerKiB)), treeKiB: spread(memories.map((m) => m.treeKiB)) } } : {}),
  };
  const maxDeletions = Math.max(0, ...audits.flatMap((c) => Object.values(deletionBuckets(c.perBucket))));
  const { audit } = summary;
  return {
    ...summary,
    targets: {
      wall: { target: `median <= ${(scenario.targetWallMs / 1000).toFixed(1)} s`, met: summary.wallMs.median <= scenario.targetWallMs },
      requests: { target: `<= ${BUDGET.requests}`, met: audit.requests.max <= BUDGET.requests },
      wholeRun: { target: `<= ${WHOLE_RUN_REQUESTS}`, met: summary.requests.total.max <= WHOLE_RUN_REQUESTS },
      statusCreations: { target: `<= ${BUDGET.statusCreations}`, met: audit.statusCreations.max <= BUDGET.statusCreations },
      deletions: { target: `<= ${BUDGET.deletionsPerAccount} per account`, met: maxDeletions <= BUDGET.deletionsPerAccount },
      uploads: { target: `<= ${BUDGET.uploads}`, met: audit.uploads.max <= BUDGET.uploads },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The table (Markdown, so that docs/performance.md can show it as printed).

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (kib: number) => `${Math.round(kib / 1024)} MiB`;
/** A figure's target and whether the runs met it. */
const judged = ({ target, met }: Target) => `${met ? '✓' : '✗'} ${target}`;
/** One figure, with its range when the runs differ. */
const figure = (s: Spread, unit: (n: number) => string = String) => (s.min === s.max ? unit(s.median) : `${unit(s.median)} (${unit(s.min)}–${unit(s.max)})`);
const listed = (record: Record<string, number>) => Object.entries(record).map(([k, v]) => `${k} ${v}`).join(', ');

function markdownTable(summaries: readonly ScenarioSummary[]): string {
  const row = (label: string, cell: (s: ScenarioSummary) => string) => `| ${label} | ${summaries.map(cell).join(' | ')} |`;
  const lines = [
    `| | ${summaries.map((s) => s.scenario).join(' | ')} |`,
    `|---|${summaries.map(() => '---').join('|')}|`,
    row('runs (passed)', (s) => `${s.runs} (${s.passedRuns})`),
    row('wall time, median (min–max)', (s) => `**${seconds(s.wallMs.median)}** (${seconds(s.wallMs.min)}–${seconds(s.wallMs.max)}) ${judged(s.targets.wall)}`),
    row('start-up and shut-down (wall time less the reported run), median', (s) => seconds(s.wallMs.median - s.reportedMs.median)),
    row('CPU time, runner and workers, median', (s) => (s.cpuMs ? seconds(s.cpuMs.median) : 'n/a (needs /proc)')),
  ];
  const files = [...new Set(summaries.flatMap((s) => s.groups.map((g) => g.file)))].sort();
  for (const file of files) {
    const name = summaries.flatMap((s) => s.groups).find((g) => g.file === file)?.name ?? file;
    lines.push(row(`group "${name}", median`, (s) => {
      const g = s.groups.find((x) => x.file === file);
      return g ? `${seconds(g.durationMs)}, ${g.requests} requests` : '–';
    }));
  }
  lines.push(
    row('requests of the audit (the run less the Limits group)', (s) => `${figure(s.audit.requests)} ${judged(s.targets.requests)}`),
    row('status creations of the audit (a new status answered to POST /api/v1/statuses)', (s) => `${figure(s.audit.statusCreations)} ${judged(s.targets.statusCreations)}`),
    row('deletions and unreblogs of the audit', (s) => `${figure(s.audit.deletionsAndUnreblogs)} (${listed(s.audit.deletionBuckets)}) ${judged(s.targets.deletions)}`),
    row('uploads of the audit', (s) => `${figure(s.audit.uploads)} ${judged(s.targets.uploads)}`),
    row('requests of the whole run, Limits group included, every path', (s) => `${figure(s.requests.total)} ${judged(s.targets.wholeRun)}`),
    row('requests by path', (s) => listed(s.requests.perPath)),
    row('longest idle wait of a group (no request of its own in flight)', (s) => figure(s.longestIdleMs, seconds)),
    row('requests per account', (s) => listed(s.requests.perAccount)),
    row('requests per rate-limit bucket', (s) => listed(s.requests.perBucket)),
    row('stream connections', (s) => figure(s.streamConnections)),
    row('refused (429) / paced', (s) => `${figure(s.refusals)} / ${figure(s.pacedMs, seconds)}`),
    row('peak memory, runner process', (s) => (s.memory ? figure(s.memory.runnerKiB, mib) : 'n/a (needs /proc)')),
    row('peak memory, runner and workers', (s) => (s.memory ? figure(s.memory.treeKiB, mib) : 'n/a (needs /proc)')),
  );
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------
// The command.

function options(): { runs: number; out: string } {
  const usage = (message: string): never => {
    process.stderr.write(`bench: ${message} (see --help)\n`);
    process.exit(2);
  };
  let values: { runs?: string; out?: string; help?: boolean } = {};
  try {
    ({ values } = parseArgs({ options: { runs: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    usage((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    process.exit(0);
  }
  const runs = Number(values.runs ?? 5);
  if (!Number.isInteger(runs) || runs < 1) usage(`--runs must be a whole number from 1, got "${values.runs}"`);
  return { runs, out: resolve(ROOT, values.out ?? 'reports/bench.json') };
}

async function main(): Promise<number> {
  const { runs, out } = options();
  const loadBefore = loadavg();
  const figures: RunFigures[] = [];
  // Alternating the scenarios spreads whatever else the machine does over both alike.
  for (let i = 1; i <= runs; i++) {
    for (const scenario of SCENARIOS) {
      const run = await runOnce(scenario);
      figures.push(run);
      process.stdout.write(`run ${i}/${runs}, ${scenario.name}: ${seconds(run.wallMs)}, ${run.verdict}, ${run.counts.total} requests\n`);
    }
  }
  const summaries = SCENARIOS.map((s) => summarize(s, figures.filter((r) => r.scenario === s.name)));
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version, platform: process.platform, loadAverageBefore: loadBefore, loadAverageAfter: loadavg() };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), command: 'node suites/support/run/bin.mjs', machine, scenarios: summaries, runs: figures }, null, 2)}\n`);
  const load = (l: number[]) => l.map((n) => n.toFixed(1)).join(' ');
  process.stdout.write(`\n${markdownTable(summaries)}\n\n${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}; load average ${load(loadBefore)} before, ${load(machine.loadAverageAfter)} after.\nWritten: ${out}\n`);
  const failed = figures.filter((r) => r.verdict !== 'PASS').length;
  if (failed) process.stderr.write(`bench: ${failed} of ${figures.length} runs did not pass: their figures are not those of a full run\n`);
  return failed ? 1 : 0;
}

process.exitCode = await main();

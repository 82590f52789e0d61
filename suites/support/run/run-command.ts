// A conformance run, once the command line has been read (cli.ts): the configuration, the server reached (or the
// embedded one started), vitest started on the selected suite files with the conformance reporter, and the verdict
// as the exit code.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { startVitest } from 'vitest/node';
import type { Config } from '../talk/config.ts';
import { addCounts, drained, emptyCounts, tally, type Counts } from '../talk/counts.ts';
import { conformanceProject, GroupOrder, startOrder, transformCache } from './conformance-project.ts';
import { prepareRun } from './global-setup.ts';
import { selectionPattern, writeUpdatedExpectations } from '../report/expectations.ts';
import ConformanceReporter, { type Verbosity } from '../report/reporter.ts';
import type { RunResults } from '../report/results.ts';
import { addedLatencyMs, variationsOf, type Variation } from '../../../fixtures/reference-server/variations.ts';
import { announceWait, budgetAtStart, countedCalls, spareAlone, type StartPlan } from '../talk/pacing.ts';
import { INSTANCE, reportedVersion, versionHint } from './version-hint.ts';
import { selectedOf, selectionOf, withoutSkipped, type Selected, type Selection } from './selection.ts';
import { EXIT, expectationsOf, usageError } from './usage.ts';
import type { Sent } from './preflight.ts';
import { gateAdvice } from '../report/advice.ts';
import { MatrixUsageError, readResults } from '../report/matrix.ts';
import { stabilityPlan } from './stability-plan.ts';
import { typeScriptHooks } from './typescript-hooks.mjs';
import { packedUndici } from './packed-undici.mjs';
import { RunStop, stopAt, type StopAt } from '../judge/run-stop.ts';

/**
 * Suite files run at once. A run against a server that answers in a few milliseconds is bound by the CPU, and each
 * worker loads the support layer once: on 2 cores two workers were the fastest (3.5 s; six took 4.8 s). A run that
 * waits on round trips gains from more files at once: with 150 ms of latency per answer two took 12.2 s, four
 * 8.3 s, six 7.7 s. Measured with `npm run bench` and the embedded server.
 */
const GROUPS_AT_ONCE = { quickServer: 2, slowServer: 6 } as const;
/** A round trip at most this long makes a quick server. */
const QUICK_ROUND_TRIP_MS = 20;

function embeddedVariations(): Variation[] {
  try {
    return variationsOf(process.env.CONFORMANCE_VARIATIONS);
  } catch (error) {
    return usageError((error as Error).message);
  }
}

/** The run's configuration, with the embedded server started when no server URL is configured. */
async function prepared(): ReturnType<typeof prepareRun> {
  try {
    return await prepareRun(process.env);
  } catch (error) {
    return usageError((error as Error).message);
  }
}

/** Runs the suite files (all where none is named) as vitest files, against the embedded server where none is configured. */
async function runGroups(files: readonly string[], reporter: ConformanceReporter, options: { root: string; workers: number; testNamePattern?: RegExp; shard?: string; stop: StopAt }): Promise<void> {
  const { root, workers, testNamePattern, shard, stop } = options;
  // The embedded server starts here, loaded as this process loads the CLI, and not in vitest's global setup, which
  // would load it through vite's transforms first: a few tenths of a second off every run.
  const [run, undiciFile] = await Promise.all([prepared(), packedUndici()]);
  const vitest = await startVitest('test', [...files], {
    root,
    config: false,
    // --max-failures: the checks stop themselves once the run met its failures (judge/run-stop.ts). Not vitest's bail,
    // which cancels the files running: their results, and the groups not started, never reached the reports.
    projects: [{ test: { ...conformanceProject(), globalSetup: [], provide: { config: { ...run.config, stop }, ...(undiciFile ? { packedUndici: undiciFile } : {}) } } }],
    watch: false,
    reporters: [reporter],
    sequence: { sequencer: GroupOrder },
    // The groups wait on the server far more than they compute, so they run side by side: one or two at a time, a
    // run against a remote server is a sum of round trips. Each worker loads the support layer (ajv and the compiled
    // schemas, undici, ws) once for all the files it runs, not once per file: that loading was most of a run's CPU
    // time. file-state.ts starts each file's own state afresh.
    pool: 'threads',
    isolate: false,
    experimental: transformCache(),
    maxWorkers: workers,
    ...(testNamePattern ? { testNamePattern } : {}),
    ...(shard ? { shard } : {}),
  });
  await vitest?.close();
  await run.close?.();
}

/** The previous run's results (--previous): a file that is no results.json is a usage error, before anything runs. */
function previousOf(file: string): RunResults {
  try {
    return readResults(file);
  } catch (error) {
    if (error instanceof MatrixUsageError) usageError(`--previous: ${error.message}`);
    throw error;
  }
}

/**
 * The budget left on a configured server (the X-RateLimit headers of GET /api/v1/instance), read before a run (and
 * before each repeat of a stability run): every suite file starts its pacing from it, and a whole run that cannot fit
 * in it (`runCalls`, the IP access calls of the run's plan, where every group is planned) waits for the reset first.
 * Returns the version the server reports.
 */
async function readBudget(config: Config, wholeRun: boolean, ownRequests: Counts, planned: Pick<StartPlan, 'runCalls' | 'sections' | 'everyPath' | 'readingsBeforeHead'>): Promise<string | undefined> {
  let resetToWaitFor: number | undefined;
  tally(ownRequests, 'anonymous', 'GET', INSTANCE, false);
  // The command's /api calls so far (the preflight's, this read): what a server counting /api alone counted of them.
  const ownApiCalls = ownRequests.perPath.api ?? 0;
  const reported = await reportedVersion(config.baseUrl, config.userAgent, config.timeoutMs, (headers) => {
    const start = budgetAtStart(headers, { wholeRun, settleMs: config.settleMs, ...planned, ownApiCalls });
    if (!start) return;
    if (start.warning) process.stdout.write(`${start.warning}\n`);
    const foreseenWindows = start.reading.windows?.length;
    if (start.foreseenWaits || foreseenWindows) addCounts(ownRequests, { ...emptyCounts(), foreseenWaits: start.foreseenWaits ?? 0, foreseenWindows });
    // Every suite file starts its pacing from this reading: its first calls do not overrun what is left. After a wait
    // for the reset, the reading's period is over: the files keep only what it says of the run (every path, windows).
    process.env.CONFORMANCE_BUDGET_AT_START = JSON.stringify(start.reading);
    if (start.waitBeforeStart) resetToWaitFor = start.reading.resetAt;
  });
  if (resetToWaitFor !== undefined) {
    const ms = Math.max(0, resetToWaitFor - Date.now());
    announceWait(ms, "for the reset of the server's rate limit before the run starts (the IP access bucket cannot carry a whole run)");
    const from = Date.now();
    await new Promise((done) => setTimeout(done, ms));
    // A wait of the run's pacing as the groups' are: "waited N s" and pacedMs count it.
    addCounts(ownRequests, { ...emptyCounts(), pacedSpans: [[from, Date.now()]] });
  }
  return reported;
}

/**
 * What the command line decided: the project's folder, the selection and its plan, the output, the shard, the
 * configuration, and for a configured server the round trip its preflight measured (cli.ts).
 */
export interface Command {
  root: string;
  selection: Selection;
  plan: Selected;
  verbosity: Verbosity;
  shard?: string;
  config: Config;
  preflightRoundTripMs: number;
  /** The preflight's requests: the server counts them among the run's. */
  preflightSent?: readonly Sent[];
  /** The preflight's HEAD / came with rate-limit headers: the server counts every path in its access buckets. */
  everyPath?: boolean;
  /** The rate-limit headers of the preflight's token reads, answered before its HEAD / was sent (pacing.ts StartPlan). */
  readingsBeforeHead?: readonly Record<string, string>[];
  /** --repeat: the times the selection runs; --max-failures (-x: 1): the failures that stop the run; --previous: the results before. */
  stability: { repeat: number; maxFailures?: number; previousFile?: string };
}

/** Runs the selected checks and returns the exit code: the verdict, or 2 for a configuration the run cannot take. */
export async function runConformance({ root, selection, plan, verbosity, shard, config, preflightRoundTripMs, preflightSent = [], everyPath = false, readingsBeforeHead = [], stability }: Command): Promise<number> {
  // The command's own requests (the preflight's, each budget read's), counted with the next run's groups: a server, or
  // a proxy in front of it, counts them as the run's.
  const ownRequests = emptyCounts();
  for (const { actor, method, path } of preflightSent) tally(ownRequests, actor, method, path);
  // The embedded server answers in-process, as late as its variations make it.
  const roundTripMs = config.embedded ? addedLatencyMs(embeddedVariations()) : preflightRoundTripMs;
  // A whole run that cannot fit in what is left of the period waits for its reset before it starts: every group then
  // starts with the whole budget, as on a fresh server, and the verdicts of a run right after another are the same.
  const wholeRun = selection.only.length === 0 && selection.exclude.length === 0 && selection.groups.length === 0 && shard === undefined;
  process.env.CONFORMANCE_REPORT_DIR = resolve(config.reportDir);
  // Absolute, as the report directory: the workers and the reporter must name the same file.
  if (config.recordFile) process.env.CONFORMANCE_RECORD = resolve(config.recordFile);
  if (config.expectationsFile) process.env.CONFORMANCE_EXPECTATIONS = resolve(config.expectationsFile);
  const expectations = expectationsOf(process.env.CONFORMANCE_EXPECTATIONS);
  const writeTo = config.writeExpectationsFile && resolve(config.writeExpectationsFile);
  // What the writer updates: the run's expectations, else the file it writes. Read before the run, so that a mistake
  // in it stops the command before anything runs, as with --expectations.
  const toUpdate = config.expectationsFile ? expectations : writeTo && existsSync(writeTo) ? expectationsOf(writeTo) : [];
  const slice = shard === undefined ? undefined : /^(\d+)\/(\d+)$/.exec(shard);
  if (slice === null || (slice && (Number(slice[1]) < 1 || Number(slice[1]) > Number(slice[2])))) usageError(`--shard must be I/N with 1 <= I <= N, got "${shard}"`);

  const source = selectionPattern(selection, expectations);
  const testNamePattern = source ? new RegExp(source) : undefined;
  let runCalls: number | undefined;
  let planned: Pick<StartPlan, 'runCalls' | 'sections' | 'everyPath'> = { everyPath };
  // The embedded server's accounts are made when it starts, after this: its runs are planned from the full run's figures.
  if (!config.embedded) {
    // What this run's checks cost, before its first request: the IP access bucket must carry its /api calls and streams.
    // The files whose checks the selection takes (plan.run is empty for a whole run: vitest then runs every file).
    const files = [...new Set(plan.checks.map((check) => check.file))];
    // Loaded here only: it loads the suite files and the support layer into this process, which an embedded run spares.
    await typeScriptHooks();
    const { planLine, planOfRun } = await import('./run-plan.ts');
    const runPlan = await planOfRun(root, files, config, (name) => !testNamePattern || testNamePattern.test(name));
    if (verbosity !== 'quiet') process.stdout.write(`Plan: ${planLine(runPlan)}\n`);
    runCalls = runPlan.unplanned.length === 0 ? runPlan.total.api + runPlan.total.streams : undefined;
    // Where every group is planned, the budget is measured section by section: the run is split into windows between them.
    if (runPlan.unplanned.length === 0) {
      // In the order the groups start (GroupOrder): the windows are filled in that order.
      const order = startOrder(root, files);
      // A section none of whose checks runs never starts: no window waits for it.
      const sections = runPlan.groups
        .filter((group) => group.checks > 0)
        .sort((x, y) => order.indexOf(x.file) - order.indexOf(y.file))
        .map(({ heading, cost, mayAdd }) => ({ name: heading, cost, mayAdd }));
      planned = { everyPath, runCalls: countedCalls(runPlan.total, everyPath), sections };
    }
  }
  // A stability run's plan, before its first request: against a configured server, each repeat's IP access calls are
  // the run plan's.
  if (stability.repeat > 1) process.stdout.write(`${stabilityPlan(stability.repeat, plan.checks.length, selectedOf(root, selectionOf({})).checks.length, config.seed, runCalls)}\n`);
  if (!config.embedded) {
    // The first read follows the preflight: the readings of its token reads place its HEAD / in the count.
    const reported = await readBudget(config, wholeRun, ownRequests, { ...planned, readingsBeforeHead });
    if (reported && verbosity !== 'quiet') process.stdout.write(`${versionHint(reported, config.serverVersion, Boolean(process.env.CONFORMANCE_SERVER_VERSION?.trim()))}
`);
  } else {
    // The embedded server starts fresh, and a full run's plan fills the line: nothing beyond the plan is promised to
    // what a deviating variation adds, and the plan's own calls always find their room (pacing.ts, the run's spare).
    process.env.CONFORMANCE_BUDGET_AT_START = spareAlone(0);
  }

  // Read before the run removes the results it replaces: the previous results are often that very file.
  const previous = stability.previousFile === undefined ? undefined : previousOf(stability.previousFile);
  const resultsFile = resolve(process.env.CONFORMANCE_REPORT_DIR, 'results.json');
  // A run that dies before its reporter writes must not be judged by the previous run's results.
  rmSync(resultsFile, { force: true });
  const workers = roundTripMs <= QUICK_ROUND_TRIP_MS ? GROUPS_AT_ONCE.quickServer : GROUPS_AT_ONCE.slowServer;
  const reporter = new ConformanceReporter({
    expectations,
    testNamePattern,
    unselected: plan.unselected.map((file) => resolve(root, file)),
    verbosity,
    // A terminal shows a counter rewritten in place; a CI log or a pipe keeps one line per group. A shard runs a
    // slice of the files, whose checks the source cannot count before vitest slices them.
    ...(process.stdout.isTTY && !process.env.CI && shard === undefined ? { progressOf: withoutSkipped(plan.checks, expectations).length } : {}),
    repeats: stability.repeat,
    ...(previous ? { previous } : {}),
    ...(stability.maxFailures ? { maxFailures: stability.maxFailures } : {}),
    ownRequests: () => {
      const own = drained(ownRequests);
      return { ...own, commandRequests: own.total };
    },
  });
  // The checks count their failures, for the exit code and for --max-failures N, which stops a stability run at its
  // N-th failure: one count for every repeat.
  const stop = stopAt(stability.maxFailures);
  // Each repeat is a run of its own, on objects of its own, with the same seed and settings; the reporter reports
  // them as one once the last ends, or once a run stopped at --max-failures.
  for (let repeat = 0; repeat < stability.repeat && !reporter.published; repeat++) {
    // What the repeats before spent: the next starts its pacing from the server's word, not from the first reading.
    if (repeat > 0 && !config.embedded) await readBudget(config, wholeRun, ownRequests, planned);
    await runGroups(plan.run, reporter, { root, workers, testNamePattern, shard, stop });
  }
  if (!existsSync(resultsFile)) return EXIT.failed;
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResults;
  // The exit code never rests on the reports alone: a failure the checks met that no report shows fails the run.
  const met = new RunStop(stop).failures;
  if (met > reporter.failuresReported) {
    process.stdout.write(`Error of the suite: the checks met ${met} failures and the reports show ${reporter.failuresReported} (please report it with reports/results.json)\n`);
    return EXIT.failed;
  }
  if (writeTo) process.stdout.write(`${writeUpdatedExpectations(writeTo, toUpdate, results.checks)}\n`);
  for (const line of gateAdvice(results, config.expectationsFile, Boolean(writeTo))) process.stdout.write(`${line}\n`);
  return results.verdict === 'PASS' ? EXIT.passed : EXIT.failed;
}


// The command line: `npm run conformance -- [options]`. Settings come from flags, the environment and .env
// (in that order of precedence). Exit codes: 0 the run passed, 1 it failed, 2 usage or configuration error.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { config as loadDotenv } from 'dotenv';
import { startVitest } from 'vitest/node';
import { ConfigError, configFromEnv, SETTINGS } from '../talk/config.ts';
import { conformanceProject, GroupOrder, transformCache } from './conformance-project.ts';
import { prepareRun } from './global-setup.ts';
import { ExpectationsError, loadExpectations, onlyPattern, selectionPattern, writeUpdatedExpectations, type Expectation } from '../report/expectations.ts';
import { checkTitles, describeTitles } from '../judge/check-titles.ts';
import ConformanceReporter from '../report/reporter.ts';
import type { RunResults } from '../report/results.ts';
import { addedLatencyMs, variationsOf, type Variation } from '../../../fixtures/reference-server/variations.ts';
import { announceWait, budgetAtStart, LONGEST_WAIT_MS } from '../talk/pacing.ts';
import { preflight } from './preflight.ts';
import { reportedVersion, versionHint } from './version-hint.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const EXIT = { passed: 0, failed: 1, usage: 2 } as const;
/**
 * Suite files run at once. A run against a server that answers in a few milliseconds is bound by the CPU, and each
 * worker loads the support layer once: on 2 cores two workers were the fastest (3.5 s; six took 4.8 s). A run that
 * waits on round trips gains from more files at once: with 150 ms of latency per answer two took 12.2 s, four
 * 8.3 s, six 7.7 s. Measured with `npm run bench` and the embedded server.
 */
const GROUPS_AT_ONCE = { quickServer: 2, slowServer: 6 } as const;
/** A round trip at most this long makes a quick server. */
const QUICK_ROUND_TRIP_MS = 20;

const HELP = `Usage: social-api-conformance [options]
       social-api-conformance serve [options]   starts the reference server as a local stand-in (serve --help)

Runs the conformance suites against CONFORMANCE_BASE_URL, or against the embedded reference server when
it is unset, and writes report.html, results.json, junit.xml and summary.md to the report directory.

Selection:
  --group NAME        run one endpoint group (a suite file name such as statuses or oauth); repeatable
  --only PREFIX       run the checks whose clause id starts with PREFIX (STATUS-READ, OAUTH-); repeatable;
                      a group with none of them is not run, its checks reported as not selected
  --shard I/N         run the I-th of N slices of the suite files (vitest's --shard), one per CI machine;
                      merge the slices' results with: npm run matrix -- --merge a/results.json b/results.json --out DIR
  -h, --help          show this help

CI gate:
  --expectations FILE lists checks known to fail (or to skip) with a reason: {"expectations": [{"check":
                      "<clause id or full check title>", "expect": "fail" | "skip", "reason": "..."}]}.
                      Expected failures do not fail the run; one that passes is "unexpectedly passing" and
                      fails it, unless --allow-unexpected-pass. A failed SHOULD clause is a warning.
  --write-expectations FILE
                      after the run, writes FILE: the entries of --expectations (else of FILE, if it exists)
                      with their reasons and skips, less the expected failures that now pass, plus the run's
                      failures and blocked checks, each expected with the run's reason. The ratchet: baseline
                      once, then gate with --expectations FILE. The exit code is still the run's verdict.
  Under GitHub Actions (GITHUB_ACTIONS=true) failures are also printed as ::error annotations and
  summary.md is appended to $GITHUB_STEP_SUMMARY.

Settings (each also read from the environment variable named, or from .env):
${SETTINGS.map((s) => `  ${`${s.flag}${s.kind === 'boolean' ? '' : ' VALUE'}`.padEnd(23)} ${s.env}: ${s.description}`).join('\n')}

Exit codes: 0 the run passed (no failure of a MUST clause, none unexpectedly passing, no error),
1 it failed, 2 usage or configuration error.`;

function usageError(message: string): never {
  process.stderr.write(`social-api-conformance: ${message}\n`);
  process.exit(EXIT.usage);
}

function parseCommandLine(argv: string[]) {
  const options: ParseArgsConfig['options'] = {
    help: { type: 'boolean', short: 'h' },
    group: { type: 'string', multiple: true },
    only: { type: 'string', multiple: true },
    shard: { type: 'string' },
  };
  for (const s of SETTINGS) {
    options[s.flag.slice(2)] = s.env === 'CONFORMANCE_FAULTS' ? { type: 'string', multiple: true } : { type: s.kind === 'boolean' ? 'boolean' : 'string' };
  }
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    usageError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
}

/** The expectations file, validated before anything runs: a mistake in it is a usage error. */
function expectationsOf(file: string | undefined): Expectation[] {
  if (!file) return [];
  try {
    return loadExpectations(file);
  } catch (error) {
    if (error instanceof ExpectationsError) usageError(error.message);
    throw error;
  }
}

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

/**
 * The suite files to run, and those --only takes no check of: those are not run at all (not even collected, which is
 * most of a short run's fixed cost), and their checks are reported as not selected. A file whose source cannot tell
 * (a title that is no literal) is run. With --shard every file is kept, so that the shards slice the same list.
 */
function selectedFiles(files: readonly string[], prefixes: readonly string[], sharded: boolean): { run: string[]; unselected: string[] } {
  const pattern = onlyPattern(prefixes);
  if (!pattern || sharded) return { run: [...files], unselected: [] };
  const candidates = files.length ? files : readdirSync(resolve(ROOT, 'suites')).filter((name) => name.endsWith('.test.ts')).sort().map((name) => `suites/${name}`);
  const takes = (file: string) => {
    const source = readFileSync(resolve(ROOT, file), 'utf8');
    return describeTitles(source).some((title) => pattern.test(title)) || checkTitles(source).some(({ text }) => text === undefined || pattern.test(text));
  };
  return { run: candidates.filter(takes), unselected: candidates.filter((file) => !takes(file)) };
}

/** Runs the suite files (all where none is named) as vitest files, against the embedded server where none is configured. */
async function runGroups(files: readonly string[], reporter: ConformanceReporter, options: { workers: number; testNamePattern?: RegExp; shard?: string }): Promise<void> {
  const { workers, testNamePattern, shard } = options;
  // The embedded server starts here, loaded as this process loads the CLI, and not in vitest's global setup, which
  // would load it through vite's transforms first: a few tenths of a second off every run.
  const run = await prepared();
  if (run.config.embedded) process.env.CONFORMANCE_RESOLVED_BASE_URL = run.config.baseUrl;
  const vitest = await startVitest('test', [...files], {
    root: ROOT,
    config: false,
    projects: [{ test: { ...conformanceProject(), globalSetup: [], provide: { config: run.config } } }],
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

async function main(): Promise<number> {
  // A reader that stops reading (`| head`, `2>&1 | head`) ends what it sees, not the run: the reports are still
  // written, and the exit code is still the verdict.
  for (const output of [process.stdout, process.stderr]) {
    output.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
  const flags = parseCommandLine(process.argv.slice(2));
  if (flags.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.passed;
  }
  loadDotenv({ quiet: true });
  for (const s of SETTINGS) {
    const value = flags[s.flag.slice(2)];
    if (value === undefined) continue;
    process.env[s.env] = Array.isArray(value) ? value.join(',') : value === true ? '1' : String(value);
  }
  let config;
  try {
    config = configFromEnv(process.env);
  } catch (error) {
    if (error instanceof ConfigError) usageError(error.message);
    throw error;
  }
  // The embedded server answers in-process, as late as its variations make it.
  let roundTripMs = config.embedded ? addedLatencyMs(embeddedVariations()) : 0;
  if (!config.embedded) {
    // Our mistakes stop the run before any check: an address where nothing listens or nothing answers, a token refused.
    const checked = await preflight(config, (line) => void process.stderr.write(`${line}\n`));
    if (!checked.ok) usageError(checked.problem);
    roundTripMs = checked.roundTripMs;
    // A whole run that cannot fit in what is left of the period waits for its reset before it starts: every group then
    // starts with the whole budget, as on a fresh server, and the verdicts of a run right after another are the same.
    const wholeRun = flags.only === undefined && flags.group === undefined && flags.shard === undefined;
    let resetToWaitFor: number | undefined;
    const reported = await reportedVersion(config.baseUrl, config.userAgent, config.timeoutMs, (headers) => {
      const start = budgetAtStart(headers);
      if (!start) return;
      if (start.warning) process.stdout.write(`${start.warning}\n`);
      if (start.warning && wholeRun && start.reading.resetAt - Date.now() <= LONGEST_WAIT_MS) {
        resetToWaitFor = start.reading.resetAt;
        return;
      }
      // Every suite file starts its pacing from this reading: its first calls do not overrun what is left.
      process.env.CONFORMANCE_BUDGET_AT_START = JSON.stringify(start.reading);
    });
    if (resetToWaitFor !== undefined) {
      const ms = Math.max(0, resetToWaitFor - Date.now());
      announceWait(ms, "for the reset of the server's rate limit before the run starts (the IP access bucket cannot carry a whole run)");
      await new Promise((done) => setTimeout(done, ms));
    }
    if (reported) process.stdout.write(`${versionHint(reported, config.serverVersion, Boolean(process.env.CONFORMANCE_SERVER_VERSION?.trim()))}
`);
  }
  process.env.CONFORMANCE_REPORT_DIR = resolve(config.reportDir);
  if (config.expectationsFile) process.env.CONFORMANCE_EXPECTATIONS = resolve(config.expectationsFile);
  const expectations = expectationsOf(process.env.CONFORMANCE_EXPECTATIONS);
  const writeTo = config.writeExpectationsFile && resolve(config.writeExpectationsFile);
  // What the writer updates: the run's expectations, else the file it writes. Read before the run, so that a mistake
  // in it stops the command before anything runs, as with --expectations.
  const toUpdate = config.expectationsFile ? expectations : writeTo && existsSync(writeTo) ? expectationsOf(writeTo) : [];
  const shard = flags.shard as string | undefined;
  const slice = shard === undefined ? undefined : /^(\d+)\/(\d+)$/.exec(shard);
  if (slice === null || (slice && (Number(slice[1]) < 1 || Number(slice[1]) > Number(slice[2])))) usageError(`--shard must be I/N with 1 <= I <= N, got "${shard}"`);

  const groups = (flags.group as string[] | undefined) ?? [];
  const files = groups.map((g) => `suites/${g.replace(/\.test\.ts$/, '')}.test.ts`);
  for (const file of files) if (!existsSync(resolve(ROOT, file))) usageError(`unknown group "${file.slice(7, -8)}": no ${file}`);
  const prefixes = (flags.only as string[] | undefined) ?? [];
  const source = selectionPattern(prefixes, expectations);
  const testNamePattern = source ? new RegExp(source) : undefined;

  const resultsFile = resolve(process.env.CONFORMANCE_REPORT_DIR, 'results.json');
  // A run that dies before its reporter writes must not be judged by the previous run's results.
  rmSync(resultsFile, { force: true });
  const workers = roundTripMs <= QUICK_ROUND_TRIP_MS ? GROUPS_AT_ONCE.quickServer : GROUPS_AT_ONCE.slowServer;
  const selection = selectedFiles(files, prefixes, shard !== undefined);
  const reporter = new ConformanceReporter({ expectations, testNamePattern, unselected: selection.unselected.map((file) => resolve(ROOT, file)) });
  if (selection.run.length === 0 && selection.unselected.length > 0) {
    // Nothing selected: neither the embedded server nor vitest starts; the reporter writes what such a run reports.
    reporter.onInit();
    reporter.onTestRunEnd([], [], 'passed');
  } else {
    await runGroups(selection.run, reporter, { workers, testNamePattern, shard });
  }
  if (!existsSync(resultsFile)) return EXIT.failed;
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResults;
  if (writeTo) {
    process.stdout.write(`${writeUpdatedExpectations(writeTo, toUpdate, results.checks)}\n`);
  } else if (results.totals.unexpectedPasses > 0 && config.expectationsFile) {
    process.stdout.write(
      `Expected failures that now pass: remove their entries once fixed for good, or rerun with --expectations ${config.expectationsFile} --write-expectations ${config.expectationsFile} to widen them to ["fail", "pass"]\n`,
    );
  }
  return results.verdict === 'PASS' ? EXIT.passed : EXIT.failed;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`social-api-conformance: ${(error as Error).message ?? String(error)}\n`);
    process.exit(EXIT.failed);
  },
);

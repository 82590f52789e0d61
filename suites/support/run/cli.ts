// The command line: `npm run conformance -- [options]`. Settings come from flags, the environment and .env
// (in that order of precedence). Exit codes: 0 the run passed, 1 it failed, 2 usage or configuration error.
// What needs no run (--help, --version, --list, a selection that matches nothing) is answered here, before the
// modules of a run are loaded (run-command.ts): most of the command's start-up, which a user's typo need not wait for.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { config as loadDotenv } from 'dotenv';
import { ConfigError, configFromEnv, PACKAGE, PREFLIGHT_ACCOUNT_A, SETTINGS, type Config } from '../talk/config.ts';
import { preflight, type Sent } from './preflight.ts';
import type { Verbosity } from '../report/reporter.ts';
import { EXPLORE_FILE, listing, SEQUENCES_FILE, runWideChecks, selectedOf, selectionMistake, selectionOf, withoutSkipped } from './selection.ts';
import { EXIT, expectationsOf, usageError } from './usage.ts';
import { declarations } from '../report/declared-checks.ts';
import type { Command } from './run-command.ts';
import { typeScriptHooks } from './typescript-hooks.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const HELP = `Usage: social-api-conformance [options]
       social-api-conformance serve [options]   starts the reference server as a local stand-in (serve --help)

Runs the conformance suites against CONFORMANCE_BASE_URL, or against the embedded reference server when
it is unset, and writes report.html, results.json, junit.xml and summary.md to the report directory.

Selection (ids and group names match whatever their case; one that matches no check is a usage error):
  --group NAME        run one endpoint group: its name as --list and the reports show it, in any case
                      ("States and transitions"), or its suite file's name (statuses-interactions); repeatable
  --only PREFIX       run the checks whose clause id starts with PREFIX (STATUS-READ, OAUTH-); repeatable;
                      a group with none of them is not run, its checks reported as not selected
  --exclude PREFIX    leave out the checks whose clause id starts with PREFIX (same forms as --only); repeatable
  --list              print the checks the selection takes, with their clause id, group, what they need
                      from the configuration and what they cost, each followed by the steps it needs in
                      the order the plan runs them, with what a deviating server may add to each; runs
                      nothing and sends no request
  --shard I/N         run the I-th of N slices of the suite files (vitest's --shard), one per CI machine;
                      merge the slices' results with: npm run matrix -- --merge a/results.json b/results.json --out DIR
  -x, --exit-first    stop the run at its first failed check (--max-failures 1)
  --max-failures N    stop the run after N failed checks (expected failures count); the cleanup still undoes
                      what the run made, and the checks not run are reported skipped

Stability:
  --repeat N          run the selected checks N times, one after another, each with fresh objects, the same
                      seed and settings; the plan, with every wait for a rate-limit reset it foresees, is printed
                      first. A check whose verdict differs between the repeats is intermittent: the reports list
                      each verdict with its evidence, and --write-expectations writes its entry as the outcomes
                      it showed (["fail", "pass"]). A baseline: --repeat 5 --write-expectations FILE
  --previous FILE     the results.json of the run before: each check's history goes on from it, and a check
                      whose verdict keeps flipping is shown so

Output:
  -q, --quiet         print only the verdict and the errors (the reports are written in full)
  -v, --verbose       print each check's outcome as it is judged, besides each group's line
                      (on a terminal a counter of the checks judged is shown in place)
  --version           print the package's name and version
  -h, --help          show this help

CI gate:
  --expectations FILE lists checks known to fail (or to skip) with a reason: {"expectations": [{"check":
                      "<full check title, or a clause id for all its checks>", "expect": "fail" | "skip", "reason": "..."}]}.
                      Expected failures do not fail the run; one that passes is "unexpectedly passing" and
                      fails it, unless --allow-unexpected-pass. A failed SHOULD clause is a warning.
  --write-expectations FILE
                      after the run, writes FILE: the entries of --expectations (else of FILE, where it
                      exists) kept with their reasons and skips, each expected failure that now passes
                      widened to ["fail", "pass"] (never dropped), and an entry "fail" with the run's reason
                      added for each failure of a MUST clause and each blocked check that no entry covers.
                      The ratchet: baseline once, then gate with --expectations FILE. The exit code is
                      still the run's verdict.
  Under GitHub Actions (GITHUB_ACTIONS=true) failures are also printed as ::error annotations and
  summary.md is appended to $GITHUB_STEP_SUMMARY.

Settings (each also read from the environment variable named, or from .env):
${SETTINGS.map((s) => `  ${`${s.flag}${s.kind === 'boolean' ? '' : ' VALUE'}`.padEnd(23)} ${s.env}: ${s.description}`).join('\n')}

Exit codes: 0 the run passed (no failure of a MUST clause, none unexpectedly passing, no error),
1 it failed, 2 usage or configuration error (also a selection that takes no check, a token the server
refuses, tokens A and B of one account, a server that answers nothing): see docs/configuration.md.`;

function parseCommandLine(argv: string[]) {
  const options: ParseArgsConfig['options'] = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
    list: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' },
    verbose: { type: 'boolean', short: 'v' },
    group: { type: 'string', multiple: true },
    only: { type: 'string', multiple: true },
    exclude: { type: 'string', multiple: true },
    shard: { type: 'string' },
    repeat: { type: 'string' },
    'max-failures': { type: 'string' },
    'exit-first': { type: 'boolean', short: 'x' },
    previous: { type: 'string' },
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

/** A count the command line gives: a whole number from 1. */
function countOf(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value)) usageError(`${flag} must be a whole number from 1, got "${value}"`);
  return Number(value);
}

type StabilityFlags = { repeat?: string; 'max-failures'?: string; 'exit-first'?: boolean; previous?: string };

/** --repeat, --max-failures (or -x) and --previous, read before anything runs: a mistake in them stops the command. */
function stabilityOf(flags: StabilityFlags): Command['stability'] {
  if (flags['exit-first'] && flags['max-failures'] !== undefined) usageError('-x (--exit-first) and --max-failures exclude each other');
  const maxFailures = flags['exit-first'] ? 1 : countOf('--max-failures', flags['max-failures']);
  return {
    repeat: countOf('--repeat', flags.repeat) ?? 1,
    ...(maxFailures ? { maxFailures } : {}),
    ...(flags.previous === undefined ? {} : { previousFile: flags.previous }),
  };
}

/** The run's configuration; a setting the run cannot take is a usage error. */
function configOrUsageError(): Config {
  try {
    return configFromEnv(process.env);
  } catch (error) {
    if (error instanceof ConfigError) usageError(error.message);
    throw error;
  }
}

/** The exploration's model and what this configuration gives each operation, loaded only when --list takes its checks. */
async function exploredListing(config: Config): Promise<string[]> {
  await typeScriptHooks();
  const [{ exploreListing }, { exploreSettingsOf }, { exploreShareOf }, { asPlanned }, { releaseHas }] = await Promise.all([
    import('../judge/explore-oracle.ts'),
    import('../act/explore-inputs.ts'),
    import('./run-plan.ts'),
    import('./declarations.ts'),
    import('../judge/clauses.ts'),
  ]);
  const released = (clause: string) => releaseHas(config.serverVersion, clause);
  return exploreListing(exploreSettingsOf(config, await exploreShareOf(ROOT, asPlanned(config)), released), config.seed);
}

/**
 * The line that announces what --explore N adds to the run, and the windows of the IP access bucket it takes: counted
 * from the plan of the run's files (`files`) for this configuration, every step whole: from the fewest its steps' calls
 * fill, to as many as the steps need in their order, each held with its bound.
 */
async function exploreAnnouncementOf(config: Config, files: readonly string[]): Promise<string> {
  await typeScriptHooks();
  const [{ exploreAnnouncement }, { matrixAnnouncement }, { authCost, drawAuthInputs }, { mediaAnnounced }, { releaseHas }, { countedCalls, fewestWindows, LIMITS, reserveOf, windowsOf }, { planOfRun }, { asPlanned }, { startOrder }] = await Promise.all([
    import('../act/explore-inputs.ts'),
    import('../act/explore-matrix.ts'),
    import('../act/explore-auth.ts'),
    import('../act/explore-media.ts'),
    import('../judge/clauses.ts'),
    import('../talk/pacing.ts'),
    import('./run-plan.ts'),
    import('./declarations.ts'),
    import('./conformance-project.ts'),
  ]);
  const bucket = LIMITS['IP access'];
  const perWindow = bucket.limit - reserveOf('IP access');
  // In the order the groups start, each one's steps in the order of declaration.
  const { groups } = await planOfRun(ROOT, startOrder(ROOT, files), asPlanned(config));
  const steps = groups.flatMap((group) => group.steps).map((step) => ({ name: step.name, cost: step.cost, mayAdd: step.mayAdd }));
  // A server that adds nothing to the plan: each step's hold beyond its calls is given back when it ends.
  const fewest = fewestWindows(steps.map((step) => countedCalls(step.cost, false)), perWindow);
  const most = Math.max(fewest, windowsOf(steps, false, perWindow, perWindow).filter((window) => window.length > 0).length);
  const explore = config.explore ?? 0;
  const media = mediaAnnounced(explore, (clause) => releaseHas(config.serverVersion, clause), config.listId !== undefined, config.seed);
  const run = { sequences: files.includes(SEQUENCES_FILE), plannedCalls: steps.reduce((sum, step) => sum + countedCalls(step.cost, false), 0) };
  return `${exploreAnnouncement(explore, { fewest, most }, perWindow, bucket.periodMs / 60_000, authCost(drawAuthInputs(config.seed)), media, run)} ${matrixAnnouncement(explore)}`;
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
  if (flags.version) {
    process.stdout.write(`${PACKAGE.name} ${PACKAGE.version}\n`);
    return EXIT.passed;
  }
  if (flags.quiet && flags.verbose) usageError('-q (--quiet) and -v (--verbose) exclude each other');
  const verbosity: Verbosity = flags.quiet ? 'quiet' : flags.verbose ? 'verbose' : 'normal';
  // The selection is read from the declared checks before anything else: a name that matches nothing stops the command.
  const selection = selectionOf(flags as { group?: string[]; only?: string[]; exclude?: string[] });
  const mistake = selectionMistake(ROOT, selection);
  if (mistake) usageError(mistake);
  const shard = flags.shard as string | undefined;
  const stability = stabilityOf(flags as StabilityFlags);
  const plan = selectedOf(ROOT, selection, shard !== undefined);
  loadDotenv({ quiet: true });
  for (const s of SETTINGS) {
    const value = flags[s.flag.slice(2)];
    if (value === undefined) continue;
    process.env[s.env] = Array.isArray(value) ? value.join(',') : value === true ? '1' : String(value);
  }
  if (flags.list) {
    // What a run would take, the checks the expectations file skips left out: no server starts, no request is sent.
    const checks = withoutSkipped(plan.checks, expectationsOf(process.env.CONFORMANCE_EXPECTATIONS));
    const explored = checks.some((check) => check.file === EXPLORE_FILE) ? await exploredListing(configOrUsageError()) : [];
    process.stdout.write(`${[...listing(checks, runWideChecks(checks, declarations(ROOT).runWide, configOrUsageError().serverVersion)), ...explored].join('\n')}\n`);
    return EXIT.passed;
  }
  const config = configOrUsageError();
  if (config.explore && plan.checks.some((check) => check.file === EXPLORE_FILE)) process.stdout.write(`${await exploreAnnouncementOf(config, [...new Set(plan.checks.map((check) => check.file))])}\n`);
  // Our mistakes stop the run before any check, and before the run's own modules load (seconds on a busy machine): an
  // address where nothing listens or nothing answers, a token refused, tokens of one account.
  let preflightRoundTripMs = 0;
  let preflightSent: Sent[] = [];
  let everyPath = false;
  let readingsBeforeHead: Record<string, string>[] = [];
  // Only this run's preflight names A's account id: not a value left in the environment.
  delete process.env[PREFLIGHT_ACCOUNT_A];
  if (!config.embedded) {
    const checked = await preflight(config, (line) => void process.stderr.write(`${line}\n`));
    if (!checked.ok) usageError(checked.problem);
    preflightRoundTripMs = checked.roundTripMs;
    preflightSent = checked.sent;
    everyPath = checked.everyPath;
    readingsBeforeHead = checked.readingsBeforeHead;
    // A's account id, read by the preflight with A's token: the groups take it from there rather than ask again
    // (prepareRun hands it to them; the run's plan counts no request for it).
    if (checked.accountIdA) process.env[PREFLIGHT_ACCOUNT_A] = checked.accountIdA;
  }
  const known: Config = process.env[PREFLIGHT_ACCOUNT_A] ? { ...config, accountIdA: process.env[PREFLIGHT_ACCOUNT_A] } : config;
  const { runConformance } = await import('./run-command.ts');
  return runConformance({ root: ROOT, selection, plan, verbosity, config: known, preflightRoundTripMs, preflightSent, everyPath, readingsBeforeHead, stability, ...(shard === undefined ? {} : { shard }) });
}

/**
 * Ends the command once what it wrote has reached its reader: a pipe (`--list | less`) takes 64 KiB at a time, and
 * process.exit drops what it has not taken yet.
 */
function exitWith(code: number): void {
  process.stderr.write('', () => process.stdout.write('', () => process.exit(code)));
}

/** Answers the command line and ends the command (run/bin.mjs calls it once tsx's hooks are registered). */
export function answerCommandLine(): void {
  main().then(exitWith, (error: unknown) => {
    process.stderr.write(`social-api-conformance: ${(error as Error).message ?? String(error)}\n`);
    exitWith(EXIT.failed);
  });
}

// The conformance reporter: a progress line per group as it finishes (and on a terminal a counter of the checks
// judged, rewritten in place), the summary at the end, and the report files in CONFORMANCE_REPORT_DIR. Every text it
// writes passes through redact().
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';
import { declaredChecks, lineOf, PROJECT_ROOT } from './declared-checks.ts';
import { type CheckResult, type CheckStatus, checksCount, clauseOfTitle, type GroupResult, type LeftBehind, redactedResults, type RunResults, runVerdict, severityOf, statusCodeOnlyNote, totalsLine, totalsOf, withRunTotals } from './results.ts';
import { configFromEnv } from '../talk/config.ts';
import { addCounts, emptyCounts, type Counts } from '../talk/counts.ts';
import { clearHarParts, mergeHarParts } from '../talk/har.ts';
import { judgeCheck, judgeRun, type Expectation } from './expectations.ts';
import { redact } from '../talk/redact.ts';
import { reportHtml } from './report-html.ts';
import { findClause, type FailureData } from '../judge/clauses.ts';
import { type RootCause } from '../act/steps.ts';
import '../judge/registered-checks.ts';
// The resource cases each resource clause's result reports as met or not (resources.ts expectCase).
import '../judge/resources.ts';
import { runWideResults } from './run-wide-results.ts';
import { githubAnnotations, groupLines, quietSummary, seconds, terminalSummary } from './terminal.ts';
import { ProgressLine } from './progress.ts';
import { junitXml } from './junit.ts';
import { NOT_SELECTED, withSuiteErrors } from './blocks.ts';
import { rankRootCauses } from './root-causes.ts';
import { summaryMarkdown } from './summary-md.ts';
import { mergeRepeats, withHistory } from './stability.ts';

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

const REPORT_IT = 'please report it with reports/results.json';
/** vitest's own words when a hook or a check outlived hookTimeout or testTimeout (vitest.config.ts). */
const VITEST_TIMEOUT = /^(Hook|Test) timed out in (\d+)ms/;

/**
 * An error as the reports show it: our own failures (ClauseFailure) say everything in their message. Anything else
 * is a defect of the suite, never of the server, and reads as one line that says so: no stack trace of the suite or
 * of vitest reaches a report, where a user would read it as a crash of the tool.
 */
export function errorText(error: SerializedError | undefined): string {
  if (!error) return 'failed';
  const message = stripAnsi(error.message ?? String(error));
  if (error.name === 'ClauseFailure') return redact(message);
  const timedOut = VITEST_TIMEOUT.exec(message);
  if (timedOut) {
    const step = timedOut[1] === 'Hook' ? "this group's preparation or cleanup" : 'this check';
    const seconds = Math.round(Number(timedOut[2]) / 1000);
    return `internal error of the conformance suite: ${step} did not end within ${seconds} s, though every request and wait of it is bounded by CONFORMANCE_TIMEOUT_MS (${REPORT_IT})`;
  }
  const firstLine = message.split('\n').find((line) => line.trim() !== '') ?? '(no message)';
  return redact(`internal error of the conformance suite: ${error.name && error.name !== 'Error' ? `${error.name}: ` : ''}${firstLine.trim()} (${REPORT_IT})`);
}

function groupName(module: TestModule): string {
  for (const child of module.children) if (child.type === 'suite') return child.name;
  return module.moduleId.split('/').pop() ?? module.moduleId;
}

/** The first line of an error that is no check's verdict (a preparation that threw: a defect of the suite). */
const firstLineOf = (error: SerializedError) => stripAnsi(`${error.name ?? 'Error'}: ${error.message ?? ''}`).split('\n')[0] ?? '';

/** What a check judged: the verifications that held, and for an observation (a clause the contract does not show) what it observed. */
function judgedBy(test: TestCase): number {
  const observed = findClause(clauseOfTitle(test.name))?.kind === 'not-shown' ? test.annotations().filter((a) => a.type === 'observation').length : 0;
  return (test.meta().judged ?? 0) + observed;
}

/** Why a check that passed judging nothing is not passed. */
const NOTHING_JUDGED = 'the check ended without judging any instance of its clause';

/**
 * A check's verdict and what stands behind it: the errors of a failure, the root cause of a blocked check, or what
 * went unseen by a check that judged nothing: a pass judged at least one instance.
 * A check that blocked itself carries its cause in its meta. The checks of a group whose preparation threw (vitest
 * marks them skipped) could not be judged either: they are blocked by that error, which the group also reports
 * as an error outside checks. Such a check was selected to run and never started, unlike one that skipped itself.
 */
export function verdictOf(test: TestCase): { status: CheckStatus; errors: ReadonlyArray<SerializedError>; blockedBy?: RootCause; notJudged?: string } {
  const result = test.result();
  if (result.state === 'passed') return judgedBy(test) > 0 ? { status: 'passed', errors: [] } : { status: 'not-judged', errors: [], notJudged: NOTHING_JUDGED };
  if (result.state === 'failed') return { status: 'failed', errors: result.errors };
  const { blocked: blockedBy, notJudged } = test.meta();
  if (blockedBy) return { status: 'blocked', errors: [], blockedBy };
  if (notJudged) return { status: 'not-judged', errors: [], notJudged };
  if (test.options.mode !== 'run' || test.diagnostic() !== undefined) return { status: 'skipped', errors: [] };
  const setupErrors: SerializedError[] = [];
  for (let parent = test.parent; ; parent = parent.parent) {
    setupErrors.push(...parent.errors());
    if (parent.type === 'module') break;
  }
  const [first] = setupErrors;
  if (!first) return { status: 'skipped', errors: [] };
  return { status: 'blocked', errors: [], blockedBy: { summary: `the group's preparation stopped: ${redact(firstLineOf(first))}` } };
}

/** The names vitest matches a testNamePattern against: the describe titles and the check's, joined by spaces. */
function fullNameOf(test: TestCase): string {
  const names = [test.name];
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) names.unshift(parent.name);
  return names.join(' ');
}

/** One check's result as every report shows it; the failure and the root cause travel as data. */
export function checkOf(test: TestCase, group: string, file: string, pattern?: RegExp, lines: ReadonlyMap<string, number> = new Map()): CheckResult {
  const result = test.result();
  const { status, errors, blockedBy, notJudged } = verdictOf(test);
  const message = status === 'failed' ? errors.map(errorText).join('\n\n') : undefined;
  const clause = clauseOfTitle(test.name);
  const failure = status === 'failed' ? (errors[0] as { data?: FailureData } | undefined)?.data : undefined;
  const failedClause = status === 'failed' ? (failure?.clause ?? clause) : undefined;
  return {
    clause,
    title: test.name,
    group,
    file,
    ...(lines.has(test.name) ? { line: lines.get(test.name) } : {}),
    status,
    outcome: status,
    severity: severityOf(failedClause ?? clause),
    durationMs: Math.round(test.diagnostic()?.duration ?? 0),
    ...(message ? { message, failedClause } : {}),
    ...(failure ? { failure } : {}),
    ...(failure?.reproduce ? { reproduce: failure.reproduce } : {}),
    ...(blockedBy ? { blockedBy } : {}),
    ...(status === 'skipped' ? {} : { judged: judgedBy(test) }),
    ...(notJudged ? { notJudged } : {}),
    ...(status === 'skipped' ? { skipReason: (result.state === 'skipped' && result.note) || (pattern && !pattern.test(fullNameOf(test)) ? NOT_SELECTED : 'skipped') } : {}),
    observations: test.annotations().filter((a) => a.type === 'observation').map((a) => redact(a.message)),
    ...(status === 'passed' && test.meta().statusCodeOnly ? { statusCodeOnly: test.meta().statusCodeOnly } : {}),
  };
}

/** The line of each check's title in a suite file (the first, where a title is written twice); empty where it cannot be read. */
function checkLines(path: string, titles: readonly string[]): Map<string, number> {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch {
    return new Map();
  }
  const lines = new Map<string, number>();
  for (const title of titles) {
    const line = lineOf(source, title);
    if (line !== undefined) lines.set(title, line);
  }
  return lines;
}

/**
 * The checks of a suite file that was not run because the selection takes none of them, as it declares them
 * (report/declared-checks.ts): each skipped as not selected, as vitest reports a check of a file it runs that the
 * selection leaves out.
 */
export function unselectedGroup(path: string, root = PROJECT_ROOT): { group: GroupResult; checks: CheckResult[] } {
  const declared = declaredChecks(root).find((group) => group.file === relative(root, path));
  const name = declared?.group ?? basename(path);
  const file = relative(process.cwd(), path);
  const titles = declared?.checks.map(({ title }) => title) ?? [];
  const lines = checkLines(path, titles);
  const checks = titles.map((title): CheckResult => {
    const clause = clauseOfTitle(title);
    const line = lines.get(title);
    return { clause, title, group: name, file, ...(line ? { line } : {}), status: 'skipped', outcome: 'skipped', severity: severityOf(clause), durationMs: 0, skipReason: NOT_SELECTED, observations: [] };
  });
  return { group: { name, file, durationMs: 0, ...totalsOf(checks), errors: [] }, checks };
}

/** The four report files of a run (or of merged shards) in `dir`. */
export function writeReports(dir: string, results: RunResults): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'results.json'), JSON.stringify(redactedResults(results), null, 2));
  writeFileSync(join(dir, 'junit.xml'), junitXml(results));
  writeFileSync(join(dir, 'summary.md'), summaryMarkdown(results));
  writeFileSync(join(dir, 'report.html'), reportHtml(results));
}

export interface ReporterOptions {
  /** The entries of the expectations file (the CLI has validated it); none: every failure counts. */
  expectations?: readonly Expectation[];
  /** The selection the CLI gave vitest: checks it leaves out are reported as not selected. */
  testNamePattern?: RegExp;
  /** Suite files (absolute paths) the selection takes no check of, which the CLI did not run: their checks are reported as not selected. */
  unselected?: readonly string[];
  /** quiet: the verdict and errors only; verbose: each check's line too, as it is judged. */
  verbosity?: Verbosity;
  /** The checks the selection takes (read from the source): on a terminal, a counter of those judged is shown. */
  progressOf?: number;
  /** A stability run (--repeat N): the runs vitest makes with this reporter, reported as one once the last ends. */
  repeats?: number;
  /** The previous run's results (--previous): each check's history goes on from them. */
  previous?: RunResults;
  /** --max-failures (-x: 1): the checks stop the run after this many failed (judge/run-stop.ts); it ends a stability run's repeats. */
  maxFailures?: number;
  /** The command's own requests since the last run ended (its preflight, its budget reads), counted with the run's. */
  ownRequests?: () => Counts;
}

export type Verbosity = 'quiet' | 'normal' | 'verbose';

/**
 * A check's line in a verbose run: its outcome, its title, and why it was not passed or failed where that is said. Only
 * the reason is redacted: a title holds words, which the positional masks would eat ("as Bearer is taken").
 */
export function checkLine(check: CheckResult): string {
  const why = check.skipReason ?? (check.blockedBy ? `blocked by ${check.blockedBy.clause ?? check.blockedBy.summary}` : (check.notJudged ?? statusCodeOnlyNote(check)));
  return `  ${check.outcome}: ${check.title}${why ? ` (${redact(why)})` : ''}`;
}

export default class ConformanceReporter implements Reporter {
  private startedAt = new Date();
  private readonly groups: GroupResult[] = [];
  private readonly checks: CheckResult[] = [];
  private readonly expectations: readonly Expectation[];
  private readonly testNamePattern?: RegExp;
  private readonly unselected: readonly string[];
  private readonly verbosity: Verbosity;
  private readonly progress?: ProgressLine;
  private readonly repeats: number;
  private readonly previous?: RunResults;
  private readonly maxFailures?: number;
  private readonly ownRequests?: () => Counts;
  /** The results of the repeats that have ended. */
  private readonly ended: RunResults[] = [];
  /** The failed checks of the groups, in every repeat so far: what the checks counted (judge/run-stop.ts) must be here. */
  private failedChecks = 0;
  private reportsWritten = false;

  constructor(options: ReporterOptions = {}) {
    this.expectations = options.expectations ?? [];
    this.testNamePattern = options.testNamePattern;
    this.unselected = options.unselected ?? [];
    this.verbosity = options.verbosity ?? 'normal';
    this.repeats = options.repeats ?? 1;
    this.previous = options.previous;
    this.maxFailures = options.maxFailures;
    this.ownRequests = options.ownRequests;
    // A stability run's counter counts the checks of every repeat.
    if (options.progressOf !== undefined && this.verbosity !== 'quiet') this.progress = new ProgressLine(options.progressOf * this.repeats, (text) => process.stdout.write(text));
  }

  /** Whether the reports are written: the last repeat ended, or a run stopped at --max-failures, which ends the repeats too. */
  get published(): boolean {
    return this.reportsWritten;
  }

  /** The failed checks the groups reported, in every repeat so far (the run-wide clauses' apart, which no check counts). */
  get failuresReported(): number {
    return this.failedChecks;
  }

  /** A line of the run's course (a group's, a check's): not in a quiet run, above the progress counter where there is one. */
  private print(line: string): void {
    if (this.verbosity === 'quiet') return;
    if (this.progress) this.progress.print(`${line}\n`);
    else process.stdout.write(`${line}\n`);
  }

  onInit(): void {
    this.startedAt = new Date();
    this.groups.length = 0;
    this.checks.length = 0;
    const { recordFile } = configFromEnv(process.env);
    // A stability run records every repeat in one file.
    if (recordFile && this.ended.length === 0) clearHarParts(recordFile);
  }

  onTestModuleStart(module: TestModule): void {
    this.progress?.groupStarted(groupName(module));
  }

  onTestCaseResult(test: TestCase): void {
    // Checks the selection leaves out are neither counted nor shown.
    if (this.testNamePattern && !this.testNamePattern.test(fullNameOf(test))) return;
    this.progress?.checkJudged();
    if (this.verbosity !== 'verbose') return;
    const check = checkOf(test, groupName(test.module), relative(process.cwd(), test.module.moduleId), this.testNamePattern);
    judgeCheck(check, this.expectations);
    this.print(checkLine(check));
  }

  onTestModuleEnd(module: TestModule): void {
    const file = relative(process.cwd(), module.moduleId);
    const name = groupName(module);
    const lines = checkLines(module.moduleId, [...module.children.allTests()].map((t) => t.name));
    const checks = [...module.children.allTests()].map((t) => checkOf(t, name, file, this.testNamePattern, lines));
    // A preparation that threw is a defect of the suite, not of the server: it fails the run as an error outside checks.
    const errors = [...module.errors(), ...[...module.children.allSuites()].flatMap((suite) => suite.errors())].map(errorText);
    // A section declared in the one shape (run/checks.ts) planned its cost before its first request.
    const planned = [...module.children.allSuites()].map((suite) => suite.meta().planned).find((cost) => cost !== undefined);
    const group: GroupResult = {
      name,
      file,
      durationMs: Math.round(module.diagnostic().duration),
      ...totalsOf(checks),
      ...(module.meta().counts ? { counts: module.meta().counts } : {}),
      ...(planned ? { planned } : {}),
      ...(module.meta().parts?.length ? { parts: module.meta().parts, outsideParts: module.meta().outsideParts } : {}),
      errors,
    };
    this.groups.push(group);
    this.checks.push(...checks);
    this.progress?.groupEnded(name);
    // No verdict yet: the group's line, with the run-wide results it owns, comes once the whole run is judged (groupLines).
    this.print(`${name}: ended (${checksCount(checks.length)}, ${seconds(group.durationMs)})`);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    // The configuration the run resolved (the embedded server's address among it), as its project provides it to the
    // checks; the environment's where no module ran.
    const config = modules.map((module) => module.project.getProvidedContext().config).find((provided) => provided !== undefined) ?? configFromEnv(process.env);
    for (const path of this.unselected) {
      const { group, checks } = unselectedGroup(path);
      this.groups.push(group);
      this.checks.push(...checks);
    }
    const counts = emptyCounts();
    const leftovers: LeftBehind[] = [];
    for (const module of modules) {
      const meta = module.meta();
      if (meta.counts) addCounts(counts, meta.counts);
      leftovers.push(...(meta.leftovers ?? []));
    }
    if (this.ownRequests) addCounts(counts, this.ownRequests());
    this.failedChecks += this.checks.filter((c) => c.status === 'failed').length;
    // Met at --max-failures: the checks not yet judged then skipped themselves, saying so, and the repeats end here.
    const stopped = this.maxFailures !== undefined && this.failedChecks >= this.maxFailures;
    // The run-wide clauses (registered checks, resource schemas, error bodies and texts), judged over all groups.
    const runWide = runWideResults(modules.map((m) => m.meta()), this.checks, this.expectations);
    this.checks.push(...runWide);
    // A block whose cause held nowhere is the suite's error: its check is reported not judged, the error beside it.
    const checks = withSuiteErrors([...this.checks].sort((x, y) => x.file.localeCompare(y.file)));
    // Judged over the whole run: an expected failure is unexpectedly passing only when none of its checks failed.
    const entries = judgeRun(checks, this.expectations);
    const groups = withRunTotals(this.groups, checks);
    const unverdicted: Omit<RunResults, 'verdict'> = {
      server: {
        baseUrl: config.baseUrl,
        embedded: config.embedded,
        version: config.serverVersion,
        faults: config.faults,
        timeoutMs: config.timeoutMs,
        seed: config.seed,
      },
      startedAt: this.startedAt.toISOString(),
      durationMs: Date.now() - this.startedAt.getTime(),
      totals: totalsOf(checks),
      rootCauses: rankRootCauses(checks),
      groups,
      checks,
      expectations: { ...(config.expectationsFile ? { file: config.expectationsFile } : {}), allowUnexpectedPass: config.allowUnexpectedPass, entries },
      counts,
      leftovers,
      errors: unhandledErrors.map(errorText),
    };
    this.ended.push({ verdict: runVerdict(unverdicted), ...unverdicted });
    if (this.ended.length < this.repeats && !stopped) {
      const repeat = this.ended.at(-1) as RunResults;
      this.print(`Repeat ${this.ended.length} of ${this.repeats}: ${repeat.verdict}: ${totalsLine(repeat.totals)}; ${repeat.counts.total} requests`);
      return;
    }
    this.progress?.finish();
    const merged = this.ended.length > 1 ? mergeRepeats(this.ended, this.expectations) : (this.ended[0] as RunResults);
    const results = this.previous ? withHistory(merged, this.previous) : merged;
    this.reportsWritten = true;
    writeReports(config.reportDir, results);
    if (config.recordFile) mergeHarParts(config.recordFile);
    if (process.env.GITHUB_ACTIONS === 'true') {
      for (const line of githubAnnotations(results)) process.stdout.write(`${line}\n`);
      // The job summary is a file the runner names; appending keeps what earlier steps wrote.
      if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${summaryMarkdown(results)}\n`);
    }
    if (this.verbosity === 'quiet') {
      process.stdout.write(`${quietSummary(results)}\n`);
      return;
    }
    for (const check of results.checks.filter((c) => c.outcome === 'failed' || c.outcome === 'warning')) {
      process.stdout.write(`\n${check.outcome === 'failed' ? '✗' : '⚠ warning:'} ${check.title}\n${check.message}\n`);
    }
    process.stdout.write(`\n${groupLines(results).join('\n')}\n\n${terminalSummary(results)}\nReports: ${config.reportDir}/ (report.html, results.json, junit.xml, summary.md)\n`);
    if (config.recordFile) process.stdout.write(`Recording: ${config.recordFile} (HAR 1.2, every exchange of the run, redacted)\n`);
  }
}

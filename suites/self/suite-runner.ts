// Runs the conformance suites many times over in ONE vitest process and ONE vitest project: each run (a fault, a
// variation) has its own settings and so its own embedded reference server, and each of its suite files is run
// through a small wrapper file that points the file at that server (actors.ts joinRun) and imports the suite file
// anew. A vitest project per run cost about a second each in set-up and transforms, more than most runs
// themselves; in one project, each worker loads the support layer once for every run. Used as a script (tsx) by
// runSuites() in run-cli.ts:
//   node --import vitest/node --import tsx suites/self/suite-runner.ts <plan.json> <outcomes.json>
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { startVitest, type Reporter, type SerializedError, type TestModule, type TestSpecification } from 'vitest/node';
import type { Config } from '../support/talk/config.ts';
import { GroupOrder, SETUP_FILES, transformCache } from '../support/run/conformance-project.ts';
import { prepareRun } from '../support/run/global-setup.ts';
import { checkOf } from '../support/report/reporter.ts';
import type { CheckStatus } from '../support/report/results.ts';
import { runWideResults } from '../support/report/run-wide-results.ts';

export interface SuiteRun {
  /** Unique; becomes the vitest project name (a fault id, a variation name). */
  name: string;
  /** Suite files relative to the repository root. */
  files: string[];
  /** Settings of this run, as the CLI would read them from the environment (CONFORMANCE_FAULTS...). */
  env: Record<string, string>;
  /**
   * How long each of its files is expected to take (a run of it before: the plain runs'), by file: the runner starts
   * the longest file runs first, so that the workers end together rather than one of them on a long run alone.
   */
  expectedMs?: Readonly<Record<string, number>>;
}

export interface RunCheck {
  file: string;
  title: string;
  clause: string;
  status: CheckStatus;
  /** The clause a failure names: the check's own, or the run-wide clause its owning check reports. */
  failedClause?: string;
  message?: string;
  /** A blocked check's root cause: its clause, or undefined when it lies outside the contract. */
  blockedBy?: { clause?: string; summary: string };
  /** How many instances a check that ran judged. */
  judged?: number;
  /** What went unseen by a check that is not judged. */
  notJudged?: string;
}

export interface SuiteOutcome {
  name: string;
  checks: RunCheck[];
  /** Errors outside checks: a file that could not load, a hook that threw. */
  errors: string[];
  /** Time its files took, preparation included. */
  ms: number;
  /** The reference-server faults its server was asked about, switched on or not. */
  consulted: string[];
}

const ROOT = resolve(import.meta.dirname, '../..');
/**
 * Workers beside this process, which serves every run's reference server. On 2 cores more workers than cores pay off:
 * a file run mostly waits (a settle window, a stream a fault silences, the reset of a short access window), and the
 * runner's CPU does not grow with the workers: a sixth of the fault runs (53 runs, 178 file runs) at a load of about
 * 20 took 189 s of wall and 64 s of CPU with 4 workers, 124 s and 57 s with 8, the same verdicts (2026-12-07). Not
 * more: every run's server answers on this one thread, and with 12 workers, at a load of 30, answers came after the
 * fault runs' 3 s timeout (fault-runs.ts RUN_TIMEOUT_MS) and 7 runs of the 53 had checks blocked for it.
 */
const WORKERS = 6;
/**
 * A check or step still running after this long hangs (a pacing wait for a far reset, say), and must say so. Five
 * minutes: a fault run under --explore 200 sends its covering sequences in one step, about 150 requests with their
 * settle windows, and a shrink's sequences again; at a load of 40 a group's preparation under the small-chunks
 * variation outlasted three.
 */
const RUN_CHECK_TIMEOUT_MS = 300_000;

const firstLine = (error: SerializedError) => `${error.name ?? 'Error'}: ${(error.message ?? '').split('\n')[0]}`;

/** A suite file of a run, as its wrapper runs it. */
interface FileOfRun {
  run: string;
  /** The suite file, relative to the repository root. */
  file: string;
  /** How long it is expected to take (SuiteRun expectedMs); 0 where not known. */
  expectedMs: number;
}

/**
 * The wrappers' order: the longest expected first, the others in the order the conformance command starts them
 * (GroupOrder: each run's Limits first, while its buckets are far from spent). Without expected times (the variations'
 * runs) that order alone: ordered by name instead, a run's files started side by side, its Limits after the others,
 * and under a busy lane a group's preparation outlasted the hook's timeout.
 */
function longestFirst(wrappers: ReadonlyMap<string, FileOfRun>): typeof GroupOrder {
  return class extends GroupOrder {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const expected = (f: TestSpecification) => wrappers.get(f.moduleId)?.expectedMs ?? 0;
      // A stable sort: files of one expected time keep GroupOrder's order.
      return (await super.sort(files)).sort((x, y) => expected(y) - expected(x));
    }
  };
}

class OutcomeCollector implements Reporter {
  readonly outcomes = new Map<string, SuiteOutcome>();

  /** @param wrappers absolute wrapper path -> the run and suite file it stands for */
  constructor(private readonly wrappers: ReadonlyMap<string, FileOfRun>) {}

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const byRun = new Map<string, Array<{ module: TestModule; file: string }>>();
    for (const module of modules) {
      const of = this.wrappers.get(module.moduleId);
      if (of) byRun.set(of.run, [...(byRun.get(of.run) ?? []), { module, file: of.file }]);
    }
    for (const [name, runModules] of byRun) {
      const outcome = this.outcomeOf(name);
      const checks = runModules.flatMap(({ module, file }) => [...module.children.allTests()].map((test) => checkOf(test, '', file)));
      // The run-wide clauses (resource schemas, error bodies and texts, registered checks), as the reporter judges them.
      for (const c of [...checks, ...runWideResults(runModules.map(({ module }) => module.meta()), checks, [])]) {
        outcome.checks.push({
          file: c.file,
          title: c.title,
          clause: c.clause,
          status: c.status,
          ...(c.failedClause ? { failedClause: c.failedClause } : {}),
          ...(c.message ? { message: c.message } : {}),
          ...(c.blockedBy ? { blockedBy: { ...(c.blockedBy.clause ? { clause: c.blockedBy.clause } : {}), summary: c.blockedBy.summary } } : {}),
          ...(c.judged !== undefined ? { judged: c.judged } : {}),
          ...(c.notJudged ? { notJudged: c.notJudged } : {}),
        });
      }
      for (const { module } of runModules) {
        outcome.errors.push(...[...module.errors(), ...[...module.children.allSuites()].flatMap((suite) => suite.errors())].map(firstLine));
        const d = module.diagnostic();
        outcome.ms += Math.round(d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration);
      }
    }
    // An unhandled error cannot be told apart by run: every run hears of it.
    for (const outcome of this.outcomes.values()) outcome.errors.push(...unhandledErrors.map(firstLine));
  }

  outcomeOf(name: string): SuiteOutcome {
    let outcome = this.outcomes.get(name);
    if (!outcome) this.outcomes.set(name, (outcome = { name, checks: [], errors: [], ms: 0, consulted: [] }));
    return outcome;
  }
}

/**
 * Each run's server is started here, as the conformance global setup would start it; its configuration reaches the
 * run's files through the project's provided `runs`.
 */
interface Prepared {
  name: string;
  config?: Config;
  close?: () => Promise<void>;
  consultedFaults?: () => string[];
}

async function prepare(run: SuiteRun, collector: OutcomeCollector): Promise<Prepared> {
  try {
    const { config, close, consultedFaults } = await prepareRun({ ...process.env, ...run.env });
    return { name: run.name, config, close, consultedFaults };
  } catch (error) {
    collector.outcomeOf(run.name).errors.push(`the run could not be prepared: ${(error as Error).message}`);
    return { name: run.name };
  }
}

/**
 * The wrapper of one suite file of one run: joins the run, then evaluates the suite file anew, from the code
 * transformed once (import-anew.ts).
 */
function wrapperSource(wrapper: string, run: string, file: string): string {
  const from = (path: string) => relative(join(wrapper, '..'), join(ROOT, path)).split('\\').join('/');
  return [
    `import { joinRun } from '${from('suites/support/act/actors.ts')}';`,
    `import { forgetEvaluation } from '${from('suites/self/import-anew.ts')}';`,
    `joinRun(${JSON.stringify(run)});`,
    `forgetEvaluation(${JSON.stringify(join(ROOT, file).split('\\').join('/'))});`,
    `await import('${from(file)}');`,
    '',
  ].join('\n');
}

async function main(planFile: string, outcomesFile: string): Promise<void> {
  const runs = JSON.parse(readFileSync(planFile, 'utf8')) as SuiteRun[];
  // Inside the root, where vitest looks for test files; reports/ is ignored by git.
  const dir = join(ROOT, 'reports', `.runs-${process.pid}`);
  const wrappers = new Map<string, FileOfRun>();
  runs.forEach((run, index) => {
    for (const file of run.files) {
      const wrapper = join(dir, String(index).padStart(3, '0'), basename(file));
      wrappers.set(wrapper, { run: run.name, file, expectedMs: run.expectedMs?.[file] ?? 0 });
    }
  });
  const collector = new OutcomeCollector(wrappers);
  for (const run of runs) collector.outcomeOf(run.name);
  const prepared: Prepared[] = [];
  for (const run of runs) prepared.push(await prepare(run, collector));
  const ready = new Set(prepared.filter((p) => p.config).map((p) => p.name));
  for (const [wrapper, { run, file }] of wrappers) {
    if (!ready.has(run)) continue;
    mkdirSync(join(wrapper, '..'), { recursive: true });
    writeFileSync(wrapper, wrapperSource(wrapper, run, file));
  }
  try {
    const vitest = await startVitest('test', [], {
      root: ROOT,
      config: false,
      watch: false,
      reporters: [collector],
      sequence: { sequencer: longestFirst(wrappers) },
      // As the conformance command runs (cli.ts): each worker loads the support layer once for all the files it is
      // given, and file-state.ts starts each file's state afresh, so no state passes from one run to the next.
      pool: 'threads',
      isolate: false,
      maxWorkers: WORKERS,
      // The transforms on disk, as the conformance command keeps them: each run imports every suite file anew.
      experimental: transformCache(),
      projects: [
        {
          test: {
            name: 'runs',
            include: [`${relative(ROOT, dir)}/**/*.test.ts`],
            setupFiles: SETUP_FILES,
            // Against the embedded server a check takes milliseconds, or seconds where it waits out a silent stream.
            testTimeout: RUN_CHECK_TIMEOUT_MS,
            hookTimeout: RUN_CHECK_TIMEOUT_MS,
            provide: { runs: Object.fromEntries(prepared.flatMap((p) => (p.config ? [[p.name, p.config]] : []))) },
          },
        } satisfies TestProjectInlineConfiguration,
      ],
    });
    await vitest?.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const p of prepared) collector.outcomeOf(p.name).consulted = p.consultedFaults?.() ?? [];
  await Promise.all(prepared.map((p) => p.close?.()));
  writeFileSync(outcomesFile, JSON.stringify([...collector.outcomes.values()]));
}

const [planFile, outcomesFile] = process.argv.slice(2);
if (!planFile || !outcomesFile) {
  process.stderr.write('usage: suite-runner.ts <plan.json> <outcomes.json>\n');
  process.exit(2);
}
await main(planFile, outcomesFile);
// Servers and workers are closed; anything still pending is a leak that must not keep the test waiting.
process.exit(0);

// Runs the conformance suites many times over in ONE vitest process: one vitest project per run, each with
// its own settings and so its own embedded reference server (with its own fault or variation). Starting
// vitest once instead of once per run is what keeps the fault coverage test fast. Used as a script (tsx)
// by runSuites() in run-cli.ts:
//   node --import tsx suites/self/suite-runner.ts <plan.json> <outcomes.json>
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { startVitest, type Reporter, type SerializedError, type TestModule } from 'vitest/node';
import rootConfig from '../../vitest.config.ts';
import { prepareRun } from '../support/global-setup.ts';
import { checkOf } from '../support/reporter.ts';
import type { CheckStatus } from '../support/results.ts';
import { runWideResults } from '../support/run-wide.ts';

export interface SuiteRun {
  /** Unique; becomes the vitest project name (a fault id, a variation name). */
  name: string;
  /** Suite files relative to the repository root. */
  files: string[];
  /** Settings of this run, as the CLI would read them from the environment (CONFORMANCE_FAULTS...). */
  env: Record<string, string>;
  /** Runs only the checks whose title matches (vitest testNamePattern source). */
  testNamePattern?: string;
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
 * Workers beside this process, which serves every run's reference server. On 2 cores a third worker pays off:
 * a run whose fault silences a stream spends its time waiting, not computing.
 */
const WORKERS = 3;
const RUN_CHECK_TIMEOUT_MS = 60_000;

const firstLine = (error: SerializedError) => `${error.name ?? 'Error'}: ${(error.message ?? '').split('\n')[0]}`;

type ProjectTest = NonNullable<TestProjectInlineConfiguration['test']>;

/** The conformance project of vitest.config.ts: each run uses its setup and timeouts. */
function conformanceProject(): ProjectTest {
  for (const project of rootConfig.test?.projects ?? []) {
    if (typeof project === 'object' && 'test' in project && project.test?.name === 'conformance') return project.test;
  }
  throw new Error('vitest.config.ts has no inline project named conformance');
}

class OutcomeCollector implements Reporter {
  readonly outcomes = new Map<string, SuiteOutcome>();

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    const byRun = new Map<string, TestModule[]>();
    for (const module of modules) byRun.set(module.project.name, [...(byRun.get(module.project.name) ?? []), module]);
    for (const [name, runModules] of byRun) {
      const outcome = this.outcomeOf(name);
      const checks = runModules.flatMap((module) => {
        const file = module.moduleId.slice(ROOT.length + 1);
        return [...module.children.allTests()].map((test) => checkOf(test, '', file));
      });
      // The run-wide clauses (resource schemas, error bodies and texts, registered checks), as the reporter judges them.
      for (const c of [...checks, ...runWideResults(runModules.map((m) => m.meta()), checks, [])]) {
        outcome.checks.push({
          file: c.file,
          title: c.title,
          clause: c.clause,
          status: c.status,
          ...(c.failedClause ? { failedClause: c.failedClause } : {}),
          ...(c.message ? { message: c.message } : {}),
          ...(c.blockedBy ? { blockedBy: { ...(c.blockedBy.clause ? { clause: c.blockedBy.clause } : {}), summary: c.blockedBy.summary } } : {}),
        });
      }
      for (const module of runModules) {
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
 * Each run's server is started here, as the conformance global setup would start it, and its configuration
 * handed to the run's project: loading the global setup once per project would cost more than the run itself.
 */
interface Prepared {
  name: string;
  project?: TestProjectInlineConfiguration;
  close?: () => Promise<void>;
  consultedFaults?: () => string[];
}

async function prepare(run: SuiteRun, base: ProjectTest, collector: OutcomeCollector): Promise<Prepared> {
  try {
    const { config, close, consultedFaults } = await prepareRun({ ...process.env, ...run.env });
    const project: TestProjectInlineConfiguration = {
      test: {
        name: run.name,
        include: run.files,
        setupFiles: base.setupFiles,
        // Against the embedded server a check takes milliseconds, or seconds where it waits out a silent stream: a
        // check still running after this long hangs (a pacing wait for a far reset, say), and must say so.
        testTimeout: RUN_CHECK_TIMEOUT_MS,
        hookTimeout: RUN_CHECK_TIMEOUT_MS,
        provide: { config },
        ...(run.testNamePattern ? { testNamePattern: new RegExp(run.testNamePattern) } : {}),
      },
    };
    return { name: run.name, project, close, consultedFaults };
  } catch (error) {
    collector.outcomeOf(run.name).errors.push(`the run could not be prepared: ${(error as Error).message}`);
    return { name: run.name };
  }
}

async function main(planFile: string, outcomesFile: string): Promise<void> {
  const runs = JSON.parse(readFileSync(planFile, 'utf8')) as SuiteRun[];
  const collector = new OutcomeCollector();
  for (const run of runs) collector.outcomeOf(run.name);
  const prepared = [];
  const base = conformanceProject();
  for (const run of runs) prepared.push(await prepare(run, base, collector));
  const projects = prepared.flatMap((p) => (p.project ? [p.project] : []));
  const vitest = await startVitest('test', [], {
    root: ROOT,
    config: false,
    watch: false,
    reporters: [collector],
    // A fork per file costs about twice the CPU of a fresh VM context in a reused fork (measured on the fault runs);
    // each file still gets its own module graph, so no state passes from one run to the next.
    pool: 'vmForks',
    maxWorkers: WORKERS,
    minWorkers: 1,
    projects,
  });
  await vitest?.close();
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
// Servers and forks are closed; anything still pending is a leak that must not keep the test waiting.
process.exit(0);

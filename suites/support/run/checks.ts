// One shape for every check (docs/declaring-checks.md). A suite file declares named steps of
// preparation (`step`) and checks (`it`) that name the steps they need, inside a `section` titled with the contract's
// heading. The section's planner (plan.ts) runs, once, every step the selected checks need, in the order of
// declaration on each object they act on; each check then judges what its steps brought. Release gating comes from
// the catalogue alone: a check whose clause came with a later release than the server's is skipped, and the steps
// only it needs are never run.
import { beforeAll, describe, it as vitestIt, type RunnerTestSuite, type TestContext } from 'vitest';
import { actors } from '../act/actors.ts';
import type { StepOutcome, RootCause } from '../act/steps.ts';
import { CLAUSE_ID, findClause } from '../judge/clauses.ts';
import { before, block, since } from '../judge/preconditions.ts';
import { runStop } from '../judge/run-stop.ts';
import { releaseAtLeast } from '../talk/config.ts';
import type { PathCost } from '../talk/counts.ts';
import type { Exchange } from '../talk/http.ts';
import { startSection } from '../talk/pacing.ts';
import { closure, costOf, mayAddAll, nextOrder, Plan, type Cost, type DeclaredStep } from './plan.ts';

export type { Cost, DeclaredStep } from './plan.ts';
export type { StepOutcome } from '../act/steps.ts';

/** The account a step acts as: one of the run's users, an application token, or no token at all. */
export type Account = 'A' | 'B' | 'application' | 'anonymous';

type Steps = Record<string, DeclaredStep<unknown>>;
type None = Record<never, never>;
/** The values of the steps a check or step needs, by the names it gives them. */
export type Values<N extends Steps> = { [K in keyof N]: N[K] extends DeclaredStep<infer T> ? T : never };
/** The outcomes of the steps a check uses whatever became of them (it judges their exchanges itself). */
export type StepOutcomes<U extends Steps> = { [K in keyof U]: U[K] extends DeclaredStep<infer T> ? StepOutcome<T> : never };

declare module 'vitest' {
  interface TaskMeta {
    /** What the section's plan costs, by path, known before its first request. */
    planned?: PathCost;
  }
}

export interface StepOptions<N extends Steps, U extends Steps> {
  /** The account the step acts as. */
  as: Account;
  /** The steps whose objects this step changes: steps acting on one object run one at a time, in declaration order. */
  changes?: readonly DeclaredStep<unknown>[];
  /** The steps whose values this one needs: a step that failed is never followed, and its cause travels on. */
  needs?: N;
  /** The steps whose outcomes this one takes whatever they came to: it waits for them, and runs all the same. */
  uses?: U;
  /**
   * Steps this one starts after where the plan has them, whatever became of them, without their values and without
   * planning them: what they settle for the run (how the server reads a creation) this one relies on.
   */
  after?: readonly DeclaredStep<unknown>[];
  /** The requests the step sends when all goes well, its undo by the ledger and that undo's read included. */
  cost: Cost;
  /** The requests a deviating server may add to `cost` (re-reads, controls, retries): derived from it where not given (plan.ts mayAddOf). */
  mayAdd?: number;
}

/**
 * A named unit of preparation. `run` acts on the server as `as` and ends as a value or as the cause a check is blocked
 * by; the object it creates is the step itself, which later steps name in `changes`.
 */
export function step<T, N extends Steps = None, U extends Steps = None>(
  name: string,
  options: StepOptions<N, U>,
  run: (values: Values<N> & StepOutcomes<U>) => Promise<StepOutcome<T>>,
): DeclaredStep<T> {
  const { as, needs = {}, uses = {}, changes = [], after = [], cost, mayAdd } = options;
  return { name, as, order: nextOrder(), needs, uses, changes, after, cost, ...(mayAdd === undefined ? {} : { mayAdd }), run: (values) => run(values as Values<N> & StepOutcomes<U>) };
}

/** A step that came to a value: its exchange, where one shows it, travels with it into the reports. */
export const made = <T>(value: T, exchange?: Exchange): StepOutcome<T> => ({ ok: true, value, ...(exchange ? { exchange } : {}) });

/** A step that could not come to its value: `cause` blocks every check that needs it. */
export const notMade = (cause: RootCause, exchange?: Exchange): Extract<StepOutcome<never>, { ok: false }> => ({ ok: false, cause, ...(exchange ? { exchange } : {}) });

/** Something of the configuration a check needs: where it is not met, the check is skipped with the reason, and its steps never run. */
export interface Requirement {
  met: boolean;
  reason: string;
}

/** A requirement of the configuration; its reason names the setting (CONFORMANCE_...), for --list and docs/checks.md. */
export const requirement = (present: unknown, reason: string): Requirement => ({ met: Boolean(present), reason });

interface CheckOptions<N extends Steps, U extends Steps> {
  /** What the configuration must give: a check without it is skipped, and its steps are not planned. */
  requires?: readonly Requirement[];
  /**
   * The release that removed the check's operation (the catalogue gives the release a clause came with, not this one):
   * on it and later the check is skipped, before anything else, as a run that stopped (--max-failures) skips it too.
   */
  removedIn?: string;
  /** Steps the check cannot be judged without: one that failed blocks it with its cause. */
  needs?: N;
  /** Steps the check judges whatever became of them (their answers are its evidence). */
  uses?: U;
}

export interface DeclaredCheck {
  steps: DeclaredStep<unknown>[];
  requires: readonly Requirement[];
  /** The release the check's clause came with (the catalogue's since). */
  release?: string;
}

/** The outermost section being collected: its checks by title, and its plan. */
let collecting: { checks: Map<string, DeclaredCheck>; plan: Plan } | undefined;

/** A section as its suite file declares it: its heading, and its checks by their full names (sections' headings and title). */
export interface DeclaredSection {
  heading: string;
  checks: Map<string, DeclaredCheck>;
}

/** Where sections declare themselves when a suite file is loaded outside vitest for the run's plan (declaredSections). */
let declaring: DeclaredSection[] | undefined;
/** The headings of the section being declared, outermost first: a check's full name starts with them, as vitest's does. */
let headings: readonly string[] = [];

/** The sections `load` declares (it imports suite files), each check with what it needs; no test is registered, no step run. */
export async function declaredSections(load: () => Promise<unknown>): Promise<DeclaredSection[]> {
  const sections: DeclaredSection[] = [];
  declaring = sections;
  try {
    await load();
  } finally {
    declaring = undefined;
  }
  return sections;
}

/** Whether a declared check runs with this configuration: its clause's release, and every requirement it names. */
export const runsWith = (check: DeclaredCheck, serverVersion: string) => (!check.release || releaseAtLeast(serverVersion, check.release)) && check.requires.every(({ met }) => met);

/**
 * A check: its title (the clause id and one sentence in the contract's terms), the steps it needs and uses, and how it
 * judges them. It is skipped where the catalogue says its clause came with a later release than the server's.
 */
export function it<N extends Steps = None, U extends Steps = None>(
  title: string,
  options: CheckOptions<N, U>,
  judge: (values: Values<N> & StepOutcomes<U>, context: TestContext) => void | Promise<void>,
): void {
  if (!collecting) throw new Error(`the check "${title}" is declared outside a section()`);
  const { checks, plan } = collecting;
  const name = [...headings, title].join(' ');
  if (checks.has(name)) throw new Error(`the check "${title}" is declared twice`);
  const needs: Steps = options.needs ?? {};
  const uses: Steps = options.uses ?? {};
  const release = findClause(CLAUSE_ID.exec(title)?.[0] ?? '')?.since;
  const requires = options.requires ?? [];
  const declared: DeclaredCheck = { steps: [...Object.values(needs), ...Object.values(uses)], requires, ...(release ? { release } : {}) };
  checks.set(name, declared);
  if (declaring) return;
  vitestIt(title, async (context) => {
    const { config } = actors();
    if (release) since(context, config, release);
    if (options.removedIn) before(context, config, options.removedIn);
    for (const { met, reason } of requires) if (!met) context.skip(reason);
    // After the skips of the configuration, which a run that did not stop would give too.
    const stop = runStop(config.stop);
    if (stop) {
      context.onTestFailed(() => stop.failed());
      if (stop.reached) context.skip(stop.reason);
    }
    const values: Record<string, unknown> = {};
    for (const [name, needed] of Object.entries(needs)) {
      const outcome = await plan.outcomeOf(needed);
      if (!outcome.ok) block(outcome.cause);
      values[name] = outcome.value;
    }
    for (const [name, used] of Object.entries(uses)) values[name] = await plan.outcomeOf(used);
    // Another file's check may have met the last failure while this one waited for its steps.
    if (stop?.reached) context.skip(stop.reason);
    await judge(values as Values<N> & StepOutcomes<U>, context);
  });
}

/**
 * A contract section (or a part of one, nested): a vitest describe titled with the contract's heading. The outermost
 * section plans the steps of the checks that will run (those the selection keeps and the server's release has),
 * records what they cost, and runs them before its first check.
 */
export function section(heading: string, declare: () => void): void {
  // vitest collects a nested describe after its parent's body: the nested section declares into its outermost one.
  const outer = collecting;
  const checks = outer?.checks ?? new Map<string, DeclaredCheck>();
  const plan = outer?.plan ?? new Plan();
  const path = [...headings, heading];
  const declareHere = () => {
    const around = { collecting, headings };
    collecting = { checks, plan };
    headings = path;
    try {
      declare();
    } finally {
      ({ collecting, headings } = around);
    }
  };
  if (declaring) {
    // Loaded for the run's plan: the section declares at once, nested ones inside it, and registers nothing.
    if (!outer) declaring.push({ heading, checks });
    declareHere();
    return;
  }
  describe(heading, () => {
    declareHere();
    if (outer) return;
    beforeAll(async ({}, suite) => {
      const { serverVersion } = actors().config;
      const kept = runningNames(suite, [heading])
        .flatMap((name) => checks.get(name) ?? [])
        .filter((check) => runsWith(check, serverVersion));
      const steps = kept.flatMap((check) => check.steps);
      const planned = closure(steps);
      suite.meta.planned = costOf(planned);
      // A run that stopped judges none of the checks: their steps would only make what the cleanup undoes.
      if (runStop(actors().config.stop)?.reached) return;
      // Where the run is split into windows, the section starts only when the bucket holds its worst case.
      await startSection(`the section "${heading}"`, suite.meta.planned, mayAddAll(planned));
      await plan.run(steps);
    });
  });
}

/** The full names of the checks of a suite (nested ones included) that this run will run: the selection skipped the others. */
function runningNames(suite: Readonly<RunnerTestSuite>, path: readonly string[]): string[] {
  return suite.tasks.flatMap((task) => (task.type === 'suite' ? runningNames(task, [...path, task.name]) : task.mode === 'run' ? [[...path, task.name].join(' ')] : []));
}

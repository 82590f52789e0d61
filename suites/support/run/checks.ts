// One shape for every check (docs/architecture.md, "How a check is declared"). A suite file declares named steps of
// preparation (`step`) and checks (`it`) that name the steps they need, inside a `section` titled with the contract's
// heading. The section's planner (plan.ts) runs, once, every step the selected checks need, in the order of
// declaration on each object they act on; each check then judges what its steps brought. Release gating comes from
// the catalogue alone: a check whose clause came with a later release than the server's is skipped, and the steps
// only it needs are never run.
import { beforeAll, describe, it as vitestIt, type RunnerTestSuite, type TestContext } from 'vitest';
import { actors } from '../act/actors.ts';
import type { StepOutcome, RootCause } from '../act/steps.ts';
import { CLAUSE_ID, findClause } from '../judge/clauses.ts';
import { block, since } from '../judge/preconditions.ts';
import { releaseAtLeast } from '../talk/config.ts';
import type { PathCost } from '../talk/counts.ts';
import type { Exchange } from '../talk/http.ts';
import { closure, costOf, nextOrder, Plan, type Cost, type DeclaredStep } from './plan.ts';

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
  /** The steps whose outcomes this one takes whatever became of them (it goes on without what failed). */
  uses?: U;
  /** The requests the step sends when all goes well, its undo by the ledger and that undo's read included. */
  cost: Cost;
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
  return {
    name,
    as: options.as,
    order: nextOrder(),
    needs: options.needs ?? {},
    uses: options.uses ?? {},
    changes: options.changes ?? [],
    cost: options.cost,
    run: (values) => run(values as Values<N> & StepOutcomes<U>),
  };
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
  /** Steps the check cannot be judged without: one that failed blocks it with its cause. */
  needs?: N;
  /** Steps the check judges whatever became of them (their answers are its evidence). */
  uses?: U;
}

interface DeclaredCheck {
  steps: DeclaredStep<unknown>[];
  requires: readonly Requirement[];
  /** The release the check's clause came with (the catalogue's since). */
  release?: string;
}

/** The outermost section being collected: its checks by title, and its plan. */
let collecting: { checks: Map<string, DeclaredCheck>; plan: Plan } | undefined;

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
  if (checks.has(title)) throw new Error(`the check "${title}" is declared twice`);
  const needs: Steps = options.needs ?? {};
  const uses: Steps = options.uses ?? {};
  const release = findClause(CLAUSE_ID.exec(title)?.[0] ?? '')?.since;
  const requires = options.requires ?? [];
  const declared: DeclaredCheck = { steps: [...Object.values(needs), ...Object.values(uses)], requires, ...(release ? { release } : {}) };
  checks.set(title, declared);
  vitestIt(title, async (context) => {
    if (release) since(context, actors().config, release);
    for (const { met, reason } of requires) if (!met) context.skip(reason);
    const values: Record<string, unknown> = {};
    for (const [name, needed] of Object.entries(needs)) {
      const outcome = await plan.outcomeOf(needed);
      if (!outcome.ok) block(outcome.cause);
      values[name] = outcome.value;
    }
    for (const [name, used] of Object.entries(uses)) values[name] = await plan.outcomeOf(used);
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
  describe(heading, () => {
    collecting = { checks, plan };
    try {
      declare();
    } finally {
      collecting = undefined;
    }
    if (outer) return;
    beforeAll(async ({}, suite) => {
      const { serverVersion } = actors().config;
      const kept = runningTitles(suite)
        .flatMap((title) => checks.get(title) ?? [])
        .filter((check) => (!check.release || releaseAtLeast(serverVersion, check.release)) && check.requires.every(({ met }) => met));
      const steps = kept.flatMap((check) => check.steps);
      suite.meta.planned = costOf(closure(steps));
      await plan.run(steps);
    });
  });
}

/** The titles of the checks of a suite (nested ones included) that this run will run: the selection skipped the others. */
function runningTitles(suite: Readonly<RunnerTestSuite>): string[] {
  return suite.tasks.flatMap((task) => (task.type === 'suite' ? runningTitles(task) : task.mode === 'run' ? [task.name] : []));
}

// One shape for every check (docs/declaring-checks.md). A suite file declares named steps of
// preparation (`step`) and checks (`it`) that name the steps they need, inside a `section` titled with the contract's
// heading. The section's planner (plan.ts) runs, once, every step the selected checks need, in the order of
// declaration on each object they act on; each check then judges what its steps brought. Release gating comes from
// the catalogue alone: a check whose clause came with a later release than the server's is skipped, and the steps
// only it needs are never run.
import { beforeAll, describe, it as vitestIt, type RunnerTestSuite, type TestContext } from 'vitest';
import { actorOf, actors, configuredActor, type Account, type Actor } from '../act/actors.ts';
import type { StepOutcome, RootCause } from '../act/steps.ts';
import { CLAUSE_ID, findClause } from '../judge/clauses.ts';
import { before, block, since } from '../judge/preconditions.ts';
import { runStop } from '../judge/run-stop.ts';
import { ownedCheckTitle } from '../judge/run-wide.ts';
import { expectNoMismatch } from '../judge/run-wide-owner.ts';
// The registered checks name the run-wide clauses they judge, whose owning checks it.runWide titles.
import '../judge/registered-checks.ts';
import { releaseAtLeast } from '../talk/config.ts';
import type { PathCost } from '../talk/counts.ts';
import type { Exchange } from '../talk/http.ts';
import { sectionNotRun, startSection } from '../talk/pacing.ts';
import { closure, costOf, mayAddAll, nextOrder, Plan, type Cost, type DeclaredStep } from './plan.ts';

export type { Cost, DeclaredStep } from './plan.ts';
export type { StepOutcome } from '../act/steps.ts';

export type { Account } from '../act/actors.ts';

type Steps = Record<string, DeclaredStep<unknown>>;
type None = Record<never, never>;
/** The values of the steps a check or step needs, by the names it gives them (a step needed only in some configurations, its value only there). */
export type Values<N extends Steps> = { [K in keyof N]: NonNullable<N[K]> extends DeclaredStep<infer T> ? T : never };
/** The outcomes of the steps a check uses whatever became of them (it judges their exchanges itself). */
export type StepOutcomes<U extends Steps> = { [K in keyof U]: U[K] extends DeclaredStep<infer T> ? StepOutcome<T> : never };

declare module 'vitest' {
  interface TaskMeta {
    /** What the section's plan costs, by path, known before its first request. */
    planned?: PathCost;
  }
}

export interface StepOptions<N extends Steps, U extends Steps> {
  /** The account the step acts as: the planner hands the step its actor, and the step sends through no other. */
  as: Account;
  /**
   * The other accounts the step acts as, where their calls must interleave within one step (B's upload between two of
   * A's, a sequence of A's and B's moves, the tokenless pages of A's sign-in): each is handed to it too.
   */
  alsoAs?: readonly Account[];
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
  /**
   * The step spends B's share of the Deletion bucket: it deletes or unreblogs, or makes a status the ledger deletes,
   * as B, or as A only where B is not configured (its `as` falls back to A). A's own steps spend A's whole share (15
   * a run, so that two runs fit the bucket's 30), which has no room for B's: without B the checks that need or use
   * the step are skipped (needs CONFORMANCE_TOKEN_B), and it is not run.
   */
  deletesForB?: true;
  /** The requests a deviating server may add to `cost` (re-reads, controls, retries): derived from it where not given (plan.ts mayAddOf). */
  mayAdd?: number;
}

/**
 * What a step yields, sending nothing, where the configuration gives its `as` no token (B without
 * CONFORMANCE_TOKEN_B): for a step that checks not needing B wait for too. Without it, such a step is an error of the
 * suite (a check that needs B says so in its `requires`, and its steps are not run).
 */
export type WithoutAccount<N extends Steps, U extends Steps, T> = (values: Values<N> & StepOutcomes<U>) => StepOutcome<T>;

/** What the planner hands a step besides its values: the actors of the accounts it declares, the only ones it may act through. */
export interface Acting {
  /** The actor of its `as`. */
  actor: Actor;
  /** The actors of its `alsoAs`, by account; B's only where the configuration gives B a token. */
  also: Partial<Record<Account, Actor>>;
}

/**
 * A named unit of preparation. `run` acts on the server through the actor it is handed, the one its `as` declares (a
 * request through any other is an error of the suite), and ends as a value or as the cause a check is blocked by; the
 * object it creates is the step itself, which later steps name in `changes`.
 */
export function step<T, N extends Steps = None, U extends Steps = None>(
  name: string,
  options: StepOptions<N, U>,
  run: (values: Values<N> & StepOutcomes<U>, acting: Acting) => Promise<StepOutcome<T>>,
  withoutAccount?: WithoutAccount<N, U, T>,
): DeclaredStep<T> {
  const { as, alsoAs = [], needs = {}, uses = {}, changes = [], after = [], cost, deletesForB, mayAdd } = options;
  return {
    name,
    as,
    ...(alsoAs.length ? { alsoAs } : {}),
    order: nextOrder(),
    needs,
    uses,
    changes,
    after,
    cost,
    ...(deletesForB ? { deletesForB } : {}),
    ...(mayAdd === undefined ? {} : { mayAdd }),
    run: async (values) => {
      const given = values as Values<N> & StepOutcomes<U>;
      if (withoutAccount && !configuredActor(as)) return withoutAccount(given);
      return run(given, { actor: actorOf(as), also: Object.fromEntries(alsoAs.flatMap((account) => [[account, configuredActor(account)]].filter(([, actor]) => actor))) });
    },
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
  /** The settings it needs, as --list and docs/checks.md show them: "CONFORMANCE_TOKEN_B", "not CONFORMANCE_WHITELIST_MODE". */
  settings: readonly string[];
}

/** The settings a reason names (CONFORMANCE_...): a requirement's reason names the settings it needs, each once. */
const settingsNamed = (reason: string) => [...new Set(reason.match(/CONFORMANCE_[A-Z_]+[A-Z]/g) ?? [])];

/** A requirement of the configuration: what must be present; its reason names the settings that give it (CONFORMANCE_...). */
export const requirement = (present: unknown, reason: string): Requirement => ({ met: Boolean(present), reason, settings: settingsNamed(reason) });

/** Why a check whose deletions are B's share of the Deletion bucket is skipped without B (StepOptions.deletesForB). */
export const NEEDS_B_DELETIONS = "needs CONFORMANCE_TOKEN_B: its deletions are B's, for which A's share of the Deletion bucket (15 a run) has no room";

/** What a check whose steps delete in B's share needs, from the configuration it is declared with. */
const needsBsDeletions = (): Requirement => requirement(actors().config.tokenB, NEEDS_B_DELETIONS);

/** A requirement that a setting is not given (an instance not in whitelist mode); its reason names that setting. */
export const absent = (setting: unknown, reason: string): Requirement => ({ met: !setting, reason, settings: settingsNamed(reason).map((name) => `not ${name}`) });

/**
 * A variant a check runs in (wpt's variants): its name, which ends the title of its result in parentheses ("(SSE)"),
 * and the steps it brings, which the check's judge gets with those the check uses.
 */
export interface Variant<V extends Steps> {
  name: string;
  uses: V;
}

interface CheckOptions<N extends Steps, U extends Steps, V extends Steps = None> {
  /**
   * The variants the check runs in: declared once, it has a result per variant, each judged, reported, expected and
   * blocked on its own, as if declared apart.
   */
  variants?: readonly Variant<V>[];
  /** What the configuration must give: a check without it is skipped, and its steps are not planned. */
  requires?: readonly Requirement[];
  /**
   * The clause of the catalogue that says the check's operation was removed (STATUS-CARD-2): from the release it came
   * with, the check is skipped, before anything else, as a run that stopped (--max-failures) skips it too.
   */
  removedBy?: string;
  /** Steps the check cannot be judged without: one that failed blocks it with its cause. */
  needs?: N;
  /** Steps the check judges whatever became of them (their answers are its evidence). */
  uses?: U;
}

export interface DeclaredCheck {
  /** Its title as declared: the clause id and one sentence. */
  title: string;
  steps: DeclaredStep<unknown>[];
  requires: readonly Requirement[];
  /** The release the check's clause came with (the catalogue's since). */
  release?: string;
  /** The release that removed the check's operation (the since of CheckOptions.removedBy). */
  removedIn?: string;
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
  // A file may plan with others while it loads (the exploration's share, run-plan.ts): its own sections resume after.
  const outer = declaring;
  declaring = sections;
  try {
    await load();
  } finally {
    declaring = outer;
  }
  return sections;
}

/** Whether a declared check runs with this configuration: its clause's release, and every requirement it names. */
export const runsWith = (check: DeclaredCheck, serverVersion: string) =>
  (!check.release || releaseAtLeast(serverVersion, check.release)) && (!check.removedIn || !releaseAtLeast(serverVersion, check.removedIn)) && check.requires.every(({ met }) => met);

/** What a check needs from the configuration, as --list shows it: its release range, then the settings its requirements name. */
export const needsOf = (check: DeclaredCheck): string[] => [
  ...new Set([...(check.release ? [`release >= ${check.release}`] : []), ...(check.removedIn ? [`release < ${check.removedIn}`] : []), ...check.requires.flatMap(({ settings }) => settings)]),
];

/**
 * A check: its title (the clause id and one sentence in the contract's terms), the steps it needs and uses, and how it
 * judges them. It is skipped where the catalogue says its clause came with a later release than the server's. With
 * variants, each is a check of its own, titled with the variant's name in parentheses.
 */
export function it<N extends Steps = None, U extends Steps = None, V extends Steps = None>(
  title: string,
  options: CheckOptions<N, U, V>,
  judge: (values: Values<N> & StepOutcomes<U & V>, context: TestContext) => void | Promise<void>,
): void {
  const { variants, ...once } = options;
  // Without variants V is None: the check uses its own steps alone.
  if (!variants) return declareCheck<N, U & V>(title, once as typeof once & { uses?: U & V }, judge);
  for (const variant of variants) declareCheck<N, U & V>(`${title} (${variant.name})`, { ...once, uses: { ...once.uses, ...variant.uses } as U & V }, judge);
}

/**
 * The check of a run-wide clause in the group that owns it, made from the clause's registry (judge/run-wide.ts): its
 * title, and its judgement of every answer its group met. `noneMet` gives the cause that left it nothing to judge,
 * where one did (a creation that failed).
 */
it.runWide = <N extends Steps = None, U extends Steps = None>(
  clauseId: string,
  options: CheckOptions<N, U>,
  noneMet?: (values: Values<N> & StepOutcomes<U>) => RootCause | undefined,
): void => it(ownedCheckTitle(clauseId), options, (values) => expectNoMismatch(clauseId, noneMet?.(values)));

function declareCheck<N extends Steps, U extends Steps>(
  title: string,
  options: Omit<CheckOptions<N, U>, 'variants'>,
  judge: (values: Values<N> & StepOutcomes<U>, context: TestContext) => void | Promise<void>,
): void {
  if (!collecting) throw new Error(`the check "${title}" is declared outside a section()`);
  const { checks, plan } = collecting;
  const name = [...headings, title].join(' ');
  if (checks.has(name)) throw new Error(`the check "${title}" is declared twice`);
  const needs: Steps = options.needs ?? {};
  const uses: Steps = options.uses ?? {};
  const release = findClause(CLAUSE_ID.exec(title)?.[0] ?? '')?.since;
  const removedIn = options.removedBy === undefined ? undefined : findClause(options.removedBy)?.since;
  if (options.removedBy !== undefined && !removedIn) throw new Error(`the check "${title}" is removed by ${options.removedBy}, which has no release in the catalogue`);
  const steps = [...Object.values(needs), ...Object.values(uses)];
  const requires = [...(options.requires ?? []), ...(closure(steps).some((step) => step.deletesForB) ? [needsBsDeletions()] : [])];
  const declared: DeclaredCheck = { title, steps, requires, ...(release ? { release } : {}), ...(removedIn ? { removedIn } : {}) };
  checks.set(name, declared);
  if (declaring) return;
  vitestIt(title, async (context) => {
    const { config } = actors();
    if (release) since(context, config, release);
    if (removedIn) before(context, config, removedIn);
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
      if (runStop(actors().config.stop)?.reached) return sectionNotRun(heading);
      // Where the run is split into windows, the section starts only once the windows before ended and the bucket holds its worst case.
      await startSection(heading, suite.meta.planned, mayAddAll(planned));
      await plan.run(steps);
    });
  });
}

/** The full names of the checks of a suite (nested ones included) that this run will run: the selection skipped the others. */
function runningNames(suite: Readonly<RunnerTestSuite>, path: readonly string[]): string[] {
  return suite.tasks.flatMap((task) => (task.type === 'suite' ? runningNames(task, [...path, task.name]) : task.mode === 'run' ? [[...path, task.name].join(' ')] : []));
}

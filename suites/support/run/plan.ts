// The planner of a section: it runs every step the selected checks need once, and knows what they cost before the
// first request. Steps acting on one object (the one a step creates, and those it changes) run one at a time, in the
// order they were declared, whatever the server's timing: what a step meets on an object is the same in every run, so
// a verdict never moves with the run's own order. Steps on different objects run side by side.
import type { StepOutcome } from '../act/steps.ts';
import { inPart, type PathCost } from '../talk/counts.ts';
import { actingAs } from '../talk/http.ts';
import { withinFlow } from '../talk/pacing.ts';

/** A step's requests when all goes well, by the kind of path servers count them on. */
export type Cost = Partial<PathCost>;

export interface DeclaredStep<T> {
  readonly name: string;
  readonly as: string;
  /** The other accounts the step acts as, where calls of several must interleave in one step (see StepOptions.alsoAs). */
  readonly alsoAs?: readonly string[];
  /** The order of declaration, across every section of the worker: the order on each object. */
  readonly order: number;
  readonly needs: Readonly<Record<string, DeclaredStep<unknown>>>;
  /** Steps whose outcomes this one takes whatever they came to: it waits for them, and runs all the same. */
  readonly uses: Readonly<Record<string, DeclaredStep<unknown>>>;
  /** The steps whose objects this step changes, besides the object it creates itself. */
  readonly changes: readonly DeclaredStep<unknown>[];
  /** Steps this one starts after where they are planned, whatever became of them (see StepOptions.after). */
  readonly after?: readonly DeclaredStep<unknown>[];
  readonly cost: Cost;
  /** Its deletions are B's share of the Deletion bucket (see StepOptions.deletesForB). */
  readonly deletesForB?: true;
  /** The calls a deviating server may add to `cost`, where the step declares them (else mayAddOf derives them). */
  readonly mayAdd?: number;
  readonly run: (values: Record<string, unknown>) => Promise<StepOutcome<T>>;
}

let declared = 0;
/** The next order of declaration. */
export const nextOrder = () => declared++;

/** A step that threw: an error of the suite, which every check needing the step shows as its own error. */
class StepError extends Error {
  constructor(step: DeclaredStep<unknown>, cause: unknown) {
    super(`the step "${step.name}" threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StepError';
  }
}

/** Every step `steps` need or use, each once, in the order of declaration. */
export function closure(steps: readonly DeclaredStep<unknown>[]): DeclaredStep<unknown>[] {
  const seen = new Set<DeclaredStep<unknown>>();
  const visit = (step: DeclaredStep<unknown>): void => {
    if (seen.has(step)) return;
    seen.add(step);
    for (const needed of [...Object.values(step.needs), ...Object.values(step.uses)]) visit(needed);
  };
  steps.forEach(visit);
  return [...seen].sort((x, y) => x.order - y.order);
}

/** The pages of a web sign-in a step going through the authorization form may meet: its form and their post. */
export const SIGN_IN_PAGES = 2;
/** Of a step's calls, one in this many a deviating server may add again. */
const CALLS_PER_ADDED = 6;

/**
 * The calls a deviating server may add to a step's own (its cost, which holds its undo by the ledger and that undo's
 * read): a state it shows late read twice more (settle.ts), a 2xx to a revoked token sent once more with a made-up
 * token, a route it lacks answered 404 and read another way, an object it still shows after the undo read once more
 * by the ledger, a reused connection it closed sent again: one call in six or fewer, measured against servers that
 * deviate so (suites/self/windows.test.ts); and a web sign-in's pages (its form and their post), where the step goes
 * through the authorization form. A step that knows better declares its own (StepOptions.mayAdd).
 */
export function mayAddOf(step: DeclaredStep<unknown>): number {
  if (step.mayAdd !== undefined) return step.mayAdd;
  const { api = 0, oauth = 0, files = 0 } = step.cost;
  const calls = api + oauth + files;
  // A user's token asked of the token operation after a form (more than one /oauth call): the authorization code flow.
  const signsIn = (step.as === 'A' || step.as === 'B') && oauth >= 2;
  return Math.ceil(calls / CALLS_PER_ADDED) + (signsIn ? SIGN_IN_PAGES : 0);
}

/** What a deviating server may add to the steps in all. */
export const mayAddAll = (steps: readonly DeclaredStep<unknown>[]): number => steps.reduce((sum, step) => sum + mayAddOf(step), 0);

/** What the steps cost in all, by path. */
export function costOf(steps: readonly DeclaredStep<unknown>[]): PathCost {
  const total: PathCost = { api: 0, oauth: 0, files: 0, streams: 0 };
  for (const step of steps) for (const path of Object.keys(total) as (keyof PathCost)[]) total[path] += step.cost[path] ?? 0;
  return total;
}

export class Plan {
  #outcomes = new Map<DeclaredStep<unknown>, Promise<StepOutcome<unknown>>>();

  /**
   * Runs every step the given ones need, each once. A step starts when the steps it needs have ended and, on each
   * object, the earlier steps it must follow: one that changes an object (the one it creates, and those it names in
   * `changes`) follows every earlier step on it; one that only reads an object (the value of a step it needs or uses)
   * follows the earlier steps that changed it; and it follows the planned steps it names in `after`. What each step
   * meets on an object is then the same in every run.
   */
  run(steps: readonly DeclaredStep<unknown>[]): Promise<void> {
    /** The steps started on each object so far, by the step that created it: those that changed it, and every one. */
    const changedBy = new Map<DeclaredStep<unknown>, Promise<unknown>[]>();
    const touchedBy = new Map<DeclaredStep<unknown>, Promise<unknown>[]>();
    const on = (map: typeof changedBy, object: DeclaredStep<unknown>) => map.get(object) ?? map.set(object, []).get(object) ?? [];
    for (const step of closure(steps)) {
      const changed = [step, ...step.changes];
      const read = [...Object.values(step.needs), ...Object.values(step.uses)].filter((object) => !changed.includes(object));
      // A step comes after steps declared before it: those planned have started already.
      const followed = (step.after ?? []).flatMap((earlier) => this.#outcomes.get(earlier)?.catch(() => undefined) ?? []);
      const before = [...changed.flatMap((object) => on(touchedBy, object)), ...read.flatMap((object) => on(changedBy, object)), ...followed];
      const ended = this.#start(step, before).catch(() => undefined);
      for (const object of changed) on(changedBy, object).push(ended);
      for (const object of [...changed, ...read]) on(touchedBy, object).push(ended);
    }
    return Promise.allSettled(this.#outcomes.values()).then(() => undefined);
  }

  /** What a planned step came to; a step that threw rejects, for the checks that need it only. */
  outcomeOf<T>(step: DeclaredStep<T>): Promise<StepOutcome<T>> {
    const outcome = this.#outcomes.get(step);
    if (!outcome) throw new Error(`the step "${step.name}" was not planned: a check needs it without naming it`);
    return outcome as Promise<StepOutcome<T>>;
  }

  #start(step: DeclaredStep<unknown>, before: readonly Promise<unknown>[]): Promise<StepOutcome<unknown>> {
    const outcome = (async (): Promise<StepOutcome<unknown>> => {
      const values: Record<string, unknown> = {};
      for (const [name, needed] of Object.entries(step.needs)) {
        const ended = await (this.#outcomes.get(needed) as Promise<StepOutcome<unknown>>);
        // A step that could not come to its value is never followed: its cause is the cause of every step after it.
        if (!ended.ok) return { ok: false, cause: ended.cause };
        values[name] = ended.value;
      }
      for (const [name, used] of Object.entries(step.uses)) values[name] = await (this.#outcomes.get(used) as Promise<StepOutcome<unknown>>);
      await Promise.all(before);
      try {
        // A step starts only when the rate-limit budget holds its worst case, and never waits between its calls; it
        // acts as the accounts it declares, and as no other.
        const what = `the step "${step.name}"`;
        const as = [step.as, ...(step.alsoAs ?? [])];
        const mayAdd = mayAddOf(step);
        // Its part holds what it came to, beside what it sent: our tests hold a part that came to its value to its cost.
        return await withinFlow(what, as, step.cost, mayAdd, () =>
          inPart(step.name, step.cost, async (part) => {
            part.outcome = 'threw';
            const outcome = await actingAs(what, as, () => step.run(values));
            part.outcome = outcome.ok ? 'made' : 'not made';
            return outcome;
          }, { mayAdd, order: step.order }),
        );
      } catch (error) {
        throw new StepError(step, error);
      }
    })();
    this.#outcomes.set(step, outcome);
    return outcome;
  }
}

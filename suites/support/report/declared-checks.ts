// The checks the suite files declare, as the planner runs them: each check's title, what it needs from the
// configuration, its release range, its steps and their cost. run/declarations.ts writes them to one file from the
// loaded declarations (npm run docs; run/docs.test.ts fails where it differs from them), so that --list, the
// selection, the reports and the generated pages read them without loading the suite files, and none reads their
// source.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PathCost } from '../talk/counts.ts';

/** The file of the declarations, from the project's root. */
export const DECLARED_CHECKS = 'suites/declared-checks.json';
/** The project's root, where the suite files and their declarations are. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * A step as declared: its name, the account it acts as, the requests it sends when all goes well, and the calls a
 * deviating server may add to them (re-reads, controls, retries: run/plan.ts mayAddOf), which it waits for room for.
 */
export interface ListedStep {
  name: string;
  as: string;
  cost: Partial<PathCost>;
  mayAdd: number;
}

export interface ListedCheck {
  title: string;
  /** What it needs from the configuration: "release >= 2.7.0", "CONFORMANCE_TOKEN_B", "not CONFORMANCE_WHITELIST_MODE". */
  needs: string[];
  /** The release its clause came with (the catalogue's since), and the one that removed its operation. */
  since?: string;
  removedIn?: string;
  /** Its steps and every step they need, in the order of declaration: indexes into its group's steps. */
  steps: number[];
  /** What those steps cost, by path: what the check costs run alone. */
  cost: PathCost;
}

/** A suite file's declarations: its group (the heading of its section), its steps, and its checks in order. */
export interface ListedGroup {
  file: string;
  group: string;
  steps: ListedStep[];
  checks: ListedCheck[];
}

/** A run-wide clause as it is registered: judged once over everything the run met, reported in its own check's group. */
export interface ListedRunWide {
  id: string;
  sentence: string;
}

/**
 * What each suite file costs in a run of one configuration, as the planner adds it up (run/run-plan.ts planOfRun):
 * the exploration's default share is what the other groups leave of the IP access line, read from here where the run's
 * configuration is one of these instead of loading every other suite file to plan them.
 */
export interface PlannedConfiguration {
  /** The configuration as a plan reads it (run/run-plan.ts plannedSettings): its release, numbers and switches, which settings are there. */
  configuration: Record<string, string | number | boolean>;
  /** Each suite file's cost by path, for the checks this configuration runs. */
  costs: Record<string, PathCost>;
}

export interface Declarations {
  runWide: ListedRunWide[];
  groups: ListedGroup[];
  plans: PlannedConfiguration[];
}

const read = new Map<string, Declarations>();

/** The declarations of every suite file and the run-wide clauses, read once per root. */
export function declarations(root = PROJECT_ROOT): Declarations {
  const known = read.get(root);
  if (known) return known;
  const { runWide, groups, plans } = JSON.parse(readFileSync(join(root, DECLARED_CHECKS), 'utf8')) as Declarations;
  read.set(root, { runWide, groups, plans });
  return { runWide, groups, plans };
}

/** The declarations of every suite file. */
export const declaredChecks = (root = PROJECT_ROOT): ListedGroup[] => declarations(root).groups;

/**
 * The line of a suite file where a check's title is written, for the reports' file:line. The title is text the
 * declaration gave; the first line that holds its start up to its first character a literal may escape is the one.
 */
export function lineOf(source: string, title: string): number | undefined {
  const start = title.split(/['"`\\]/)[0] ?? title;
  // A title is one line: the first line that holds its start is the line of its first occurrence (a report looks up
  // every title of a file: splitting the whole source for each took 50 ms of a report with one check).
  const at = start.includes('\n') ? -1 : source.indexOf(start);
  return at === -1 ? undefined : source.slice(0, at).split('\n').length;
}

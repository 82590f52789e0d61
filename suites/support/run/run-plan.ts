// The run's plan, before its first request: the suite files are loaded outside vitest, where each section declares
// its checks and registers nothing (checks.ts declaredSections), and the plan adds up, group by group, what the steps
// of the checks this run will judge cost (the selection, the server's release and the configuration decide which).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { declareWith } from '../act/actors.ts';
import type { Config } from '../talk/config.ts';
import type { PathCost } from '../talk/counts.ts';
import { declaredSections, runsWith, type DeclaredSection } from './checks.ts';
import { closure, costOf, mayAddOf } from './plan.ts';

export interface GroupPlan {
  file: string;
  heading: string;
  /** The checks the run will judge. */
  checks: number;
  cost: PathCost;
  /** The calls a deviating server may add to its steps' (plan.ts mayAddOf). */
  mayAdd: number;
  /** Its steps, in the order of declaration. */
  steps: StepPlan[];
}

/** A step as the plan counts it: what it costs when all goes well, and what a deviating server may add to that. */
export interface StepPlan {
  name: string;
  as: string;
  cost: PathCost;
  mayAdd: number;
}

export interface RunPlan {
  groups: GroupPlan[];
  /** The suite files that declare no section in the one shape (vitest's own describe): their cost is not known. */
  unplanned: string[];
  total: PathCost;
}

const NOTHING: PathCost = { api: 0, oauth: 0, files: 0, streams: 0 };
const add = (x: PathCost, y: PathCost): PathCost => ({ api: x.api + y.api, oauth: x.oauth + y.oauth, files: x.files + y.files, streams: x.streams + y.streams });

/** The sections of each suite file loaded so far: a module is loaded once, so it declares once. */
const loaded = new Map<string, Promise<DeclaredSection[]>>();
function sectionsOf(url: string): Promise<DeclaredSection[]> {
  const known = loaded.get(url);
  if (known) return known;
  const sections = declaredSections(() => import(url));
  loaded.set(url, sections);
  return sections;
}

/** The plan of the suite files `files` (relative to `root`) for `config`: `selected` keeps a check by its full name, as vitest's testNamePattern does. */
export async function planOfRun(root: string, files: readonly string[], config: Config, selected: (fullName: string) => boolean = () => true): Promise<RunPlan> {
  declareWith(config);
  const groups: GroupPlan[] = [];
  const unplanned: string[] = [];
  for (const file of files) {
    let sections: DeclaredSection[];
    try {
      sections = await sectionsOf(pathToFileURL(resolve(root, file)).href);
    } catch {
      // A suite file still written with vitest's describe and it cannot be loaded outside vitest.
      unplanned.push(file);
      continue;
    }
    for (const { heading, checks } of sections) {
      const kept = [...checks].filter(([name, check]) => selected(name) && runsWith(check, config.serverVersion)).map(([, check]) => check);
      const steps = closure(kept.flatMap((check) => check.steps)).map((step) => ({ name: step.name, as: step.as, cost: costOf([step]), mayAdd: mayAddOf(step) }));
      groups.push({ file, heading, checks: kept.length, cost: steps.reduce((sum, step) => add(sum, step.cost), NOTHING), mayAdd: steps.reduce((sum, step) => sum + step.mayAdd, 0), steps });
    }
  }
  return { groups, unplanned, total: groups.reduce((sum, group) => add(sum, group.cost), NOTHING) };
}

/** The plan in one line: "330 requests (271 /api, 49 /oauth, 10 files) and 18 stream connections". */
export function planLine({ total, unplanned }: RunPlan): string {
  const requests = total.api + total.oauth + total.files;
  const unknown = unplanned.length ? `, besides ${unplanned.length} group${unplanned.length === 1 ? '' : 's'} not planned (${unplanned.join(', ')})` : '';
  return `${requests} requests (${total.api} /api, ${total.oauth} /oauth, ${total.files} files) and ${total.streams} stream connections${unknown}`;
}

/**
 * The steps of a plan, one line each (--list): its group, the account it acts as, the calls it makes when all goes
 * well, and what a deviating server may add to them (re-reads, controls, retries): the bucket must hold both before
 * its first call. The last line adds them up.
 */
export function stepListing({ groups }: RunPlan): string[] {
  const calls = (cost: PathCost) => cost.api + cost.oauth + cost.files + cost.streams;
  const rows = groups.flatMap((g) => g.steps.map((s) => [s.name, g.heading, s.as, String(calls(s.cost)), String(s.mayAdd)]));
  const table = [['STEP', 'GROUP', 'AS', 'CALLS', 'MAY ADD'], ...rows];
  const widths = [0, 1, 2, 3].map((column) => Math.max(...table.map((row) => (row[column] as string).length)));
  const planned = groups.reduce((sum, g) => sum + calls(g.cost), 0);
  const mayAdd = groups.reduce((sum, g) => sum + g.mayAdd, 0);
  return [
    ...table.map((row) => row.map((cell, column) => (column < 4 ? cell.padEnd(widths[column] as number) : cell)).join('  ')),
    `${rows.length} steps: ${planned} calls (streams included) when all goes well, and at most ${mayAdd} more from a deviating server (each step's MAY ADD: the bucket holds both before the step's first call)`,
  ];
}

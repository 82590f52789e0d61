// The run's plan, before its first request: the suite files are loaded outside vitest, where each section declares
// its checks and registers nothing (checks.ts declaredSections), and the plan adds up, group by group, what the steps
// of the checks this run will judge cost (the selection, the server's release and the configuration decide which).
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { declareWith } from '../act/actors.ts';
import type { Config } from '../talk/config.ts';
import type { PathCost } from '../talk/counts.ts';
import { LIMITS, reserveOf } from '../talk/pacing.ts';
import { declaredSections, runsWith, type DeclaredSection } from './checks.ts';
import { closure, costOf, mayAddOf } from './plan.ts';
import { EXPLORE_FILE, selectedOf, selectionOf } from './selection.ts';
import { declarations, type PlannedConfiguration } from '../report/declared-checks.ts';

/**
 * Issue 50's hard line: a full default run's IP access calls, streams included, fit one window of the contract's
 * bucket from a fresh window, less pacing's reserve (285 of 300).
 */
export const IP_ACCESS_LINE = LIMITS['IP access'].limit - reserveOf('IP access');

export interface GroupPlan {
  file: string;
  heading: string;
  /** The checks the run will judge. */
  checks: number;
  /** Every check the section declares, each variant of one apart: those the run reports. */
  declared: number;
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

/**
 * What of a configuration a plan may read: which settings are there (never what a token, a password or a URL says),
 * the release, and every number and switch. Runs of our own runner differ in their server and tokens, not in this:
 * they plan with the same modules.
 */
function plannedSettings(config: Config): [string, string | number | boolean][] {
  const kept = Object.entries(config).map(([key, value]) =>
    key === 'serverVersion' || typeof value === 'number' || typeof value === 'boolean' ? [key, value] : typeof value === 'string' ? [key, value !== ''] : [key, undefined],
  );
  return kept.filter((setting): setting is [string, string | number | boolean] => setting[1] !== undefined);
}
const planSignature = (config: Config): string => JSON.stringify(plannedSettings(config));

/**
 * The configuration as the declared checks file keys its plans (report/declared-checks.ts): what a plan reads of it,
 * less where the server is, which an embedded run knows only once its server started, after the command planned.
 */
export function plannedConfiguration(config: Config): Record<string, string | number | boolean> {
  const kept = plannedSettings(config).filter(([key]) => key !== 'baseUrl' && key !== 'streamingUrl');
  return Object.fromEntries(kept.sort(([x], [y]) => x.localeCompare(y)));
}

/** The signatures planned with in this process, each numbered: a suite file declares its checks as its configuration gives them. */
const planned = new Map<string, number>();
/**
 * The sections of each suite file loaded so far for a configuration: a module is loaded once, so it declares once. It
 * is loaded as a module of its own (the query), apart from the suite file vitest runs: a worker that runs the files
 * one after another in one module graph (run-command.ts) may plan with them while it runs them (the exploration's
 * share), for each kind of configuration its own.
 */
const loaded = new Map<string, Promise<DeclaredSection[]>>();
export function sectionsOf(url: string, config: Config): Promise<DeclaredSection[]> {
  const signature = planSignature(config);
  if (!planned.has(signature)) planned.set(signature, planned.size);
  const module = `${url}?plan=${planned.get(signature)}`;
  const known = loaded.get(module);
  if (known) return known;
  const sections = declaredSections(() => import(module));
  loaded.set(module, sections);
  return sections;
}

/**
 * The exploration's default share (docs/exploring.md): what a full run's other groups leave of the line, their checks
 * and controls first (issue 50's order), for this configuration (its release, B, its credentials), whatever the
 * selection. 0 where they leave nothing: a request more of the checks is then a decision on the budget.
 */
export async function exploreShareOf(root: string, config: Config): Promise<number> {
  // Read from the declared checks where they were planned for this configuration (the default run's): planning the
  // other groups loads each of their files, most of --list's CPU and 0.7 s of the exploration's worker.
  const key = JSON.stringify(plannedConfiguration(config));
  const declared = declaredPlans(root).find((plan) => JSON.stringify(plan.configuration) === key);
  if (declared) return shareLeft(config, Object.entries(declared.costs).filter(([file]) => file !== EXPLORE_FILE).map(([, cost]) => cost));
  const others = [...new Set(selectedOf(root, selectionOf({})).checks.map((check) => check.file))].filter((file) => file !== EXPLORE_FILE);
  const { groups } = await planOfRun(root, others, config);
  return shareLeft(config, groups.map((group) => group.cost));
}

/** The plans exploreShareOf reads: the declared checks', or none while those are made from the suite files (declarations.ts). */
let declaredPlans = (root: string): PlannedConfiguration[] => declarations(root).plans;

/** Runs `make` with every exploration's share planned from the other suite files: the declared checks are what it makes. */
export async function planningFromSuiteFiles<T>(make: () => Promise<T>): Promise<T> {
  const outer = declaredPlans;
  declaredPlans = () => [];
  try {
    return await make();
  } finally {
    declaredPlans = outer;
  }
}

/** What the groups costing `others` leave of the IP access line to the exploration, less the command's own calls. */
export function shareLeft(config: Config, others: readonly PathCost[]): number {
  const total = others.reduce(add, NOTHING);
  return Math.max(0, IP_ACCESS_LINE - commandCallsOf(config) - total.api - total.streams);
}

/**
 * The IP access calls the command itself makes before the groups, which the line includes: against a configured
 * server, a GET /api/v1/accounts/verify_credentials per configured token (preflight.ts) and the read of the budget,
 * GET /api/v1/instance (run-command.ts); the embedded server's run makes none.
 */
export const commandCallsOf = (config: Config): number => (config.embedded ? 0 : 1 + (config.tokenA ? 1 : 0) + (config.tokenB ? 1 : 0));

/** The plan of the suite files `files` (relative to `root`) for `config`: `selected` keeps a check by its full name, as vitest's testNamePattern does. */
export async function planOfRun(root: string, files: readonly string[], config: Config, selected: (fullName: string) => boolean = () => true): Promise<RunPlan> {
  // Restored after: a worker that plans while it runs files goes on with the configuration its files were given.
  const outer = declareWith(config);
  try {
    return await plannedGroups(root, files, config, selected);
  } finally {
    declareWith(outer);
  }
}

async function plannedGroups(root: string, files: readonly string[], config: Config, selected: (fullName: string) => boolean): Promise<RunPlan> {
  const groups: GroupPlan[] = [];
  const unplanned: string[] = [];
  for (const file of files) {
    let sections: DeclaredSection[];
    try {
      sections = await sectionsOf(pathToFileURL(resolve(root, file)).href, config);
    } catch {
      // A suite file still written with vitest's describe and it cannot be loaded outside vitest.
      unplanned.push(file);
      continue;
    }
    for (const { heading, checks } of sections) {
      const kept = [...checks].filter(([name, check]) => selected(name) && runsWith(check, config.serverVersion)).map(([, check]) => check);
      const steps = closure(kept.flatMap((check) => check.steps)).map((step) => ({ name: step.name, as: step.as, cost: costOf([step]), mayAdd: mayAddOf(step) }));
      groups.push({ file, heading, checks: kept.length, declared: checks.size, cost: steps.reduce((sum, step) => add(sum, step.cost), NOTHING), mayAdd: steps.reduce((sum, step) => sum + step.mayAdd, 0), steps });
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

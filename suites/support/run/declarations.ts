// The declarations of every suite file, loaded as the planner loads them (run-plan.ts) and written to one file
// (report/declared-checks.ts) that --list, the selection, the reports and the generated pages read: the suite files
// are loaded here only, by `npm run docs`, and run/docs.test.ts fails where that file differs from what they declare.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { declareWith } from '../act/actors.ts';
import { configFromEnv, type Config } from '../talk/config.ts';
import '../judge/registered-checks.ts';
import '../judge/resources.ts';
import { runWideClauses } from '../judge/run-wide.ts';
import type { Declarations, ListedGroup, ListedStep, PlannedConfiguration } from '../report/declared-checks.ts';
import { needsOf, type DeclaredStep } from './checks.ts';
import { closure, costOf, mayAddOf } from './plan.ts';
import { plannedConfiguration, planningFromSuiteFiles, planOfRun, sectionsOf } from './run-plan.ts';

/** The embedded server's accounts, as placeholders: the plan reads which settings are there, never what they say. */
const EMBEDDED_ACCOUNTS = { CONFORMANCE_TOKEN_A: 'figures-token-a', CONFORMANCE_TOKEN_B: 'figures-token-b', CONFORMANCE_USERNAME_A: 'a', CONFORMANCE_PASSWORD_A: 'figures-password-a', CONFORMANCE_USERNAME_B: 'b', CONFORMANCE_PASSWORD_B: 'figures-password-b', CONFORMANCE_LIST_ID: '1' };

/**
 * A run's configuration as its plan sees it: where the embedded server will serve it, with the accounts A and B, their
 * passwords, a list and A's account id that the server makes when it starts (after the command plans).
 */
export function asPlanned(config: Config): Config {
  if (!config.embedded) return config;
  const { tokenA, tokenB, usernameA, passwordA, usernameB, passwordB, listId } = configFromEnv(EMBEDDED_ACCOUNTS);
  return { ...config, tokenA, tokenB, usernameA, passwordA, usernameB, passwordB, listId, accountIdA: '1' };
}

let fullRun: Config | undefined;
/**
 * A full run as the embedded server's: accounts A and B with their passwords, a list, the destructive check, and A's
 * account id known before the groups. One object: the plan loads the suite files once per configuration (run-plan.ts).
 */
export function fullRunConfig(): Config {
  fullRun ??= asPlanned(configFromEnv({ CONFORMANCE_DESTRUCTIVE: '1' }));
  return fullRun;
}

/** The suite files, suites/<group>.test.ts, by name. */
export const suiteFiles = (root: string) =>
  readdirSync(join(root, 'suites'))
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => `suites/${name}`);

/**
 * What every suite file declares for a full run: its group, its steps, and each check with its needs, steps and cost;
 * the run-wide clauses, which registered-checks.ts and resources.ts register as they load; and what each file costs
 * in the runs that read the exploration's share from them (plansOf).
 */
export const loadDeclarations = (root: string): Promise<Declarations> => planningFromSuiteFiles(() => declarationsOf(root));

async function declarationsOf(root: string): Promise<Declarations> {
  const config = fullRunConfig();
  declareWith(config);
  const groups: ListedGroup[] = [];
  for (const file of suiteFiles(root)) {
    const sections = await sectionsOf(pathToFileURL(resolve(root, file)).href, config);
    for (const { heading, checks } of sections) {
      const declared = [...checks.values()];
      const steps = closure(declared.flatMap((check) => check.steps));
      const index = new Map<DeclaredStep<unknown>, number>(steps.map((step, i) => [step, i]));
      groups.push({
        file,
        group: heading,
        steps: steps.map((step): ListedStep => ({ name: step.name, as: step.as, cost: step.cost, mayAdd: mayAddOf(step) })),
        checks: declared.map((check) => {
          const own = closure(check.steps);
          return {
            title: check.title,
            needs: needsOf(check),
            ...(check.release ? { since: check.release } : {}),
            ...(check.removedIn ? { removedIn: check.removedIn } : {}),
            steps: own.map((step) => index.get(step) as number),
            cost: costOf(own),
          };
        }),
      });
    }
  }
  return { runWide: [...runWideClauses()].map(([id, { sentence }]) => ({ id, sentence })), groups, plans: await plansOf(root) };
}

/**
 * What each suite file costs in the runs whose exploration reads its share from the declared checks (run-plan.ts
 * exploreShareOf): the embedded server's default run, as the command, its workers and our fault runs plan it. Any other
 * configuration plans its groups by loading their files.
 */
async function plansOf(root: string): Promise<PlannedConfiguration[]> {
  const plans: PlannedConfiguration[] = [];
  for (const config of [fullRunConfig()]) {
    const { groups } = await planOfRun(root, suiteFiles(root), config);
    const costs: PlannedConfiguration['costs'] = {};
    for (const { file, cost } of groups) costs[file] = cost;
    plans.push({ configuration: plannedConfiguration(config), costs });
  }
  return plans;
}

/** The file's text: one group a block, a step or a check a line, so that a change reads as a diff of the lines it touches. */
export function declarationsText({ runWide, groups, plans }: Declarations): string {
  const lines = (items: readonly unknown[]) => items.map((item) => `        ${JSON.stringify(item)}`).join(',\n');
  const blocks = groups.map(
    ({ file, group, steps, checks }) =>
      `    {\n      "file": ${JSON.stringify(file)},\n      "group": ${JSON.stringify(group)},\n      "steps": [\n${lines(steps)}\n      ],\n      "checks": [\n${lines(checks)}\n      ]\n    }`,
  );
  const clauses = runWide.map((clause) => `    ${JSON.stringify(clause)}`).join(',\n');
  const planned = plans.map(({ configuration, costs }) => `    {\n      "configuration": ${JSON.stringify(configuration)},\n      "costs": {\n${Object.entries(costs).map(([file, cost]) => `        ${JSON.stringify(file)}: ${JSON.stringify(cost)}`).join(',\n')}\n      }\n    }`);
  return `{\n  "generated": "npm run docs, from the declarations of the suite files (suites/support/run/declarations.ts)",\n  "runWide": [\n${clauses}\n  ],\n  "groups": [\n${blocks.join(',\n')}\n  ],\n  "plans": [\n${planned.join(',\n')}\n  ]\n}\n`;
}

// The figures of a full run that the documentation gives (its checks, its requests by path, its streams, its calls of
// the IP access bucket), made from the declarations that decide them: the checks of the suite files, the run-wide
// clauses, and what each check's steps declare they cost (run-plan.ts). docs/figures.md states them (npm run docs
// writes it); every other page links to it, and where a page shows one in a sample (a run's last line, its plan, the
// budget's table), docs.test.ts holds that sample equal to them. suites/self/budget.test.ts holds the plan equal to
// what a run counts, section by section.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { declarations } from '../report/declared-checks.ts';
import { CLAUSE_ID } from '../judge/clauses.ts';
import { IP_ACCESS_LINE, planOfRun, shareLeft, type GroupPlan } from './run-plan.ts';
import { fullRunConfig } from './declarations.ts';
import { EXPLORE_FILE, runsAtRelease, selectedOf, selectionOf } from './selection.ts';
import type { PathCost } from '../talk/counts.ts';

/** The one page that states the figures. */
export const FIGURES_PAGE = 'docs/figures.md';

export interface RunFigures {
  /** The checks the suite files declare, as --list counts them. */
  declaredChecks: number;
  /** The run-wide clauses a full run judges, each one result over the whole run: those whose checks the release runs. */
  runWideChecks: number;
  /** The checks a run reports: the declared ones and the run-wide ones. */
  reportedChecks: number;
  requests: number;
  api: number;
  oauth: number;
  files: number;
  streams: number;
  /** The calls the IP access bucket counts: the /api calls and the stream connections. */
  ipAccess: number;
  /** The exploration's default share: what the other groups leave of the IP access line (run-plan.ts exploreShareOf). */
  exploreShare: number;
  groups: readonly GroupPlan[];
}

export async function fullRunFigures(root: string): Promise<RunFigures> {
  const declared = selectedOf(root, selectionOf({})).checks;
  const config = fullRunConfig();
  const { total, groups } = await planOfRun(root, [...new Set(declared.map((check) => check.file))], config);
  // A run-wide clause is judged where one of its checks runs (run-wide-results.ts): RESOURCE-CARD-1's only before 3.0.0.
  const running = new Set(declared.filter((check) => runsAtRelease(check, config.serverVersion)).map((check) => CLAUSE_ID.exec(check.title)?.[0]));
  const runWideChecks = declarations(root).runWide.filter(({ id }) => running.has(id)).length;
  // Counted from the declarations: a check declared once over several variants is a check of each.
  const declaredChecks = groups.reduce((sum, group) => sum + group.declared, 0);
  return {
    declaredChecks,
    runWideChecks,
    reportedChecks: declaredChecks + runWideChecks,
    requests: total.api + total.oauth + total.files,
    ...total,
    ipAccess: total.api + total.streams,
    exploreShare: shareLeft(config, groups.filter((group) => group.file !== EXPLORE_FILE).map((group) => group.cost)),
    groups,
  };
}

/** The page that states the figures, once. */
export function figuresPage(mark: string, f: RunFigures): string {
  const cell = (n: number) => (n === 0 ? '' : String(n));
  const rows = f.groups.map((g) => `| ${g.heading} | ${g.checks} | ${g.cost.api + g.cost.oauth + g.cost.files} | ${cell(g.cost.api)} | ${cell(g.cost.oauth)} | ${cell(g.cost.files)} | ${cell(g.cost.streams)} | ${g.mayAdd} |`);
  const calls = (c: PathCost) => c.api + c.oauth + c.files + c.streams;
  const stepRows = f.groups.flatMap((g) => g.steps.map((s) => `| ${g.heading} | ${s.name.replace(/\|/g, '\\|')} | ${s.as} | ${calls(s.cost)} | ${s.mayAdd} |`));
  return `${[
    mark,
    "# A full run's figures",
    'What a full default run against the embedded reference server judges and spends, added up from the declarations ' +
      '(`suites/support/run/figures.ts`): the checks of the suite files, the run-wide clauses, and the cost that the steps ' +
      "of each check declare ([declaring checks](declaring-checks.md)). `suites/self/budget.test.ts` holds a run's count " +
      'equal to this plan, section by section. A run against a configured server adds its command\'s own requests ' +
      '([performance](performance.md#the-request-budget)).',
    `- **${f.reportedChecks} checks** a run reports: the ${f.declaredChecks} the suite files declare (a check declared over variants once per variant) ` +
      `and ${f.runWideChecks} run-wide clauses whose checks the release runs, each judged once over the whole run.`,
    `- **${f.requests} requests** (${f.api} \`/api\`, ${f.oauth} \`/oauth\`, ${f.files} files) and **${f.streams} stream connections**.`,
    `- **${f.ipAccess} calls of the IP access bucket** (its \`/api\` calls and stream connections), of the contract's 300 per 5 minutes: ` +
      `the line is ${IP_ACCESS_LINE} (300 less pacing's reserve), and the exploration's default share is the ${f.exploreShare} the other groups leave of it ` +
      '([exploring](exploring.md)).',
    '| group | checks | requests | /api | /oauth | files | streams | may add |\n|---|---|---|---|---|---|---|---|\n' + rows.join('\n'),
    "## Each step's bound",
    'What each step of a full run makes when all goes well (its calls on every path, streams included, its undo by the ' +
      'ledger and that read included), and what a deviating server may add to them: re-reads, controls, retries, a web ' +
      "sign-in's pages (`mayAddOf` in `suites/support/run/plan.ts`; [a step's worst case](performance.md#a-steps-worst-case)). " +
      "A step starts only when the rate-limit bucket holds both; `--list` shows them for a selection.",
    '| group | step | as | calls | may add |\n|---|---|---|---|---|\n' + stepRows.join('\n'),
  ].join('\n\n')}\n`;
}

/** A sample of a page that shows figures: a pattern whose groups are, in order, these figures. */
interface Stated {
  file: string;
  pattern: RegExp;
  figures: readonly (keyof Omit<RunFigures, 'groups'>)[];
}

/** Every sample of the documentation that shows a figure of a full run (the others link to docs/figures.md). */
const STATED: readonly Stated[] = [
  { file: 'README.md', pattern: /^Conformance: PASS: (\d+) checks, .*; (\d+) requests in /m, figures: ['reportedChecks', 'requests'] },
  { file: 'docs/configuration.md', pattern: /^Conformance: PASS: (\d+) checks, .*; (\d+) requests in /m, figures: ['reportedChecks', 'requests'] },
  { file: 'docs/declaring-checks.md', pattern: /`Plan: (\d+) requests \((\d+)\s+\/api, (\d+) \/oauth, (\d+) files\) and (\d+) stream connections`/, figures: ['requests', 'api', 'oauth', 'files', 'streams'] },
  { file: 'docs/ci-gate.md', pattern: /a full run's spend \((\d+) IP access calls/, figures: ['ipAccess'] },
  { file: 'docs/performance.md', pattern: /^\| the run \| (\d+) \| (\d+) \| (\d*) \| (\d*) \|/m, figures: ['requests', 'api', 'oauth', 'files'] },
  { file: 'docs/configuration.md', pattern: /`\d+\/(\d+) checks judged · /, figures: ['declaredChecks'] },
  // A failing run reports every check too; its requests are its own (a deviating server costs more).
  { file: 'docs/reports.md', pattern: /^Conformance: FAIL: (\d+) checks, /m, figures: ['reportedChecks'] },
  { file: 'docs/live-safety.md', pattern: /^A full run with A and B configured spends (\d+) calls of the IP access bucket/m, figures: ['ipAccess'] },
];

/** "file: what it states, what the plan gives" for every sample that differs from the figures, or that is gone. */
export function misstatedFigures(root: string, f: RunFigures): string[] {
  const problems: string[] = [];
  for (const { file, pattern, figures } of STATED) {
    const match = pattern.exec(readFileSync(join(root, file), 'utf8'));
    if (!match) {
      problems.push(`${file}: no longer shows ${figures.join(', ')} as ${pattern} reads them (figures.ts STATED)`);
      continue;
    }
    figures.forEach((name, i) => {
      const stated = Number(match[i + 1] || 0);
      if (stated !== f[name]) problems.push(`${file}: ${name} ${stated}, the plan gives ${f[name]}`);
    });
  }
  // The budget's table in performance.md: a row per group, its requests and their paths.
  const performance = readFileSync(join(root, 'docs/performance.md'), 'utf8');
  for (const g of f.groups) {
    const row = new RegExp(`^\\| ${g.heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\| (\\d+)[^|]*\\| (\\d*) \\| (\\d*) \\| (\\d*) \\|`, 'm').exec(performance);
    if (!row) continue;
    const stated = row.slice(1, 5).map((cell) => Number(cell || 0));
    const planned = [g.cost.api + g.cost.oauth + g.cost.files, g.cost.api, g.cost.oauth, g.cost.files];
    if (stated.join() !== planned.join()) problems.push(`docs/performance.md: ${g.heading} ${stated.join(', ')} (requests, /api, /oauth, files), the plan gives ${planned.join(', ')}`);
  }
  return problems;
}

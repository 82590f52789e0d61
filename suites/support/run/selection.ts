// The selection of a run (--group, --only, --exclude), read from the checks the suite files declare
// (report/declared-checks.ts) before anything runs: the checks it takes (--list, the progress counter), the files to
// run, and the user's mistakes in it (a name that matches nothing: exit 2), each told with the nearest names there are.
import { CLAUSE_ID } from '../judge/clauses.ts';
import { releaseAtLeast } from '../talk/config.ts';
import type { PathCost } from '../talk/counts.ts';
import { declaredChecks, type ListedRunWide, type ListedStep } from '../report/declared-checks.ts';
import { names, onlyPattern, type Expectation, type IdSelection } from '../report/expectations.ts';

/** The suite file of the generated inputs (docs/exploring.md): --list shows its model, --explore N announces what it adds, and its default share is what the other groups leave (run-plan.ts). */
export const EXPLORE_FILE = 'suites/explore.test.ts';
/** The suite file of the state machine's sequences (docs/state-machine.md), which --explore N gives N requests of their own. */
export const SEQUENCES_FILE = 'suites/statuses-interactions.test.ts';

export interface Selection extends IdSelection {
  /** Group names as given, lower case: a suite file's name without .test.ts, or the name the reports show (groupFiles). */
  groups: readonly string[];
}

/** One check as its suite file declares it, with its group and the steps it needs. */
export interface SelectedCheck {
  file: string;
  group: string;
  title: string;
  /** What it needs from the configuration: "release >= 2.7.0", "CONFORMANCE_TOKEN_B". */
  needs: readonly string[];
  since?: string;
  removedIn?: string;
  /** Its steps and every step they need, in the order of declaration, and what they cost. */
  steps: readonly ListedStep[];
  cost: PathCost;
}

export interface Selected {
  /** The checks the selection takes, in the order of their files and declarations. */
  checks: SelectedCheck[];
  /** The suite files to run (every file where none is named and nothing narrows the selection). */
  run: string[];
  /** The suite files the selection takes no check of: not run, their checks reported as not selected. */
  unselected: string[];
}

/** The selection as given: ids and prefixes match case-insensitively (ids are upper case), groups too (lower case). */
export function selectionOf(flags: { group?: readonly string[]; only?: readonly string[]; exclude?: readonly string[] }): Selection {
  return {
    groups: (flags.group ?? []).map((g) => g.replace(/\.test\.ts$/i, '').toLowerCase()),
    only: (flags.only ?? []).map((p) => p.toUpperCase()),
    exclude: (flags.exclude ?? []).map((p) => p.toUpperCase()),
  };
}

const fileOf = (group: string) => `suites/${group}.test.ts`;
/** A check's clause id, the first word of its title. (Not results.ts's clauseOfTitle: cli.ts loads this module before a run's modules, results.ts among them.) */
const clauseOf = (title: string) => CLAUSE_ID.exec(title)?.[0] ?? 'UNNAMED';
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Every group of the suite: the suites/<group>.test.ts files that declare checks. */
export function suiteGroups(root: string): string[] {
  return [...new Set(declaredChecks(root).map(({ file }) => file.slice('suites/'.length, -'.test.ts'.length)))].sort();
}

/** The name every report and --list show for a group: the heading of its file's section. */
const shownName = (root: string, group: string) => declaredChecks(root).find(({ file }) => file === fileOf(group))?.group ?? group;

/**
 * The names --group takes, lower case, each with its group (a suite file's name): the file's name ("statuses") and the
 * name the reports and --list show ("Statuses", "States and transitions"), with the name as it is written.
 */
export function groupNames(root: string): Map<string, { group: string; written: string }> {
  const named = new Map<string, { group: string; written: string }>();
  for (const group of suiteGroups(root)) {
    named.set(group, { group, written: group });
    const shown = shownName(root, group);
    if (!named.has(shown.toLowerCase())) named.set(shown.toLowerCase(), { group, written: shown });
  }
  return named;
}

/** The suite file of each group the selection names; a name no group has is kept as given (selectionMistake tells it). */
const filesOf = (root: string, groups: readonly string[]) => {
  const named = groupNames(root);
  return [...new Set(groups.map((name) => fileOf(named.get(name)?.group ?? name)))];
};

/** The checks one suite file declares, each with its steps. */
function checksOf(root: string, file: string): SelectedCheck[] {
  return declaredChecks(root)
    .filter((declared) => declared.file === file)
    .flatMap(({ group, steps, checks }) => checks.map(({ steps: own, ...check }) => ({ file, group, ...check, steps: own.map((i) => steps[i] as ListedStep) })));
}

/**
 * The checks and files a selection takes, by their titles: vitest matches its pattern against the full name, the
 * describe titles too, but no id prefix starts a word of one (the one word in capitals, POST, is no id). With
 * --shard every file is run, so that the shards slice the same list.
 */
export function selectedOf(root: string, selection: Selection, sharded = false): Selected {
  const only = onlyPattern(selection.only);
  const exclude = onlyPattern(selection.exclude);
  const files = selection.groups.length ? filesOf(root, selection.groups) : suiteGroups(root).map(fileOf);
  const plan: Selected = { checks: [], run: [], unselected: [] };
  for (const file of files) {
    const taken = checksOf(root, file).filter(({ title }) => (!only || only.test(title)) && !exclude?.test(title));
    plan.checks.push(...taken);
    (taken.length > 0 || sharded ? plan.run : plan.unselected).push(file);
  }
  // No narrowing: the files named, or none (vitest's include runs them all).
  if (!only && !exclude && !sharded) plan.run = selection.groups.length ? files : [];
  return plan;
}

/** The edit distance of two words (Levenshtein): insertions, deletions and substitutions. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length] as number;
}

/** The `count` names nearest to `word`: the smallest edit distance, then the longest common start, then by name. */
export function nearest(word: string, names: Iterable<string>, count = 3): string[] {
  const commonStart = (name: string) => [...word].findIndex((char, i) => name[i] !== char) >>> 0;
  return [...new Set(names)]
    .map((name) => ({ name, distance: editDistance(word, name), common: Math.min(commonStart(name), word.length) }))
    .sort((x, y) => x.distance - y.distance || y.common - x.common || x.name.localeCompare(y.name))
    .slice(0, count)
    .map(({ name }) => name);
}

/** Every id a prefix may name: each clause id of a check and each of its starts at a dash (STATUS, STATUS-READ). */
function idPrefixes(checks: readonly SelectedCheck[]): Set<string> {
  const prefixes = new Set<string>();
  for (const { title } of checks) {
    const id = CLAUSE_ID.exec(title)?.[0];
    id?.split('-').forEach((_, i, parts) => prefixes.add(parts.slice(0, i + 1).join('-')));
  }
  return prefixes;
}

const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');

/**
 * The user's mistake in a selection, as one line, or undefined: a group that does not exist, an id prefix (--only,
 * --exclude) that no check's title takes, or a selection that takes no check at all. A prefix matches a check as
 * --only does (a word of its title starts with it), so the catalogue of a whole run decides, whatever else narrows.
 */
export function selectionMistake(root: string, selection: Selection): string | undefined {
  const named = groupNames(root);
  for (const group of selection.groups) {
    if (named.has(group)) continue;
    // The nearest names as written, the reports' names among them ("States and transitions").
    const shown = nearest(group, named.keys()).map((name) => named.get(name)?.written ?? name);
    return `unknown group "${group}": no ${fileOf(group)}, and no group shows that name; nearest: ${quoted(shown)}`;
  }
  const everyCheck = selectedOf(root, { groups: [], only: [], exclude: [] }).checks;
  for (const [flag, prefixes] of [['--only', selection.only], ['--exclude', selection.exclude]] as const) {
    for (const prefix of prefixes) {
      const pattern = onlyPattern([prefix]) as RegExp;
      if (everyCheck.some(({ title }) => pattern.test(title))) continue;
      return `${flag} "${prefix}" matches no check; nearest ids: ${quoted(nearest(prefix, idPrefixes(everyCheck)))}`;
    }
  }
  if (selectedOf(root, selection).checks.length === 0) return 'the selection (--group, --only, --exclude) takes no check: every check it names is left out by another of its options';
  return undefined;
}

/** The checks a run takes: the planned ones less those the expectations file skips. */
export function withoutSkipped(checks: readonly SelectedCheck[], expectations: readonly Expectation[]): SelectedCheck[] {
  const skips = expectations.filter((e) => e.expect === 'skip');
  return checks.filter(({ title }) => !skips.some((e) => names(e, { clause: clauseOf(title), title })));
}

/** Whether a check runs on a server of `release`, as far as its release range decides; its settings aside. */
export const runsAtRelease = ({ since, removedIn }: Pick<SelectedCheck, 'since' | 'removedIn'>, release: string) =>
  (!since || releaseAtLeast(release, since)) && (!removedIn || !releaseAtLeast(release, removedIn));

/**
 * The run-wide checks a run of `checks` reports (report/run-wide-results.ts): one per run-wide clause whose own check
 * is taken and runs at `release`, counted in that check's group, with its needs.
 */
export function runWideChecks(checks: readonly SelectedCheck[], clauses: readonly ListedRunWide[], release: string): SelectedCheck[] {
  return clauses.flatMap(({ id, sentence }) => {
    const own = checks.find((check) => clauseOf(check.title) === id && runsAtRelease(check, release));
    // Judged over everything the run met: it has no steps of its own.
    return own ? [{ ...own, title: `${id} ${sentence} (run-wide)`, steps: [], cost: { api: 0, oauth: 0, files: 0, streams: 0 } }] : [];
  });
}

/** What steps cost, in a few words: "3 /api, 1 /oauth, 1 stream", or "nothing". */
export function costText(cost: Partial<PathCost>): string {
  const parts = [
    [cost.api, '/api'],
    [cost.oauth, '/oauth'],
    [cost.files, 'files'],
    [cost.streams, cost.streams === 1 ? 'stream' : 'streams'],
  ].flatMap(([n, what]) => (n ? [`${n} ${what}`] : []));
  return parts.join(', ') || 'nothing';
}

/** Every step of the checks, each once (a step several checks need is planned once), and what they cost in all. */
function stepsOfAll(checks: readonly SelectedCheck[]): { steps: number; cost: PathCost; mayAdd: number } {
  const steps = new Set(checks.flatMap((check) => check.steps));
  const cost: PathCost = { api: 0, oauth: 0, files: 0, streams: 0 };
  for (const step of steps) for (const path of Object.keys(cost) as (keyof PathCost)[]) cost[path] += step.cost[path] ?? 0;
  return { steps: steps.size, cost, mayAdd: [...steps].reduce((sum, step) => sum + step.mayAdd, 0) };
}

/**
 * --list, as pytest's --setup-plan shows the fixtures a test will set up: a line per check (clause id, group, needs,
 * what it costs run alone, title) in columns under a heading, each followed by its steps in the order the plan runs
 * them (the account each acts as, what it costs, what a deviating server may add to it); the run-wide checks last; then the steps of the whole selection,
 * each once, and the count of checks, which is a run's.
 */
export function listing(groupChecks: readonly SelectedCheck[], runWide: readonly SelectedCheck[] = []): string[] {
  const checks = [...groupChecks, ...runWide];
  const rows = checks.map(({ title, group, needs, cost }) => {
    const id = clauseOf(title);
    return [id, group, needs.join(', ') || '-', costText(cost), title.slice(id.length).trim()];
  });
  const table = [['CLAUSE', 'GROUP', 'NEEDS', 'COST', 'CHECK'], ...rows];
  const widths = [0, 1, 2, 3].map((column) => Math.max(...table.map((row) => (row[column] as string).length)));
  const line = (row: readonly string[]) => row.map((cell, column) => (column < 4 ? cell.padEnd(widths[column] as number) : cell)).join('  ');
  const stepLines = (check: SelectedCheck) => check.steps.map((step) => `    step: ${step.name} (as ${step.as}; ${costText(step.cost)}; may add ${step.mayAdd})`);
  const groups = new Set(checks.map((c) => c.group)).size;
  const all = stepsOfAll(groupChecks);
  return [
    line(table[0] as string[]),
    ...checks.flatMap((check, i) => [line(rows[i] as string[]), ...stepLines(check)]),
    `${counted(all.steps, 'step')}, each run once: ${costText(all.cost)}; a deviating server may add at most ${all.mayAdd} calls`,
    `${counted(checks.length, 'check')} in ${counted(groups, 'group')}${runWide.length ? `: ${groupChecks.length} of the ${groups === 1 ? "group's" : "groups'"} own and ${runWide.length} run-wide (one per run-wide clause whose check runs, judged over every group and counted in its check's group), as a run counts them` : ''}`,
  ];
}

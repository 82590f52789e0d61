// The results of one run, as the reporter collects them, and the text reports made from them:
// results.json (everything), junit.xml (CI systems) and summary.md (a CI job summary).
import type { LeftBehind } from './cleanup.ts';
import { causeLabel, CLAUSE_ID, findClause, type FailureData, type RootCause, type Severity } from './clauses.ts';
import type { Counts } from './counts.ts';
import type { Expectation, JudgedExpectation, Outcome } from './expectations.ts';
import { RELEASE_SKIP_MARK } from './preconditions.ts';
import { redact } from './redact.ts';

/**
 * blocked: the check's precondition did not hold on the server, so its own clause could not be judged.
 * not-judged: nothing failed, yet the run met no instance of what the check judges. A pass judged at least one.
 */
export type CheckStatus = 'passed' | 'failed' | 'blocked' | 'not-judged' | 'skipped';

export interface CheckResult {
  /** The clause the check names in its title. */
  clause: string;
  title: string;
  group: string;
  file: string;
  /** Line of the check in its file, for CI annotations. */
  line?: number;
  /** What the check itself did. */
  status: CheckStatus;
  /** What that means for the run, after severity and the expectations file. */
  outcome: Outcome;
  /** Severity of the clause the check (or its failure) names: a SHOULD failure is a warning. */
  severity: Severity;
  durationMs: number;
  /** The clause the failure names: the check's own, or the run-wide clause its owning check reports. */
  failedClause?: string;
  /** The failure as data: expected, actual, the exchange and its curl line. */
  failure?: FailureData;
  message?: string;
  /** Why a blocked check could not be judged: the root cause, with the exchange that showed it. */
  blockedBy?: RootCause;
  /** How many instances the check judged (responses, resources, verifications that held). */
  judged?: number;
  /** What went unseen, for a check that is not judged. */
  notJudged?: string;
  /** The curl command of the failure message, ready to paste (secrets are environment variable names). */
  reproduce?: string;
  skipReason?: string;
  /** The entry of the expectations file about this check. */
  expectation?: Expectation;
  observations: string[];
}

export interface Totals {
  checks: number;
  passed: number;
  /** Failures that fail the run: MUST clauses, not expected. */
  failed: number;
  /** SHOULD clauses that failed: reported, the run still passes. */
  warnings: number;
  expectedFailures: number;
  unexpectedPasses: number;
  /** Checks that could not be judged: their precondition failed. Counted apart; they do not fail the run. */
  blocked: number;
  /** Checks that met nothing to judge while nothing failed: counted apart, not passed; they do not fail the run. */
  notJudged: number;
  skipped: number;
}

export interface GroupResult extends Totals {
  name: string;
  file: string;
  durationMs: number;
  /** The group's own requests, cleanup included: where a run's budget goes. */
  counts?: Counts;
  /** Errors that are no check's: a suite file that could not load, a hook that threw. */
  errors: string[];
}

export interface RunResults {
  /** PASS or FAIL: what the CLI's exit code says. */
  verdict: 'PASS' | 'FAIL';
  server: { baseUrl: string; embedded: boolean; version: string; faults: string[] };
  startedAt: string;
  durationMs: number;
  totals: Totals;
  groups: GroupResult[];
  checks: CheckResult[];
  expectations: { file?: string; allowUnexpectedPass: boolean; entries: JudgedExpectation[] };
  counts: Counts;
  /** What the run created and could not undo (or cannot: applications), with why: the true count. */
  leftovers: LeftBehind[];
  /** Errors outside any check (unhandled rejections...): each fails the run. */
  errors: string[];
}

export function clauseOfTitle(title: string): string {
  return CLAUSE_ID.exec(title)?.[0] ?? 'UNNAMED';
}

/** Severity of the clause a check (or its failure) names; checks of unknown clauses count as MUST. */
export function severityOf(clauseId: string): Severity {
  return findClause(clauseId)?.severity ?? 'MUST';
}

export function totalsOf(checks: readonly Pick<CheckResult, 'outcome'>[]): Totals {
  const count = (outcome: Outcome) => checks.filter((c) => c.outcome === outcome).length;
  return {
    checks: checks.length,
    passed: count('passed'),
    failed: count('failed'),
    warnings: count('warning'),
    expectedFailures: count('expected-failure'),
    unexpectedPasses: count('unexpectedly-passing'),
    blocked: count('blocked'),
    notJudged: count('not-judged'),
    skipped: count('skipped'),
  };
}

export function runVerdict(results: Pick<RunResults, 'totals' | 'errors' | 'groups' | 'expectations'>): RunResults['verdict'] {
  const failed =
    results.totals.failed > 0 ||
    results.errors.length > 0 ||
    results.groups.some((g) => g.errors.length > 0) ||
    (results.totals.unexpectedPasses > 0 && !results.expectations.allowUnexpectedPass);
  return failed ? 'FAIL' : 'PASS';
}

/** The checks skipped because of the configured release (CONFORMANCE_SERVER_VERSION): too early for them, or removed by it. */
export function releaseSkips(results: Pick<RunResults, 'checks'>): number {
  return results.checks.filter((c) => c.outcome === 'skipped' && (c.skipReason ?? '').includes(RELEASE_SKIP_MARK)).length;
}

/** What the configured release did to the run, in one sentence. */
function releaseLine(results: Pick<RunResults, 'checks' | 'server'>): string {
  const skipped = releaseSkips(results);
  return `Release ${results.server.version} (CONFORMANCE_SERVER_VERSION, the release of this API the server implements): ${skipped} check${skipped === 1 ? '' : 's'} skipped for it`;
}

/** One line of totals, in the order of the report: "12 passed, 1 failed, 2 skipped". */
export function totalsLine(t: Totals): string {
  const parts: Array<[number, string]> = [
    [t.passed, 'passed'],
    [t.failed, 'failed'],
    [t.warnings, t.warnings === 1 ? 'warning' : 'warnings'],
    [t.expectedFailures, t.expectedFailures === 1 ? 'expected failure' : 'expected failures'],
    [t.unexpectedPasses, 'unexpectedly passing'],
    [t.blocked, 'blocked'],
    [t.notJudged, 'not judged'],
    [t.skipped, 'skipped'],
  ];
  // passed, failed and skipped always show, so a glance finds them in the same place.
  return parts.filter(([n, label], i) => n > 0 || i === 0 || i === 1 || label === 'skipped').map(([n, label]) => `${n} ${label}`).join(', ');
}

/** Result of one clause over the checks that name it; the worst one wins. */
export type ClauseResult = Outcome | 'not run';
const WORST_FIRST: readonly ClauseResult[] = ['failed', 'unexpectedly-passing', 'warning', 'expected-failure', 'passed', 'blocked', 'not-judged', 'skipped'];

/** Each clause's result and the checks behind it; a failure that names another clause counts for both. */
export function clauseResults(checks: readonly CheckResult[]): Map<string, { result: ClauseResult; checks: CheckResult[] }> {
  const byClause = new Map<string, CheckResult[]>();
  for (const check of checks) {
    const ids = new Set([check.clause, ...(check.status === 'failed' && check.failedClause ? [check.failedClause] : [])]);
    for (const id of ids) byClause.set(id, [...(byClause.get(id) ?? []), check]);
  }
  const results = new Map<string, { result: ClauseResult; checks: CheckResult[] }>();
  for (const [id, list] of byClause) {
    const result = WORST_FIRST.find((outcome) => list.some((c) => c.outcome === outcome)) ?? 'not run';
    results.set(id, { result, checks: list });
  }
  return results;
}

const xml = (s: string) =>
  s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A check as a JUnit testcase: only what fails the run is a <failure>; expected failures are <skipped>. */
function junitCase(c: CheckResult, group: string, allowUnexpectedPass: boolean): string {
  const open = `    <testcase classname="${xml(group)}" name="${xml(c.title)}" time="${(c.durationMs / 1000).toFixed(3)}"`;
  const firstLine = (c.message ?? '').split('\n')[0] ?? '';
  switch (c.outcome) {
    case 'failed':
      return `${open}>\n      <failure message="${xml(firstLine)}" type="${xml(c.failedClause ?? c.clause)}">${xml(c.message ?? '')}</failure>\n    </testcase>`;
    case 'unexpectedly-passing': {
      const why = `unexpectedly passing: the expectations file says it fails (${c.expectation?.reason ?? ''})`;
      return allowUnexpectedPass
        ? `${open}>\n      <system-out>${xml(why)}</system-out>\n    </testcase>`
        : `${open}>\n      <failure message="${xml(why)}" type="unexpectedly-passing">${xml(why)}</failure>\n    </testcase>`;
    }
    case 'expected-failure':
      return `${open}>\n      <skipped message="${xml(`expected failure: ${c.expectation?.reason ?? ''}`)}"/>\n      <system-out>${xml(c.message ?? '')}</system-out>\n    </testcase>`;
    case 'warning':
      return `${open}>\n      <system-out>${xml(`WARNING (SHOULD clause ${c.failedClause ?? c.clause}): ${c.message ?? ''}`)}</system-out>\n    </testcase>`;
    case 'blocked':
      return `${open}>\n      <skipped message="${xml(`blocked by ${c.blockedBy ? causeLabel(c.blockedBy) : 'a failed precondition'}`)}"/>${c.blockedBy?.exchange ? `\n      <system-out>${xml(c.blockedBy.exchange)}</system-out>` : ''}\n    </testcase>`;
    case 'not-judged':
      return `${open}>\n      <skipped message="${xml(`not judged: ${c.notJudged ?? ''}`)}"/>\n    </testcase>`;
    case 'skipped':
      return `${open}>\n      <skipped message="${xml(c.skipReason ?? '')}"/>\n    </testcase>`;
    default:
      return `${open}/>`;
  }
}

export function junitXml(results: RunResults): string {
  const allow = results.expectations.allowUnexpectedPass;
  const failing = (g: Totals) => g.failed + (allow ? 0 : g.unexpectedPasses);
  const suites = results.groups.map((group) => {
    const checks = results.checks.filter((c) => c.file === group.file);
    const cases = checks.map((c) => junitCase(c, group.name, allow));
    const errors = group.errors.map((e, i) => `    <testcase classname="${xml(group.name)}" name="${xml(`${group.name} could not run (${i + 1})`)}">\n      <error message="${xml(e.split('\n')[0] ?? '')}">${xml(e)}</error>\n    </testcase>`);
    const skipped = group.skipped + group.blocked + group.notJudged + group.expectedFailures;
    return `  <testsuite name="${xml(group.name)}" tests="${checks.length + errors.length}" failures="${failing(group)}" errors="${group.errors.length}" skipped="${skipped}" time="${(group.durationMs / 1000).toFixed(3)}">\n${[...cases, ...errors].join('\n')}\n  </testsuite>`;
  });
  const t = results.totals;
  return redact(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="social-api-conformance" tests="${t.checks}" failures="${failing(t)}" skipped="${t.skipped + t.blocked + t.notJudged + t.expectedFailures}" time="${(results.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`);
}

export interface BlockedGroup {
  /** The root cause the checks name, as one line: "STATUS-MUTE-1 (mute answered HTTP 404)". */
  label: string;
  cause: RootCause;
  checks: CheckResult[];
}

/** Blocked checks under their root cause, the cause that blocks most first: a reader sees each cause once. */
export function blockedByCause(checks: readonly CheckResult[]): BlockedGroup[] {
  const groups = new Map<string, BlockedGroup>();
  for (const c of checks) {
    if (c.outcome !== 'blocked' || !c.blockedBy) continue;
    const label = causeLabel(c.blockedBy);
    const group = groups.get(label) ?? { label, cause: c.blockedBy, checks: [] };
    group.checks.push(c);
    groups.set(label, group);
  }
  return [...groups.values()].sort((x, y) => y.checks.length - x.checks.length || x.label.localeCompare(y.label));
}

const checksCount = (n: number) => `${n} check${n === 1 ? '' : 's'}`;

/** Checks grouped by the clause their failure names, sorted by clause id. */
function byFailedClause(checks: readonly CheckResult[]): Array<[string, CheckResult[]]> {
  const byClause = new Map<string, CheckResult[]>();
  for (const c of checks) byClause.set(c.failedClause ?? c.clause, [...(byClause.get(c.failedClause ?? c.clause) ?? []), c]);
  return [...byClause].sort(([x], [y]) => x.localeCompare(y));
}

const fence = (text: string) => `\`\`\`\n${text.replace(/```/g, "'''")}\n\`\`\``;

function failureSection(heading: string, checks: readonly CheckResult[], note: (c: CheckResult) => string): string[] {
  if (checks.length === 0) return [];
  const lines = [`## ${heading}`, ''];
  for (const [id, list] of byFailedClause(checks)) {
    const words = findClause(id)?.words;
    lines.push(`### ${id}${words ? `: ${words}` : ''}`, '');
    for (const c of list) {
      lines.push(`<details><summary>${c.title.replace(/</g, '&lt;')}${note(c)}</summary>`, '', fence(c.message ?? ''), '', '</details>', '');
    }
  }
  return lines;
}

export function summaryMarkdown(results: RunResults): string {
  const t = results.totals;
  const lines = [
    `# Conformance: ${results.verdict}`,
    '',
    `Server: ${results.server.baseUrl}${results.server.embedded ? ' (embedded reference server)' : ''}, release ${results.server.version}${results.server.faults.length ? `, faults ${results.server.faults.join(', ')}` : ''}`,
    '',
    `${releaseLine(results)}.`,
    '',
    '| checks | passed | failed | warnings | expected failures | unexpectedly passing | blocked | not judged | skipped | requests | duration |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${t.checks} | ${t.passed} | ${t.failed} | ${t.warnings} | ${t.expectedFailures} | ${t.unexpectedPasses} | ${t.blocked} | ${t.notJudged} | ${t.skipped} | ${results.counts.total} | ${(results.durationMs / 1000).toFixed(1)} s |`,
    '',
  ];
  lines.push(...failureSection('Failures by clause', results.checks.filter((c) => c.outcome === 'failed'), () => ''));
  const unexpected = results.expectations.entries.filter((e) => e.state === 'unexpectedly passing');
  if (unexpected.length > 0) {
    const consequence = results.expectations.allowUnexpectedPass ? 'allowed by --allow-unexpected-pass' : 'this fails the run: remove them from the expectations file';
    lines.push('## Unexpectedly passing', '', `Listed as failing in the expectations file, but they pass (${consequence}):`, '');
    for (const e of unexpected) lines.push(`- **${e.check}**: ${e.reason}`);
    lines.push('');
  }
  lines.push(...failureSection('Warnings (SHOULD clauses)', results.checks.filter((c) => c.outcome === 'warning'), () => ''));
  lines.push(...failureSection('Expected failures', results.checks.filter((c) => c.outcome === 'expected-failure'), (c) => ` (expected: ${c.expectation?.reason ?? ''})`));
  if (results.errors.length > 0 || results.groups.some((g) => g.errors.length > 0)) {
    lines.push('## Errors outside checks', '');
    for (const e of [...results.errors, ...results.groups.flatMap((g) => g.errors)]) lines.push(`- ${e.split('\n')[0]}`);
    lines.push('');
  }
  const blocked = blockedByCause(results.checks);
  if (blocked.length > 0) {
    lines.push('## Blocked (cannot judge)', '', 'A precondition of these checks did not hold on the server, so their own clauses could not be judged. They do not fail the run; the root cause is a failure (or something outside the contract) of its own.', '');
    for (const group of blocked) {
      lines.push(`### ${checksCount(group.checks.length)} blocked by ${group.label}`, '');
      if (group.cause.exchange) lines.push(fence(group.cause.exchange), '');
      for (const c of group.checks) lines.push(`- ${c.title}`);
      lines.push('');
    }
  }
  const unjudged = results.checks.filter((c) => c.outcome === 'not-judged');
  if (unjudged.length > 0) {
    lines.push('## Not judged', '', 'Nothing failed, yet the run met nothing these checks judge: they are not passed (a pass judged at least one instance). They do not fail the run.', '');
    for (const c of unjudged) lines.push(`- ${c.title}: ${c.notJudged ?? 'nothing was judged'}`);
    lines.push('');
  }
  const skipped = results.checks.filter((c) => c.outcome === 'skipped');
  if (skipped.length > 0) {
    lines.push('## Skipped', '');
    for (const c of skipped) lines.push(`- ${c.title}: ${c.skipReason ?? 'skipped'}`);
    lines.push('');
  }
  const c = results.counts;
  lines.push(
    '## Requests',
    '',
    `${c.total} requests; per account: ${Object.entries(c.perAccount).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; per bucket: ${Object.entries(c.perBucket).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}.`,
    `Status creations ${c.statusCreations}, scheduled statuses ${c.scheduledStatuses}, deletions and unreblogs ${c.deletions}, uploads ${c.uploads}, stream connections ${c.streamConnections}.`,
    '',
    ...leftBehindSection(results.leftovers),
  );
  return redact(lines.join('\n'));
}

/** One object left behind as a line of text: "attachment 7 of A: no undo operation on this server: ...". */
export function leftBehindLine(entry: LeftBehind): string {
  return `${entry.kind} ${entry.id}${entry.owner ? ` of ${entry.owner}` : ''}: ${entry.why}`;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** summary.md's list of what the run could not undo: the true count, then one row per object. */
function leftBehindSection(leftovers: readonly LeftBehind[]): string[] {
  const lines = [`## Objects left behind: ${leftovers.length}`, ''];
  if (leftovers.length === 0) return [...lines, 'Everything the run created was undone.', ''];
  lines.push('What the run created and could not undo: remove it by hand, or leave it (applications cannot be deleted through the contract).', '');
  lines.push('| kind | id | owner | why |', '|---|---|---|---|');
  for (const e of leftovers) lines.push(`| ${cell(e.kind)} | ${cell(e.id)} | ${cell(e.owner)} | ${cell(e.why)} |`);
  return [...lines, ''];
}

/** The terminal lists this many objects left behind; summary.md and the other reports list them all. */
const LEFT_BEHIND_SHOWN = 20;

/** The end of the terminal output (and of a CI log): verdict, totals, and what to look at. */
export function terminalSummary(results: RunResults): string {
  const lines = [
    `Conformance: ${results.verdict}: ${results.totals.checks} checks, ${totalsLine(results.totals)}; ${results.counts.total} requests in ${(results.durationMs / 1000).toFixed(1)} s`,
    releaseLine(results),
  ];
  const list = (heading: string, checks: readonly CheckResult[]) => {
    if (checks.length === 0) return;
    lines.push(`${heading}:`);
    for (const [id, group] of byFailedClause(checks)) lines.push(`  ${id}: ${group.map((c) => c.title).join('; ')}`);
  };
  list('Failures by clause', results.checks.filter((c) => c.outcome === 'failed'));
  list('Warnings (SHOULD clauses)', results.checks.filter((c) => c.outcome === 'warning'));
  list('Expected failures', results.checks.filter((c) => c.outcome === 'expected-failure'));
  for (const e of results.expectations.entries.filter((e) => e.state === 'unexpectedly passing')) {
    lines.push(`Unexpectedly passing${results.expectations.allowUnexpectedPass ? ' (allowed)' : ''}: ${e.check}: the expectations file says it fails (${e.reason})`);
  }
  for (const e of [...results.errors, ...results.groups.flatMap((g) => g.errors)]) lines.push(`Error outside checks: ${e.split('\n')[0]}`);
  for (const group of blockedByCause(results.checks)) lines.push(`Blocked: ${checksCount(group.checks.length)} by ${group.label}`);
  for (const c of results.checks.filter((c) => c.outcome === 'not-judged')) lines.push(`Not judged: ${c.title}: ${c.notJudged ?? 'nothing was judged'}`);
  const skipped = results.checks.filter((c) => c.outcome === 'skipped');
  if (skipped.length) {
    const reasons = new Map<string, number>();
    for (const c of skipped) reasons.set(c.skipReason ?? 'skipped', (reasons.get(c.skipReason ?? 'skipped') ?? 0) + 1);
    lines.push(`Skipped: ${[...reasons].map(([reason, n]) => `${n} × ${reason}`).join('; ')}`);
  }
  lines.push(`Objects left behind: ${results.leftovers.length}`);
  for (const e of results.leftovers.slice(0, LEFT_BEHIND_SHOWN)) lines.push(`  ${leftBehindLine(e)}`);
  if (results.leftovers.length > LEFT_BEHIND_SHOWN) lines.push(`  ... and ${results.leftovers.length - LEFT_BEHIND_SHOWN} more in summary.md`);
  return redact(lines.join('\n'));
}

/** GitHub Actions workflow commands escape %, CR and LF in messages, and also , and : in properties. */
const ghData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const ghProperty = (s: string) => ghData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One ::error (or ::warning) line per check that needs a person's eye, for GitHub Actions. */
export function githubAnnotations(results: RunResults): string[] {
  const annotate = (level: 'error' | 'warning', c: CheckResult, message: string) =>
    `::${level} file=${ghProperty(c.file)}${c.line ? `,line=${c.line}` : ''},title=${ghProperty(c.failedClause ?? c.clause)}::${ghData(message)}`;
  const lines: string[] = [];
  for (const c of results.checks) {
    if (c.outcome === 'failed') lines.push(annotate('error', c, `${c.title}\n${c.message ?? ''}`));
    if (c.outcome === 'warning') lines.push(annotate('warning', c, `SHOULD: ${c.title}\n${c.message ?? ''}`));
    if (c.outcome === 'unexpectedly-passing') {
      const level = results.expectations.allowUnexpectedPass ? 'warning' : 'error';
      lines.push(annotate(level, c, `unexpectedly passing: ${c.title}; the expectations file says it fails (${c.expectation?.reason ?? ''}): remove the entry`));
    }
  }
  for (const e of [...results.errors, ...results.groups.flatMap((g) => g.errors)]) lines.push(`::error title=conformance::${ghData(e)}`);
  return lines.map(redact);
}

// The results of one run, as the reporter collects them, and the text reports made from them:
// results.json (everything), junit.xml (CI systems) and summary.md (a CI job summary).
import type { LeftBehind } from '../judge/cleanup.ts';
import { causeLabel, CLAUSE_ID, findClause, type FailureData, type Guard, type RootCause, type Severity } from '../judge/clauses.ts';
import type { Counts } from '../talk/counts.ts';
import type { Expectation, JudgedExpectation, Outcome } from './expectations.ts';
import { RELEASE_SKIP_MARK } from '../judge/preconditions.ts';
import { redact } from '../talk/redact.ts';

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
  /**
   * An error of the suite beside a check not judged: its block named a cause that held nowhere in the run (unheldBlocks),
   * so the suite, not the server, went wrong there. Reported, to be reported to us; it decides no verdict.
   */
  suiteError?: string;
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
  /** timeoutMs: CONFORMANCE_TIMEOUT_MS of the run, for the advice of timingLine. */
  server: { baseUrl: string; embedded: boolean; version: string; faults: string[]; timeoutMs?: number };
  startedAt: string;
  durationMs: number;
  totals: Totals;
  /** What to fix first: every failed clause and every cause outside the contract; access control, visibility and ownership first, then the one that blocks most checks. */
  rootCauses: RankedCause[];
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
const worstOf = (list: readonly CheckResult[]): ClauseResult => WORST_FIRST.find((outcome) => list.some((c) => c.outcome === outcome)) ?? 'not run';

export interface ClauseTile {
  /** The worst outcome of the clause's own checks and of the failures other checks filed under it. */
  result: ClauseResult;
  /** The clause's own checks, then the checks of other clauses whose failure names it. */
  checks: CheckResult[];
  /** The result comes from a failure another check filed under this clause: its own checks did better. */
  filedByOthers: boolean;
  /** Checks blocked naming this clause. */
  blocks: number;
}

/**
 * What each clause's tile shows (report.html, the matrix): the outcome of its own checks, with the failures that
 * checks of other clauses filed under it counted there as well (the deviation is this clause's), and the number of
 * checks it blocks when it is a cause of blocks, so that a cause never looks plainly green (a clause blocked in one
 * check may pass another and still block checks).
 */
export function clauseResults(checks: readonly CheckResult[]): Map<string, ClauseTile> {
  const own = new Map<string, CheckResult[]>();
  const filed = new Map<string, CheckResult[]>();
  for (const check of checks) {
    own.set(check.clause, [...(own.get(check.clause) ?? []), check]);
    if (check.status === 'failed' && check.failedClause && check.failedClause !== check.clause) {
      filed.set(check.failedClause, [...(filed.get(check.failedClause) ?? []), check]);
    }
  }
  const blocks = new Map<string, number>();
  for (const c of checks) if (c.status === 'blocked' && c.blockedBy?.clause) blocks.set(c.blockedBy.clause, (blocks.get(c.blockedBy.clause) ?? 0) + 1);
  const tiles = new Map<string, ClauseTile>();
  for (const id of new Set([...own.keys(), ...filed.keys(), ...blocks.keys()])) {
    const mine = own.get(id) ?? [];
    const others = filed.get(id) ?? [];
    const result = worstOf([...mine, ...others]);
    tiles.set(id, { result, checks: [...mine, ...others], filedByOthers: result !== worstOf(mine), blocks: blocks.get(id) ?? 0 });
  }
  return tiles;
}

type Judged = Pick<CheckResult, 'clause' | 'status' | 'failedClause'>;

/** The clauses that can be the cause of a block in this run: a check failed under them, or one of their own checks was blocked. */
export function heldCauses(checks: readonly Judged[]): Set<string> {
  return new Set(checks.flatMap((c) => (c.status === 'failed' ? [c.failedClause ?? c.clause] : c.status === 'blocked' ? [c.clause] : [])));
}

/** The skip reason of a check that --only left out. */
export const NOT_SELECTED = 'not selected (--only)';
const EXPECTATIONS_SKIP = 'expectations file: ';
/** A skip that leaves a clause's verdict to another run: not selected, skipped by the expectations file, another release. */
const leftToAnotherRun = (c: CheckResult) => c.skipReason === NOT_SELECTED || (c.skipReason ?? '').startsWith(EXPECTATIONS_SKIP) || (c.skipReason ?? '').includes(RELEASE_SKIP_MARK);

/**
 * The invariant of blocks: a check is blocked only by a clause that failed (or was itself blocked) in the same run,
 * or by a cause outside the contract. A block naming a clause that passed, that did not run though it was selected,
 * or that the catalogue lacks, is an error of the suite: one line per such check, naming it and its cause. A clause
 * whose checks are not in the run at all (another group, another shard) or were left to another run cannot tell.
 */
export function unheldBlocks(checks: readonly CheckResult[]): Array<{ check: CheckResult; error: string }> {
  const held = heldCauses(checks);
  return checks.flatMap((check) => {
    const id = check.blockedBy?.clause;
    if (check.status !== 'blocked' || !check.blockedBy || !id || held.has(id)) return [];
    const ofCause = checks.filter((c) => c.clause === id);
    const passed = ofCause.find((c) => c.status === 'passed');
    const why = !findClause(id)
      ? `${id} is no clause of the catalogue`
      : passed
        ? `${id} passed in this run (${passed.title})`
        : ofCause.length > 0 && ofCause.every((c) => c.status === 'skipped' && !leftToAnotherRun(c))
          ? `${id} did not run (${ofCause.map((c) => c.skipReason ?? 'skipped').join('; ')})`
          : undefined;
    if (!why) return [];
    return [{ check, error: `internal error of the conformance suite: ${check.title} is blocked by ${causeLabel(check.blockedBy)}, but ${why}: a check may be blocked only by a clause that failed or was blocked in the same run (please report it with reports/results.json)` }];
  });
}

/**
 * The checks as the reports give them: a check whose block names a cause that did not hold (unheldBlocks) is not
 * judged, with the error of the suite beside it. The suite went wrong there, not the server: the check decides
 * nothing, and its error decides neither the server's verdict nor the exit code (runVerdict); every report lists it
 * and asks for it to be reported. Judged again from the blocks themselves, so that merged shards are judged as one run.
 */
export function withSuiteErrors(checks: readonly CheckResult[]): CheckResult[] {
  const asBlocked = checks.map((c) => {
    if (!c.suiteError) return c;
    const { suiteError: _error, notJudged: _unseen, ...blocked } = c;
    return { ...blocked, status: 'blocked', outcome: 'blocked' } satisfies CheckResult;
  });
  const unheld = new Map(unheldBlocks(asBlocked).map((u) => [u.check, u.error]));
  return asBlocked.map((c) => {
    const error = unheld.get(c);
    if (!error || !c.blockedBy) return c;
    const notJudged = `blocked by ${causeLabel(c.blockedBy)}, a cause that held nowhere in this run: an error of the suite, not of the server`;
    return { ...c, status: 'not-judged', outcome: 'not-judged', notJudged, suiteError: error };
  });
}

/** The errors of the suite beside checks not judged (withSuiteErrors): reported, to be reported to us; they fail nothing. */
export const suiteErrorsOf = (results: Pick<RunResults, 'checks'>): string[] => results.checks.flatMap((c) => (c.suiteError ? [c.suiteError] : []));

/** What the reports say of the errors of the suite beside checks, once. */
export const SUITE_ERRORS_SAID =
  'Beside checks not judged: the suite blocked them by a clause that held nowhere in this run. An error of the suite, not of the server: it decides neither the verdict nor the exit code. Please report it to the suite (with reports/results.json).';

/** One root cause of the run: a failed clause, a clause named by blocks, or a cause outside the contract. */
export interface RankedCause {
  /** The clause; absent for a cause outside the contract. */
  clause?: string;
  /** "STATUS-CREATE-4", or "outside the contract: ...". */
  label: string;
  /** The worst outcome of the failures under the clause (failed, warning, expected failure); none when it only blocks. */
  outcome?: Outcome;
  /** A clause that did not fail but whose own check was blocked: that check's cause ("OAUTH-TOKEN-1"). */
  ownCheckBlockedBy?: string;
  /** Checks blocked naming it. */
  blocks: number;
  /** One line: what showed it (the failure's expected and actual, or the first block's summary). */
  evidence: string;
  /** The curl line that shows it (secrets are environment variable names). */
  reproduce?: string;
  /** What the clause guards (the catalogue's `guards`): such a cause is ranked first, whatever it blocks. */
  guards?: Guard;
}

const EVIDENCE_CHARS = 240;
const oneLine = (s: string) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > EVIDENCE_CHARS ? `${flat.slice(0, EVIDENCE_CHARS - 1)}…` : flat;
};

/** What a failed check shows in one line: its failure's expected and actual, or its message's first line. */
function evidenceOf(check: CheckResult): string {
  if (check.failure) return oneLine(`expected ${check.failure.expected}; actual ${check.failure.actual}`);
  return oneLine((check.message ?? '').split('\n')[0] ?? '');
}

/**
 * The root causes, ranked by what a failure means, then by what it keeps from being judged: first the clauses of
 * access control, visibility and ownership (the catalogue's `guards`: a caller did or saw what is not theirs), then
 * the rest, the one that blocks most checks first. Every clause that failed (whatever the expectations file and its
 * severity make of it), every clause that blocks checks, and every cause outside the contract. A blocked check counts for the cause it names, never further along a chain: a block names the clause
 * whose operation was seen not doing what the check needs, so that clause is what needs fixing, even when its own
 * check was blocked by another cause (a server that refuses the broad scopes of the configured tokens blocks the
 * checks that create with them, whatever blocked the scope check itself). Such a clause says which cause blocked its check.
 */
export function rankRootCauses(checks: readonly CheckResult[]): RankedCause[] {
  const failures = new Map<string, CheckResult>();
  for (const c of checks) {
    if (c.status !== 'failed') continue;
    const id = c.failedClause ?? c.clause;
    const first = failures.get(id);
    if (!first || (first.outcome !== 'failed' && c.outcome === 'failed')) failures.set(id, c);
  }
  const blockedOwn = new Map<string, RootCause>();
  for (const c of checks) if (c.status === 'blocked' && c.blockedBy && c.blockedBy.clause !== c.clause && !blockedOwn.has(c.clause)) blockedOwn.set(c.clause, c.blockedBy);
  const ranked = new Map<string, RankedCause>();
  for (const [id, check] of failures) {
    const outcome = WORST_FIRST.find((o) => checks.some((c) => c.status === 'failed' && (c.failedClause ?? c.clause) === id && c.outcome === o)) as Outcome;
    ranked.set(id, { clause: id, label: id, outcome, blocks: 0, evidence: evidenceOf(check), ...(check.reproduce ? { reproduce: check.reproduce } : {}) });
  }
  for (const c of checks) {
    if (c.status !== 'blocked' || !c.blockedBy) continue;
    const cause = c.blockedBy;
    const key = cause.clause ?? causeLabel(cause);
    const own = cause.clause ? blockedOwn.get(cause.clause) : undefined;
    const entry = ranked.get(key) ?? {
      ...(cause.clause ? { clause: cause.clause } : {}),
      label: key,
      ...(own ? { ownCheckBlockedBy: own.clause ?? causeLabel(own) } : {}),
      blocks: 0,
      evidence: oneLine(cause.summary),
      ...(cause.reproduce ? { reproduce: cause.reproduce } : {}),
    };
    entry.blocks += 1;
    ranked.set(key, entry);
  }
  for (const entry of ranked.values()) {
    const guards = entry.clause ? findClause(entry.clause)?.guards : undefined;
    if (guards) entry.guards = guards;
  }
  const rank = (r: RankedCause) => (r.outcome ? WORST_FIRST.indexOf(r.outcome) : WORST_FIRST.length);
  const guardedFirst = (r: RankedCause) => (r.guards ? 0 : 1);
  return [...ranked.values()].sort((x, y) => guardedFirst(x) - guardedFirst(y) || y.blocks - x.blocks || rank(x) - rank(y) || x.label.localeCompare(y.label));
}

const OUTCOME_WORDS: Partial<Record<Outcome, string>> = { failed: 'failed', warning: 'warning', 'expected-failure': 'expected failure', 'unexpectedly-passing': 'unexpectedly passing' };

/** How a root cause stands in the run, in a few words: "failed", "its own check blocked by OAUTH-TOKEN-1". */
export function causeState(r: RankedCause): string | undefined {
  const state = r.outcome ? (OUTCOME_WORDS[r.outcome] ?? r.outcome) : r.ownCheckBlockedBy ? `its own check blocked by ${r.ownCheckBlockedBy}` : undefined;
  const guarded = r.guards && `${r.guards}`;
  return [state, guarded].filter(Boolean).join(', ') || undefined;
}

/** A root cause as one line: "STATUS-CREATE-4 (failed), blocks 18 checks: expected ...; actual ...". */
export function rootCauseLine(r: RankedCause): string {
  const state = causeState(r);
  // A cause outside the contract carries its evidence in its label already.
  return `${r.label}${state ? ` (${state})` : ''}, blocks ${checksCount(r.blocks)}${r.clause ? `: ${r.evidence}` : ''}`;
}

/** A group that judged nothing: every check blocked or skipped. It has its own mark, never a green tick. */
export function judgedNothing(t: Totals): boolean {
  return t.passed + t.failed + t.warnings + t.expectedFailures + t.unexpectedPasses === 0;
}

/** A group's mark in every report: ✗ something fails the run, ○ nothing was judged, ✓ it passed. */
export function groupMark(g: GroupResult): { mark: '✗' | '○' | '✓'; meaning: string } {
  if (g.failed > 0 || g.unexpectedPasses > 0 || g.errors.length > 0) return { mark: '✗', meaning: 'failed' };
  if (judgedNothing(g)) return { mark: '○', meaning: 'nothing judged' };
  return { mark: '✓', meaning: 'passed' };
}

/** A group's name and totals: "Statuses: 20 passed, 1 failed, 3 skipped", ": nothing judged" when so. */
export function groupText(g: GroupResult): string {
  const errors = g.errors.length ? `, ${g.errors.length} error${g.errors.length > 1 ? 's' : ''}` : '';
  return `${g.name}: ${totalsLine(g)}${errors}${judgedNothing(g) ? ': nothing judged' : ''}`;
}

/** A group as one line of text, its mark first: "○ Authentication: 0 passed, 0 failed, 11 blocked, 0 skipped: nothing judged". */
export function groupLine(g: GroupResult): string {
  return `${groupMark(g).mark} ${groupText(g)}`;
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
      return `${open}>\n      <skipped message="${xml(`not judged: ${c.notJudged ?? ''}`)}"/>${c.suiteError ? `\n      <system-err>${xml(c.suiteError)}</system-err>` : ''}\n    </testcase>`;
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
    const errors = group.errors.map((e, i) => `    <testcase classname="${xml(group.name)}" name="${xml(`${group.name}: error of the suite (${i + 1})`)}">\n      <error message="${xml(e.split('\n')[0] ?? '')}">${xml(e)}</error>\n    </testcase>`);
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

/** What the ranking of root causes holds, as every report says it. */
export const ROOT_CAUSES_SAID =
  'Each failed clause, each clause that blocks checks and each cause outside the contract: first the clauses of access control, visibility and ownership (a caller did or saw what is not theirs), then the one that blocks most checks first. A blocked check counts for the cause it names.';

/** The terminal's heading of the ranking. */
export const ROOT_CAUSES_HEADING = 'Root causes, access control, visibility and ownership first, then the one that blocks most checks:';

/** summary.md's first section: what to fix first, each cause with its evidence and curl line. */
function rootCausesSection(causes: readonly RankedCause[]): string[] {
  if (causes.length === 0) return [];
  const lines = ['## Root causes', '', ROOT_CAUSES_SAID, ''];
  causes.forEach((r, i) => {
    const state = causeState(r);
    lines.push(`${i + 1}. **${r.label.replace(/</g, '&lt;')}**${state ? ` (${state})` : ''}, blocks ${checksCount(r.blocks)}${r.clause ? `: ${r.evidence.replace(/</g, '&lt;')}` : ''}`);
    if (r.reproduce) lines.push('', `   \`${r.reproduce.replace(/`/g, "'")}\``);
  });
  return [...lines, ''];
}

/** summary.md's groups, each with its mark: a group that judged nothing is marked apart, never with a tick. */
function groupsSection(groups: readonly GroupResult[]): string[] {
  if (groups.length === 0) return [];
  return ['## Groups', '', ...groups.map((g) => `- ${groupLine(g)}`), ''];
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
    ...rootCausesSection(results.rootCauses),
    ...groupsSection(results.groups),
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
    lines.push('## Errors of the suite', '', 'Not deviations of the server: a group whose preparation threw, an unhandled error. Each fails the run; please report it.', '');
    for (const e of [...results.errors, ...results.groups.flatMap((g) => g.errors)]) lines.push(`- ${e.split('\n')[0]}`);
    lines.push('');
  }
  const besideChecks = suiteErrorsOf(results);
  if (besideChecks.length > 0) {
    lines.push('## Errors of the suite beside checks not judged', '', SUITE_ERRORS_SAID, '');
    for (const e of besideChecks) lines.push(`- ${e}`);
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
    `${c.total} requests; per account: ${Object.entries(c.perAccount).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; per bucket: ${Object.entries(c.perBucket).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; per path: ${Object.entries(c.perPath ?? {}).map(([k, v]) => `${k === 'files' ? 'files' : `/${k}`} ${v}`).join(', ') || 'none'}.`,
    `Status creations ${c.statusCreations}, scheduled statuses ${c.scheduledStatuses}, deletions and unreblogs ${c.deletions}, uploads ${c.uploads}, stream connections ${c.streamConnections}.`,
    timingLine(results),
    '',
    ...leftBehindSection(results.leftovers),
  );
  return redact(lines.join('\n'));
}

/**
 * How slow the server was, and what the run did about it: its slowest answer, the time pacing waited for resets, the
 * requests the rate limit refused anyway, and where requests got no answer within the timeout, the setting to raise.
 */
export function timingLine(results: RunResults): string {
  const c = results.counts;
  const parts = [c.slowest ? `Slowest answer: ${(c.slowest.ms / 1000).toFixed(1)} s (${c.slowest.request})` : 'Slowest answer: none came'];
  if (c.pacedMs > 0) parts.push(`waited ${(c.pacedMs / 1000).toFixed(0)} s for rate-limit resets`);
  if (c.refusals > 0) parts.push(`${c.refusals} requests refused by the rate limit (HTTP 429), none of them judged`);
  const timeouts = c.timeouts ?? 0;
  if (timeouts > 0) {
    const within = results.server.timeoutMs ? ` within ${results.server.timeoutMs} ms` : '';
    parts.push(`${timeouts} requests got no answer${within}: for a server this slow raise CONFORMANCE_TIMEOUT_MS (--timeout-ms)`);
  }
  return `${parts.join('; ')}.`;
}

/** One object left behind as a line of text: "attachment 7 of A: no undo operation on this server: ...". */
export function leftBehindLine(entry: LeftBehind): string {
  return `${entry.kind} ${entry.id}${entry.owner ? ` of ${entry.owner}` : ''}: ${entry.why}`;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * What was left behind, as a person needs it: what to remove by hand (live grants, tokens, statuses, media, flags),
 * and the applications, which nothing can remove through the contract, in one line that says how many and why.
 */
export function leftBehindParts(leftovers: readonly LeftBehind[]): { byHand: LeftBehind[]; applications: LeftBehind[]; applicationsLine?: string } {
  const applications = leftovers.filter((e) => e.kind === 'application');
  const byHand = leftovers.filter((e) => e.kind !== 'application');
  if (applications.length === 0) return { byHand, applications };
  const still = applications.filter((e) => e.why.startsWith('still there')).length;
  const unread = applications.length - still;
  const states = [
    ...(still ? [`${still} still authenticated ${still === 1 ? 'its' : 'their'} client once the run's tokens were revoked`] : []),
    ...(unread ? [`${unread} not known to be gone (no token request with ${unread === 1 ? 'its' : 'their'} client credentials showed ${unread === 1 ? 'it' : 'them'} there)`] : []),
  ];
  const applicationsLine = `${applications.length} application${applications.length === 1 ? '' : 's'} the run registered: the contract has no operation to delete one, so nothing the run can call removes ${applications.length === 1 ? 'it' : 'them'} (an administrator of the server can); ${states.join(', ')}`;
  return { byHand, applications, applicationsLine };
}

/** summary.md's list of what the run could not undo: the true count, what to remove by hand, then the applications. */
function leftBehindSection(leftovers: readonly LeftBehind[]): string[] {
  const lines = [`## Objects left behind: ${leftovers.length}`, ''];
  if (leftovers.length === 0) return [...lines, 'Everything the run created was undone.', ''];
  const { byHand, applications, applicationsLine } = leftBehindParts(leftovers);
  if (byHand.length > 0) {
    lines.push(`To remove by hand (${byHand.length}): what the run created and could not undo.`, '');
    lines.push('| kind | id | owner | why |', '|---|---|---|---|');
    for (const e of byHand) lines.push(`| ${cell(e.kind)} | ${cell(e.id)} | ${cell(e.owner)} | ${cell(e.why)} |`);
    lines.push('');
  }
  if (applicationsLine) lines.push(`Applications: ${applicationsLine}. Client ids: ${applications.map((e) => `${e.id} (${e.why.startsWith('still there') ? 'still there' : 'not known to be gone'})`).join(', ')}.`, '');
  return lines;
}

/** The terminal lists this many objects left behind; summary.md and the other reports list them all. */
const LEFT_BEHIND_SHOWN = 20;

/** The terminal ranks this many root causes, each with its curl line; summary.md and the other reports rank them all. */
const ROOT_CAUSES_SHOWN = 10;

/** The end of the terminal output (and of a CI log): verdict, totals, and what to look at. */
export function terminalSummary(results: RunResults): string {
  const lines = [
    `Conformance: ${results.verdict}: ${results.totals.checks} checks, ${totalsLine(results.totals)}; ${results.counts.total} requests in ${(results.durationMs / 1000).toFixed(1)} s`,
    releaseLine(results),
    timingLine(results),
  ];
  const causes = results.rootCauses;
  if (causes.length > 0) lines.push(ROOT_CAUSES_HEADING);
  causes.slice(0, ROOT_CAUSES_SHOWN).forEach((r, i) => {
    lines.push(`  ${i + 1}. ${rootCauseLine(r)}`);
    if (r.reproduce) lines.push(`     ${r.reproduce}`);
  });
  if (causes.length > ROOT_CAUSES_SHOWN) lines.push(`  ... and ${causes.length - ROOT_CAUSES_SHOWN} more in summary.md`);
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
  for (const e of [...results.errors, ...results.groups.flatMap((g) => g.errors)]) lines.push(`Error of the suite: ${e.split('\n')[0]}`);
  for (const e of suiteErrorsOf(results)) lines.push(`Error of the suite beside a check not judged (not the server's; it decides no verdict, please report it): ${e}`);
  for (const group of blockedByCause(results.checks)) lines.push(`Blocked: ${checksCount(group.checks.length)} by ${group.label}`);
  for (const c of results.checks.filter((c) => c.outcome === 'not-judged')) lines.push(`Not judged: ${c.title}: ${c.notJudged ?? 'nothing was judged'}`);
  const skipped = results.checks.filter((c) => c.outcome === 'skipped');
  if (skipped.length) {
    const reasons = new Map<string, number>();
    for (const c of skipped) reasons.set(c.skipReason ?? 'skipped', (reasons.get(c.skipReason ?? 'skipped') ?? 0) + 1);
    lines.push(`Skipped: ${[...reasons].map(([reason, n]) => `${n} × ${reason}`).join('; ')}`);
  }
  lines.push(`Objects left behind: ${results.leftovers.length}`);
  const { byHand, applicationsLine } = leftBehindParts(results.leftovers);
  if (byHand.length > 0) lines.push(`  To remove by hand (${byHand.length}):`);
  for (const e of byHand.slice(0, LEFT_BEHIND_SHOWN)) lines.push(`    ${leftBehindLine(e)}`);
  if (byHand.length > LEFT_BEHIND_SHOWN) lines.push(`    ... and ${byHand.length - LEFT_BEHIND_SHOWN} more in summary.md`);
  if (applicationsLine) lines.push(`  Applications: ${applicationsLine} (client ids in summary.md)`);
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
  for (const c of results.checks) if (c.suiteError) lines.push(`::warning file=${ghProperty(c.file)}${c.line ? `,line=${c.line}` : ''},title=error of the suite::${ghData(c.suiteError)}`);
  return lines.map(redact);
}

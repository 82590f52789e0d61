// The results of one run, as the reporter collects them (results.json holds them whole), and what every report
// makes of them alike: totals, each clause's tile, each group's mark, the timing and what was left behind. The
// reports themselves: junit.ts, summary-md.ts, terminal.ts and report-html.ts.
import { CLAUSE_ID, findClause, RELEASE_SKIP_MARK, type FailureData, type Guard, type Severity } from '../judge/clauses.ts';
import { type RootCause } from '../act/steps.ts';
import type { StatusCodeOnly } from '../judge/preconditions.ts';
import type { Counts, PartCount, PathCost } from '../talk/counts.ts';
import { redactData, secretsRegistered } from '../talk/redact.ts';
import type { Expectation, JudgedExpectation, Outcome } from './expectations.ts';

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
  /** The curl lines of the failure message, one per line, ready to paste: its replay, or its curl line (secrets are environment variable names). */
  reproduce?: string;
  skipReason?: string;
  /** The entry of the expectations file about this check. */
  expectation?: Expectation;
  observations: string[];
  /** A pass whose title names an error text the server did not send: only the status code was judged. */
  statusCodeOnly?: StatusCodeOnly;
  /** A stability run (--repeat N): the check's verdict in each repeat, in order, with the evidence of each that did not pass. */
  repeats?: RepeatVerdict[];
  /** Its verdict differed between the repeats: every field above is of its worst repeat. */
  intermittent?: true;
  /** Given the previous results (--previous): its verdicts in the runs before, oldest first, then this run's. */
  history?: CheckStatus[];
}

/** A check's verdict in one repeat of a stability run, and what showed it where it did not pass. */
export interface RepeatVerdict {
  status: CheckStatus;
  /** The failure's expected and actual, the block's cause, or what went unseen. */
  evidence?: string;
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
  /** What the group's plan said its requests would cost, by path, before the first (its steps' declared costs). */
  planned?: PathCost;
  /**
   * Each part of the plan (a step) with what it declared and what it sent, the ledger's undos and reads of what it
   * made included: where a group sent less than it planned, the parts say which, and the plan's `planned` less the
   * parts' `sent` is what the server's answers made unneeded (a move that did not take needs no undo, a status not
   * made no reads nor deletion); what no part sent is the group's own cleanup and the calls outside its steps.
   */
  parts?: PartCount[];
  /** The group's requests that no part sent (none, where every request is some step's), beside its parts. */
  outsideParts?: PathCost;
  /** Errors that are no check's: a suite file that could not load, a hook that threw. */
  errors: string[];
}

export interface RunResults {
  /** PASS or FAIL: what the CLI's exit code says. */
  verdict: 'PASS' | 'FAIL';
  /** timeoutMs: CONFORMANCE_TIMEOUT_MS of the run, for the advice of timingLine; seed: CONFORMANCE_SEED, to draw the same inputs again. */
  server: { baseUrl: string; embedded: boolean; version: string; faults: string[]; timeoutMs?: number; seed?: number };
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
  /** A stability run: how many times the selected checks ran (--repeat N). */
  repeats?: number;
}

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
  /**
   * The curl lines that show it, one per line (secrets are environment variable names): a replay that creates first
   * what the request names (talk/replay.ts), else its curl line.
   */
  reproduce?: string;
  /** What the clause guards (the catalogue's `guards`): such a cause is ranked first, whatever it blocks. */
  guards?: Guard;
}

/** What the run created and could not undo, as the reports list it. */
export interface LeftBehind {
  /** status, scheduled status, attachment, favourite, boost, bookmark, mute, pin, token, application. */
  kind: string;
  /** The object's id; for a flag (favourite, boost...) the id of the status it is set on. */
  id: string;
  /** Who made it: A, B, anonymous, or an application. */
  owner: string;
  /** What the undo answered and what the reads showed. */
  why: string;
  /** An application listed as still there without a read of its own: another of its group, read, still was. */
  unread?: boolean;
}

/** What a failure's replay is, as the reports introduce it. */
export const REPLAY_SAID =
  'Replay, to paste into sh with the run\'s CONFORMANCE_* variables set: the first lines create what the failing request names, each new id in a shell variable; the last sends the failing request.';

/**
 * What the reports keep as written when they redact their data: check titles, group names and the checks the
 * expectations file names hold words, no secrets, and the positional masks would eat them ("as Bearer token").
 */
const KEPT_AS_WRITTEN: ReadonlySet<string> = new Set(['title', 'name', 'group', 'check']);

/** Each results' redaction and the secrets it knew: a run's reports (results.json, junit.xml, summary.md, report.html, the terminal's lines) redact the same results, which none changes. */
const redacted = new WeakMap<RunResults, { secrets: number; results: RunResults }>();

/** The results with every secret replaced (redact.ts), redacted as data before a report renders or writes them. */
export function redactedResults(results: RunResults): RunResults {
  const made = redacted.get(results);
  if (made?.secrets === secretsRegistered()) return made.results;
  const fresh = redactData(results, KEPT_AS_WRITTEN);
  redacted.set(results, { secrets: secretsRegistered(), results: fresh });
  return fresh;
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

/** The groups with their totals over the whole run (run-wide results included). */
export function withRunTotals(groups: readonly GroupResult[], checks: readonly CheckResult[]): GroupResult[] {
  return groups.map((g) => ({ ...g, ...totalsOf(checks.filter((c) => c.file === g.file)) })).sort((x, y) => x.file.localeCompare(y.file));
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
export function releaseLine(results: Pick<RunResults, 'checks' | 'server'>): string {
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
export const WORST_FIRST: readonly ClauseResult[] = ['failed', 'unexpectedly-passing', 'warning', 'expected-failure', 'passed', 'blocked', 'not-judged', 'skipped'];
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

/** A group that judged nothing: every check blocked or skipped. It has its own mark, never a green tick. */
export function judgedNothing(t: Totals): boolean {
  return t.passed + t.failed + t.warnings + t.expectedFailures + t.unexpectedPasses === 0;
}

/**
 * A group's mark in every report: ✗ something fails the run; ⚠ checks failed that do not fail it (SHOULD clauses,
 * expected failures); ○ nothing was judged; ✓ only where something passed and nothing failed.
 */
export function groupMark(g: GroupResult): { mark: '✗' | '⚠' | '○' | '✓'; meaning: string } {
  if (g.failed > 0 || g.unexpectedPasses > 0 || g.errors.length > 0) return { mark: '✗', meaning: 'failed' };
  if (g.warnings > 0 || g.expectedFailures > 0) return { mark: '⚠', meaning: 'failed within the verdict' };
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

export const checksCount = (n: number) => `${n} check${n === 1 ? '' : 's'}`;

/** Checks grouped by the clause their failure names, sorted by clause id. */
export function byFailedClause(checks: readonly CheckResult[]): Array<[string, CheckResult[]]> {
  const byClause = new Map<string, CheckResult[]>();
  for (const c of checks) byClause.set(c.failedClause ?? c.clause, [...(byClause.get(c.failedClause ?? c.clause) ?? []), c]);
  return [...byClause].sort(([x], [y]) => x.localeCompare(y));
}

/**
 * How slow the server was, and what the run did about it: its slowest answer, the time pacing waited for resets, the
 * requests the rate limit refused anyway, where requests got no answer within the timeout, the setting to raise, and
 * where the server closed connections right after its answers, that the run then reused none (talk/connections.ts).
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
  if (c.connectionsClosed) {
    const resent = c.resent ? `, and sent ${c.resent} request${c.resent === 1 ? '' : 's'} that met a closed one again on a new one` : '';
    parts.push(`the server closed connections right after its answers (HTTP/1.1 allows it): the run then opened a new connection for every request${resent}`);
  }
  return `${parts.join('; ')}.`;
}

/** The IP access calls of a cost: its /api calls and its stream connections. */
const ipCalls = (cost: PathCost) => cost.api + cost.streams;

/**
 * Where the run sent fewer IP access calls than its plan counted (the plan counts each input at its most where the
 * server's answer decides: a move's undo, a status's reads and deletion, a sequence's every move): how many, and the
 * parts (steps) that left most of them unsent, with what each sent of its plan. Undefined where the plan was spent.
 */
export function planLine(results: RunResults): string | undefined {
  const planned = results.groups.reduce((sum, g) => sum + (g.planned ? ipCalls(g.planned) : 0), 0);
  const sent = results.groups.reduce((sum, g) => sum + (g.planned ? (g.counts?.perPath.api ?? 0) + (g.counts?.streamConnections ?? 0) : 0), 0);
  if (planned === 0 || sent >= planned) return undefined;
  const short = results.groups
    .flatMap((g) => g.parts ?? [])
    .map((part) => ({ part, unsent: ipCalls(part.planned) - ipCalls(part.sent) }))
    .filter(({ unsent }) => unsent > 0)
    .sort((x, y) => y.unsent - x.unsent);
  const named = short.slice(0, 5).map(({ part }) => `"${part.name}" ${ipCalls(part.sent)} of ${ipCalls(part.planned)}`);
  const more = short.length > named.length ? `, and ${short.length - named.length} more (results.json: each group's parts)` : '';
  return `Sent against the plan: ${sent} IP access calls of the ${planned} planned, streams included: ${planned - sent} not needed, as the server's answers decided (a move that did not take needs no undo, a status not made no reads nor deletion, a sequence may end early); the parts that sent fewest of theirs: ${named.join('; ')}${more}.`;
}

/** One object left behind as a line of text: "attachment 7 of A: no undo operation on this server: ...". */
export function leftBehindLine(entry: LeftBehind): string {
  return `${entry.kind} ${entry.id}${entry.owner ? ` of ${entry.owner}` : ''}: ${entry.why}`;
}

/**
 * What was left behind, as a person needs it: what to remove by hand (live grants, tokens, statuses, media, flags),
 * and the applications, which nothing can remove through the contract, in one line that says how many and why.
 */
export function leftBehindParts(leftovers: readonly LeftBehind[]): { byHand: LeftBehind[]; applications: LeftBehind[]; applicationsLine?: string } {
  const applications = leftovers.filter((e) => e.kind === 'application');
  const byHand = leftovers.filter((e) => e.kind !== 'application');
  if (applications.length === 0) return { byHand, applications };
  const still = applications.filter((e) => e.why.startsWith('still there') && !e.unread).length;
  const alike = applications.filter((e) => e.unread).length;
  const unread = applications.length - still - alike;
  const states = [
    ...(still ? [`${still} still authenticated ${still === 1 ? 'its' : 'their'} client once the run's tokens were revoked`] : []),
    ...(alike ? [`${alike} more registered by a group whose first application did (not read themselves)`] : []),
    ...(unread ? [`${unread} not known to be gone (no token request with ${unread === 1 ? 'its' : 'their'} client credentials showed ${unread === 1 ? 'it' : 'them'} there)`] : []),
  ];
  const applicationsLine = `${applications.length} application${applications.length === 1 ? '' : 's'} the run registered: the contract has no operation to delete one, so nothing the run can call removes ${applications.length === 1 ? 'it' : 'them'} (an administrator of the server can); ${states.join(', ')}`;
  return { byHand, applications, applicationsLine };
}

/** What every report says beside a pass that judged the status code only: "status code only: the server sent ...". */
export function statusCodeOnlyNote(check: Pick<CheckResult, 'statusCodeOnly'>): string | undefined {
  const only = check.statusCodeOnly;
  return only && `status code only: the server sent ${only.sent}, not "${only.named}"; ERRORS-TEXT-1 judges the text`;
}

// The expectations file (CONFORMANCE_EXPECTATIONS, --expectations): the checks an implementation is known to
// fail, or wants skipped, each with a reason. It lives outside the tests, as wpt's metadata and undici's
// expectation.json do. An expected failure does not fail the run; an expected failure that now passes is
// "unexpectedly passing" and fails the run (unless --allow-unexpected-pass), so the file cannot rot.
//
// Format (JSON):
//   { "expectations": [ { "check": "STATUS-READ-1 a public status is readable without a token", "expect": "fail", "reason": "tokenless reads are off here" } ] }
// `check` is one check's full title (its clause id, words and transport, as every report shows it), or a clause id
// alone (every check titled with it, and every failure that names it), as files written before were keyed.
// `expect` may name more than one outcome, as wpt's metadata does for an intermittent test: ["fail", "pass"] is a
// check whose verdict is known to move between runs; either outcome holds it.
//
// --write-expectations FILE (updateExpectations) turns a run into that file, the ratchet of a CI gate: every failure
// and every blocked check of the run is expected, each by an entry of its own, so that the next run fails only on
// what is new. A blocked check is written as expected to fail: "fail" reads "not known to pass", so that the check
// fails the run neither while it stays blocked nor when, once judged, it fails, and is unexpectedly passing when it
// passes. Over an existing file, an expected failure that now passes is widened to ["fail", "pass"], not dropped: one
// run cannot tell a fix from a verdict that moves between runs, and a gate must not fail on the next run of an
// unchanged server.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { causeLabel, CLAUSE_ID, findClause, type FailureData, type Severity } from '../judge/clauses.ts';
import { type RootCause } from '../act/steps.ts';
import { redact } from '../talk/redact.ts';

/** An outcome an entry may name among several. */
export type Allowed = 'fail' | 'pass' | 'blocked';
const ALLOWED: readonly Allowed[] = ['fail', 'pass', 'blocked'];
export type Expect = 'fail' | 'skip' | Allowed[];
/** The outcomes of a check whose verdict moves between runs. */
export const FLAKY: Allowed[] = ['fail', 'pass'];

export interface Expectation {
  check: string;
  expect: Expect;
  reason: string;
}

/** What one check's result means for the run. */
export type Outcome = 'passed' | 'failed' | 'warning' | 'expected-failure' | 'unexpectedly-passing' | 'blocked' | 'not-judged' | 'skipped';

/** What became of one expectation in a run. */
export type ExpectationState = 'failing as expected' | 'blocked' | 'unexpectedly passing' | 'passing as allowed' | 'skipped' | 'not run';

export interface JudgedExpectation extends Expectation {
  state: ExpectationState;
}

/** The fields of a check result that judging reads and writes. */
export interface Judgeable {
  clause: string;
  title: string;
  status: 'passed' | 'failed' | 'blocked' | 'not-judged' | 'skipped';
  failedClause?: string;
  skipReason?: string;
  outcome: Outcome;
  severity: Severity;
  expectation?: Expectation;
  observations?: string[];
}

/** The fields of a check result (results.ts) that the ratchet reads: its verdict, why it did not pass, and in a stability run its verdict in each repeat. */
export interface Reasoned extends Judgeable {
  failure?: FailureData;
  message?: string;
  blockedBy?: RootCause;
  repeats?: ReadonlyArray<{ status: Judgeable['status'] }>;
  intermittent?: true;
}

export class ExpectationsError extends Error {
  override name = 'ExpectationsError';
}

const ENTRY_KEYS = new Set(['check', 'expect', 'reason']);

/** Validates the file's text; every mistake is reported with the entry it is in. */
export function parseExpectations(text: string, source: string): Expectation[] {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ExpectationsError(`${source} is not JSON (${(error as Error).message}); the file is {"expectations": [{"check", "expect", "reason"}]}`);
  }
  const list = (document as { expectations?: unknown } | null)?.expectations;
  if (!Array.isArray(list)) throw new ExpectationsError(`${source} must be an object with an "expectations" array`);
  const seen = new Set<string>();
  return list.map((entry: unknown, index) => {
    const where = `${source}: expectations[${index}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new ExpectationsError(`${where} must be an object`);
    const unknownKeys = Object.keys(entry).filter((k) => !ENTRY_KEYS.has(k));
    if (unknownKeys.length) throw new ExpectationsError(`${where} has unknown key ${unknownKeys.join(', ')} (allowed: check, expect, reason)`);
    const { check, expect, reason } = entry as Record<string, unknown>;
    if (typeof check !== 'string' || check.trim() === '') throw new ExpectationsError(`${where}.check must be a clause id or a check title`);
    const id = CLAUSE_ID.exec(check)?.[0];
    if (!id || !findClause(id)) throw new ExpectationsError(`${where}.check "${check}" names no clause of the catalogue (suites/support/judge/clauses.ts)`);
    if (expect !== 'fail' && expect !== 'skip' && !isOutcomeList(expect)) {
      throw new ExpectationsError(`${where}.expect must be "fail", "skip" or a list of two or more outcomes a check may have (of "fail", "pass", "blocked"), such as ["fail", "pass"]`);
    }
    if (typeof reason !== 'string' || reason.trim() === '') throw new ExpectationsError(`${where}.reason must say why (a bug link, a known limitation)`);
    if (seen.has(check)) throw new ExpectationsError(`${where}: "${check}" is listed twice`);
    seen.add(check);
    return { check, expect, reason };
  });
}

/** A list of outcomes (["fail", "pass"], ["blocked", "pass"]): two or more, each once; one alone is "fail" or no expectation. */
function isOutcomeList(value: unknown): value is Allowed[] {
  if (!Array.isArray(value) || value.length < 2) return false;
  return value.every((v) => ALLOWED.includes(v)) && new Set(value).size === value.length;
}

/** The entry holds a failure of its checks: "fail", or a list that names it. */
export const expectsFailure = (e: Expectation): boolean => e.expect === 'fail' || (Array.isArray(e.expect) && e.expect.includes('fail'));

/** The entry holds a pass of its checks as well. */
const allowsPass = (e: Expectation): boolean => Array.isArray(e.expect) && e.expect.includes('pass');

export function loadExpectations(file: string): Expectation[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ExpectationsError(`cannot read the expectations file ${file}: ${(error as Error).message}`);
  }
  return parseExpectations(text, file);
}

/** The expectation is about this check: its clause or its full title. */
export function names(expectation: Expectation, check: Pick<Judgeable, 'clause' | 'title'>): boolean {
  return expectation.check === check.clause || expectation.check === check.title;
}

/** The expectation is about this failure: the check, or the clause the failure names (a schema mismatch met elsewhere). */
function explains(expectation: Expectation, check: Judgeable): boolean {
  return names(expectation, check) || (check.status === 'failed' && expectation.check === check.failedClause);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A name that --only takes: one of its words starts with a prefix given (a check's title starts with its clause id). */
const takenBy = (prefixes: readonly string[]) => `(?:^| )(?:${prefixes.map(escapeRegExp).join('|')})`;

/** What --only (or --exclude) names, tried on a check's or a describe's title alone; undefined when it names nothing. */
export function onlyPattern(prefixes: readonly string[]): RegExp | undefined {
  return prefixes.length ? new RegExp(takenBy(prefixes)) : undefined;
}

/** The prefixes of ids a run selects (--only; all when none) and leaves out (--exclude). */
export interface IdSelection {
  only: readonly string[];
  exclude: readonly string[];
}

/**
 * The source of a vitest testNamePattern that selects the checks whose clause id starts with one of `only` (all when
 * none), less those whose clause id starts with one of `exclude` and those the expectations skip. vitest matches it
 * against the full name: the describe titles and the check title joined by spaces.
 */
export function selectionPattern({ only, exclude }: IdSelection, expectations: readonly Expectation[]): string | undefined {
  const skipped = expectations.filter((e) => e.expect === 'skip').map((e) => (CLAUSE_ID.exec(e.check)?.[0] === e.check ? `${escapeRegExp(e.check)}(?: |$)` : `${escapeRegExp(e.check)}$`));
  const taken = only.length ? `(?=.*${takenBy(only)})` : '';
  const excluded = exclude.length ? `(?!.*${takenBy(exclude)})` : '';
  const skip = skipped.length ? `(?!.*(?:^| )(?:${skipped.join('|')}))` : '';
  return taken || excluded || skip ? `^${taken}${excluded}${skip}` : undefined;
}

/** A check's outcome from its own result alone (progress lines); judgeRun settles unexpected passes. */
export function judgeCheck(check: Judgeable, expectations: readonly Expectation[]): void {
  const failing = expectations.find((e) => expectsFailure(e) && explains(e, check));
  const skipping = expectations.find((e) => e.expect === 'skip' && names(e, check));
  check.expectation = check.status === 'skipped' ? skipping : check.status === 'failed' ? failing : expectations.find((e) => expectsFailure(e) && names(e, check));
  if (check.status === 'skipped') {
    check.outcome = 'skipped';
    if (skipping) check.skipReason = `expectations file: ${skipping.reason}`;
  } else if (check.status === 'blocked' || check.status === 'not-judged') {
    // Blocked or not judged is no verdict on the check's own clause: an expected failure neither holds nor rots there.
    check.outcome = check.status;
  } else if (check.status === 'passed') {
    check.outcome = 'passed';
  } else {
    check.outcome = failing ? 'expected-failure' : check.severity === 'SHOULD' ? 'warning' : 'failed';
  }
}

/**
 * Every check's outcome, and what became of every expectation: an expected failure none of whose checks
 * failed or was blocked while one of them passed is unexpectedly passing, and so are those passing checks.
 */
export function judgeRun(checks: readonly Judgeable[], expectations: readonly Expectation[]): JudgedExpectation[] {
  for (const check of checks) judgeCheck(check, expectations);
  foundAgain(checks);
  return expectations.map((expectation) => {
    if (expectation.expect === 'skip') {
      return { ...expectation, state: checks.some((c) => names(expectation, c) && c.status === 'skipped') ? 'skipped' : 'not run' };
    }
    if (expectsFailure(expectation) && checks.some((c) => c.status === 'failed' && explains(expectation, c))) return { ...expectation, state: 'failing as expected' };
    // A check that could not be judged may still fail: the entry is not known to rot.
    if (checks.some((c) => c.status === 'blocked' && names(expectation, c))) return { ...expectation, state: 'blocked' };
    const passing = checks.filter((c) => c.status === 'passed' && names(expectation, c));
    if (passing.length && allowsPass(expectation)) return { ...expectation, state: 'passing as allowed' };
    for (const check of passing) check.outcome = 'unexpectedly-passing';
    return { ...expectation, state: passing.length ? 'unexpectedly passing' : 'not run' };
  });
}

/**
 * One deviation, one failure: a failure filed under another clause than its check's own (a sequence's or an
 * exploration's finding on a row's clause) where that clause's own check failed too is that deviation found again.
 * It stays in the reports as a warning naming the check that counts it; whichever ran first, the verdict is the same.
 */
export function foundAgain(checks: readonly Judgeable[]): void {
  for (const check of checks) {
    const filed = check.failedClause;
    if (check.outcome !== 'failed' || !filed || filed === check.clause) continue;
    const own = checks.find((c) => c !== check && c.clause === filed && c.status === 'failed' && (c.failedClause ?? c.clause) === filed);
    if (!own) continue;
    check.outcome = 'warning';
    check.observations = [...(check.observations ?? []), `${filed} failed in its own check, "${own.title}": this failure under it is counted there, once`];
  }
}

/** The longest reason the writer gives: one line of a file that people read and edit. */
const REASON_LENGTH = 200;

/** The text on one line, cut to REASON_LENGTH: a list of mismatches reads "2 distinct mismatches: 1. expected ...". */
function oneLine(text: string): string {
  const line = text.trim().replace(/\s*\n\s*/g, ' ');
  return line.length > REASON_LENGTH ? `${line.slice(0, REASON_LENGTH - 1)}…` : line;
}

/** The one-line reason the run gave for a check it did not pass: what its failure expected and met, or its block's cause. */
export function reasonOf(check: Pick<Reasoned, 'clause' | 'status' | 'failedClause' | 'failure' | 'message' | 'blockedBy'>): string {
  if (check.status === 'blocked') return oneLine(redact(`blocked by ${check.blockedBy ? causeLabel(check.blockedBy) : 'a failed precondition'}`));
  const filedUnder = check.failedClause && check.failedClause !== check.clause ? `as ${check.failedClause}: ` : '';
  const said = check.failure ? `expected ${check.failure.expected}; actual ${check.failure.actual}` : (check.message ?? 'failed');
  return oneLine(redact(`${filedUnder}${said}`)) || 'failed';
}

/** What the ratchet expects of a run: the failures that would fail it (a warning does not) and the blocked checks. */
const needsEntry = (c: Reasoned) => findClause(c.clause) !== undefined && (c.status === 'blocked' || (c.status === 'failed' && c.severity !== 'SHOULD'));

/** Whether the entry already holds the check: an expected failure that explains its failure, or any entry that names it. */
const covers = (e: Expectation, c: Reasoned) => (expectsFailure(e) && c.status === 'failed' ? explains(e, c) : names(e, c));

export interface ExpectationsUpdate {
  entries: Expectation[];
  added: Expectation[];
  /** The expected failures that now pass, widened to either outcome. */
  widened: Expectation[];
  /** The entries, kept or added, of the checks whose verdict differed between the repeats: the outcomes they showed. */
  intermittent: Expectation[];
  /** The entries that a clause's entry of the file became, one per check of the clause it held. */
  rewritten: Expectation[];
}

/** The outcomes an entry names of a check's verdicts: a failure, a pass, a block (not judged or skipped fail nothing). */
const OUTCOME_OF: Partial<Record<Judgeable['status'], Allowed>> = { failed: 'fail', passed: 'pass', blocked: 'blocked' };

/** The outcomes a check showed over the repeats of a stability run, in the order "fail", "pass", "blocked". */
export function shownOutcomes(check: Pick<Reasoned, 'status' | 'repeats'>): Allowed[] {
  const shown = new Set((check.repeats ?? [check]).map((r) => OUTCOME_OF[r.status]));
  return ALLOWED.filter((outcome) => shown.has(outcome));
}

/** An entry's expectation widened by the outcomes an intermittent check showed: the list of both, each once. */
function widenedBy(expect: Expect, shown: readonly Allowed[]): Expect {
  const had = Array.isArray(expect) ? expect : expect === 'fail' ? ['fail'] : [];
  const outcomes = new Set([...had, ...shown]);
  return ALLOWED.filter((outcome) => outcomes.has(outcome));
}

/** The entry is keyed by a clause id alone, as files written before entries were per check are: it names every check of the clause. */
const byClause = (e: Expectation): boolean => CLAUSE_ID.exec(e.check)?.[0] === e.check;

/** A check's verdict that an entry holds as it is: a block always (it fails nothing), a failure or a pass where the entry names it. */
const holds = (e: Expectation, c: Reasoned): boolean => c.status === 'blocked' || (c.status === 'failed' ? expectsFailure(e) : allowsPass(e));

/**
 * The expectations after a run: the existing entries with their reasons as a person wrote them, the expected failures
 * that are unexpectedly passing widened to ["fail", "pass"] (never flipped: a verdict that moved once may move back);
 * then one entry for each failure or blocked check no entry covers.
 * Entries about checks this run did not judge (other groups, skips) stay. An entry is keyed by the check's full title
 * (its clause id, words and transport): one check per entry, so that a check of the clause that passes beside one that
 * fails or is blocked fails the gate when it regresses. An entry keyed by a clause alone (a file written before) is
 * rewritten per check, with its reason, for each check of the clause the run judged and the entry held; a check of the
 * clause that passed while another did not gets no entry.
 */
export function updateExpectations(existing: readonly Expectation[], checks: readonly Reasoned[]): ExpectationsUpdate {
  // Judged on copies: the run's own outcomes stay as its reports give them.
  const states = judgeRun(checks.map((c) => ({ ...c })), existing);
  const widened: Expectation[] = [];
  const intermittent: Expectation[] = [];
  const rewritten: Expectation[] = [];
  /** The entry of one check, as the run leaves it: the outcomes it showed when they moved, either outcome once it passes unexpectedly. */
  const updated = (e: Expectation, c: Reasoned | undefined, state: ExpectationState | undefined): Expectation[] => {
    if (c?.intermittent) {
      const wide = { ...e, expect: widenedBy(e.expect, shownOutcomes(c)) };
      intermittent.push(wide);
      return [wide];
    }
    if (state !== 'unexpectedly passing') return [e];
    const wide = { ...e, expect: FLAKY };
    widened.push(wide);
    return [wide];
  };
  // A check has one entry: the one that names it by title, else the first clause's entry that held it.
  const titled = new Set(existing.filter((e) => !byClause(e)).map((e) => e.check));
  const kept = existing.flatMap((e, i) => {
    if (e.expect === 'skip') return [e];
    const state = states[i]?.state;
    const judged = checks.filter((c) => c.status !== 'skipped' && c.status !== 'not-judged' && explains(e, c));
    if (!byClause(e) || judged.length === 0) return updated(e, judged[0], state);
    // A clause's entry, per check: each check it held keeps it; a pass beside a failure or a block of the clause is no longer held.
    const perCheck = judged.filter((c) => !titled.has(c.title) && (c.intermittent || holds(e, c) || state === 'unexpectedly passing'));
    for (const c of perCheck) titled.add(c.title);
    const entries = perCheck.flatMap((c) => updated({ ...e, check: c.title }, c, state));
    rewritten.push(...entries);
    return entries;
  });
  const added: Expectation[] = [];
  for (const c of checks.filter(needsEntry)) {
    if ([...kept, ...added].some((e) => covers(e, c))) continue;
    const entry: Expectation = { check: c.title, expect: c.intermittent ? shownOutcomes(c) : 'fail', reason: reasonOf(c) };
    if (c.intermittent) intermittent.push(entry);
    added.push(entry);
  }
  added.sort((x, y) => x.check.localeCompare(y.check));
  return { entries: [...kept, ...added], added, widened, intermittent, rewritten };
}

/** The file's text: one entry a line, so that a baseline's diff reads check by check. */
export function expectationsText(entries: readonly Expectation[]): string {
  const lines = entries.map(({ check, expect, reason }) => `    { "check": ${JSON.stringify(check)}, "expect": ${JSON.stringify(expect)}, "reason": ${JSON.stringify(reason)} }`);
  return lines.length ? `{\n  "expectations": [\n${lines.join(',\n')}\n  ]\n}\n` : '{\n  "expectations": []\n}\n';
}

/** Writes the entries to `file`, read back first as --expectations would read it. */
function writeExpectations(file: string, entries: readonly Expectation[]): void {
  const text = expectationsText(entries);
  parseExpectations(text, file);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/**
 * The ratchet's step after a run (the command's --write-expectations, and the merge of a sharded run's): `existing`
 * updated by the run's checks and written to `file`. Returns the line that says what changed.
 */
export function writeUpdatedExpectations(file: string, existing: readonly Expectation[], checks: readonly Reasoned[]): string {
  const { entries, added, widened, intermittent, rewritten } = updateExpectations(existing, checks);
  writeExpectations(file, entries);
  const widenedList = widened.length ? `; widened ${widened.length} that now pass to ["fail", "pass"] (remove an entry once it is fixed for good): ${widened.map((e) => e.check).join(', ')}` : '';
  const intermittentList = intermittent.length ? `; ${intermittent.length} intermittent, written with the outcomes they showed: ${intermittent.map((e) => `${e.check} ${JSON.stringify(e.expect)}`).join(', ')}` : '';
  const rewrittenList = rewritten.length ? `; entries keyed by a clause alone rewritten as ${rewritten.length} of one check each` : '';
  return `Expectations written to ${file}: ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}, ${added.length} added${rewrittenList}${widenedList}${intermittentList}`;
}

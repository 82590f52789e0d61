// The expectations file (CONFORMANCE_EXPECTATIONS, --expectations): the checks an implementation is known to
// fail, or wants skipped, each with a reason. It lives outside the tests, as wpt's metadata and undici's
// expectation.json do. An expected failure does not fail the run; an expected failure that now passes is
// "unexpectedly passing" and fails the run (unless --allow-unexpected-pass), so the file cannot rot.
//
// Format (JSON):
//   { "expectations": [ { "check": "STATUS-READ-1", "expect": "fail", "reason": "tokenless reads are off here" } ] }
// `check` is a clause id (every check titled with it, and every failure that names it) or one check's full title.
import { readFileSync } from 'node:fs';
import { CLAUSE_ID, findClause, type Severity } from './clauses.ts';

export type Expect = 'fail' | 'skip';

export interface Expectation {
  check: string;
  expect: Expect;
  reason: string;
}

/** What one check's result means for the run. */
export type Outcome = 'passed' | 'failed' | 'warning' | 'expected-failure' | 'unexpectedly-passing' | 'blocked' | 'not-judged' | 'skipped';

/** What became of one expectation in a run. */
export type ExpectationState = 'failing as expected' | 'unexpectedly passing' | 'skipped' | 'not run';

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
    if (!id || !findClause(id)) throw new ExpectationsError(`${where}.check "${check}" names no clause of the catalogue (suites/support/clauses.ts)`);
    if (expect !== 'fail' && expect !== 'skip') throw new ExpectationsError(`${where}.expect must be "fail" or "skip"`);
    if (typeof reason !== 'string' || reason.trim() === '') throw new ExpectationsError(`${where}.reason must say why (a bug link, a known limitation)`);
    if (seen.has(check)) throw new ExpectationsError(`${where}: "${check}" is listed twice`);
    seen.add(check);
    return { check, expect, reason };
  });
}

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

/**
 * The source of a vitest testNamePattern that selects the checks whose clause id starts with one of `prefixes`
 * (all when none) and leaves out those the expectations skip. vitest matches it against the full name:
 * the describe titles and the check title joined by spaces.
 */
export function selectionPattern(prefixes: readonly string[], expectations: readonly Expectation[]): string | undefined {
  const skipped = expectations.filter((e) => e.expect === 'skip').map((e) => (CLAUSE_ID.exec(e.check)?.[0] === e.check ? `${escapeRegExp(e.check)}(?: |$)` : `${escapeRegExp(e.check)}$`));
  const only = prefixes.length ? `(?=.*(?:^| )(?:${prefixes.map(escapeRegExp).join('|')}))` : '';
  const skip = skipped.length ? `(?!.*(?:^| )(?:${skipped.join('|')}))` : '';
  return only || skip ? `^${only}${skip}` : undefined;
}

/** A check's outcome from its own result alone (progress lines); judgeRun settles unexpected passes. */
export function judgeCheck(check: Judgeable, expectations: readonly Expectation[]): void {
  const failing = expectations.find((e) => e.expect === 'fail' && explains(e, check));
  const skipping = expectations.find((e) => e.expect === 'skip' && names(e, check));
  check.expectation = check.status === 'skipped' ? skipping : check.status === 'failed' ? failing : expectations.find((e) => e.expect === 'fail' && names(e, check));
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
 * failed while one of them passed is unexpectedly passing, and so are those passing checks.
 */
export function judgeRun(checks: readonly Judgeable[], expectations: readonly Expectation[]): JudgedExpectation[] {
  for (const check of checks) judgeCheck(check, expectations);
  return expectations.map((expectation) => {
    if (expectation.expect === 'skip') {
      return { ...expectation, state: checks.some((c) => names(expectation, c) && c.status === 'skipped') ? 'skipped' : 'not run' };
    }
    if (checks.some((c) => c.status === 'failed' && explains(expectation, c))) return { ...expectation, state: 'failing as expected' };
    const passing = checks.filter((c) => c.status === 'passed' && names(expectation, c));
    for (const check of passing) check.outcome = 'unexpectedly-passing';
    return { ...expectation, state: passing.length ? 'unexpectedly passing' : 'not run' };
  });
}

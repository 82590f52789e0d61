// What the suite once hid on real servers (issue 41): each deviation a check meets is shown and counted, and a check
// is blocked by nothing its own requests do not need.
// - repeats-both-500: a repeated reblog and a repeated pin both answer 500; STATUS-REPEAT-1's one failure once
//   stopped at the pin's.
// - lists-tokenless-refused: the accounts lists refuse tokenless reads, and favourited_by of a deleted status answers
//   200 []; STATUS-DELETE-6, whose reads carry A's token, was blocked by its positive control, read without one.
// - a server whose following answers any token, even one it never issued, and whose verify_credentials refuses
//   application tokens (no password grant): OAUTH-REVOKE-1 once took following's answer to the revoked token as
//   evidence that it still worked. Nothing else in the run tells, so the check is not judged, and fails nothing.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultClause, PROFILES, type Fault } from '../../fixtures/reference-server/faults.ts';
import type { Variation } from '../../fixtures/reference-server/variations.ts';
import type { CheckResult, RunResults } from '../support/report/results.ts';
import { faultEnv } from './fault-runs.ts';
import { inParallel, runCli, type CliRun } from './run-cli.ts';

/** A run of one group against a server with these faults and variations. */
interface Case {
  group: string;
  faults: readonly Fault[];
  variations?: readonly Variation[];
}

const profile = (name: string, group: string): Case => ({ group, ...(PROFILES[name] as (typeof PROFILES)[string]) });
const CASES = {
  'repeats-both-500': profile('repeats-both-500', 'statuses-interactions'),
  'lists-tokenless-refused': profile('lists-tokenless-refused', 'statuses'),
  'made-up-tokens-read-relations': { group: 'oauth', faults: ['OAUTH-PASSWORD-1', 'APPS-VERIFY-1'], variations: ['made-up-tokens-read-relations'] },
} satisfies Record<string, Case>;
type Name = keyof typeof CASES;

const runs = new Map<Name, CliRun>();

beforeAll(async () => {
  const names = Object.keys(CASES) as Name[];
  const done = await inParallel(names, names.length, (name) => {
    const { group, faults, variations }: Case = CASES[name];
    return runCli(['--group', group], { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '', ...faultEnv(faults, variations), CONFORMANCE_TIMEOUT_MS: '10000' });
  });
  names.forEach((name, i) => runs.set(name, done[i] as CliRun));
}, 180_000);

afterAll(() => {
  for (const run of runs.values()) rmSync(run.reportDir, { recursive: true, force: true });
});

function resultsOf(name: Name): RunResults {
  const run = runs.get(name);
  if (!run?.results) throw new Error(`the run of ${name} wrote no results.json (exit ${run?.code}): ${run?.stderr.slice(0, 500)}`);
  return run.results;
}

const checkOf = (results: RunResults, clause: string) => results.checks.find((c) => c.clause === clause) as CheckResult;
/** The clauses a run failed, and the checks it blocked or did not judge: exactly the profile's faults, nothing hidden. */
function verdictsOf(name: Name): { failed: string[]; hidden: string[] } {
  const { checks } = resultsOf(name);
  return {
    failed: [...new Set(checks.filter((c) => c.status === 'failed').map((c) => c.failedClause ?? c.clause))].sort(),
    hidden: checks.filter((c) => c.status === 'blocked' || c.status === 'not-judged' || c.suiteError).map((c) => c.title),
  };
}
const profileClauses = (name: Name) => [...new Set(CASES[name].faults.map(faultClause))].sort();

describe('deviations a check meets are each shown', () => {
  it('repeats-both-500: STATUS-REPEAT-1 shows both repeats that answered 500 in its one failure, both judged', () => {
    expect(verdictsOf('repeats-both-500')).toEqual({ failed: profileClauses('repeats-both-500'), hidden: [] });
    const repeat = checkOf(resultsOf('repeats-both-500'), 'STATUS-REPEAT-1');
    expect(repeat.message).toMatch(/2 of 2 broke it:\n {2}1\. POST \/api\/v1\/statuses\/\d+\/pin \(as A\): HTTP 500 .*\n {2}2\. POST \/api\/v1\/statuses\/\d+\/reblog \(as B\): HTTP 500 /);
    expect(repeat.judged).toBe(2);
  });

  it('lists-tokenless-refused: both deviations reported, STATUS-DELETE-6 judged on its own credentials and failing', () => {
    expect(verdictsOf('lists-tokenless-refused')).toEqual({ failed: profileClauses('lists-tokenless-refused'), hidden: [] });
    expect(checkOf(resultsOf('lists-tokenless-refused'), 'STATUS-DELETE-6').message).toMatch(/actual: {3}HTTP 200 \[\]/);
  });

  it('made-up-tokens-read-relations: OAUTH-REVOKE-1 takes no answer of an operation that answers any token as evidence', () => {
    const revoke = checkOf(resultsOf('made-up-tokens-read-relations'), 'OAUTH-REVOKE-1');
    expect(revoke).toMatchObject({ status: 'not-judged' });
    expect(revoke.notJudged).toMatch(/^GET \/api\/v1\/accounts\/\d+\/following answered the revoked token, and answers a token the server never issued too/);
    expect(verdictsOf('made-up-tokens-read-relations').failed).toEqual(['OAUTH-PASSWORD-1']);
  });
});

// The gate's advice: each way a gate can break says what to do next.
import { describe, expect, it } from 'vitest';
import { gateAdvice } from './advice.ts';
import type { CheckResult, RunResults } from './results.ts';
import { sampleCheck, sampleResults } from './sample-results.ts';

const check = sampleCheck;
// The advice reads the verdict of the checks alone: the sample's verdict is FAIL whatever they are.
const results = (checks: CheckResult[], repeats?: number): RunResults => sampleResults(checks, { verdict: 'FAIL', ...(repeats ? { repeats } : {}) });

describe('gateAdvice', () => {
  it('should name a check that failed though no entry expects it as possibly intermittent, with the stability run that learns it', () => {
    expect(gateAdvice(results([check('STATUS-REBLOG-4', 'failed')]), 'ci/expectations.json', false)).toEqual([
      'Failed unexpectedly, though no entry of ci/expectations.json expects it (it passed when the file was written): possibly intermittent: STATUS-REBLOG-4. Learn whether it is, and widen its entry to the outcomes it shows: rerun with --expectations ci/expectations.json --repeat 5 --write-expectations ci/expectations.json',
    ]);
    // The run wrote the file itself: its own line says what changed.
    expect(gateAdvice(results([check('STATUS-REBLOG-4', 'failed')]), 'ci/expectations.json', true)).toEqual([]);
  });

  it('should advise widening the expected failures that now pass, and say what may explain one on an unchanged server and how to record it', () => {
    const passing = results([check('STATUS-REBLOG-4', 'passed', { outcome: 'unexpectedly-passing' })]);
    expect(gateAdvice(passing, 'e.json', false)).toEqual([
      'Expected failures that now pass: remove their entries once fixed for good, or rerun with --expectations e.json --write-expectations e.json to widen them to ["fail", "pass"]',
      'If the server did not change, a state only the run that wrote the file met may explain it (fresh accounts: an account that has never posted answers last_status_at null, RESOURCE-ACCOUNT-1). Record every outcome such a check shows with a stability run: rerun with --expectations e.json --repeat 5 --write-expectations e.json',
    ]);
  });

  it('should name the intermittent checks of a stability run that wrote no expectations', () => {
    const moving = check('STATUS-REBLOG-5', 'failed', { intermittent: true, repeats: [{ status: 'passed' }, { status: 'failed' }] });
    expect(gateAdvice(results([moving], 2), undefined, false)).toEqual([
      'Intermittent (their verdict differed between the 2 repeats): STATUS-REBLOG-5. A gate expects every outcome they showed once the file lists them: rerun with --write-expectations FILE (and --expectations FILE where it exists)',
    ]);
  });
});

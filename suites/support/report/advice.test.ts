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

  it('should advise widening the expected failures that now pass', () => {
    const passing = results([check('STATUS-REBLOG-4', 'passed', { outcome: 'unexpectedly-passing' })]);
    expect(gateAdvice(passing, 'e.json', false)).toEqual([
      'Expected failures that now pass: remove their entries once fixed for good, or rerun with --expectations e.json --write-expectations e.json to widen them to ["fail", "pass"]',
    ]);
  });

  it('should name the intermittent checks of a stability run that wrote no expectations', () => {
    const moving = check('STATUS-REBLOG-5', 'failed', { intermittent: true, repeats: [{ status: 'passed' }, { status: 'failed' }] });
    expect(gateAdvice(results([moving], 2), undefined, false)).toEqual([
      'Intermittent (their verdict differed between the 2 repeats): STATUS-REBLOG-5. A gate expects every outcome they showed once the file lists them: rerun with --write-expectations FILE (and --expectations FILE where it exists)',
    ]);
  });
});

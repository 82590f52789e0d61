// The stop of --max-failures: one count of failures for every worker of a run, which the command reads back.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { isStopReason, RunStop, runStop, stopAt } from './run-stop.ts';

describe('the stop of a run', () => {
  it('should stop every worker once the run met N failures, whichever worker met them', () => {
    const at = stopAt(2);
    // Each worker thread receives the configuration as a structured clone: the count is the same memory.
    const [one, other] = [new RunStop(structuredClone(at)), new RunStop(structuredClone(at))] as [RunStop, RunStop];
    one.failed();
    expect([one.reached, other.reached]).toEqual([false, false]);
    other.failed();
    expect([one.reached, other.reached, one.failures]).toEqual([true, true, 2]);
    expect(one.reason).toBe('not run: the run stopped after 2 failed checks (--max-failures, -x)');
    expect(isStopReason(one.reason)).toBe(true);
    expect(isStopReason('needs CONFORMANCE_TOKEN_B')).toBe(false);
    expect(new RunStop(stopAt(1)).reason).toBe('not run: the run stopped after 1 failed check (--max-failures, -x)');
  });

  it('should count, without --max-failures, every failure and stop nothing', () => {
    const stop = new RunStop(stopAt());
    for (let i = 0; i < 5; i++) stop.failed();
    expect([stop.failures, stop.reached]).toEqual([5, false]);
  });

  it('should let the command read the failures a worker thread counted', async () => {
    const at = stopAt(10);
    const worker = new Worker("const { workerData } = require('node:worker_threads'); Atomics.add(new Int32Array(workerData.failures), 0, 3);", { eval: true, workerData: at });
    await once(worker, 'exit');
    expect(new RunStop(at).failures).toBe(3);
  });

  it('should take the same stop for every file of a worker, and none where the count did not cross as shared memory', () => {
    const at = stopAt(1);
    expect(runStop(at)).toBe(runStop(at));
    expect(runStop(undefined)).toBeUndefined();
    expect(runStop({ after: 1, failures: new ArrayBuffer(4) as unknown as SharedArrayBuffer })).toBeUndefined();
  });
});

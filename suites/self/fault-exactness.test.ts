// Exactness, fault by fault: one deviation is one failure. Run the suite against the server with each single fault
// and prove that the failed clauses are exactly {that clause} (or those faults.ts ALSO_FAILS declares, with the
// reason), and that every check it makes unjudgeable is blocked naming it (or a clause faults.ts BLOCKS declares).
// Which files a fault can change is measured, not guessed: a first run of each suite file against a plain server
// records which faults the server was asked about; a file whose requests never ask about a fault runs exactly as it
// does without it, so each fault run takes only the files that reach its line, whole. All runs share one vitest
// process (suite-runner.ts). This costs several hundred file runs, so it is its own project (npm run test:exactness),
// which CI runs after npm test.
import { describe, expect, it } from 'vitest';
import { FAULTS, type Fault } from '../../fixtures/reference-server/faults.ts';
import { exactnessProblems, FAULT_SETTINGS, faultEnv, NARROWED, RUN_TIMEOUT_MS, SUITE_FILES } from './fault-runs.ts';
import { runSuites } from './run-cli.ts';
import type { SuiteRun } from './suite-runner.ts';

/** The runner is stopped after this long; the test waits a little longer, to report what it got. */
const RUNNER_TIMEOUT_MS = 1_800_000;

describe('fault exactness', () => {
  it('should fail exactly the broken clause for every single fault, and block only what it makes unjudgeable', async () => {
    const plainRuns: SuiteRun[] = SUITE_FILES.map((file) => ({ name: `plain ${file}`, files: [file], env: { CONFORMANCE_TIMEOUT_MS: RUN_TIMEOUT_MS } }));
    const plain = await runSuites(plainRuns, RUNNER_TIMEOUT_MS);
    const plainProblems = plain.outcomes.flatMap((o) => exactnessProblems(o, []).map((p) => `${o.name}: ${p}`));
    expect(plainProblems, 'the plain server must pass every check').toEqual([]);
    const reaching = (fault: Fault) => plain.outcomes.filter((o) => o.consulted.includes(fault)).map((o) => o.name.slice('plain '.length));

    const faults = (Object.keys(FAULTS) as Fault[]).filter((f) => !NARROWED || reaching(f).length > 0);
    const unreached = faults.filter((f) => !FAULT_SETTINGS[f] && reaching(f).length === 0);
    const runs: SuiteRun[] = faults.filter((f) => !unreached.includes(f)).map((f) => ({ name: f, files: FAULT_SETTINGS[f] ? SUITE_FILES : reaching(f), env: faultEnv([f]) }));
    const { outcomes, stdout, stderr, code, ms } = await runSuites(runs, RUNNER_TIMEOUT_MS);
    const byName = new Map(outcomes.map((o) => [o.name, o]));
    const problems = [
      ...unreached.map((f) => `${f}: no suite file's requests reach the line of this fault`),
      ...runs.flatMap((r) => exactnessProblems(byName.get(r.name), [r.name as Fault]).map((p) => `${r.name}: ${p}`)),
    ];
    const inexact = new Set(problems.map((p) => p.split(':')[0]));
    const blocked = outcomes.reduce((n, o) => n + o.checks.filter((c) => c.status === 'blocked').length, 0);
    console.log(`single faults exact ${faults.length - inexact.size}/${faults.length}, ${blocked} checks blocked in all (${(ms / 1000).toFixed(1)} s, ${runs.reduce((n, r) => n + r.files.length, 0)} file runs)`);
    if (problems.length) console.log(`not exact:\n${problems.join('\n')}`);
    if (code !== 0) console.log(`the fault runner exited with ${code}:\n${(stdout + stderr).slice(-3000)}`);
    expect(problems).toEqual([]);
  }, 2 * RUNNER_TIMEOUT_MS + 30_000);
});

// Sensitivity: a check that cannot fail is a defect. Every reference-server fault breaks one clause: run the checks
// of that clause against the server with that fault and prove that one of them fails. And one deviation, one
// failure, as real servers deviate in many places at once: each compound profile (faults.ts PROFILES) fails exactly
// the union of its faults' clauses, and every check it makes unjudgeable is blocked naming one of them. (Each single
// fault's exactness over whole files is fault-exactness.test.ts, its own project.) All runs share one vitest
// process (suite-runner.ts), one project and one embedded server per run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS, PROFILES, type Fault } from '../../fixtures/reference-server/faults.ts';
import { exactnessProblems, failedClauses, faultEnv, NARROWED, SUITE_FILES } from './fault-runs.ts';
import '../support/registered-checks.ts';
import { isRunWide } from '../support/run-wide.ts';
import { ROOT, runSuites } from './run-cli.ts';
import type { SuiteOutcome, SuiteRun } from './suite-runner.ts';

/** The runner is stopped after this long; the test waits a little longer, to report what it got. */
const RUNNER_TIMEOUT_MS = 480_000;

const SUITE_TEXTS = new Map(SUITE_FILES.map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));

/** The suite files with a check that names the clause. */
function filesOf(clause: string): string[] {
  const title = new RegExp(`it\\(\\s*['"\`]${clause}\\s`);
  return SUITE_FILES.filter((f) => title.test(SUITE_TEXTS.get(f) ?? ''));
}

function caught(fault: Fault, outcome: SuiteOutcome | undefined): string | undefined {
  if (!outcome) return 'the runner did not report on this fault';
  if (failedClauses(outcome).has(fault)) return undefined;
  const checks = outcome.checks.filter((c) => c.clause === fault).map((c) => `${c.title}: ${c.status}${c.blockedBy ? ` by ${c.blockedBy.clause ?? 'outside the contract'}` : ''}`);
  return `not caught; checks: ${checks.join('; ') || 'none ran'}${outcome.errors.length ? `; errors: ${outcome.errors.join('; ')}` : ''}`;
}

describe('fault coverage', () => {
  it('should fail a check naming the broken clause for every fault, and exactly the union of the clauses for every compound profile', async () => {
    const faults = (Object.keys(FAULTS) as Fault[]).filter((f) => !NARROWED || filesOf(f).length > 0);
    const unchecked = faults.filter((f) => filesOf(f).length === 0);
    // Only the checks of the broken clause run, to keep each fault run short; a run-wide clause's owning check judges
    // what the checks of its file before it met, so its files run whole.
    const singles: SuiteRun[] = faults
      .filter((f) => !unchecked.includes(f))
      .map((f) => ({ name: f, files: filesOf(f), env: faultEnv([f]), ...(isRunWide(f) ? {} : { testNamePattern: `(^| )${f} ` }) }));
    const profiles: SuiteRun[] = Object.entries(PROFILES).map(([name, profile]) => ({ name: `profile ${name}`, files: SUITE_FILES, env: faultEnv(profile.faults) }));
    const { outcomes, stdout, stderr, code, ms } = await runSuites([...singles, ...profiles], RUNNER_TIMEOUT_MS);
    const byName = new Map(outcomes.map((o) => [o.name, o]));
    const survivors = [
      ...unchecked.map((f) => `${f}: no check names this clause (no it('${f} ...') in suites/)`),
      ...singles.flatMap((r) => {
        const why = caught(r.name as Fault, byName.get(r.name));
        return why ? [`${r.name}: ${why}`] : [];
      }),
    ];
    const inexact = Object.entries(PROFILES).flatMap(([name, profile]) => exactnessProblems(byName.get(`profile ${name}`), profile.faults).map((p) => `profile ${name}: ${p}`));
    console.log(`faults caught ${faults.length - survivors.length}/${faults.length}; profiles exact ${profiles.length - new Set(inexact.map((p) => p.split(':')[0])).size}/${profiles.length} (${(ms / 1000).toFixed(1)} s)`);
    for (const [name, profile] of Object.entries(PROFILES)) {
      const o = byName.get(`profile ${name}`);
      console.log(`profile ${name}: ${profile.faults.length} faults, ${o ? failedClauses(o).size : 0} failed clauses, ${o?.checks.filter((c) => c.status === 'blocked').length ?? 0} checks blocked, ${o?.checks.filter((c) => c.status === 'passed').length ?? 0} passed`);
    }
    if (survivors.length) console.log(`survivors:\n${survivors.join('\n')}`);
    if (inexact.length) console.log(`profiles not exact:\n${inexact.join('\n')}`);
    if (code !== 0) console.log(`the fault runner exited with ${code}:\n${(stdout + stderr).slice(-3000)}`);
    expect(survivors).toEqual([]);
    expect(inexact).toEqual([]);
  }, RUNNER_TIMEOUT_MS + 30_000);
});

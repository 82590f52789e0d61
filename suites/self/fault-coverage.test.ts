// Sensitivity: a check that cannot fail is a defect. Every reference-server fault breaks one clause; run
// the checks of that clause against the server with that fault and prove that one of them fails.
// All faults run in one vitest process (suite-runner.ts), one project and one embedded server per fault.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS, type Fault } from '../../fixtures/reference-server/faults.ts';
import { ROOT, runSuites } from './run-cli.ts';
import type { SuiteOutcome, SuiteRun } from './suite-runner.ts';

/** Faults whose clause is only checked under a setting; the fault run switches it on. */
const FAULT_SETTINGS: Partial<Record<Fault, Record<string, string>>> = {
  'STATUS-WHITELIST-1': { CONFORMANCE_WHITELIST_MODE: '1' },
  // The card operation answers a Card only before its removal in 3.0.0.
  'STATUS-CARD-1': { CONFORMANCE_SERVER_VERSION: '2.9.0' },
  'RESOURCE-CARD-1': { CONFORMANCE_SERVER_VERSION: '2.9.0' },
};

/**
 * A fault that silences a stream makes its check wait for the whole timeout. The embedded server answers in
 * milliseconds, so a short wait still tells a missing event from a late one, and the stream faults stay cheap.
 */
const FAULT_RUN_TIMEOUT_MS = '3000';
/** The runner is stopped after this long; the test waits a little longer, to report what it got. */
const RUNNER_TIMEOUT_MS = 540_000;

const SUITE_FILES = readdirSync(join(ROOT, 'suites')).filter((f) => f.endsWith('.test.ts'));
const SUITE_TEXTS = new Map(SUITE_FILES.map((f) => [f, readFileSync(join(ROOT, 'suites', f), 'utf8')]));

/** The suite files with a check that names the clause. */
function filesOf(clause: string): string[] {
  const title = new RegExp(`it\\(\\s*['"\`]${clause}\\s`);
  return SUITE_FILES.filter((f) => title.test(SUITE_TEXTS.get(f) ?? '')).map((f) => `suites/${f}`);
}

/** Only the checks of the broken clause run, to keep each fault run short. */
function runOf(fault: Fault, files: string[]): SuiteRun {
  return {
    name: fault,
    files,
    env: { CONFORMANCE_TIMEOUT_MS: FAULT_RUN_TIMEOUT_MS, CONFORMANCE_FAULTS: fault, ...FAULT_SETTINGS[fault] },
    testNamePattern: `(^| )${fault} `,
  };
}

function verdict(fault: Fault, outcome: SuiteOutcome | undefined): string | undefined {
  if (!outcome) return 'the runner did not report on this fault';
  if (outcome.checks.some((c) => c.clause === fault && c.status === 'failed')) return undefined;
  const checks = outcome.checks.filter((c) => c.clause === fault).map((c) => `${c.title}: ${c.status}`);
  return `not caught; checks: ${checks.join('; ') || 'none ran'}${outcome.errors.length ? `; errors: ${outcome.errors.join('; ')}` : ''}`;
}

describe('fault coverage', () => {
  it('should fail a check naming the broken clause, for every reference-server fault', async () => {
    const faults = Object.keys(FAULTS) as Fault[];
    const unchecked = faults.filter((f) => filesOf(f).length === 0);
    const runs = faults.filter((f) => !unchecked.includes(f)).map((f) => runOf(f, filesOf(f)));
    const { outcomes, stdout, stderr, code, ms } = await runSuites(runs, RUNNER_TIMEOUT_MS);
    const byName = new Map(outcomes.map((o) => [o.name, o]));
    const survivors = [
      ...unchecked.map((f) => `${f}: no check names this clause (no it('${f} ...') in suites/)`),
      ...runs.flatMap((r) => {
        const why = verdict(r.name as Fault, byName.get(r.name));
        return why ? [`${r.name}: ${why}`] : [];
      }),
    ];
    console.log(`faults caught ${faults.length - survivors.length}/${faults.length} (${(ms / 1000).toFixed(1)} s)`);
    if (survivors.length) console.log(`survivors:\n${survivors.join('\n')}`);
    if (code !== 0) console.log(`the fault runner exited with ${code}:\n${(stdout + stderr).slice(-3000)}`);
    expect(survivors).toEqual([]);
  }, RUNNER_TIMEOUT_MS + 30_000);
});

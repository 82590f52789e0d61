// Sensitivity: a check that cannot fail is a defect. Every reference-server fault breaks one clause; run
// the suite against the server with that fault and prove that a check naming that clause fails.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS, type Fault } from '../../fixtures/reference-server/faults.ts';
import { inParallel, ROOT, runCli, type CliRun } from './run-cli.ts';

/** Faults whose clause is only checked under a setting; the fault run switches it on. */
const FAULT_SETTINGS: Partial<Record<Fault, Record<string, string>>> = {
  'STATUS-WHITELIST-1': { CONFORMANCE_WHITELIST_MODE: '1' },
};

/** The suite file whose checks name the clause: only that group runs, to keep each fault run short. */
function groupOf(clause: string): string | undefined {
  const suites = readdirSync(join(ROOT, 'suites')).filter((f) => f.endsWith('.test.ts'));
  const file = suites.find((f) => new RegExp(`it\\(\\s*['"\`]${clause}\\s`).test(readFileSync(join(ROOT, 'suites', f), 'utf8')));
  return file?.replace(/\.test\.ts$/, '');
}

function caught(fault: Fault, run: CliRun): boolean {
  return (run.results?.checks ?? []).some((c) => c.clause === fault && c.status === 'failed');
}

describe('fault coverage', () => {
  it('should fail the check of exactly the broken clause, for every reference-server fault', async () => {
    const faults = Object.keys(FAULTS) as Fault[];
    const outcomes = await inParallel(faults, 3, async (fault) => {
      const group = groupOf(fault);
      if (!group) return { fault, caught: false, why: 'no check names this clause' };
      const run = await runCli(['--fault', fault, '--group', group, '--only', fault], FAULT_SETTINGS[fault] ?? {});
      const why = `exit ${run.code}; checks: ${(run.results?.checks ?? []).map((c) => `${c.clause} ${c.status}`).join(', ') || run.stderr.slice(0, 300)}`;
      return { fault, caught: caught(fault, run) && run.code === 1, why };
    });
    const survivors = outcomes.filter((o) => !o.caught);
    console.log(`faults caught ${outcomes.length - survivors.length}/${outcomes.length}`);
    expect(survivors.map((s) => `${s.fault}: ${s.why}`)).toEqual([]);
  });
});

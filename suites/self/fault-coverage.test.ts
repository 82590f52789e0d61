// Sensitivity and exactness: a check that cannot fail is a defect, and one deviation is one failure. Every
// reference-server fault breaks one clause: run the suite against the server with that fault and prove that the
// failed clauses are exactly {that clause} (or with the few clauses faults.ts ALSO_FAILS declares, with the reason),
// and that every check it makes unjudgeable is blocked naming it (or a clause the fault declares, faults.ts BLOCKS). The compound profiles (faults.ts PROFILES), several
// faults at once as real servers deviate, must fail exactly the union of their clauses.
// Which files a fault can change is measured, not guessed: a first run of each suite file against a plain server
// records which faults the server was asked about; a file whose requests never ask about a fault runs exactly as
// it does without it, so each fault run takes only the files that reach its line. All runs share one vitest process
// (suite-runner.ts), one project and one embedded server per run.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALSO_FAILS, BLOCKS, FAULTS, PROFILES, type Fault } from '../../fixtures/reference-server/faults.ts';
import { ROOT, runSuites } from './run-cli.ts';
import type { RunCheck, SuiteOutcome, SuiteRun } from './suite-runner.ts';

/** Faults whose clause is only checked under a setting; their runs switch it on and take every file. */
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
const RUN_TIMEOUT_MS = '3000';
/** The runner is stopped after this long; the test waits a little longer, to report what it got. */
const RUNNER_TIMEOUT_MS = 480_000;

const SUITE_FILES = readdirSync(join(ROOT, 'suites')).filter((f) => f.endsWith('.test.ts')).map((f) => `suites/${f}`);

const failedClauses = (outcome: SuiteOutcome) => new Set(outcome.checks.filter((c) => c.status === 'failed').map((c) => c.failedClause ?? c.clause));
const describeCheck = (c: RunCheck) => `${c.title}: ${c.status}${c.blockedBy ? ` by ${c.blockedBy.clause ?? 'outside the contract'} (${c.blockedBy.summary})` : ''}${c.status === 'failed' ? ` [${(c.message ?? '').split('\n')[0]}]` : ''}`;

/**
 * What is wrong with a run of `faults`: failed clauses other than theirs, their clauses not failed, checks blocked
 * by something else than them (or what they declare they block), errors outside checks.
 */
function problemsOf(outcome: SuiteOutcome | undefined, faults: readonly Fault[], baseline: ReadonlyMap<string, RunCheck>): string[] {
  if (!outcome) return ['the runner did not report on this run'];
  const failed = failedClauses(outcome);
  const expected = new Set<string>([...faults, ...faults.flatMap((f) => ALSO_FAILS[f]?.clauses ?? [])]);
  const allowedCauses = new Set<string>([...faults, ...faults.flatMap((f) => BLOCKS[f]?.clauses ?? [])]);
  const problems = [
    ...outcome.errors.map((e) => `error outside checks: ${e}`),
    ...faults.filter((f) => !failed.has(f)).map((f) => `${f} not caught: ${outcome.checks.filter((c) => c.clause === f).map(describeCheck).join('; ') || 'no check of it ran'}`),
    ...outcome.checks.filter((c) => c.status === 'failed' && !expected.has(c.failedClause ?? c.clause)).map((c) => `also failed: ${describeCheck(c)}`),
    ...outcome.checks
      .filter((c) => c.status === 'blocked' && !(c.blockedBy?.clause && allowedCauses.has(c.blockedBy.clause)))
      .filter((c) => baseline.get(`${c.file} ${c.title}`)?.status !== 'blocked')
      .map((c) => `blocked by another cause: ${describeCheck(c)}`),
  ];
  return problems;
}

describe('fault coverage', () => {
  it('should fail exactly the broken clause for every single fault, and exactly the union for every compound profile', async () => {
    // The plain runs: one per suite file, to learn which faults each file's requests reach.
    const plainRuns: SuiteRun[] = SUITE_FILES.map((file) => ({ name: `plain ${file}`, files: [file], env: { CONFORMANCE_TIMEOUT_MS: RUN_TIMEOUT_MS } }));
    const plain = await runSuites(plainRuns, RUNNER_TIMEOUT_MS);
    const baseline = new Map(plain.outcomes.flatMap((o) => o.checks.map((c) => [`${c.file} ${c.title}`, c] as const)));
    const plainProblems = plain.outcomes.flatMap((o) => problemsOf(o, [], baseline).map((p) => `${o.name}: ${p}`));
    expect(plainProblems, 'the plain server must pass every check').toEqual([]);
    const reaching = (fault: Fault) => plain.outcomes.filter((o) => o.consulted.includes(fault)).map((o) => o.name.slice('plain '.length));

    const faults = Object.keys(FAULTS) as Fault[];
    const unreached = faults.filter((f) => !FAULT_SETTINGS[f] && reaching(f).length === 0);
    const env = (list: readonly Fault[]) => ({ CONFORMANCE_TIMEOUT_MS: RUN_TIMEOUT_MS, CONFORMANCE_FAULTS: list.join(','), ...Object.assign({}, ...list.map((f) => FAULT_SETTINGS[f] ?? {})) });
    const runs: SuiteRun[] = [
      ...faults.filter((f) => !unreached.includes(f)).map((f) => ({ name: f, files: FAULT_SETTINGS[f] ? SUITE_FILES : reaching(f), env: env([f]) })),
      ...Object.entries(PROFILES).map(([name, profile]) => ({ name: `profile ${name}`, files: SUITE_FILES, env: env(profile.faults) })),
    ];
    const { outcomes, stdout, stderr, code, ms } = await runSuites(runs, RUNNER_TIMEOUT_MS);
    const byName = new Map(outcomes.map((o) => [o.name, o]));
    const singles = runs.filter((r) => !r.name.startsWith('profile ')).flatMap((r) => problemsOf(byName.get(r.name), [r.name as Fault], baseline).map((p) => `${r.name}: ${p}`));
    const profiles = Object.entries(PROFILES).flatMap(([name, profile]) => problemsOf(byName.get(`profile ${name}`), profile.faults, baseline).map((p) => `profile ${name}: ${p}`));
    const survivors = [...unreached.map((f) => `${f}: no suite file's requests reach the line of this fault`), ...singles];
    const exact = faults.length - new Set(survivors.map((s) => s.split(':')[0])).size;
    const blockedBy = (o?: SuiteOutcome) => o?.checks.filter((c) => c.status === 'blocked').length ?? 0;
    console.log(`single faults exact ${exact}/${faults.length}; profiles exact ${Object.keys(PROFILES).length - new Set(profiles.map((p) => p.split(':')[0])).size}/${Object.keys(PROFILES).length} (${(ms / 1000).toFixed(1)} s, ${runs.reduce((n, r) => n + r.files.length, 0)} file runs)`);
    for (const name of Object.keys(PROFILES)) {
      const o = byName.get(`profile ${name}`);
      console.log(`profile ${name}: ${o ? failedClauses(o).size : 0} failed clauses, ${blockedBy(o)} checks blocked, ${o?.checks.filter((c) => c.status === 'passed').length ?? 0} passed`);
    }
    if (survivors.length || profiles.length) console.log(`not exact:\n${[...survivors, ...profiles].join('\n')}`);
    if (code !== 0) console.log(`the fault runner exited with ${code}:\n${(stdout + stderr).slice(-3000)}`);
    expect(survivors).toEqual([]);
    expect(profiles).toEqual([]);
  }, 2 * RUNNER_TIMEOUT_MS + 30_000);
});

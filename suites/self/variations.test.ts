// Specificity: an answer the contract allows must never fail a check. Run the whole suite against the reference
// server once plain and once under each harmless variation (fixtures/reference-server/variations.ts), all in one
// vitest process, and prove that every check that passes against the plain server passes under each variation.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VARIATIONS, type Variation } from '../../fixtures/reference-server/variations.ts';
import { ROOT, runSuites } from './run-cli.ts';
import type { SuiteOutcome, SuiteRun } from './suite-runner.ts';

const PLAIN = 'plain';
/** A guard against a hang only, far beyond what a busy machine takes (5 minutes at a load of 40, 2026-12-06). */
const RUNNER_TIMEOUT_MS = 1_200_000;
const SUITE_FILES = readdirSync(join(ROOT, 'suites')).filter((f) => f.endsWith('.test.ts')).map((f) => `suites/${f}`);

const firstLine = (text = '') => text.split('\n')[0] ?? '';

/** What went wrong in a run: failed, blocked or not judged checks, errors outside checks, and checks that passed plain but not here. */
function problemsOf(outcome: SuiteOutcome | undefined, plain: SuiteOutcome | undefined): string[] {
  if (!outcome) return ['the runner did not report on this run'];
  const passedPlain = new Set(plain?.checks.filter((c) => c.status === 'passed').map((c) => `${c.file} ${c.title}`));
  return [
    ...outcome.errors,
    ...outcome.checks.filter((c) => c.status === 'failed').map((c) => `${c.title}: ${firstLine(c.message)}`),
    ...outcome.checks.filter((c) => c.status === 'blocked').map((c) => `${c.title}: blocked by ${c.blockedBy?.clause ?? 'outside the contract'} (${c.blockedBy?.summary ?? ''})`),
    ...outcome.checks.filter((c) => c.status === 'not-judged').map((c) => `${c.title}: not judged (${c.notJudged ?? ''})`),
    ...outcome.checks
      .filter((c) => c.status === 'skipped' && passedPlain.has(`${c.file} ${c.title}`))
      .map((c) => `${c.title}: skipped, but passes against the plain server`),
  ];
}

describe('harmless variations', () => {
  it('should keep every check green under each variation the contract allows', async () => {
    const variations = Object.keys(VARIATIONS) as Variation[];
    const runs: SuiteRun[] = [
      { name: PLAIN, files: SUITE_FILES, env: {} },
      ...variations.map((v) => ({ name: v, files: SUITE_FILES, env: { CONFORMANCE_VARIATIONS: v } })),
    ];
    const { outcomes, stdout, stderr, code, ms } = await runSuites(runs, RUNNER_TIMEOUT_MS);
    const byName = new Map(outcomes.map((o) => [o.name, o]));
    const plain = byName.get(PLAIN);
    const plainProblems = problemsOf(plain, undefined);
    const failures = variations.flatMap((v) => problemsOf(byName.get(v), plain).map((p) => `${v}: ${p}`));
    const passed = variations.filter((v) => !failures.some((f) => f.startsWith(`${v}: `))).length;
    console.log(`variations passed ${passed}/${variations.length} (${plain?.checks.length ?? 0} checks each, ${(ms / 1000).toFixed(1)} s)`);
    if (failures.length) console.log(`false alarms:\n${failures.join('\n')}`);
    if (code !== 0) console.log(`the runner exited with ${code}:\n${(stdout + stderr).slice(-3000)}`);
    // Without a green plain run no variation can be judged.
    expect(plainProblems.map((p) => `${PLAIN}: ${p}`)).toEqual([]);
    expect(failures).toEqual([]);
  }, RUNNER_TIMEOUT_MS + 30_000);
});

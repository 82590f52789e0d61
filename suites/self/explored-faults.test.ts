// Every explored check has a fault of its own, or a reason why not (explored-faults.ts): a new explored check without
// one fails here. That each fault fails exactly its explored check is fault-exactness-settings.test.ts's to prove, by
// running it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { faultClause } from '../../fixtures/reference-server/faults.ts';
import { CLAUSE_ID } from '../support/judge/clauses.ts';
import { EXPLORED_FAULTS, WITHOUT_EXPLORED_FAULT } from './explored-faults.ts';
import { FAULT_SETTINGS } from './fault-runs.ts';

/** The clauses of the checks of suites/explore.test.ts that judge explored inputs (suites/declared-checks.json, written by npm run docs). */
function exploredClauses(): string[] {
  const { groups } = JSON.parse(readFileSync(new URL('../declared-checks.json', import.meta.url), 'utf8')) as { groups: { file: string; checks: { title: string }[] }[] };
  return groups
    .filter(({ file }) => file === 'suites/explore.test.ts')
    .flatMap(({ checks }) => checks)
    .filter(({ title }) => title.includes(' explored inputs: '))
    .map(({ title }) => CLAUSE_ID.exec(title)?.[0] ?? title);
}

describe('a fault per explored check', () => {
  it('should name a fault for each explored check, or why it has none, and not both', () => {
    const clauses = exploredClauses();
    expect(clauses.length).toBeGreaterThan(0);
    expect(clauses.filter((clause) => (EXPLORED_FAULTS[clause] === undefined) === (WITHOUT_EXPLORED_FAULT[clause] === undefined))).toEqual([]);
    expect([...Object.keys(EXPLORED_FAULTS), ...Object.keys(WITHOUT_EXPLORED_FAULT)].filter((clause) => !clauses.includes(clause))).toEqual([]);
  });

  it('should name faults of the check\'s clause, whose runs explore', () => {
    const wrong = Object.entries(EXPLORED_FAULTS).filter(([clause, fault]) => fault === undefined || faultClause(fault) !== clause || FAULT_SETTINGS[fault]?.CONFORMANCE_EXPLORE === undefined);
    expect(wrong).toEqual([]);
  });
});

// The catalogue and the checks cover each other: every testable clause has a check titled with its id, every
// check title names a clause of the catalogue, and every reference-server fault breaks a testable clause.
// Registered checks (registered-checks.ts) need no exception: each has its own titled check in the Limits group.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULTS, faultClause, type Fault } from '../../../fixtures/reference-server/faults.ts';
import { checkTitles, type Title as SourceTitle } from './check-titles.ts';
import { CLAUSE_ID, CLAUSES, findClause } from './clauses.ts';

const SUITES = resolve(import.meta.dirname, '../..');

interface Title extends SourceTitle {
  file: string;
}

function suiteTitles(): Title[] {
  return readdirSync(SUITES)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .flatMap((name) => checkTitles(readFileSync(join(SUITES, name), 'utf8')).map((title) => ({ file: `suites/${name}`, ...title })));
}

const titles = suiteTitles();
const where = (t: Title) => `${t.file}:${t.line}`;

describe('clause catalogue', () => {
  it('should give every clause a unique well-formed id, a section, the contract\'s words, and a release number for since', () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const clause of CLAUSES) {
      if (seen.has(clause.id)) problems.push(`${clause.id}: listed twice`);
      seen.add(clause.id);
      if (CLAUSE_ID.exec(clause.id)?.[0] !== clause.id) problems.push(`${clause.id}: not of the form AREA-TOPIC-N`);
      if (!clause.section.trim() || !clause.words.trim()) problems.push(`${clause.id}: no section or no words`);
      if (clause.since !== undefined && !/^\d+\.\d+\.\d+$/.test(clause.since)) problems.push(`${clause.id}: since "${clause.since}" is not a release number`);
    }
    expect(problems).toEqual([]);
  });

  it('should find the title of every check in the suites readable', () => {
    expect(titles.length).toBeGreaterThan(0);
    expect(titles.filter((t) => t.text === undefined).map((t) => `${where(t)}: the title is not a plain string literal`)).toEqual([]);
  });

  it('should have every check title name an existing clause', () => {
    const strays = titles
      .filter((t) => t.text !== undefined)
      .map((t) => ({ t, id: CLAUSE_ID.exec(t.text ?? '')?.[0] }))
      .filter(({ id }) => !id || !findClause(id))
      .map(({ t, id }) => `${where(t)}: ${id ? `${id} is not in suites/support/judge/clauses.ts` : `"${t.text}" does not start with a clause id`}`);
    expect(strays).toEqual([]);
  });

  it('should cover every testable clause (kind rule) by at least one check titled with its id', () => {
    const checked = new Set(titles.map((t) => CLAUSE_ID.exec(t.text ?? '')?.[0]));
    const uncovered = CLAUSES.filter((c) => c.kind === 'rule' && !checked.has(c.id)).map((c) => `${c.id} (${c.section}): ${c.words}`);
    expect(uncovered).toEqual([]);
  });

  it('should name every reference-server fault after a testable clause', () => {
    const strays = (Object.keys(FAULTS) as Fault[]).filter((id) => findClause(faultClause(id))?.kind !== 'rule');
    expect(strays).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../talk/http.ts';
import { checkTitles } from './check-titles.ts';
import { CLAUSE_ID, findClause } from './clauses.ts';
import { expectationOf, exploredClauses, modelLines, verdictOf } from './explore-oracle.ts';

const answer = (status: number, body: unknown): Exchange =>
  ({ method: 'POST', url: '', path: '/api/v1/statuses/1/favourite', actor: 'A', requestHeaders: {}, headers: { 'content-type': 'application/json' }, status, text: JSON.stringify(body), truncated: false, ms: 1 }) as Exchange;

describe('the oracle of the explored inputs', () => {
  it('should name only clauses of the catalogue, each with a check of the explore group', () => {
    const source = readFileSync(new URL('../../explore.test.ts', import.meta.url), 'utf8');
    const checked = new Set(checkTitles(source).map(({ text }) => CLAUSE_ID.exec(text ?? '')?.[0]));
    for (const id of exploredClauses()) {
      expect(findClause(id), id).toBeDefined();
      expect(checked.has(id), `a check of ${id} in suites/explore.test.ts`).toBe(true);
    }
  });

  it('should take the Errors row for an id that names nothing, and a server error there as its failure', () => {
    const expectation = expectationOf('favourite', 'malformed');
    expect(expectation).toMatchObject({ kind: 'refused', clause: 'STATUS-FAV-5' });
    expect(verdictOf(expectation, answer(404, { error: 'Record not found' })).holds).toBe(true);
    expect(verdictOf(expectation, answer(500, { error: 'Internal server error' })).holds).toBe(false);
    expect(verdictOf(expectation, answer(200, { id: '1', favourited: true })).holds).toBe(false);
  });

  it('should take the success and its flag for a visible status, a pinned left unshown as not pinned', () => {
    expect(verdictOf(expectationOf('favourite', 'own'), answer(200, { id: '1', favourited: true })).holds).toBe(true);
    expect(verdictOf(expectationOf('favourite', 'own'), answer(200, { id: '1', favourited: false })).holds).toBe(false);
    expect(verdictOf(expectationOf('unpin', 'visible'), answer(200, { id: '1' })).holds).toBe(true);
    expect(verdictOf(expectationOf('pin', 'own'), answer(200, { id: '1' })).holds).toBe(false);
    expect(verdictOf(expectationOf('reblog', 'visible'), answer(200, { id: '2', reblog: { id: '1', reblogged: true } })).holds).toBe(true);
  });

  it('should judge only a server error where the contract leaves the answer open', () => {
    const open = expectationOf('mute', 'visible');
    expect(open.kind).toBe('open');
    expect(verdictOf(open, answer(422, { error: 'not in the thread' })).holds).toBe(true);
    expect(verdictOf(open, answer(502, {})).holds).toBe(false);
  });

  it('should show every operation and class of the model, with what it must answer', () => {
    const lines = modelLines();
    expect(lines).toContain('favourite (POST /api/v1/statuses/:id/favourite)');
    expect(lines.some((line) => /^ {2}malformed +HTTP 404 \{"error": "Record not found"\} \(STATUS-FAV-5\)$/.test(line))).toBe(true);
  });
});

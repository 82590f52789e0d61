import { describe, expect, it } from 'vitest';
import { BASE_ROW, formOf, type CreateRow, type SentCreation } from '../act/explore-create-model.ts';
import type { Exchange } from '../talk/http.ts';
import { createInstances, leadClause } from './explore-create-oracle.ts';

const answer = (status: number, body: unknown): Exchange =>
  ({ method: 'POST', url: '', path: '/api/v1/statuses', actor: 'B', requestHeaders: {}, headers: { 'content-type': 'application/json' }, status, text: JSON.stringify(body), truncated: false, ms: 1 }) as Exchange;
const sent = (row: CreateRow, exchange: Exchange, reads: Partial<SentCreation> = {}): SentCreation => ({ input: { row, drawnBy: 'covering', drawn: '9' }, form: formOf(row, { now: 0, drawn: '9' }), exchange, ...reads });
const failed = (s: SentCreation) => createInstances(s).filter((i) => !i.holds).map((i) => i.clause);

describe('the oracle of the explored creations', () => {
  const row: CreateRow = { ...BASE_ROW, spoiler_text: 'a warning', visibility: 'private' };
  const status = { id: '1', created_at: '2026-01-01T00:00:00Z', spoiler_text: 'conformance probe: an explored warning', visibility: 'private', sensitive: false, language: null };

  it('should judge the effects on the answer and on the reads, a private status refused to another account', () => {
    expect(failed(sent(row, answer(200, status), { ownerRead: answer(200, status), otherRead: answer(404, { error: 'Record not found' }) }))).toEqual([]);
    expect(failed(sent(row, answer(200, { ...status, spoiler_text: '' }), { ownerRead: answer(200, { ...status, spoiler_text: '' }) }))).toEqual(['STATUS-CREATE-2']);
    expect(failed(sent(row, answer(200, status), { ownerRead: answer(200, { ...status, spoiler_text: '' }) }))).toEqual(['STATUS-EFFECT-2']);
    expect(failed(sent(row, answer(200, status), { otherRead: answer(200, status) }))).toEqual(['STATUS-READ-3']);
  });

  it('should want a refusal where a rule refuses, and leave an open row\'s refusal alone', () => {
    expect(failed(sent({}, answer(200, status)))).toEqual(['STATUS-PARAMS-1']);
    expect(failed(sent({}, answer(500, { error: 'x' })))).toEqual(['STATUS-PARAMS-1']);
    expect(createInstances(sent({ ...BASE_ROW, poll: 'one option' }, answer(422, { error: 'x' })))).toEqual([]);
  });

  it('should report a refusal of valid parameters under the effect of the smallest row\'s parameter', () => {
    expect(leadClause(BASE_ROW)).toBe('STATUS-CREATE-1');
    const big = sent({ ...row, language: 'en' }, answer(422, { error: 'x' }));
    const smallest = sent({ ...BASE_ROW, language: 'en' }, answer(422, { error: 'x' }));
    expect(createInstances(big, smallest).map((i) => i.clause)).toEqual(['STATUS-CREATE-5']);
  });
});

// A check's judgement is a function of recorded exchanges: these judge answers as a server would have given them,
// without one. The title's clause id is the clause a failure names, as in the suites.
import { describe, expect, it, TestRunner } from 'vitest';
import type { Exchange } from '../talk/http.ts';
import { failureOf, recorded } from './recorded.ts';
import { checkEach, expectError, expectOk } from './verify.ts';

/** An answer to A's unbookmark as the HTTP layer records it. */
const answer = (status: number | undefined, body: unknown, extra: Partial<Exchange> = {}) => recorded({ method: 'POST', path: '/api/v1/statuses/1/unbookmark' }, status, body, extra);

describe('judging recorded exchanges', () => {
  it('STATUS-BOOKMARK-3 passes a recorded 404 "Record not found"', () => {
    expect(failureOf(() => expectError(answer(404, { error: 'Record not found' }), 404, 'Record not found'))).toBeUndefined();
  });

  it('STATUS-BOOKMARK-3 fails a recorded 200, naming the clause, the expected answer and the one given', () => {
    const failure = failureOf(() => expectError(answer(200, { id: '1', bookmarked: false }), 404, 'Record not found'));
    expect(failure).toMatchObject({ clause: 'STATUS-BOOKMARK-3', expected: 'HTTP 404 {"error": "Record not found"}' });
    expect(failure?.actual).toMatch(/^HTTP 200 /);
  });

  it('STATUS-FAV-1 reads a recorded Status answer as the Status it is', () => {
    const status = expectOk<{ id: string; favourited: boolean }>(answer(200, { id: '7', favourited: true }), 'Status');
    expect(status).toMatchObject({ id: '7', favourited: true });
  });

  it('STATUS-FAV-1 fails an answer that is no JSON object', () => {
    expect(failureOf(() => expectOk(answer(200, '<html>sign in</html>', { headers: { 'content-type': 'text/html' } }), 'Status'))).toMatchObject({ clause: 'STATUS-FAV-1' });
  });

  describe('every instance judged on its own answer', () => {
    const repeat = (path: string, status: number) => answer(status, status === 500 ? 'Internal server error' : { id: '1' }, { path, url: `http://127.0.0.1:1${path}` });
    const belowServerError = (exchange: Exchange) => ({ holds: (exchange.status ?? 500) < 500, exchange });

    it('STATUS-REPEAT-1 shows each repeat that answered a server error, counted, the first with its exchange', (context) => {
      const failure = failureOf(() => checkEach([repeat('/api/v1/statuses/1/pin', 500), repeat('/api/v1/statuses/2/reblog', 500)].map(belowServerError), 'an answer below HTTP 500'));
      expect(failure).toMatchObject({ clause: 'STATUS-REPEAT-1', expected: 'an answer below HTTP 500' });
      expect(failure?.actual).toMatch(/^2 of 2 broke it:\n {2}1\. POST \/api\/v1\/statuses\/1\/pin \(as A\): HTTP 500 .*\n {2}2\. POST \/api\/v1\/statuses\/2\/reblog \(as A\): HTTP 500 /);
      expect(failure?.exchange).toContain('/api/v1/statuses/1/pin');
      expect(context.task.meta.judged).toBe(2);
    });

    it('STATUS-REPEAT-1 fails one broken instance as a single answer, and passes where every one holds', () => {
      const failure = failureOf(() => checkEach([repeat('/api/v1/statuses/1/pin', 200), repeat('/api/v1/statuses/2/reblog', 500)].map(belowServerError), 'an answer below HTTP 500'));
      expect(failure?.actual).toMatch(/^HTTP 500 /);
      expect(failure?.exchange).toContain('/api/v1/statuses/2/reblog');
      expect(failureOf(() => checkEach([repeat('/api/v1/statuses/1/pin', 200)].map(belowServerError), 'an answer below HTTP 500'))).toBeUndefined();
    });
  });
});

describe('an error text the title names', () => {
  const meta = () => TestRunner.getCurrentTest()?.meta.statusCodeOnly;

  it('STATUS-BOOKMARK-3 answers 404 "Record not found": a pass on another text says it judged the status code only', () => {
    expectError(answer(404, { error: 'Not Found' }), 404, 'Record not found');
    expect(meta()).toEqual({ named: 'Record not found', sent: '{"error": "Not Found"}' });
  });

  it('STATUS-BOOKMARK-3 answers 404 "Record not found": a pass without an error body says so too', () => {
    expectError(answer(404, 'gone', { headers: { 'content-type': 'text/plain' } }), 404, 'Record not found');
    expect(meta()?.sent).toMatch(/^no \{"error"\} text \(/);
  });

  it('STATUS-BOOKMARK-3 answers 404 "Record not found": the text the title names, sent, leaves nothing to say', () => {
    expectError(answer(404, { error: 'Record not found' }), 404, 'Record not found');
    expect(meta()).toBeUndefined();
  });

  it('STATUS-BOOKMARK-3 a title that names no error text has nothing to correct', () => {
    expectError(answer(404, { error: 'Not Found' }), 404, 'Record not found');
    expect(meta()).toBeUndefined();
  });
});

// Run-wide clauses: what a suite file keeps of each clause, and how its owning check judges it (the one result per
// clause the reporter makes of every file's observations: report/run-wide-results.test.ts).
import { describe, expect, it } from 'vitest';
import { HttpClient, plannedCall, type Exchange } from '../talk/http.ts';
import { ClauseFailure } from './clauses.ts';
import { judgedOnce, observeMismatch, runWideClause, runWideSnapshot } from './run-wide.ts';
import { expectNoMismatch } from './run-wide-owner.ts';

describe('observations of one suite file', () => {
  it('should keep the first of each distinct mismatch and count what was judged', () => {
    judgedOnce('ERRORS-BODY-1');
    judgedOnce('ERRORS-BODY-1');
    observeMismatch('ERRORS-BODY-1', '404 text/plain', 'a JSON body {"error": string}', 'HTTP 404: Not found');
    observeMismatch('ERRORS-BODY-1', '404 text/plain', 'a JSON body {"error": string}', 'HTTP 404: Gone');
    observeMismatch('ERRORS-BODY-1', '401 text/plain', 'a JSON body {"error": string}', 'HTTP 401: Unauthorized');
    const { judged, mismatches } = runWideSnapshot();
    expect(judged['ERRORS-BODY-1']).toBe(2);
    expect(Object.values(mismatches['ERRORS-BODY-1'] ?? {}).map((m) => m.actual)).toEqual(['HTTP 404: Not found', 'HTTP 401: Unauthorized']);
  });

  it('should fail the owning check once for all the distinct mismatches of its clause', () => {
    let failure: unknown;
    try {
      expectNoMismatch('ERRORS-BODY-1');
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ClauseFailure);
    expect((failure as ClauseFailure).data.clause).toBe('ERRORS-BODY-1');
    expect((failure as ClauseFailure).message).toContain('2 distinct mismatches');
  });

  it('should pass the owning check when what was judged kept the clause', () => {
    judgedOnce('RESOURCE-TOKEN-1');
    expect(() => expectNoMismatch('RESOURCE-TOKEN-1')).not.toThrow();
  });

  it('should take a new run-wide clause only from the catalogue, and only once', () => {
    expect(() => runWideClause('NO-SUCH-CLAUSE-1', 'nothing')).toThrow();
    expect(() => runWideClause('RESOURCE-STATUS-1', 'again')).toThrow(/run-wide clause already/);
  });
});

describe('mismatches of requests sent together', () => {
  it('should keep and list them in the order the requests were issued, whichever answer came first', async () => {
    const client = new HttpClient('http://server.invalid', 'A', undefined, 1_000, 'conformance-test');
    // Issued together (built, never sent); their answers come last first.
    const [first, second, third] = (await Promise.all([1, 2, 3].map((n) => plannedCall(() => client.send('GET', `/api/v1/statuses/${n}`))))) as Exchange[];
    observeMismatch('ERRORS-TEXT-1', 'one mismatch', 'expected', 'seen in the third', third);
    observeMismatch('ERRORS-TEXT-1', 'another mismatch', 'expected', 'seen in the second', second);
    observeMismatch('ERRORS-TEXT-1', 'another mismatch', 'expected', 'seen in the first', first);
    const kept = Object.values(runWideSnapshot().mismatches['ERRORS-TEXT-1'] ?? {}).map((m) => m.actual);
    expect(kept).toEqual(['seen in the first', 'seen in the third']);
  });
});

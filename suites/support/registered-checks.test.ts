// The registered per-response checks: each clause's function on responses that keep and break it, and the
// run-wide results the reporter gets from them.
import type { TaskMeta } from 'vitest';
import { describe, expect, it } from 'vitest';
import type { Exchange } from './http.ts';
import { operationOf, registeredCheckResults, violationsOf } from './registered-checks.ts';
import type { CheckResult } from './results.ts';

const DATE = 'Thu, 02 Jan 2025 03:04:05 GMT';
const LATER = '2025-01-02T03:09:05.000Z';

function exchangeWith(headers: Record<string, string>): Exchange {
  return { method: 'GET', url: 'http://server.invalid/api/v1/statuses/1', path: '/api/v1/statuses/1', actor: 'A', requestHeaders: {}, status: 200, headers: { date: DATE, ...headers }, text: '{}', truncated: false, ms: 1 };
}

const good = { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '299', 'x-ratelimit-reset': LATER };
const broken = (headers: Record<string, string>) => [...violationsOf(exchangeWith({ ...good, ...headers })).keys()];

describe('registered checks', () => {
  it('should find nothing wrong with a response that keeps every rule', () => {
    expect(broken({})).toEqual([]);
    expect(broken({ 'x-ratelimit-reset': String(Date.parse(LATER) / 1000) })).toEqual([]);
    expect(broken({ 'x-ratelimit-reset': 'Thu, 02 Jan 2025 03:04:05 GMT' })).toEqual([]);
  });

  it('should name the one clause a response breaks', () => {
    expect([...violationsOf(exchangeWith({ 'x-ratelimit-limit': '300', 'x-ratelimit-reset': LATER })).keys()]).toEqual(['LIMITS-HEADERS-1']);
    expect(broken({ 'x-ratelimit-remaining': '0.997' })).toEqual(['LIMITS-HEADERS-2']);
    expect(broken({ 'x-ratelimit-remaining': '-1' })).toEqual(['LIMITS-HEADERS-2']);
    expect(broken({ 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '290' })).toEqual(['LIMITS-HEADERS-3']);
    expect(broken({ 'x-ratelimit-reset': '300' })).toEqual(['LIMITS-HEADERS-4']);
    expect(broken({ 'x-ratelimit-reset': '2025-01-02T03:00:00.000Z' })).toEqual(['LIMITS-HEADERS-4']);
  });

  it('should warn of a server error to a well-formed request, on /oauth/* too, but not to one sent malformed on purpose', () => {
    const serverError = { ...exchangeWith(good), method: 'POST', path: '/api/v1/statuses/117/favourite', status: 500, text: '{"error":"Internal server error"}' };
    expect([...violationsOf(serverError).keys()]).toEqual(['ERRORS-5XX-1']);
    expect(violationsOf(serverError).get('ERRORS-5XX-1')?.actual).toBe('HTTP 500 to POST /api/v1/statuses/:id/favourite (as A): {"error":"Internal server error"}');
    expect([...violationsOf({ ...serverError, malformed: true }).keys()]).toEqual([]);
    expect([...violationsOf({ ...serverError, path: '/oauth/token', headers: {}, text: 'oops' }).keys()]).toEqual(['ERRORS-5XX-1']);
    expect([...violationsOf({ ...serverError, status: 422 }).keys()]).toEqual([]);
  });

  it('should name an operation by its method and path template, ids as :id', () => {
    const op = (method: string, path: string) => operationOf({ ...exchangeWith(good), method, path });
    expect(op('GET', '/api/v1/statuses/117664065693548544?x=1')).toBe('GET /api/v1/statuses/:id');
    expect(op('DELETE', '/api/v1/media/01HZX3ABCDEFGHJKMNPQRSTVWX')).toBe('DELETE /api/v1/media/:id');
    expect(op('POST', '/api/v2/media')).toBe('POST /api/v2/media');
    expect(op('GET', '/api/v1/accounts/verify_credentials')).toBe('GET /api/v1/accounts/verify_credentials');
  });

  it('should describe the violation with the exchange that showed it', () => {
    const violation = violationsOf(exchangeWith({ ...good, 'x-ratelimit-reset': '300' })).get('LIMITS-HEADERS-4');
    expect(violation?.actual).toBe('X-RateLimit-Reset: "300" is not a timestamp');
    expect(violation?.exchange).toContain('GET /api/v1/statuses/1');
  });
});

describe('registeredCheckResults', () => {
  const own = (clause: string, status: CheckResult['status']): CheckResult => ({
    clause,
    title: `${clause} this group`,
    group: 'Limits',
    file: 'suites/limits.test.ts',
    line: 7,
    status,
    outcome: status,
    severity: 'MUST',
    durationMs: 0,
    observations: [],
  });
  const violation = { expected: 'the three X-RateLimit headers', actual: 'no x-ratelimit-reset', exchange: '  request:  GET /api/v1/statuses/1  (as A)' };
  const metas: TaskMeta[] = [{ registered: { responses: 3, violations: {} } }, { registered: { responses: 4, violations: { 'LIMITS-HEADERS-1': violation } } }];

  it('should judge a clause over every file of the run when its check in the Limits group ran', () => {
    const results = registeredCheckResults(metas, [own('LIMITS-HEADERS-1', 'passed'), own('LIMITS-HEADERS-2', 'passed'), own('LIMITS-HEADERS-3', 'skipped')], []);
    expect(results.map((r) => [r.clause, r.status, r.line])).toEqual([
      ['LIMITS-HEADERS-1', 'failed', 7],
      ['LIMITS-HEADERS-2', 'passed', 7],
    ]);
    expect(results[0]?.message).toContain('actual:   no x-ratelimit-reset');
    expect(results[1]?.observations).toEqual(['7 /api/* responses judged across the run']);
  });

  it('should report a clause judged per operation once for each operation, across files', () => {
    const fiveHundred = (operation: string) => ({ expected: 'an answer below HTTP 500', actual: `HTTP 500 to ${operation} (as A): {}`, exchange: `  request:  ${operation}`, operation });
    const fav = fiveHundred('POST /api/v1/statuses/:id/favourite');
    const read = fiveHundred('GET /api/v1/statuses/:id');
    const observed: TaskMeta[] = [
      { registered: { responses: 2, violations: { 'ERRORS-5XX-1': fav }, others: { 'ERRORS-5XX-1': [read] } } },
      { registered: { responses: 2, violations: { 'ERRORS-5XX-1': read } } },
    ];
    const [result] = registeredCheckResults(observed, [{ ...own('ERRORS-5XX-1', 'passed'), severity: 'SHOULD' }], []);
    expect(result?.outcome).toBe('warning');
    expect(result?.message).toContain(`actual:   ${fav.actual}; ${read.actual}`);
    expect(result?.message).toContain('  and GET /api/v1/statuses/:id:\n  request:  GET /api/v1/statuses/:id');
  });

  it('should add nothing to a run that left the Limits group out', () => {
    expect(registeredCheckResults(metas, [{ ...own('STATUS-READ-1', 'passed'), file: 'suites/statuses.test.ts' }], [])).toEqual([]);
  });
});

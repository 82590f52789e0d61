// The registered per-response checks: each clause's function on responses that keep and break it, and what the
// observer keeps of every /api/* response for the run-wide results (run-wide.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, type Exchange } from '../talk/http.ts';
import { violationsOf } from './registered-checks.ts';
import { runWideSnapshot } from './run-wide.ts';

const DATE = 'Thu, 02 Jan 2025 03:04:05 GMT';
const LATER = '2025-01-02T03:09:05.000Z';

function exchangeWith(headers: Record<string, string>): Exchange {
  return { method: 'GET', url: 'http://server.invalid/api/v1/statuses/1', path: '/api/v1/statuses/1', actor: 'A', requestHeaders: { accept: 'application/json' }, status: 200, headers: { date: DATE, ...headers }, text: '{}', truncated: false, ms: 1 };
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
    expect([...violationsOf({ ...exchangeWith(good), status: 404, text: 'Not found' }).keys()]).toEqual(['WIRE-JSON-1']);
    expect(broken({ 'content-type': 'text/html; charset=utf-8' })).toEqual(['WIRE-JSON-1']);
    expect(broken({ 'content-type': 'application/activity+json' })).toEqual([]);
    // A client that does not ask for JSON is WIRE-JSON-2's to judge.
    expect([...violationsOf({ ...exchangeWith(good), requestHeaders: { accept: '*/*' }, status: 404, text: 'Not found' }).keys()]).toEqual([]);
  });

  it('should describe the violation against what the clause expects', () => {
    const violation = violationsOf(exchangeWith({ ...good, 'x-ratelimit-reset': '300' })).get('LIMITS-HEADERS-4');
    expect(violation?.expected).toContain('a timestamp');
    expect(violation?.actual).toBe('X-RateLimit-Reset: "300" is not a timestamp');
  });
});

describe('the observer of every response', () => {
  // A server on port 0 that leaves X-RateLimit-Reset off the read of status 2, and off every attachment's path.
  let server: Server;
  let client: HttpClient;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const withoutReset = req.url?.startsWith('/api/v1/statuses/2') || req.url?.startsWith('/api/v1/media/');
      const headers = withoutReset ? { ...good, 'x-ratelimit-reset': undefined } : good;
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new HttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'A', 'unit-test-token', 5000);
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('should judge every /api/* response and keep each violation once, with the first exchange that showed it', async () => {
    await client.send('GET', '/api/v1/statuses/1');
    await client.send('GET', '/api/v1/statuses/2');
    await client.send('GET', '/api/v1/statuses/2?again=1');
    // Not /api/*: not judged.
    await client.send('GET', '/oauth/authorize');
    // The ledger's undo through Mastodon's path, which the contract does not show: never evidence.
    await client.send('DELETE', '/api/v1/media/3');
    const { judged, mismatches } = runWideSnapshot();
    expect(judged['LIMITS-HEADERS-1']).toBe(3);
    const found = Object.values(mismatches['LIMITS-HEADERS-1'] ?? {});
    expect(found).toHaveLength(1);
    expect(found[0]?.actual).toBe('no x-ratelimit-reset');
    expect(found[0]?.exchange).toContain('GET /api/v1/statuses/2');
    expect(found[0]?.exchange).not.toContain('again');
    expect(mismatches['LIMITS-HEADERS-2']).toBeUndefined();
  });

  it('should count for the rules of header values only the responses that carry those headers', () => {
    // The test above: three /api/* responses of the contract's operations with Limit and Remaining, two of them without Reset.
    const { judged } = runWideSnapshot();
    expect([judged['LIMITS-HEADERS-2'], judged['LIMITS-HEADERS-3'], judged['LIMITS-HEADERS-4']]).toEqual([3, 3, 1]);
  });
});

// An exchange as a HAR entry: redacted everywhere a secret travels, a valid URI where a mask stands in one, an
// upload by its file name, a body that is not text by its size only, and a request unanswered with why.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Har, harEntryOf, mergeHarParts } from './har.ts';
import type { Exchange } from './http.ts';
import { registerSecret } from './redact.ts';

const exchange = (fields: Partial<Exchange>): Exchange => ({
  method: 'GET',
  url: 'http://127.0.0.1:9/api/v1/statuses/1',
  path: '/api/v1/statuses/1',
  actor: 'A',
  requestHeaders: {},
  headers: {},
  text: '',
  truncated: false,
  ms: 12,
  startedAt: '2026-11-28T03:00:00.000Z',
  ...fields,
});

describe('a HAR entry', () => {
  it('should redact the headers, the query, the body and the answer, and keep a masked URL a valid URI', () => {
    registerSecret('har-token-aaaaaaaaaaaa', 'CONFORMANCE_TOKEN_A');
    const entry = harEntryOf(
      exchange({
        method: 'POST',
        url: 'http://127.0.0.1:9/oauth/token?access_token=unknown-secret-1',
        path: '/oauth/token?access_token=unknown-secret-1',
        requestHeaders: { authorization: 'Bearer har-token-aaaaaaaaaaaa', 'content-type': 'application/x-www-form-urlencoded' },
        requestBody: 'grant_type=password&password=hunter22',
        status: 200,
        headers: { 'content-type': 'application/json' },
        text: '{"access_token":"issued-token-1","token_type":"Bearer"}',
      }),
    );
    expect(entry.request.url).toBe('http://127.0.0.1:9/oauth/token?access_token=%5Bredacted%5D');
    expect(entry.request.queryString).toEqual([{ name: 'access_token', value: '[redacted]' }]);
    expect(entry.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer $CONFORMANCE_TOKEN_A' });
    expect(entry.request.postData).toEqual({ mimeType: 'application/x-www-form-urlencoded', text: 'grant_type=password&password=[redacted]' });
    expect(entry.response).toMatchObject({ status: 200, statusText: 'OK', content: { mimeType: 'application/json', text: '{"access_token":"[redacted]","token_type":"Bearer"}' } });
    expect(JSON.stringify(entry)).not.toMatch(/har-token-a|unknown-secret|hunter22|issued-token/);
  });

  it('should record an upload by its field and file name, and a body that is not text by its size and type only', () => {
    const entry = harEntryOf(
      exchange({
        method: 'POST',
        requestBody: 'description=a+cat&password=hunter22',
        uploads: ['file=@/somewhere/fixtures/media/image-640x480.png;type=image/png'],
        status: 200,
        headers: { 'content-type': 'image/png' },
        text: '\u0089PNG',
      }),
    );
    expect(entry.request.postData).toEqual({
      mimeType: 'multipart/form-data',
      params: [
        { name: 'description', value: 'a+cat' },
        { name: 'password', value: '[redacted]' },
        { name: 'file', fileName: 'image-640x480.png', contentType: 'image/png' },
      ],
    });
    expect(entry.response.content).toEqual({ size: 5, mimeType: 'image/png', comment: 'a body that is not text: recorded by size and type only' });
  });

  it('should give a request that got no answer status 0 and say why', () => {
    const entry = harEntryOf(exchange({ error: 'no answer within 100 ms (CONFORMANCE_TIMEOUT_MS)', timedOut: true }));
    expect(entry.response.status).toBe(0);
    expect(entry.comment).toBe('as A; no answer: no answer within 100 ms (CONFORMANCE_TIMEOUT_MS)');
  });
});

describe('the HAR file', () => {
  it('should merge the parts the workers wrote in the order the requests were sent, and remove them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-merge-'));
    const harFile = join(dir, 'out', 'run.har');
    const at = (second: number) => harEntryOf(exchange({ startedAt: `2026-11-28T03:00:0${second}.000Z`, path: `/${second}` }));
    mkdirSync(`${harFile}.parts`, { recursive: true });
    writeFileSync(join(`${harFile}.parts`, 'a.test.ts.json'), JSON.stringify([at(1), at(4)]));
    writeFileSync(join(`${harFile}.parts`, 'b.test.ts.json'), JSON.stringify([at(2)]));
    mergeHarParts(harFile);
    const har = JSON.parse(readFileSync(harFile, 'utf8')) as Har;
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e) => e.startedDateTime.slice(17, 19))).toEqual(['01', '02', '04']);
    expect(existsSync(`${harFile}.parts`)).toBe(false);
    rmSync(dir, { recursive: true });
  });

  it('should write a HAR without entries for a run that sent nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-merge-'));
    mergeHarParts(join(dir, 'empty.har'));
    expect((JSON.parse(readFileSync(join(dir, 'empty.har'), 'utf8')) as Har).log.entries).toEqual([]);
    rmSync(dir, { recursive: true });
  });
});

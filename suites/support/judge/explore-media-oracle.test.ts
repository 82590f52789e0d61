import { describe, expect, it } from 'vitest';
import { BASE_UPLOAD, type SentUpdate, type SentUpload, type UploadRow } from '../act/explore-media-model.ts';
import type { SentStream } from '../act/explore-streams-model.ts';
import type { Exchange } from '../talk/http.ts';
import { fiveHundredClauseOf, streamExpectation, streamInstances, updateInstances, uploadInstances } from './explore-media-oracle.ts';

const answer = (status: number, body?: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): Exchange =>
  ({ method: 'POST', url: '', path: '/api/v1/media', actor: 'A', requestHeaders: {}, headers, status, text: body === undefined ? '' : JSON.stringify(body), truncated: false, ms: 1 }) as Exchange;
const upload = (row: Partial<UploadRow>, exchange: Exchange, drawn = {}): SentUpload => ({ input: { row: { ...BASE_UPLOAD, ...row }, drawn, drawnBy: 'covering' }, exchange });
const broken = (instances: { holds: boolean; clause: string }[]) => instances.filter((i) => !i.holds).map((i) => i.clause);
const attachment = { id: '1', type: 'image', url: 'http://x/1.png', meta: { focus: { x: 1, y: -0.5 } }, description: 'conformance probe: a b', blurhash: 'x' };

describe('the oracle of the explored media and streams', () => {
  it('should judge a valid upload by its answer, then each effect', () => {
    const drawn = { focus: '1,-0.5', description: 'conformance probe: a b' };
    expect(broken(uploadInstances(upload({ description: 'text', focus: 'edge' }, answer(200, attachment), drawn)))).toEqual([]);
    expect(broken(uploadInstances(upload({ description: 'text', focus: 'edge' }, answer(200, { ...attachment, description: '' }), drawn)))).toEqual(['MEDIA-UPLOAD-4']);
    expect(broken(uploadInstances(upload({ description: 'text', focus: 'edge' }, answer(200, { ...attachment, meta: { focus: { x: 0, y: 0 } } }), drawn)))).toEqual(['MEDIA-FOCUS-1']);
    expect(broken(uploadInstances(upload({ api: 'v2' }, answer(200, attachment))))).toEqual(['MEDIA-V2-1']);
    expect(broken(uploadInstances(upload({ api: 'v2' }, answer(202, { ...attachment, url: null }))))).toEqual([]);
    expect(broken(uploadInstances(upload({ file: 'unknown' }, answer(200, { ...attachment, type: 'image' }))))).toEqual(['MEDIA-UPLOAD-5']);
  });

  it("should want the Errors table's 422 for an invalid file or thumbnail, a 202 also for a v2 file", () => {
    expect(broken(uploadInstances(upload({ file: 'garbage' }, answer(422, { error: 'x' }))))).toEqual([]);
    expect(broken(uploadInstances(upload({ file: 'garbage' }, answer(200, attachment))))).toEqual(['MEDIA-UPLOAD-6']);
    expect(broken(uploadInstances(upload({ api: 'v2', file: 'garbage' }, answer(202, attachment))))).toEqual([]);
    expect(broken(uploadInstances(upload({ thumbnail: 'garbage' }, answer(200, attachment))))).toEqual(['MEDIA-UPLOAD-6']);
    const update: SentUpdate = { input: { row: { description: 'absent', focus: 'absent', thumbnail: 'garbage' }, drawn: {}, drawnBy: 'covering' }, id: '1', exchange: answer(200, attachment) };
    expect(broken(updateInstances(update))).toEqual(['MEDIA-UPDATE-3']);
  });

  it('should judge only a server error where the contract shows no rule: MEDIA-FOCUS-2 for a focal point, ERRORS-5XX-1 for a description', () => {
    expect(broken(uploadInstances(upload({ focus: 'past' }, answer(422, { error: 'x' }), { focus: '2,0' })))).toEqual([]);
    expect(broken(uploadInstances(upload({ focus: 'past' }, answer(200, attachment), { focus: '2,0' })))).toEqual([]);
    expect(broken(uploadInstances(upload({ focus: 'malformed' }, answer(500, { error: 'x' }), { focus: 'a,b' })))).toEqual(['MEDIA-FOCUS-2']);
    expect(uploadInstances(upload({ description: 'long' }, answer(500, { error: 'x' }), { description: 'x' }))).toEqual([]);
    expect(fiveHundredClauseOf({ ...BASE_UPLOAD, description: 'long' })).toBeUndefined();
    expect(fiveHundredClauseOf({ ...BASE_UPLOAD, focus: 'past' })).toBe('MEDIA-FOCUS-2');
  });

  it('should judge the streams with a token and what they need, and leave the others open', () => {
    expect(streamExpectation({ transport: 'websocket', stream: 'unknown', streamClass: 'unknown-value' })).toHaveProperty('open');
    expect(streamExpectation({ transport: 'sse', stream: 'hashtag', streamClass: 'tag-missing' })).toHaveProperty('open');
    const opened = (transport: 'sse' | 'websocket', status: number, headers: Record<string, string> = {}): SentStream => ({ input: { transport, stream: 'hashtag', streamClass: 'tag-digits', value: 'tag1', drawnBy: 'covering' }, exchange: answer(status, undefined, headers) });
    expect(broken(streamInstances([opened('websocket', 101)], 'STREAM-WS-1'))).toEqual([]);
    expect(broken(streamInstances([opened('websocket', 400)], 'STREAM-WS-1'))).toEqual(['STREAM-WS-1']);
    expect(broken(streamInstances([opened('sse', 200, { 'content-type': 'text/event-stream' })], 'STREAM-SSE-1'))).toEqual([]);
    expect(broken(streamInstances([opened('sse', 200, { 'content-type': 'text/plain' })], 'STREAM-SSE-1'))).toEqual(['STREAM-SSE-1']);
  });
});

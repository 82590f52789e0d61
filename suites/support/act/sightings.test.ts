// What the run's answers show of the files of an attachment: an update's answer that gives a file no answer gave
// before shows a file the update wrote, which the ledger reads as an object of its own.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../talk/http.ts';
import { keyOf, sightingsOf, urlOf, writtenFilesOf } from './sightings.ts';

let server: Server;
let base = '';
/** The preview each answer about attachment 7 gives: the update writes a thumbnail of its own. */
const previewOf = (method: string) => (method === 'PUT' ? 'thumbnail.png' : 'small.png');

beforeAll(async () => {
  server = createServer((req, res) => {
    const files = `${base}/files/7`;
    if (req.url?.startsWith('/files/')) return void res.writeHead(req.url.endsWith('thumbnail.png') ? 200 : 404).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: '7', type: 'image', url: `${files}/original.png`, preview_url: `${files}/${previewOf(req.method ?? '')}`, description: 'd' }));
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server.close());

describe('the files of an attachment', () => {
  it('should take a file an update gave anew as one it wrote, and see a fetch of it as a read of that file', async () => {
    const client = new HttpClient(base, 'A', 'token-of-a', 5000);
    await client.send('POST', '/api/v1/media');
    // A read gives the files the upload gave: nothing written.
    await client.send('GET', '/api/v1/media/7');
    expect(writtenFilesOf('7')).toEqual([]);
    await client.send('PUT', '/api/v1/media/7', { form: { description: 'd' } });
    const thumbnail = `${base}/files/7/thumbnail.png`;
    expect(writtenFilesOf('7')).toEqual([thumbnail]);
    // The attachment's own file stays the upload's.
    expect(urlOf('7')).toBe(`${base}/files/7/original.png`);
    await client.forOrigin(base).send('GET', '/files/7/thumbnail.png', { accept: '*/*' });
    expect(sightingsOf(keyOf('file', thumbnail)).map((s) => [s.present, s.read])).toEqual([
      [true, false],
      [true, true],
    ]);
  });
});

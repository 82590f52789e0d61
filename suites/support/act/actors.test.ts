// How a file settles the body format of its creations: only answers decide it. A JSON attempt that got no answer
// (a server slow to answer it) says nothing of how the server reads JSON, so the next creation tries JSON again.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../talk/config.ts';
import { Actor } from './actors.ts';

/** A server that ignores visibility in form bodies, reads it in JSON ones, and answers its first JSON creation never. */
let server: Server;
let baseUrl = '';
const jsonCreations: string[] = [];
/** The body format and Idempotency-Key of every creation, in order. */
const creations: { type: string | undefined; key: string | undefined }[] = [];
let nextId = 1;
/**
 * The request timeout of these actors: the one unanswered creation waits it out, and every other answer, from a
 * server in this process, must come within it on a busy machine too (500 ms did not, at a load of 40).
 */
const ANSWER_WAIT_MS = 3000;

const bodyOf = (req: IncomingMessage) => new Promise<string>((done) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => done(body));
});

beforeAll(async () => {
  server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      const json = req.headers['content-type'] === 'application/json';
      if (req.method === 'POST') creations.push({ type: req.headers['content-type'], key: req.headers['idempotency-key'] as string | undefined });
      if (req.method === 'POST' && json && jsonCreations.push(body) === 1) return; // no answer: the timeout runs out
      const visibility = json ? (JSON.parse(body) as { visibility?: string }).visibility : 'public';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.method === 'POST' ? { id: String(nextId++), visibility, created_at: new Date().toISOString() } : {}));
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('the body format of a file', () => {
  it('should try JSON again after a JSON attempt that got no answer, and talk JSON once an answer shows the form was not understood', async () => {
    const a = new Actor('A', { baseUrl, timeoutMs: ANSWER_WAIT_MS, userAgent: 'conformance-test' } as Config, 'token-of-a');
    const first = await a.createStatus({ status: 'probe', visibility: 'unlisted' });
    expect(first.ok, 'the form answer stands where the JSON attempt got no answer').toBe(false);
    const second = await a.createStatus({ status: 'probe', visibility: 'unlisted' });
    expect(jsonCreations).toHaveLength(2);
    expect(second.ok && second.value.visibility).toBe('unlisted');
  });

  it('should send a creation again in its own body format, with the headers given in place of its own, once the file talks JSON', async () => {
    const a = new Actor('A', { baseUrl, timeoutMs: ANSWER_WAIT_MS, userAgent: 'conformance-test' } as Config, 'token-of-a');
    // A creation that went as a form before the file learnt to talk JSON (the first test's second creation taught it).
    const form = await a.post('/api/v1/statuses', { status: 'probe', visibility: 'unlisted' }, { headers: { 'idempotency-key': 'first-key' } });
    expect((await a.postStatus({ status: 'probe' })).requestHeaders['content-type']).toBe('application/json');
    creations.length = 0;
    const again = await a.submitAgain(form, { 'Idempotency-Key': 'another-key' });
    expect(creations).toEqual([{ type: 'application/x-www-form-urlencoded', key: 'another-key' }]);
    expect(again.exchange.requestBody).toBe(form.requestBody);
  });
});

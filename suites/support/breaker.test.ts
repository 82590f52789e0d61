// The circuit breaker: after two requests in a row without an answer within the timeout, a file sends that server
// nothing more, and what it would have sent comes back at once with the reason; an answer in between resets it.
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notSentReason, recordAnswer, recordSilence } from './breaker.ts';
import { HttpClient } from './http.ts';

describe('the circuit breaker', () => {
  it('should open after two silences in a row, per server, and close on an answer', () => {
    const api = 'http://127.0.0.1:1/api/v1/statuses';
    recordSilence(api, 'GET /a');
    expect(notSentReason(api, 500)).toBeUndefined();
    recordAnswer(api);
    recordSilence(api, 'GET /b');
    expect(notSentReason(api, 500)).toBeUndefined();
    recordSilence(`${api}/1`, 'GET /c');
    expect(notSentReason('http://127.0.0.1:1/oauth/token', 500)).toBe('not sent: the server gave no answer within 500 ms to GET /b and GET /c');
    expect(notSentReason('http://127.0.0.1:2/api/v1/statuses', 500)).toBeUndefined();
  });
});

describe('HttpClient against a server that never answers', () => {
  const sockets = new Set<Socket>();
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('should wait out two timeouts, then answer every further request at once, unsent', async () => {
    const client = new HttpClient(url, 'A', undefined, 300);
    const first = await client.send('GET', '/api/v1/statuses/1');
    const second = await client.send('POST', '/api/v1/statuses', { form: { status: 'x' } });
    expect([first.error, second.error]).toEqual(['no answer within 300 ms (CONFORMANCE_TIMEOUT_MS)', 'no answer within 300 ms (CONFORMANCE_TIMEOUT_MS)']);
    const started = performance.now();
    const third = await client.send('DELETE', '/api/v1/statuses/1');
    expect(performance.now() - started).toBeLessThan(100);
    expect(third.status).toBeUndefined();
    expect(third.error).toBe('not sent: the server gave no answer within 300 ms to GET /api/v1/statuses/1 and POST /api/v1/statuses');
  });
});

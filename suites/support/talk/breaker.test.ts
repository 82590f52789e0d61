// The circuit breaker: after two requests in a row without an answer within the timeout, a file sends that server
// nothing more, unless the server still answers the cheapest request (then it is slow, not silent, and is waited
// for); what it would have sent comes back at once with the reason; an answer in between resets the count.
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notSentReason, recordAnswer, recordSilence } from './breaker.ts';
import { HttpClient } from './http.ts';

describe('the circuit breaker', () => {
  it('should open after two silences in a row and a probe without answer, per server, and not before', async () => {
    // Port 1 refuses connections: the probe gets no answer.
    const api = 'http://127.0.0.1:1/api/v1/statuses';
    const probe = { timeoutMs: 500, userAgent: 'breaker test' };
    await recordSilence(api, 'GET /a', probe);
    expect(notSentReason(api)).toBeUndefined();
    recordAnswer(api);
    await recordSilence(api, 'GET /b', probe);
    expect(notSentReason(api)).toBeUndefined();
    await recordSilence(`${api}/1`, 'GET /c', probe);
    expect(notSentReason('http://127.0.0.1:1/oauth/token')).toBe('not sent: the server gave no answer within 500 ms to GET /b and GET /c, nor to GET / after them');
    expect(notSentReason('http://127.0.0.1:2/api/v1/statuses')).toBeUndefined();
  });

  it('should take a GET / whose body still trickles at the timeout for no answer', async () => {
    const trickle = createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write('.'), 100);
      res.once('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
    const api = `http://127.0.0.1:${(trickle.address() as AddressInfo).port}/api/v1/statuses`;
    const probe = { timeoutMs: 400, userAgent: 'breaker test' };
    try {
      await recordSilence(api, 'GET /a', probe);
      await recordSilence(api, 'GET /b', probe);
      expect(notSentReason(api)).toBe('not sent: the server gave no answer within 400 ms to GET /a and GET /b, nor to GET / after them');
    } finally {
      trickle.closeAllConnections();
      await new Promise<void>((resolve) => trickle.close(() => resolve()));
    }
  });
});

describe('HttpClient against a server that is slow at its API and answers GET / at once', () => {
  /**
   * The client's timeout, which the probe's GET / has too: long enough that its answer, sent at once, arrives in time
   * on a machine so busy that this process gets a sliver of a core.
   */
  const SLOW_TIMEOUT_MS = 2500;
  let server: ReturnType<typeof createHttpServer>;
  let url: string;

  beforeAll(async () => {
    server = createHttpServer((req, res) => {
      if (req.url === '/') return void res.end('ok');
      // Past the client's timeout, whose timer starts first: no answer in time, however busy the machine.
      void sleep(SLOW_TIMEOUT_MS + 200).then(() => res.end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('should wait for every request, never latching the breaker: slow is not dead', async () => {
    const client = new HttpClient(url, 'A', undefined, SLOW_TIMEOUT_MS);
    // Two silences in a row, twice: each pair sent at once, so that the test waits two timeouts, not four.
    const answers = [];
    for (const pair of [['/api/v1/statuses/1', '/api/v1/statuses/2'], ['/api/v1/statuses/3', '/api/v1/statuses/4']]) {
      answers.push(...(await Promise.all(pair.map((path) => client.send('GET', path)))).map((exchange) => exchange.error));
    }
    expect(answers).toEqual(Array.from({ length: 4 }, () => `no answer within ${SLOW_TIMEOUT_MS} ms (CONFORMANCE_TIMEOUT_MS)`));
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

  it('should wait out two timeouts and a probe, then answer every further request at once, unsent', async () => {
    const client = new HttpClient(url, 'A', undefined, 300);
    const first = await client.send('GET', '/api/v1/statuses/1');
    const second = await client.send('POST', '/api/v1/statuses', { form: { status: 'x' } });
    expect([first.error, second.error]).toEqual(['no answer within 300 ms (CONFORMANCE_TIMEOUT_MS)', 'no answer within 300 ms (CONFORMANCE_TIMEOUT_MS)']);
    // At once: before a timer of the client's own timeout, started first, which a request sent would wait for.
    let timedOut = false;
    const timer = setTimeout(() => (timedOut = true), 300);
    const third = await client.send('DELETE', '/api/v1/statuses/1');
    clearTimeout(timer);
    expect(timedOut).toBe(false);
    expect(third.status).toBeUndefined();
    expect(third.error).toBe('not sent: the server gave no answer within 300 ms to GET /api/v1/statuses/1 and POST /api/v1/statuses, nor to GET / after them');
  });
});

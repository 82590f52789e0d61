// Connections as browsers handle them: a request that met a reused connection the server had closed is sent once
// more on a new one, the server that closes connections after its answers gets none reused from then on, and a
// failure on a new connection is not sent again.
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv } from './config.ts';
import { countsSnapshot } from './counts.ts';
import { startFile } from './file-state.ts';
import { HttpClient } from './http.ts';
import { openSse } from './sse.ts';

const ANSWER = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}';

/** undici checks an idle connection for the server's end before it reuses one (a turn of the event loop): a pause past that. */
const pause = (ms: number) => new Promise((waited) => setTimeout(waited, ms));

/** Waits, however long a busy machine takes, until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await pause(5);
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((closed) => server.close(closed))));
});

/** Requests per connection, as the server saw them. */
interface Seen {
  url: string;
  requestsPerConnection: number[];
}

/**
 * A raw server that answers one request per connection (without `Connection: close`), closes the connection right
 * after the answer (never, with `keepOpen`: on a busy machine no timer tells when the client sends next), and resets
 * it where another request arrives first; with `resetFirst`, it resets every connection at its first request instead.
 */
async function oneRequestPerConnection({ keepOpen = false, resetFirst = false } = {}): Promise<Seen> {
  const seen: Seen = { url: '', requestsPerConnection: [] };
  const server = createServer((socket: Socket) => {
    const index = seen.requestsPerConnection.push(0) - 1;
    let received = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      while (received.includes('\r\n\r\n')) {
        received = received.slice(received.indexOf('\r\n\r\n') + 4);
        seen.requestsPerConnection[index] = (seen.requestsPerConnection[index] ?? 0) + 1;
        if (resetFirst || (seen.requestsPerConnection[index] ?? 0) > 1) {
          socket.resetAndDestroy();
          return;
        }
        socket.write(ANSWER);
        if (!keepOpen) setImmediate(() => socket.end());
      }
    });
  });
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  seen.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return seen;
}

describe('connections', () => {
  it('should send a request that met a closed, reused connection once more on a new one, and reuse none after', async () => {
    startFile();
    const server = await oneRequestPerConnection({ keepOpen: true });
    const client = new HttpClient(server.url, 'A', undefined, 2000);
    const first = await client.send('GET', '/api/v1/statuses/1');
    // The connection of the first answer is still open, and undici reuses it.
    await pause(5);
    const second = await client.send('GET', '/api/v1/statuses/2');
    const later = await Promise.all([1, 2, 3].map(() => client.send('GET', '/api/v1/statuses/3')));
    expect([first, second, ...later].map((exchange) => exchange.status)).toEqual([200, 200, 200, 200, 200]);
    expect(second.resentAfter).toMatch(/ECONNRESET|other side closed|closed/);
    expect(later.map((exchange) => exchange.resentAfter)).toEqual([undefined, undefined, undefined]);
    // The reset connection carried two requests; every other, one.
    expect(server.requestsPerConnection.filter((n) => n !== 1)).toEqual([2]);
    const counts = countsSnapshot();
    expect(counts.total).toBe(6);
    expect(counts.resent).toBe(1);
    expect(counts.connectionsClosed).toBe(true);
  });

  it('should tell a server that closes a connection right after its answer by the close alone, and reuse none after', async () => {
    startFile();
    const server = await oneRequestPerConnection();
    const client = new HttpClient(server.url, 'A', undefined, 2000);
    await client.send('GET', '/api/v1/statuses/1');
    // Once the client has seen the close: before it, a request would meet the closing connection and be sent again.
    await until(() => countsSnapshot().connectionsClosed);
    const next = await Promise.all([1, 2].map(() => client.send('GET', '/api/v1/statuses/2')));
    expect(next.map((exchange) => `${exchange.status} ${exchange.resentAfter}`)).toEqual(['200 undefined', '200 undefined']);
    expect(countsSnapshot()).toMatchObject({ resent: 0, connectionsClosed: true });
  });

  it('should open an event stream that met a closed, reused connection once more on a new one', async () => {
    startFile();
    const server = await oneRequestPerConnection({ keepOpen: true });
    const config = configFromEnv({ CONFORMANCE_BASE_URL: server.url, CONFORMANCE_TOKEN_A: 'token-of-a', CONFORMANCE_TIMEOUT_MS: '2000' });
    expect((await new HttpClient(server.url, 'A', undefined, 2000).send('GET', '/api/v1/statuses/1')).status).toBe(200);
    await pause(5);
    const stream = await openSse(config, { stream: 'public', actor: 'A' });
    stream.close();
    expect(stream.exchange.status).toBe(200);
    expect(stream.exchange.resentAfter).toMatch(/ECONNRESET|closed/);
    expect(server.requestsPerConnection.filter((n) => n !== 1)).toEqual([2]);
    expect(countsSnapshot()).toMatchObject({ streamConnections: 2, connectionsClosed: true });
  });

  it('should not send again a request whose new connection failed: that says something of the server', async () => {
    startFile();
    const server = await oneRequestPerConnection({ resetFirst: true });
    const exchange = await new HttpClient(server.url, 'A', undefined, 2000).send('GET', '/api/v1/statuses/1');
    expect(exchange.status).toBeUndefined();
    expect(exchange.error).toMatch(/ECONNRESET|closed/);
    expect(exchange.resentAfter).toBeUndefined();
    expect(server.requestsPerConnection).toEqual([1]);
    expect(countsSnapshot()).toMatchObject({ total: 1, resent: 0, connectionsClosed: false });
  });

  it('should not send again a request whose own timeout ended it on a reused connection: the server may be acting on it', async () => {
    startFile();
    // Answers the first request of each connection, and nothing after it.
    const requests: number[] = [];
    const server = createServer((socket: Socket) => {
      socket.on('error', () => undefined);
      socket.on('data', () => {
        if (requests.push(1) === 1) socket.write(ANSWER);
      });
    });
    servers.push(server);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    // A timeout long enough that the first answer, sent at once, meets it on a busy machine too.
    const client = new HttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'A', undefined, 1000);
    expect((await client.send('GET', '/api/v1/statuses/1')).status).toBe(200);
    await pause(5);
    const late = await client.send('POST', '/api/v1/statuses', { form: { status: 'x' } });
    expect(late).toMatchObject({ timedOut: true, unanswered: true });
    expect(late.resentAfter).toBeUndefined();
    expect(requests).toHaveLength(2);
    expect(countsSnapshot()).toMatchObject({ total: 2, resent: 0, connectionsClosed: false });
  });

  it('should keep reusing the connections of a server that keeps them alive', async () => {
    startFile();
    const sockets = new Set<unknown>();
    const server = createHttpServer((req, res) => {
      sockets.add(req.socket);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    servers.push(server as unknown as Server);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const client = new HttpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'A', undefined, 2000);
    for (const id of [1, 2, 3]) {
      expect((await client.send('GET', `/api/v1/statuses/${id}`)).status).toBe(200);
      await pause(5);
    }
    server.closeAllConnections();
    expect(sockets.size).toBe(1);
    expect(countsSnapshot()).toMatchObject({ resent: 0, connectionsClosed: false });
  });
});

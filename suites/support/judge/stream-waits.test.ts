import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { configFromEnv, DEFAULT_USER_AGENT } from '../talk/config.ts';
import { openSse } from '../talk/sse.ts';
import { openWebSocket } from '../talk/websocket.ts';
import { expectNone, unreadable, waitFor } from './stream-waits.ts';

const TIMEOUT_MS = 300;
/**
 * A stream's timeout far beyond what the tests wait: a wait that ends "at once" is told from one that waited for the
 * timeout by a timer of half of it, started first, which a busy machine delays as much as the stream's own.
 */
const LONG_TIMEOUT_MS = 60_000;
/** Ten timeouts: a wait that gave up after its own timeout ends before; one that took the default timeout (10 s or more) would not. */
const WITHIN_TIMEOUT_MS = 10 * TIMEOUT_MS;
const servers: { close(): void }[] = [];

afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function httpServer(handler: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createHttpServer(handler);
  servers.push({
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  });
  return { url: await listen(server), server };
}

const configFor = (url: string, timeoutMs = TIMEOUT_MS) => configFromEnv({ CONFORMANCE_BASE_URL: url, CONFORMANCE_TOKEN_A: 'token-of-a', CONFORMANCE_TIMEOUT_MS: String(timeoutMs) });

/**
 * Whether `promise` settles (either way) before a timer of `ms` started now fires. No bound on the wall clock: on a
 * busy machine the event loop runs late for this timer and the stream's own timers alike.
 */
async function settlesBefore(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([promise.then(() => true, () => true), late]);
  clearTimeout(timer);
  return settled;
}
const publicStream = { stream: 'public', actor: 'A', token: 'token-of-a' } as const;
const eventStreamHeaders = { 'content-type': 'text/event-stream' };

describe('server-sent event streams', () => {
  it('should parse events split across chunks, with CRLF line ends, and collect comment lines', async () => {
    let userAgent: string | undefined;
    const { url } = await httpServer((req, res) => {
      userAgent = req.headers['user-agent'];
      res.writeHead(200, eventStreamHeaders);
      res.write(':)\r\nevent: upd');
      setImmediate(() => res.write('ate\r\ndata: {"id":"1"}\r\n\r\n'));
    });
    const stream = await openSse(configFor(url), publicStream);
    const event = await waitFor(stream, 'an update', (e) => e.event === 'update');
    expect(event.data).toBe('{"id":"1"}');
    expect(stream.comments).toEqual([')']);
    expect(userAgent).toBe(DEFAULT_USER_AGENT);
  });

  it('should fail a wait within the timeout when the server accepts the stream and then sends nothing', async () => {
    const { url } = await httpServer((_req, res) => res.writeHead(200, eventStreamHeaders).flushHeaders());
    const stream = await openSse(configFor(url), publicStream);
    const waiting = waitFor(stream, 'an update', () => true);
    expect(await settlesBefore(waiting, WITHIN_TIMEOUT_MS)).toBe(true);
    await expect(waiting).rejects.toThrow(/expected: an update \(on GET \/api\/v1\/streaming\/public \(A\), within 300 ms\)\n\s+actual:\s+no event at all/);
  });

  it('should give a failed wait\'s evidence over the wait\'s own window, not over the age of the stream', async () => {
    const { url } = await httpServer((_req, res) => res.writeHead(200, eventStreamHeaders).end('event: update\ndata: "earlier"\n\n'));
    const stream = await openSse(configFor(url), publicStream);
    await waitFor(stream, 'the earlier update', (e) => e.data === '"earlier"');
    // The cause of the next wait comes later than the event.
    await new Promise((done) => setTimeout(done, 5));
    const failure = waitFor(stream, 'a later update', (e) => e.data === '"later"');
    await expect(failure).rejects.toThrow(/actual:\s+last event "update" "earlier"; 0 events in the (\d+) ms from the cause of the wait \(1 event and 0 comments since the stream opened\)/);
    const windowMs = Number(/0 events in the (\d+) ms/.exec(String(await failure.catch((error: Error) => error.message)))?.[1]);
    expect(windowMs).toBeLessThanOrEqual(TIMEOUT_MS);
  });

  it('should try the access_token parameter when the Authorization header is refused, and fail at once when that is refused too', async () => {
    const seen: string[] = [];
    const { url } = await httpServer((req, res) => {
      seen.push(`${req.url} ${req.headers.authorization ?? '-'}`);
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"The access token is invalid"}');
    });
    const stream = await openSse(configFor(url, LONG_TIMEOUT_MS), publicStream);
    expect(seen).toEqual(['/api/v1/streaming/public Bearer token-of-a', '/api/v1/streaming/public?access_token=token-of-a -']);
    const waiting = waitFor(stream, 'an update', () => true);
    expect(await settlesBefore(waiting, LONG_TIMEOUT_MS / 2)).toBe(true);
    await expect(waiting).rejects.toThrow(/the stream ended: HTTP 401 \{"error":"The access token is invalid"\}/);
  });

  it('should judge absence by the sentinel as soon as it arrives, and fail when the forbidden event comes first', async () => {
    const { url } = await httpServer((_req, res) => res.writeHead(200, eventStreamHeaders).end('event: update\ndata: "sentinel"\n\nevent: update\ndata: "forbidden"\n\n'));
    const stream = await openSse(configFor(url, LONG_TIMEOUT_MS), publicStream);
    const judging = expectNone(stream, 'forbidden update', (e) => e.data === '"forbidden"', 'the sentinel', (e) => e.data === '"sentinel"');
    expect(await settlesBefore(judging, LONG_TIMEOUT_MS / 2)).toBe(true);
    await judging;
    await expect(expectNone(stream, 'sentinel update', (e) => e.data === '"sentinel"', 'the other', (e) => e.data === '"forbidden"')).rejects.toThrow(/no sentinel update before the other \(on GET/);
  });

  it('should read an event stream labelled with another Content-Type, and call a stream that reads as nothing unreadable', async () => {
    const { url } = await httpServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(req.url?.includes('hashtag') ? '<html><body>Not here</body></html>\n' : ':thump\nevent: update\ndata: {"id":"1"}\n\n');
    });
    const stream = await openSse(configFor(url), publicStream);
    expect(stream.accepted).toBe(true);
    expect((await waitFor(stream, 'an update', (e) => e.event === 'update')).data).toBe('{"id":"1"}');
    expect(unreadable(stream)).toBeUndefined();
    const page = await openSse(configFor(url), { ...publicStream, stream: 'hashtag', tag: 'x' });
    expect(await page.find(() => true)).toBeUndefined();
    expect(unreadable(page)).toMatchObject({ clause: 'STREAM-SSE-1', summary: expect.stringContaining('answered Content-Type text/plain, and nothing in it read as an event stream') });
  });

  it('should end the connection when the stream is closed', async () => {
    let hungUp = () => {};
    const gone = new Promise<void>((resolve) => (hungUp = resolve));
    const { url } = await httpServer((req, res) => {
      req.socket.once('close', () => hungUp());
      res.writeHead(200, eventStreamHeaders).flushHeaders();
    });
    const stream = await openSse(configFor(url), publicStream);
    stream.close();
    await gone;
    expect(stream.ended).toBe('closed by the suite');
  });
});

describe('WebSocket streams', () => {
  it('should read each message as its event name and payload, and send the token in access_token', async () => {
    const server = createHttpServer();
    const wss = new WebSocketServer({ server });
    servers.push({
      close: () => {
        wss.close();
        server.closeAllConnections();
        server.close();
      },
    });
    let requested = '';
    let userAgent: string | undefined;
    wss.on('connection', (socket, req) => {
      requested = req.url ?? '';
      userAgent = req.headers['user-agent'];
      socket.send(JSON.stringify({ stream: ['public'], event: 'delete', payload: '103270115826048975' }));
    });
    const stream = await openWebSocket(configFor(await listen(server)), publicStream);
    const event = await waitFor(stream, 'a delete', (e) => e.event === 'delete');
    expect(event.data).toBe('103270115826048975');
    expect(requested).toBe('/api/v1/streaming?access_token=token-of-a&stream=public');
    expect(userAgent).toBe(DEFAULT_USER_AGENT);
  });

  it('should give up within the timeout on a server that accepts the connection and never answers the handshake', async () => {
    const sockets: Socket[] = [];
    const server = createTcpServer((socket) => sockets.push(socket));
    servers.push({
      close: () => {
        for (const socket of sockets) socket.destroy();
        server.close();
      },
    });
    const opening = openWebSocket(configFor(await listen(server)), publicStream);
    expect(await settlesBefore(opening, WITHIN_TIMEOUT_MS)).toBe(true);
    const stream = await opening;
    expect(stream.accepted).toBe(false);
    await expect(waitFor(stream, 'an update', () => true)).rejects.toThrow(/the stream ended: no stream: Opening handshake has timed out/);
  });
});

/**
 * A stream's opening is a request: on a busy machine its answer may come after the stream's window, and it is waited
 * for up to the requests' timeout; the window for its events then counts from the opening. The server holds the
 * opening for a timer of three windows started after the client's, on the same event loop: however busy the machine,
 * the opening outlasts the window, and stays far within the timeout.
 */
describe("a stream's opening", () => {
  const WINDOW_MS = TIMEOUT_MS;
  const HELD_MS = 3 * WINDOW_MS;
  const lateConfig = (url: string) => ({ ...configFor(url, LONG_TIMEOUT_MS), streamWindowMs: WINDOW_MS });
  const held = () => new Promise((resolve) => setTimeout(resolve, HELD_MS));

  it('should wait for SSE headers beyond the stream window, and listen its whole window from the opening', async () => {
    let answeredAt = 0;
    const { url } = await httpServer((_req, res) => {
      void held().then(() => {
        answeredAt = Date.now();
        res.writeHead(200, eventStreamHeaders).write(':opened\n\nevent: update\ndata: {"id":"1"}\n\n');
      });
    });
    const stream = await openSse(lateConfig(url), publicStream);
    expect(stream.accepted).toBe(true);
    expect(stream.timeoutMs).toBe(WINDOW_MS);
    expect(stream.openedAt).toBeGreaterThanOrEqual(answeredAt);
    expect(await stream.findComment()).toBe('opened');
    expect((await waitFor(stream, 'an update', (e) => e.event === 'update')).data).toBe('{"id":"1"}');
  });

  it('should wait for the WebSocket handshake beyond the stream window, and listen its whole window from the opening', async () => {
    const server = createHttpServer();
    let answeredAt = 0;
    const wss = new WebSocketServer({ server, verifyClient: (_info, accept) => void held().then(() => accept(true)) });
    servers.push({
      close: () => {
        wss.close();
        server.closeAllConnections();
        server.close();
      },
    });
    wss.on('connection', (socket) => {
      answeredAt = Date.now();
      socket.send(JSON.stringify({ stream: ['public'], event: 'update', payload: '{"id":"1"}' }));
    });
    const stream = await openWebSocket(lateConfig(await listen(server)), publicStream);
    expect(stream.accepted).toBe(true);
    expect(stream.timeoutMs).toBe(WINDOW_MS);
    expect(stream.openedAt).toBeGreaterThanOrEqual(answeredAt);
    expect((await waitFor(stream, 'an update', (e) => e.event === 'update')).data).toBe('{"id":"1"}');
  });
});

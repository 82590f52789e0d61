// Small hostile servers, each broken in one way a real server (or something posing as one) can be: the suite
// must end against every one of them with a finished report, failed checks and clear reasons, never a hang.
// Each listens on an ephemeral loopback port and answers every path the same way.
import { randomBytes } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Readable } from 'node:stream';

/** How late the slow server answers: a few seconds, as a remote server under load does. */
export const SLOW_ANSWER_MS = 2000;

/** The three that make every wait last long come first: their runs are the longest. */
export const HOSTILE_SERVERS = {
  'never-answers': 'accepts connections and never answers',
  'one-byte-a-second': 'answers every request 200 and then sends its body one byte a second, without end',
  'slow-answers': `answers every request after ${SLOW_ANSWER_MS / 1000} s, 200 with a JSON body that is no resource and no rate-limit headers`,
  'garbage-bytes': 'answers every connection with random bytes that are not HTTP',
  'html-error-pages': 'answers every request with an HTML error page (502 Bad Gateway)',
  'invalid-json': 'answers every request 200 application/json with a body that is not JSON',
  'huge-json': 'answers every request 200 with a 50 MB JSON body',
  'websocket-never-upgrades': 'answers HTTP with 404 and never completes a WebSocket handshake',
  'closes-connections': 'closes every connection as soon as it opens',
} as const;

export type HostileKind = keyof typeof HOSTILE_SERVERS;

export interface HostileServer {
  kind: HostileKind;
  url: string;
  close(): Promise<void>;
}

const HUGE_BODY_BYTES = 50 * 1024 * 1024;
const HTML_ERROR_PAGE = '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';

/** A valid JSON document of `bytes` bytes, produced as it is read (a client that stops reading stops it). */
function hugeJson(bytes: number): Readable {
  const piece = `"${'x'.repeat(64 * 1024 - 3)}",`;
  let sent = 0;
  return Readable.from(
    (function* () {
      yield '{"items":[';
      for (; sent < bytes; sent += piece.length) yield piece;
      yield '"end"]}';
    })(),
  );
}

function typeOf(req: IncomingMessage): string {
  return req.url?.startsWith('/api/v1/streaming/') ? 'text/event-stream' : 'application/json; charset=utf-8';
}

function oneByteASecond(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': typeOf(req) });
  const body = req.url?.startsWith('/api/v1/streaming/') ? 'event: update\ndata: {}\n\n' : '{"id":"1","error":"slow"}';
  let at = 0;
  const timer = setInterval(() => res.write(body[at++ % body.length] as string), 1000);
  res.once('close', () => clearInterval(timer));
}

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

const HTTP_ANSWERS: Partial<Record<HostileKind, Answer>> = {
  'html-error-pages': (_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end(HTML_ERROR_PAGE);
  },
  'invalid-json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"id": "1", "account": {"id": ');
  },
  'huge-json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    hugeJson(HUGE_BODY_BYTES).pipe(res);
  },
  'one-byte-a-second': oneByteASecond,
  'slow-answers': (_req, res) => {
    const timer = setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"id":"1","note":"a slow answer"}');
    }, SLOW_ANSWER_MS);
    res.once('close', () => clearTimeout(timer));
  },
  'websocket-never-upgrades': (_req, res) => {
    res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"error":"Record not found"}');
  },
};

const RAW_ANSWERS: Partial<Record<HostileKind, (socket: Socket) => void>> = {
  'never-answers': () => {},
  'garbage-bytes': (socket) => socket.end(randomBytes(2048)),
  'closes-connections': (socket) => socket.destroy(),
};

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startHostileServer(kind: HostileKind): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const raw = RAW_ANSWERS[kind];
  const http = HTTP_ANSWERS[kind];
  const server: Server = raw ? createNetServer(raw) : createHttpServer(http);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => socket.destroy());
    socket.once('close', () => sockets.delete(socket));
  });
  // An upgrade request that gets no answer at all: the client's handshake must time out.
  if (kind === 'websocket-never-upgrades') server.on('upgrade', () => {});
  const url = await listen(server);
  return {
    kind,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// Connections as browsers and curl handle them. HTTP/1.1 lets a server close an idle connection at any time
// (RFC 9112, 9.6), and a small server may close each one right after its answer, without `Connection: close`. A
// request sent on a reused connection that the server closed or reset before any byte of an answer came says nothing
// of the server: a browser sends it once more on a new connection (RFC 9112, 9.3.1), and so does http.ts. Once a
// server has closed a connection right after an answer (or reset a reused one), the run reuses no connection to it:
// every request to that origin goes on a connection of its own. undici tells which connection carried a request
// through its diagnostics channels; the error a failed request rejects with is the one those channels publish.
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import { countConnectionsClosed } from './counts.ts';
import { undici } from './undici.ts';

/** A server that closes a connection this soon after its last answer on it closes connections after answers. */
const CLOSED_RIGHT_AFTER_MS = 1000;

interface Connection {
  origin: string;
  /** Requests sent on it so far. */
  sent: number;
  /** Requests on it still waiting for the end of their answer. */
  open: number;
  /** When the last answer on it ended. */
  lastAnswerAt?: number;
}

/** undici's request object, as its diagnostics channels publish it. */
interface UndiciRequest {
  origin: string | URL;
}

const connections = new WeakMap<Socket, Connection>();
const connectionOf = new WeakMap<UndiciRequest, Connection>();
/** Requests sent on a connection that had carried another before. */
const onReused = new WeakSet<UndiciRequest>();
/** Requests whose answer began (its status line and headers came). */
const answered = new WeakSet<UndiciRequest>();
/** The errors of requests that failed on a reused connection before any answer came. */
const reuseFailures = new WeakSet<object>();
/**
 * Origins whose connections are not reused. A property of the server, not of one suite file: kept for every file a
 * worker runs (another run's server has another origin).
 */
const noReuse = new Set<string>();
let singleUse: Dispatcher | undefined;

const originOf = (url: string | URL): string => new URL(url).origin;

/** Failures of the connection that bring no byte of an answer: the server reset or closed it, or no longer listens. */
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ECONNREFUSED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** Whether a request failed because its connection was lost: not its timeout or its abort, which are the suite's own. */
export function isConnectionLost(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return CONNECTION_LOST.has(e?.cause?.code ?? e?.code ?? '');
}

function closedAfterAnswers(origin: string): void {
  if (noReuse.has(origin)) return;
  noReuse.add(origin);
  countConnectionsClosed();
}

subscribe('undici:client:sendHeaders', (message) => {
  const { request, socket } = message as { request: UndiciRequest; socket: Socket };
  let connection = connections.get(socket);
  if (!connection) {
    const opened: Connection = { origin: originOf(request.origin), sent: 0, open: 0 };
    connections.set(socket, (connection = opened));
    // The server's end of an idle connection (a FIN): right after an answer, it closes connections after answers.
    socket.once('end', () => {
      if (opened.open === 0 && opened.lastAnswerAt !== undefined && performance.now() - opened.lastAnswerAt < CLOSED_RIGHT_AFTER_MS) closedAfterAnswers(opened.origin);
    });
  }
  if (connection.sent > 0) onReused.add(request);
  connection.sent += 1;
  connection.open += 1;
  connectionOf.set(request, connection);
});

subscribe('undici:request:headers', (message) => {
  answered.add((message as { request: UndiciRequest }).request);
});

function ended(request: UndiciRequest): Connection | undefined {
  const connection = connectionOf.get(request);
  if (connection) connection.open -= 1;
  connectionOf.delete(request);
  return connection;
}

subscribe('undici:request:trailers', (message) => {
  const connection = ended((message as { request: UndiciRequest }).request);
  if (connection) connection.lastAnswerAt = performance.now();
});

subscribe('undici:request:error', (message) => {
  const { request, error } = message as { request: UndiciRequest; error: unknown };
  // The first end of a request on its connection counts: undici may publish another error for a request that ended
  // already (an aborted POST got a refused connection to the server gone since).
  if (ended(request) === undefined) return;
  if (!onReused.has(request) || answered.has(request) || typeof error !== 'object' || error === null || !isConnectionLost(error)) return;
  reuseFailures.add(error);
  closedAfterAnswers(originOf(request.origin));
});

/** Whether a request failed with `error` on a reused connection before any byte of an answer came: it may be sent again. */
export function failedOnReusedConnection(error: unknown): boolean {
  return typeof error === 'object' && error !== null && reuseFailures.has(error);
}

/**
 * The dispatcher of a request to `url`: undici's own (connections kept alive and reused), or, for an origin that closes
 * connections after answers, one that opens a connection for each request (pipelining 0 keeps none alive).
 */
export async function dispatcherFor(url: string): Promise<Dispatcher | undefined> {
  if (!noReuse.has(originOf(url))) return undefined;
  const { Agent } = await undici();
  return (singleUse ??= new Agent({ pipelining: 0 }));
}

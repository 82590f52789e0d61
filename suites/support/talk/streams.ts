// The one stream helper of the suite. Opens a server-sent event stream (undici, parsed by eventsource-parser) or a
// WebSocket (ws), collects what arrives, and waits for an event up to a deadline, keeping the last thing seen as
// "actual" for the failure message (h2spec's verifiers). Absence is judged against a sentinel event, never a sleep:
// without the sentinel the check is blocked. Every stream opened here is closed after its suite file, whatever happened.
import { createParser } from 'eventsource-parser';
import { notSentReason, recordAnswer, recordSilence } from './breaker.ts';
import type { RootCause } from '../judge/clauses.ts';
import type { Config } from './config.ts';
import { countStreamConnection } from './counts.ts';
import { atFileEnd } from './file-state.ts';
import { excerpt, type Exchange } from './http.ts';
import { block, causeOf, countJudged } from '../judge/preconditions.ts';
import { undici } from './undici.ts';
import { fail } from '../judge/verify.ts';

export type Transport = 'server-sent events' | 'WebSocket';

/** The stream values of the contract's WebSocket section; each has one SSE path in the server-sent events table. */
export type StreamName = 'user' | 'public' | 'public:local' | 'hashtag' | 'hashtag:local' | 'list' | 'direct';

const SSE_PATHS: Record<StreamName, string> = {
  user: '/api/v1/streaming/user',
  public: '/api/v1/streaming/public',
  'public:local': '/api/v1/streaming/public/local',
  hashtag: '/api/v1/streaming/hashtag',
  'hashtag:local': '/api/v1/streaming/hashtag/local',
  list: '/api/v1/streaming/list',
  direct: '/api/v1/streaming/direct',
};
const WEBSOCKET_PATH = '/api/v1/streaming';

export interface StreamRequest {
  stream: StreamName;
  /** Who listens: the actor's name for messages, and its token. */
  actor: string;
  token?: string;
  tag?: string;
  list?: string;
}

export interface StreamEvent {
  /** The event name; undefined when the server sent none. */
  event: string | undefined;
  /** The payload as sent: an SSE event's data, or a WebSocket message's payload (re-encoded when not a string). */
  data: string;
  /** The WebSocket message as it came; undefined for SSE. */
  message?: string;
}

export type Opener = (config: Config, request: StreamRequest) => Promise<EventStream>;

// A hostile or broken server must not fill memory: one event, or one refusal body, is never this large.
const MAX_EVENT_CHARS = 4 * 1024 * 1024;
const MAX_REFUSAL_BYTES = 64 * 1024;
const RAW_TAIL_CHARS = 400;

const opened = new Set<EventStream>();
atFileEnd(() => {
  for (const stream of opened) stream.close();
});

/**
 * The longest a stream is listened to, in timeouts from its opening: the scenario posts every cause within a few
 * requests of the opening, and each of its waits lasts at most a timeout from its cause.
 */
const LIFE_TIMEOUTS = 12;

/** One open stream, over either transport: what arrived, and verifiers that wait for more. */
export class EventStream {
  readonly events: StreamEvent[] = [];
  readonly comments: string[] = [];
  readonly parseErrors: string[] = [];
  /** Why the stream is over; undefined while it is open. */
  ended?: string;
  readonly openedAt = Date.now();
  private rawTail = '';
  /** When each of `events` arrived. */
  private readonly arrivedAt: number[] = [];
  private readonly arrivals = new Set<() => void>();

  constructor(
    readonly transport: Transport,
    readonly label: string,
    /** The opening request, for the failure message: request, response and a curl line. */
    readonly exchange: Exchange,
    /** How long a wait lasts from its cause. */
    readonly timeoutMs: number,
    private readonly hangUp: () => void,
  ) {
    opened.add(this);
  }

  /**
   * True once the server accepted the stream (SSE: HTTP 200, read as an event stream whatever its Content-Type, which
   * is STREAM-SSE-1's alone to judge; WebSocket: 101 Switching Protocols).
   */
  get accepted(): boolean {
    return this.exchange.status === (this.transport === 'WebSocket' ? 101 : 200);
  }

  receive(event: StreamEvent): void {
    this.events.push(event);
    this.arrivedAt.push(Date.now());
    this.notify();
  }

  comment(text: string): void {
    this.comments.push(text);
    this.notify();
  }

  record(raw: string): void {
    this.rawTail = (this.rawTail + raw).slice(-RAW_TAIL_CHARS);
  }

  end(reason: string): void {
    if (this.ended !== undefined) return;
    this.ended = reason;
    this.notify();
  }

  close(): void {
    this.end('closed by the suite');
    opened.delete(this);
    this.hangUp();
  }

  /** The first event that matches, waiting at most the timeout from `since` (when its cause happened). */
  async waitFor(what: string, matches: (event: StreamEvent) => boolean, since = Date.now()): Promise<StreamEvent> {
    const found = await this.find(matches, since);
    if (!found) this.fail(`${what} (on ${this.label}, within ${this.timeoutMs} ms)`);
    countJudged();
    return found;
  }

  /** Like waitFor, but answers undefined instead of failing: for preparing checks, never for judging them. */
  find(matches: (event: StreamEvent) => boolean, since = Date.now()): Promise<StreamEvent | undefined> {
    return this.settle(this.scanner(matches), since + this.timeoutMs);
  }

  /** The events that arrived from `time` on. */
  eventsSince(time: number): StreamEvent[] {
    return this.events.filter((_, index) => (this.arrivedAt[index] as number) >= time);
  }

  /** A comment line (a heartbeat), waiting at most the timeout from the opening of the stream. */
  async waitForComment(what: string): Promise<string> {
    const found = await this.findComment();
    if (found === undefined) this.fail(`${what} (on ${this.label}, within ${this.timeoutMs} ms of opening)`);
    countJudged();
    return found;
  }

  /** Like waitForComment, but answers undefined instead of failing. */
  findComment(): Promise<string | undefined> {
    return this.settle(() => this.comments[0], this.openedAt + this.timeoutMs);
  }

  /**
   * Why nothing can be expected of an SSE stream: it answered another Content-Type than text/event-stream
   * (STREAM-SSE-1) and nothing in it read as an event stream, neither an event nor a comment. A stream with another
   * Content-Type whose bytes are an event stream is read as one: only its header is wrong.
   */
  unreadable(): RootCause | undefined {
    if (this.transport !== 'server-sent events' || isEventStream(this.exchange) || this.events.length > 0 || this.comments.length > 0) return undefined;
    const type = this.exchange.headers['content-type'] ?? '(none)';
    return causeOf('STREAM-SSE-1', `${this.label} answered Content-Type ${type}, and nothing in it read as an event stream: ${this.lastSeen()}`, this.exchange);
  }

  /**
   * Absence, judged without sleeping: no event may match `forbidden` before the first one that matches `sentinel`,
   * which the server sends after the forbidden one would have been sent. Without the sentinel nothing can be judged:
   * the check is blocked by `withoutSentinel`, the cause of the sentinel's absence.
   */
  async expectNone(
    what: string,
    forbidden: (event: StreamEvent) => boolean,
    sentinelWhat: string,
    sentinel: (event: StreamEvent) => boolean,
    since = Date.now(),
    withoutSentinel: () => RootCause = () => ({ summary: `no ${sentinelWhat} on ${this.label} within ${this.timeoutMs} ms: ${this.lastSeen()}` }),
  ): Promise<void> {
    const first = await this.settle(this.scanner((e) => forbidden(e) || sentinel(e)), since + this.timeoutMs);
    if (!first) block(withoutSentinel());
    if (forbidden(first)) this.fail(`no ${what} before ${sentinelWhat} (on ${this.label})`, `${what}: ${describeEvent(first)}`);
    countJudged();
  }

  /** Fails the running check; actual defaults to the last thing this stream showed. */
  fail(expected: string, actual = this.lastSeen()): never {
    this.exchange.text = `(${this.transport}: ${this.tally()} so far)`;
    return fail(expected, actual, this.exchange);
  }

  lastSeen(): string {
    const last = this.events.at(-1);
    const parts = [last ? `last event ${describeEvent(last)}` : 'no event at all'];
    parts.push(`${this.tally()} in ${Date.now() - this.openedAt} ms`);
    if (this.parseErrors.length) parts.push(`unparsable: ${this.parseErrors.slice(-3).join('; ')}`);
    if (this.ended !== undefined) parts.push(`the stream ended: ${this.ended}`);
    if (this.rawTail) parts.push(`last bytes ${JSON.stringify(this.rawTail)}`);
    return parts.join('; ');
  }

  /** What arrived: events, and for SSE the comment lines (WebSocket has none). */
  private tally(): string {
    const events = plural(this.events.length, 'event');
    return this.transport === 'WebSocket' ? events : `${events} and ${plural(this.comments.length, 'comment')}`;
  }

  /** A probe for the first matching event that looks at each event once, however many arrive on a busy stream. */
  private scanner(matches: (event: StreamEvent) => boolean): () => StreamEvent | undefined {
    let next = 0;
    return () => {
      for (; next < this.events.length; next++) {
        const event = this.events[next] as StreamEvent;
        if (matches(event)) return event;
      }
      return undefined;
    };
  }

  /**
   * Resolves with what `probe` finds, as soon as it finds it, when the stream ends, or at the deadline; never later
   * than LIFE_TIMEOUTS timeouts after the stream opened, whatever the deadline: the waits of a group end in bounded
   * time whatever its server's streams do and however its causes were timed.
   */
  private settle<T>(probe: () => T | undefined, deadline: number): Promise<T | undefined> {
    deadline = Math.min(deadline, this.openedAt + LIFE_TIMEOUTS * this.timeoutMs);
    return new Promise((resolve) => {
      const finish = (found: T | undefined) => {
        clearTimeout(timer);
        this.arrivals.delete(look);
        resolve(found);
      };
      const look = () => {
        const found = probe();
        if (found !== undefined || this.ended !== undefined) finish(found);
      };
      const timer = setTimeout(() => finish(probe()), Math.max(0, deadline - Date.now()));
      this.arrivals.add(look);
      look();
    });
  }

  private notify(): void {
    for (const look of [...this.arrivals]) look();
  }
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

export function describeEvent(event: StreamEvent): string {
  const name = event.event === undefined ? '(no event name)' : JSON.stringify(event.event);
  return `${name} ${excerpt(event.message ?? event.data, 160) || '(no data)'}`;
}

function describeError(error: unknown): string {
  const e = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.code === 'UND_ERR_HEADERS_TIMEOUT') return 'no answer within CONFORMANCE_TIMEOUT_MS';
  const code = e.cause?.code ?? e.code;
  const message = e.cause?.message ?? e.message ?? String(error);
  return code ? `${code}: ${message}` : message;
}

/** Whether an answer is an event stream: Content-Type text/event-stream, parameters such as charset aside. */
export function isEventStream(exchange: Exchange): boolean {
  return (exchange.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
}

/** No answer to the opening within the timeout: undici's headers timeout, or ws's handshake timeout. */
function isSilence(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === 'UND_ERR_HEADERS_TIMEOUT' || /handshake has timed out/i.test(e.message ?? '');
}

/** A stream the circuit breaker (breaker.ts) does not open: ended at once, with the reason. */
function unsentStream(transport: Transport, label: string, exchange: Exchange, timeoutMs: number, reason: string): EventStream {
  const stream = new EventStream(transport, label, exchange, timeoutMs, () => undefined);
  exchange.error = reason;
  stream.end(`no stream: ${reason}`);
  return stream;
}

function openingExchange(config: Config, path: string, actor: string, requestHeaders: Record<string, string>): Exchange {
  return { method: 'GET', url: `${config.streamingUrl}${path}`, path, actor, requestHeaders, headers: {}, text: '', truncated: false, ms: 0 };
}

function queryOf(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((pair): pair is [string, string] => pair[1] !== undefined));
  return query.size ? `?${query}` : '';
}

/**
 * Opens a server-sent event stream. How such a request carries its token is not shown (Authentication rule 13):
 * the Authorization header is tried first, and the access_token parameter when the header is refused with 401.
 */
export const openSse: Opener = async (config, spec) => {
  const stream = await connectSse(config, spec, 'header');
  if (stream.exchange.status !== 401 || !spec.token) return stream;
  stream.close();
  return connectSse(config, spec, 'query');
};

async function connectSse(config: Config, spec: StreamRequest, carrier: 'header' | 'query'): Promise<EventStream> {
  const token = carrier === 'query' ? spec.token : undefined;
  const path = `${SSE_PATHS[spec.stream]}${queryOf({ tag: spec.tag, list: spec.list, access_token: token })}`;
  const headers: Record<string, string> = { accept: 'text/event-stream', 'user-agent': config.userAgent };
  if (spec.token && carrier === 'header') headers.authorization = `Bearer ${spec.token}`;
  const exchange = openingExchange(config, path, spec.actor, headers);
  const label = `GET ${SSE_PATHS[spec.stream]} (${spec.actor})`;
  const notSent = notSentReason(exchange.url);
  if (notSent) return unsentStream('server-sent events', label, exchange, config.timeoutMs, notSent);
  const { request } = await undici();
  const controller = new AbortController();
  const stream = new EventStream('server-sent events', label, exchange, config.timeoutMs, () => controller.abort());
  countStreamConnection();
  const started = performance.now();
  try {
    // No body timeout: a stream is quiet between events, and every wait has its own deadline.
    const response = await request(exchange.url, { method: 'GET', headers, signal: controller.signal, headersTimeout: config.timeoutMs, bodyTimeout: 0 });
    exchange.status = response.statusCode;
    exchange.ms = Math.round(performance.now() - started);
    recordAnswer(exchange.url);
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) exchange.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const body = response.body;
    if (response.statusCode !== 200) {
      const refusal = await readRefusal(body, config.timeoutMs);
      stream.end(`HTTP ${response.statusCode} ${excerpt(refusal, 200) || '(empty body)'}`);
      return stream;
    }
    const parser = createParser({
      onEvent: (event) => stream.receive({ event: event.event, data: event.data }),
      onComment: (text) => stream.comment(text),
      onError: (error) => stream.parseErrors.push(error.message),
      maxBufferSize: MAX_EVENT_CHARS,
    });
    const decoder = new TextDecoder();
    body.on('data', (chunk: Buffer) => {
      const text = decoder.decode(chunk, { stream: true });
      stream.record(text);
      try {
        parser.feed(text);
      } catch (error) {
        // The parser stops for good after its buffer overflowed; so does the stream.
        stream.end(`the parser gave up: ${describeError(error)}`);
        controller.abort();
      }
    });
    body.on('end', () => stream.end('the server closed the stream'));
    body.on('error', (error: unknown) => stream.end(describeError(error)));
  } catch (error) {
    exchange.ms = Math.round(performance.now() - started);
    exchange.error = describeError(error);
    if (isSilence(error)) await recordSilence(exchange.url, `GET ${SSE_PATHS[spec.stream]}`, config);
    stream.end(`no stream: ${exchange.error}`);
  }
  return stream;
}

async function readRefusal(body: NodeJS.ReadableStream & { destroy(): void }, timeoutMs: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const timer = setTimeout(() => body.destroy(), timeoutMs);
  try {
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      chunks.push(chunk as Buffer);
      if (size > MAX_REFUSAL_BYTES) break;
    }
  } catch {
    // Cut off by the deadline: what arrived is enough to describe the refusal.
  } finally {
    clearTimeout(timer);
    body.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A WebSocket message as an event: Mastodon-compatible servers send {"event": name, "payload": JSON-encoded text}. */
function eventOfMessage(message: string): StreamEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return { event: undefined, data: '', message };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { event: undefined, data: '', message };
  const { event, payload } = parsed as { event?: unknown; payload?: unknown };
  const data = typeof payload === 'string' ? payload : payload === undefined ? '' : JSON.stringify(payload);
  return { event: typeof event === 'string' ? event : undefined, data, message };
}

/** Opens a WebSocket stream: one path, with access_token, stream, and tag or list where the stream needs them. */
export const openWebSocket: Opener = async (config, spec) => {
  const path = `${WEBSOCKET_PATH}${queryOf({ access_token: spec.token, stream: spec.stream, tag: spec.tag, list: spec.list })}`;
  // The handshake headers (with a fixed key) make the failure message's curl line replay the upgrade.
  const exchange = openingExchange(config, path, spec.actor, {
    connection: 'Upgrade',
    upgrade: 'websocket',
    'sec-websocket-version': '13',
    'sec-websocket-key': 'Y29uZm9ybWFuY2Ugc3VpdGU=',
    'user-agent': config.userAgent,
  });
  const label = `WebSocket stream=${spec.stream} (${spec.actor})`;
  const notSent = notSentReason(exchange.url);
  if (notSent) return unsentStream('WebSocket', label, exchange, config.timeoutMs, notSent);
  // ws, as undici, is loaded when the first socket opens.
  const { default: WebSocketClient } = await import('ws');
  const socket = new WebSocketClient(`${config.streamingUrl.replace(/^http/, 'ws')}${path}`, {
    handshakeTimeout: config.timeoutMs,
    maxPayload: MAX_EVENT_CHARS,
    headers: { 'user-agent': config.userAgent },
  });
  const stream = new EventStream('WebSocket', label, exchange, config.timeoutMs, () => socket.terminate());
  countStreamConnection();
  const started = performance.now();
  socket.on('message', (data, isBinary) => {
    const message = isBinary ? `(binary message of ${(data as Buffer).length} bytes)` : String(data);
    stream.record(`${message}\n`);
    stream.receive(eventOfMessage(message));
  });
  socket.on('close', (code, reason) => stream.end(`closed with code ${code}${reason.length ? ` ${String(reason)}` : ''}`));
  await new Promise<void>((resolve) => {
    socket.once('open', () => {
      exchange.status = 101;
      exchange.ms = Math.round(performance.now() - started);
      recordAnswer(exchange.url);
      resolve();
    });
    socket.once('unexpected-response', (_request, response) => {
      exchange.status = response.statusCode;
      recordAnswer(exchange.url);
      exchange.ms = Math.round(performance.now() - started);
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) exchange.headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      void readRefusal(response, config.timeoutMs).then((refusal) => {
        stream.end(`HTTP ${response.statusCode} ${excerpt(refusal, 200) || '(empty body)'}`);
        socket.terminate();
        resolve();
      });
    });
    socket.on('error', (error) => {
      if (exchange.error === undefined && isSilence(error)) void recordSilence(exchange.url, `GET ${WEBSOCKET_PATH}`, config);
      exchange.error ??= describeError(error);
      stream.end(`no stream: ${describeError(error)}`);
      resolve();
    });
  });
  return stream;
};

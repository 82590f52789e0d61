// The one stream of the suite, over either transport (sse.ts opens server-sent events, websocket.ts a WebSocket):
// it collects what arrives, and finds an event up to a deadline, keeping the last thing seen for a failure message
// (the verifiers that judge it are judge/stream-waits.ts). Every stream opened here is closed after its suite file,
// whatever happened.
import type { Config } from './config.ts';
import { atFileEnd } from './file-state.ts';
import { excerpt, expectActingAs, type Exchange } from './http.ts';

export type Transport = 'server-sent events' | 'WebSocket';

/** The stream values of the contract's WebSocket section; each has one SSE path in the server-sent events table. */
export type StreamName = 'user' | 'public' | 'public:local' | 'hashtag' | 'hashtag:local' | 'list' | 'direct';

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
export const MAX_EVENT_CHARS = 4 * 1024 * 1024;
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

/**
 * Any event that carries this status. Which stream carries which event is not shown: Mastodon delivers a direct
 * message on the direct stream as a `conversation` event that holds it, older servers as an `update`.
 */
export const carrying = (id: string) => (event: StreamEvent) => event.event !== 'delete' && event.data.includes(id);

/** One open stream, over either transport: what arrived, and finders that wait for more (judge/stream-waits.ts judges with them). */
export class EventStream {
  readonly events: StreamEvent[] = [];
  readonly comments: string[] = [];
  readonly parseErrors: string[] = [];
  /** Why the stream is over; undefined while it is open. */
  ended?: string;
  /** When the server answered the opening (until then, when it was sent): the waits that count from it. */
  openedAt = Date.now();
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

  /**
   * The server answered the opening. Its window and life count from now: an opening is a request, bounded by the
   * requests' timeout, and a stream that opened late still listens its whole window.
   */
  answered(status: Exchange['status']): void {
    this.exchange.status = status;
    this.openedAt = Date.now();
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

  /** The first event that matches, from `since` within the timeout, else undefined (stream-waits.ts waitFor fails instead). */
  find(matches: (event: StreamEvent) => boolean, since = Date.now()): Promise<StreamEvent | undefined> {
    return this.settle(this.scanner(matches), since + this.timeoutMs);
  }

  /** The events that arrived from `time` on. */
  eventsSince(time: number): StreamEvent[] {
    return this.events.filter((_, index) => (this.arrivedAt[index] as number) >= time);
  }

  /** The first comment within the timeout from the opening, else undefined (stream-waits.ts waitForComment fails instead). */
  findComment(): Promise<string | undefined> {
    return this.settle(() => this.comments[0], this.openedAt + this.timeoutMs);
  }

  /**
   * What the stream showed: its last event, and what arrived within the window of a wait from `since` (its cause), or
   * since the stream opened. A stream stays open for a whole group: its age is no wait's duration.
   */
  lastSeen(since?: number): string {
    const last = this.events.at(-1);
    const parts = [last ? `last event ${describeEvent(last)}` : 'no event at all'];
    if (since === undefined) parts.push(`${this.tally()} since the stream opened ${Date.now() - this.openedAt} ms before`);
    else {
      const end = Math.min(Date.now(), since + this.timeoutMs);
      const within = this.arrivedAt.filter((at) => at >= since && at <= end).length;
      parts.push(`${plural(within, 'event')} in the ${end - since} ms from the cause of the wait (${this.tally()} since the stream opened)`);
    }
    if (this.parseErrors.length) parts.push(`unparsable: ${this.parseErrors.slice(-3).join('; ')}`);
    if (this.ended !== undefined) parts.push(`the stream ended: ${this.ended}`);
    if (this.rawTail) parts.push(`last bytes ${JSON.stringify(this.rawTail)}`);
    return parts.join('; ');
  }

  /** What arrived: events, and for SSE the comment lines (WebSocket has none). */
  tally(): string {
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

export function describeError(error: unknown): string {
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
export function isSilence(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === 'UND_ERR_HEADERS_TIMEOUT' || /handshake has timed out/i.test(e.message ?? '');
}

/** A stream the circuit breaker (breaker.ts) does not open: ended at once, with the reason. */
export function unsentStream(transport: Transport, label: string, exchange: Exchange, timeoutMs: number, reason: string): EventStream {
  const stream = new EventStream(transport, label, exchange, timeoutMs, () => undefined);
  exchange.error = reason;
  stream.end(`no stream: ${reason}`);
  return stream;
}

export function openingExchange(config: Config, path: string, actor: string, requestHeaders: Record<string, string>): Exchange {
  // Its query may carry a token: the path alone names it.
  expectActingAs(actor, `the stream ${path.split('?')[0]}`);
  return { method: 'GET', url: `${config.streamingUrl}${path}`, path, actor, requestHeaders, headers: {}, text: '', truncated: false, ms: 0 };
}

export function queryOf(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(Object.entries(params).filter((pair): pair is [string, string] => pair[1] !== undefined));
  return query.size ? `?${query}` : '';
}

export async function readRefusal(body: NodeJS.ReadableStream & { destroy(): void }, timeoutMs: number): Promise<string> {
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

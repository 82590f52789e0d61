// Server-sent event streams: one path per stream, the token in the Authorization header (or access_token), the
// body parsed by eventsource-parser into the events of an EventStream (streams.ts).
import { createParser } from 'eventsource-parser';
import { notSentReason, recordAnswer, recordSilence } from './breaker.ts';
import { streamWindowMs, type Config } from './config.ts';
import { dispatcherFor, failedOnReusedConnection } from './connections.ts';
import { countStreamConnection } from './counts.ts';
import { excerpt } from './http.ts';
import { describeError, EventStream, isSilence, MAX_EVENT_CHARS, openingExchange, queryOf, readRefusal, unsentStream, type Opener, type StreamName, type StreamRequest } from './streams.ts';
import { undici } from './undici.ts';

const SSE_PATHS: Record<StreamName, string> = {
  user: '/api/v1/streaming/user',
  public: '/api/v1/streaming/public',
  'public:local': '/api/v1/streaming/public/local',
  hashtag: '/api/v1/streaming/hashtag',
  'hashtag:local': '/api/v1/streaming/hashtag/local',
  list: '/api/v1/streaming/list',
  direct: '/api/v1/streaming/direct',
};

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
  if (notSent) return unsentStream('server-sent events', label, exchange, streamWindowMs(config), notSent);
  const { request } = await undici();
  const controller = new AbortController();
  const stream = new EventStream('server-sent events', label, exchange, streamWindowMs(config), () => controller.abort());
  countStreamConnection();
  const started = performance.now();
  try {
    // The headers within the requests' timeout, as any answer (slow is not dead); no body timeout: a stream is quiet
    // between events, and every wait has its own deadline, the stream's window.
    const open = async () => request(exchange.url, { method: 'GET', headers, signal: controller.signal, headersTimeout: config.timeoutMs, bodyTimeout: 0, dispatcher: await dispatcherFor(exchange.url) });
    const response = await open().catch((error: unknown) => {
      // A reused connection the server had closed: opened once more on a new one, as browsers do (connections.ts).
      if (!failedOnReusedConnection(error)) throw error;
      exchange.resentAfter = describeError(error);
      countStreamConnection();
      return open();
    });
    stream.answered(response.statusCode);
    exchange.ms = Math.round(performance.now() - started);
    recordAnswer(exchange.url);
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) exchange.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    const body = response.body;
    if (response.statusCode !== 200) {
      const refusal = await readRefusal(body, streamWindowMs(config));
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

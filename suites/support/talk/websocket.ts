// WebSocket streams: one path, the stream named in its query with the token in access_token, each message an event
// of an EventStream (streams.ts) as Mastodon-compatible servers frame it.
import { notSentReason, recordAnswer, recordSilence } from './breaker.ts';
import { streamWindowMs } from './config.ts';
import { countStreamConnection } from './counts.ts';
import { excerpt } from './http.ts';
import { describeError, EventStream, isSilence, MAX_EVENT_CHARS, openingExchange, queryOf, readRefusal, unsentStream, type Opener, type StreamEvent } from './streams.ts';

const WEBSOCKET_PATH = '/api/v1/streaming';

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
  if (notSent) return unsentStream('WebSocket', label, exchange, streamWindowMs(config), notSent);
  // ws, as undici, is loaded when the first socket opens.
  const { default: WebSocketClient } = await import('ws');
  const socket = new WebSocketClient(`${config.streamingUrl.replace(/^http/, 'ws')}${path}`, {
    // The handshake is a request: it waits the requests' timeout (slow is not dead); the events, the stream's window.
    handshakeTimeout: config.timeoutMs,
    maxPayload: MAX_EVENT_CHARS,
    headers: { 'user-agent': config.userAgent },
  });
  const stream = new EventStream('WebSocket', label, exchange, streamWindowMs(config), () => socket.terminate());
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
      stream.answered(101);
      exchange.ms = Math.round(performance.now() - started);
      recordAnswer(exchange.url);
      resolve();
    });
    socket.once('unexpected-response', (_request, response) => {
      stream.answered(response.statusCode);
      recordAnswer(exchange.url);
      exchange.ms = Math.round(performance.now() - started);
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) exchange.headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      void readRefusal(response, streamWindowMs(config)).then((refusal) => {
        stream.end(`HTTP ${response.statusCode} ${excerpt(refusal, 200) || '(empty body)'}`);
        socket.terminate();
        resolve();
      });
    });
    socket.on('error', (error) => {
      // A refusal the server answered (terminated after its body was read) is its status, not an error of the exchange.
      const answered = exchange.status !== undefined && exchange.status !== 101;
      if (!answered && exchange.error === undefined && isSilence(error)) void recordSilence(exchange.url, `GET ${WEBSOCKET_PATH}`, config);
      if (!answered) exchange.error ??= describeError(error);
      stream.end(`no stream: ${describeError(error)}`);
      resolve();
    });
  });
  return stream;
};

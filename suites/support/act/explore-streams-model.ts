// The model of the explored streams: their cells, the covering set, the draws and costs, how one reads, and the type of a
// stream opened. explore-streams.ts opens them; this module holds no connection, so that the oracle
// (judge/explore-media-oracle.ts) reads it without importing what sends.
import fc from 'fast-check';
import { matching } from './matching.ts';
import type { Exchange } from '../talk/http.ts';
import type { StreamName } from '../talk/streams.ts';

export type StreamTransport = 'sse' | 'websocket' | 'health';

/** How a stream's parameter is given: the class of the tag, of the list id, of the token, of the stream value. */
export type StreamClass =
  | 'plain' // the stream with A's token, nothing else needed
  | 'tag-word' // a tag of letters
  | 'tag-digits' // a tag of letters and digits
  | 'tag-capitals' // a tag of letters, some in capitals (a hashtag's case is the writer's)
  | 'tag-missing' // a hashtag stream without its tag
  | 'tag-hash' // the tag written with its '#'
  | 'list-own' // the configured list of A's (CONFORMANCE_LIST_ID)
  | 'list-never-existed' // a list id that never named anything
  | 'list-malformed' // a list id no server gives out
  | 'no-token' // the stream without a token
  | 'unknown-value' // a stream value the WebSocket section does not allow
  | 'stream-missing'; // the WebSocket request without a stream value

export interface StreamCell {
  transport: StreamTransport;
  /** The stream value (the SSE path's stream); 'health' for the health endpoint. */
  stream: StreamName | 'unknown' | 'none' | 'health';
  streamClass: StreamClass;
}

export const ALLOWED_STREAMS: readonly StreamName[] = ['user', 'public', 'public:local', 'hashtag', 'hashtag:local', 'list', 'direct'];
const TAG_CLASSES: readonly StreamClass[] = ['tag-word', 'tag-digits', 'tag-missing', 'tag-hash', 'tag-capitals'];
const LIST_CLASSES: readonly StreamClass[] = ['list-own', 'list-never-existed', 'list-malformed'];

/** Whether a class needs a configured list of A's (the contract cannot make one). */
const needsList = (streamClass: StreamClass) => streamClass === 'list-own';

/**
 * The covering cells: every allowed stream value on each transport, the classes of its parameter spread over the
 * two transports (a tag or list class on one, the next on the other), the unknown and missing stream value of the
 * WebSocket section, a stream without a token on each, and the health endpoint. `withList`: a list of A's is configured.
 */
export function streamCovering(withList: boolean, withHealth: boolean): StreamCell[] {
  const cells: StreamCell[] = [];
  const transports: StreamTransport[] = ['sse', 'websocket'];
  let tagTurn = 0;
  let listTurn = 0;
  for (const stream of ALLOWED_STREAMS) {
    for (const transport of transports) {
      if (stream === 'hashtag' || stream === 'hashtag:local') {
        cells.push({ transport, stream, streamClass: TAG_CLASSES[tagTurn++ % TAG_CLASSES.length] as StreamClass });
        continue;
      }
      if (stream === 'list') {
        const classes = LIST_CLASSES.filter((k) => withList || !needsList(k));
        cells.push({ transport, stream, streamClass: classes[listTurn++ % classes.length] as StreamClass });
        continue;
      }
      cells.push({ transport, stream, streamClass: 'plain' });
    }
  }
  // The classes the rotation left out, once each: a tag on server-sent events (the WebSocket's hashtag streams took the
  // digits and the '#'), a list on the WebSocket.
  for (const k of [...TAG_CLASSES, ...LIST_CLASSES.filter((k) => withList || !needsList(k))]) {
    const tag = TAG_CLASSES.includes(k);
    if (!cells.some((cell) => cell.streamClass === k)) cells.push({ transport: tag ? 'sse' : 'websocket', stream: tag ? 'hashtag' : 'list', streamClass: k });
  }
  cells.push({ transport: 'websocket', stream: 'unknown', streamClass: 'unknown-value' });
  cells.push({ transport: 'websocket', stream: 'none', streamClass: 'stream-missing' });
  cells.push({ transport: 'sse', stream: 'public', streamClass: 'no-token' });
  cells.push({ transport: 'websocket', stream: 'user', streamClass: 'no-token' });
  if (withHealth) cells.push({ transport: 'health', stream: 'health', streamClass: 'plain' });
  return cells;
}

/** The most streams the exploration opens: each one call of the IP access bucket. */
export const EXPLORE_STREAMS = 22;

/** The values of a cell drawn from the seed: a tag, a list id, an unknown stream value. */
export interface StreamInput extends StreamCell {
  value?: string;
  drawnBy: 'covering' | 'random';
}

const VALUES: Partial<Record<StreamClass, fc.Arbitrary<string>>> = {
  'tag-word': matching(/^[a-z]{4,12}$/).map((word) => `conformance${word}`),
  'tag-digits': fc.tuple(matching(/^[a-z]{3,8}$/), fc.integer({ min: 0, max: 99_999 })).map(([word, n]) => `conformance${word}${n}`),
  'tag-hash': matching(/^[a-z]{4,12}$/).map((word) => `#conformance${word}`),
  'tag-capitals': matching(/^[a-z]{4,12}$/).map((word) => `Conformance${word.charAt(0).toUpperCase()}${word.slice(1)}`),
  'list-never-existed': fc.bigInt({ min: 10n ** 17n * 9n, max: 10n ** 18n - 1n }).map(String),
  'list-malformed': fc.oneof(matching(/^[a-z][a-z_]{0,11}$/), fc.integer({ min: 1, max: 99_999 }).map((n) => `-${n}`)),
  // Never a value real servers allow beyond the section's (Mastodon's public:remote, public:media, user:notification).
  'unknown-value': matching(/^[a-z]{4,10}$/).filter((word) => !['user', 'public', 'hashtag', 'list', 'direct'].includes(word)).map((word) => `conformance:${word}`),
};

/** The streams a run opens, the same for one seed: the covering cells, then random draws of them, within `streams`. */
export function drawStreams(cells: readonly StreamCell[], streams: number, seed: number): StreamInput[] {
  const covering = cells.slice(0, streams).map((cell) => ({ ...cell, drawnBy: 'covering' as const }));
  const left = Math.max(0, streams - covering.length);
  const random = left > 0 && cells.length > 0 ? fc.sample(fc.integer({ min: 0, max: cells.length - 1 }), { seed: seed + 6_007, numRuns: left }).map((i) => ({ ...(cells[i] as StreamCell), drawnBy: 'random' as const })) : [];
  return [...covering, ...random].map((cell, k) => {
    const arbitrary = VALUES[cell.streamClass];
    const value = arbitrary ? fc.sample(arbitrary, { seed: seed + 7_001 + k, numRuns: 1 })[0] : undefined;
    return { ...cell, ...(value === undefined ? {} : { value }) };
  });
}

/** Whether a stream is opened with A's token: the others (no token, the health endpoint) are anonymous's, as its step is. */
export const withToken = (input: StreamCell) => input.transport !== 'health' && input.streamClass !== 'no-token';

/** The IP access calls streams cost: a stream each; the health endpoint is a request. */
export const streamCost = (inputs: readonly StreamInput[]) => ({ streams: inputs.filter((i) => i.transport !== 'health').length, api: inputs.filter((i) => i.transport === 'health').length });

/** A stream opened, as the oracle judges it: the opening's exchange, and for health its answer. */
export interface SentStream {
  input: StreamInput;
  exchange: Exchange;
  /** Why the stream ended, where it did before it was closed (a refusal's body). */
  ended?: string;
}

/** How a stream input reads in a finding and in --list. */
export function describeStream(input: StreamCell & { value?: string }): string {
  const value = input.value === undefined ? '' : ` (${JSON.stringify(input.value)})`;
  if (input.transport === 'health') return 'GET /api/v1/streaming/health, Accept */*';
  const where = input.transport === 'sse' ? 'server-sent events' : 'WebSocket';
  const stream = input.stream === 'unknown' ? 'an unknown stream value' : input.stream === 'none' ? 'no stream value' : `stream ${input.stream}`;
  const classWords: Record<StreamClass, string> = {
    plain: "with A's token",
    'tag-word': 'with a tag of letters',
    'tag-digits': 'with a tag of letters and digits',
    'tag-capitals': 'with a tag of letters, some in capitals',
    'tag-missing': 'without its tag',
    'tag-hash': "with the tag written with '#'",
    'list-own': "with A's configured list",
    'list-never-existed': 'with a list id that never named anything',
    'list-malformed': 'with a malformed list id',
    'no-token': 'without a token',
    'unknown-value': "with A's token",
    'stream-missing': "with A's token",
  };
  return `${where}, ${stream} ${classWords[input.streamClass]}${value}`;
}

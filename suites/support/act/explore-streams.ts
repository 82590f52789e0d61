// The input space of the streaming interface (docs/exploring.md): the paths of "Streaming (server-sent events)" and
// the stream values of "Streaming (WebSocket)", with the parameters the streams need (tag, list) and the token, each
// with classes of values: every allowed stream value, a value the section does not allow, the stream left out, a
// hashtag stream without its tag or with a tag no check uses, a list stream for the configured list, an id that names
// nothing and a malformed one, no token; and the health endpoint. Each stream is one call of the IP access bucket: it
// is opened, held only until its opening answered (a timeout bounds it), and closed. What the contract says of each is
// the oracle's (judge/explore-media-oracle.ts); this module draws and opens.
import type { Config } from '../talk/config.ts';
import { excerpt } from '../talk/http.ts';
import type { Opener, StreamName, StreamRequest } from '../talk/streams.ts';
import { Actor } from './actors.ts';
import type { SentStream, StreamInput } from './explore-streams-model.ts';
export * from './explore-streams-model.ts';

/** The request a cell opens as `caller` (A, or anonymous without a token), with the tag or list its class gives. */
function requestOf(input: StreamInput, caller: Actor, config: Config): StreamRequest {
  const base = { actor: caller.name, ...(caller.token ? { token: caller.token } : {}) };
  const stream = (input.stream === 'unknown' ? input.value : input.stream === 'none' ? undefined : input.stream) as StreamName;
  const tag = input.streamClass.startsWith('tag-') && input.streamClass !== 'tag-missing' ? input.value : undefined;
  const list = input.streamClass === 'list-own' ? config.listId : input.streamClass.startsWith('list-') ? input.value : undefined;
  return { ...base, stream, ...(tag === undefined ? {} : { tag }), ...(list === undefined ? {} : { list }) };
}

/**
 * Opens each stream one after another as `caller` (A with its token, or anonymous without one), and closes it as soon
 * as its opening answered: the opener's own timeout (the stream window) bounds the wait for that answer. The health
 * endpoint is read at the streaming service's address, as the streaming test reads it, but accepting any type.
 */
export async function openExplored(inputs: readonly StreamInput[], caller: Actor, config: Config, openers: { sse: Opener; websocket: Opener }): Promise<SentStream[]> {
  const sent: SentStream[] = [];
  for (const input of inputs) {
    if (input.transport === 'health') {
      const anyone = new Actor(caller.name, { ...config, baseUrl: config.streamingUrl });
      // Accept */*, as a monitoring probe asks: the streaming group's read names text/plain.
      sent.push({ input, exchange: await anyone.get('/api/v1/streaming/health', { headers: { accept: '*/*' } }) });
      continue;
    }
    const stream = await openers[input.transport](config, requestOf(input, caller, config));
    const ended = stream.ended;
    stream.close();
    sent.push({ input, exchange: stream.exchange, ...(ended === undefined ? {} : { ended: excerpt(ended, 200) }) });
  }
  return sent;
}

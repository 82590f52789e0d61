// The contract's "Streaming (WebSocket)" section: one path, /api/v1/streaming, with access_token, stream, and tag or
// list. The scenario of support/stream-checks.ts runs over WebSocket here, as suites/streaming-sse.test.ts runs it
// over server-sent events, and the same Events rules judge the payloads. A stream that did not open blocks the
// checks that listen on it (by STREAM-WS-1 when A's user stream did not open either).
import { beforeAll, describe, it } from 'vitest';
import { StreamingScenario } from './support/stream-checks.ts';
import { openWebSocket } from './support/streams.ts';

describe('Streaming (WebSocket)', () => {
  let scenario: StreamingScenario;

  beforeAll(async () => {
    scenario = await StreamingScenario.play(openWebSocket);
  });

  it('STREAM-WS-1 a request to /api/v1/streaming with access_token and stream=user opens the user stream', () => scenario.opensUserStream());
  it('STREAM-WS-2 every message carries the event name and its JSON-encoded payload (a string)', () => scenario.framesMessages());
  it('EVENTS-UPDATE-1 an update event carries the new Status (WebSocket)', () => scenario.updateCarriesStatus());
  it('EVENTS-DELETE-1 a delete event carries the id of the deleted status (WebSocket)', () => scenario.deleteNamesStatusId());
  it('EVENTS-NOTIFICATION-1 a notification event carries a JSON object (WebSocket)', (context) => scenario.notificationIsObject(context));
  it('STREAM-PUBLIC-1 a public status produces update on stream=public (WebSocket)', () => scenario.publicCarriesPublicStatus());
  it('STREAM-PUBLIC-2 a private status produces no update on stream=public (WebSocket)', () => scenario.publicLeavesOutPrivateStatus());
  it('STREAM-LOCAL-1 a public status of this server produces update on stream=public:local (WebSocket)', () => scenario.localCarriesPublicStatus());
  it('STREAM-HASHTAG-1 a public status produces update on stream=hashtag for its tag (WebSocket)', () => scenario.hashtagCarriesTaggedStatus());
  it('STREAM-HASHTAG-2 a public status produces update on stream=hashtag:local for its tag (WebSocket)', () => scenario.localHashtagCarriesTaggedStatus());
  it('STREAM-HASHTAG-3 a public status produces no update on stream=hashtag for another tag (WebSocket)', () => scenario.otherHashtagLeavesOutStatus());
  it('STREAM-LIST-1 a status of a list member produces update on stream=list (WebSocket)', (context) => scenario.listCarriesMemberStatus(context));
  it('STREAM-DIRECT-1 a direct message reaches stream=direct (WebSocket)', () => scenario.directCarriesDirectMessage());
  it("STREAM-USER-1 a new status produces update on its author's stream=user (WebSocket)", () => scenario.userCarriesOwnStatus());
  it("STREAM-USER-2 another user's mention produces notification on stream=user (WebSocket)", (context) => scenario.userCarriesNotification(context));
  it('STREAM-USER-3 after mute, a reply in the muted thread produces no notification (WebSocket)', (context) => scenario.mutedThreadStaysQuiet(context));
  it('STREAM-USER-4 after unmute, a reply in the thread produces notification again (WebSocket)', (context) => scenario.unmutedThreadNotifies(context));
});

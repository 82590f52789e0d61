// The contract's two streaming sections, "Streaming (server-sent events)" and "Streaming (WebSocket)", with the
// Events rules both obey. Every stream of both transports is opened once, the scenario of
// support/judge/stream-scenario.ts posts while they all listen (one set of statuses serves both), and each check
// judges what arrived on its own transport's streams: a deviation of one transport fails only that transport's
// checks. A stream that did not open blocks the checks that listen on it (by STREAM-SSE-1 when no event stream
// answered 200, by STREAM-WS-1 when A's WebSocket user stream did not open). An event stream is read whatever its
// Content-Type, which STREAM-SSE-1 alone judges; an event check needs its stream open and the event's cause made,
// nothing more.
import { beforeAll, describe, it } from 'vitest';
import { Actor, actors } from './support/act/actors.ts';
import { excerpt } from './support/talk/http.ts';
import { since } from './support/judge/preconditions.ts';
import { directCarriesDirectMessage, hashtagCarriesTaggedStatus, listCarriesMemberStatus, localCarriesPublicStatus, localHashtagCarriesTaggedStatus, otherHashtagLeavesOutStatus, publicCarriesPublicStatus, publicLeavesOutPrivateStatus, userCarriesOwnStatus } from './support/judge/stream-carrying.ts';
import { mutedThreadStaysQuiet, notificationIsObject, unmutedThreadNotifies, userCarriesNotification } from './support/judge/stream-notifications.ts';
import { answersEventStreams, carriesHeartbeats, deleteNamesStatusId, framesEvents, framesMessages, opensUserStream, updateCarriesStatus } from './support/judge/stream-frames.ts';
import { StreamingScenario } from './support/judge/stream-scenario.ts';
import { openSse } from './support/talk/sse.ts';
import { openWebSocket } from './support/talk/websocket.ts';
import { check } from './support/judge/verify.ts';

const { config } = actors();

describe('Streaming', () => {
  // The scenario plays while the health check runs: neither waits for the other.
  let played: Promise<Record<'sse' | 'webSocket', StreamingScenario>>;
  beforeAll(() => {
    played = StreamingScenario.play({ sse: openSse, webSocket: openWebSocket });
  });

  describe('Streaming (server-sent events)', () => {
    it('STREAM-HEALTH-1 GET /api/v1/streaming/health answers OK', async (context) => {
      since(context, config, '2.5.0');
      // The health check belongs to the streaming service, which may have an address of its own.
      const anyone = new Actor('anonymous', { ...config, baseUrl: config.streamingUrl });
      const exchange = await anyone.get('/api/v1/streaming/health', { headers: { accept: 'text/plain' } });
      check(exchange.status === 200 && exchange.text.trim() === 'OK', 'HTTP 200 with the body OK', `HTTP ${exchange.status ?? exchange.error} ${excerpt(exchange.text, 200)}`, exchange);
    });

    describe('events on the streams', () => {
      let scenario: StreamingScenario;

      beforeAll(async () => {
        scenario = (await played).sse;
      });

      it('STREAM-SSE-1 every stream answers with Content-Type text/event-stream', () => answersEventStreams(scenario));
      it('EVENTS-COMMENT-1 the HTTP stream carries heartbeat comments (lines that begin with a colon)', () => carriesHeartbeats(scenario));
      it('EVENTS-FRAME-1 an event is an event: line with its name and a data: line with its JSON-encoded payload', () => framesEvents(scenario));
      it('EVENTS-UPDATE-1 an update event carries the new Status (SSE)', () => updateCarriesStatus(scenario));
      it('EVENTS-DELETE-1 a delete event carries the id of the deleted status (SSE)', () => deleteNamesStatusId(scenario));
      it('EVENTS-NOTIFICATION-1 a notification event carries a JSON object (SSE)', (context) => notificationIsObject(scenario, context));
      it('STREAM-PUBLIC-1 a public status produces update on the public stream (SSE)', () => publicCarriesPublicStatus(scenario));
      it('STREAM-PUBLIC-2 a private status produces no update on the public stream (SSE)', () => publicLeavesOutPrivateStatus(scenario));
      it('STREAM-LOCAL-1 a public status of this server produces update on the local stream (SSE)', () => localCarriesPublicStatus(scenario));
      it('STREAM-HASHTAG-1 a public status produces update on the hashtag stream of its tag (SSE)', () => hashtagCarriesTaggedStatus(scenario));
      it('STREAM-HASHTAG-2 a public status produces update on the local hashtag stream of its tag (SSE)', () => localHashtagCarriesTaggedStatus(scenario));
      it('STREAM-HASHTAG-3 a public status produces no update on the hashtag stream of another tag (SSE)', () => otherHashtagLeavesOutStatus(scenario));
      it('STREAM-LIST-1 a status of a list member produces update on the list stream (SSE)', (context) => listCarriesMemberStatus(scenario, context));
      it('STREAM-DIRECT-1 a direct message reaches the direct stream (SSE)', () => directCarriesDirectMessage(scenario));
      it("STREAM-USER-1 a new status produces update on its author's user stream (SSE)", () => userCarriesOwnStatus(scenario));
      it("STREAM-USER-2 another user's mention produces notification on the user stream (SSE)", (context) => userCarriesNotification(scenario, context));
      it('STREAM-USER-3 after mute, a reply in the muted thread produces no notification (SSE)', (context) => mutedThreadStaysQuiet(scenario, context));
      it('STREAM-USER-4 after unmute, a reply in the thread produces notification again (SSE)', (context) => unmutedThreadNotifies(scenario, context));
    });
  });

  describe('Streaming (WebSocket)', () => {
    let scenario: StreamingScenario;

    beforeAll(async () => {
      scenario = (await played).webSocket;
    });

    it('STREAM-WS-1 a request to /api/v1/streaming with access_token and stream=user opens the user stream', () => opensUserStream(scenario));
    it('STREAM-WS-2 every message carries the event name and its JSON-encoded payload (a string)', () => framesMessages(scenario));
    it('EVENTS-UPDATE-1 an update event carries the new Status (WebSocket)', () => updateCarriesStatus(scenario));
    it('EVENTS-DELETE-1 a delete event carries the id of the deleted status (WebSocket)', () => deleteNamesStatusId(scenario));
    it('EVENTS-NOTIFICATION-1 a notification event carries a JSON object (WebSocket)', (context) => notificationIsObject(scenario, context));
    it('STREAM-PUBLIC-1 a public status produces update on stream=public (WebSocket)', () => publicCarriesPublicStatus(scenario));
    it('STREAM-PUBLIC-2 a private status produces no update on stream=public (WebSocket)', () => publicLeavesOutPrivateStatus(scenario));
    it('STREAM-LOCAL-1 a public status of this server produces update on stream=public:local (WebSocket)', () => localCarriesPublicStatus(scenario));
    it('STREAM-HASHTAG-1 a public status produces update on stream=hashtag for its tag (WebSocket)', () => hashtagCarriesTaggedStatus(scenario));
    it('STREAM-HASHTAG-2 a public status produces update on stream=hashtag:local for its tag (WebSocket)', () => localHashtagCarriesTaggedStatus(scenario));
    it('STREAM-HASHTAG-3 a public status produces no update on stream=hashtag for another tag (WebSocket)', () => otherHashtagLeavesOutStatus(scenario));
    it('STREAM-LIST-1 a status of a list member produces update on stream=list (WebSocket)', (context) => listCarriesMemberStatus(scenario, context));
    it('STREAM-DIRECT-1 a direct message reaches stream=direct (WebSocket)', () => directCarriesDirectMessage(scenario));
    it("STREAM-USER-1 a new status produces update on its author's stream=user (WebSocket)", () => userCarriesOwnStatus(scenario));
    it("STREAM-USER-2 another user's mention produces notification on stream=user (WebSocket)", (context) => userCarriesNotification(scenario, context));
    it('STREAM-USER-3 after mute, a reply in the muted thread produces no notification (WebSocket)', (context) => mutedThreadStaysQuiet(scenario, context));
    it('STREAM-USER-4 after unmute, a reply in the thread produces notification again (WebSocket)', (context) => unmutedThreadNotifies(scenario, context));
  });
});

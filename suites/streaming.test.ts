// The contract's two streaming sections, "Streaming (server-sent events)" and "Streaming (WebSocket)", with the
// Events rules both obey. Every stream of both transports is opened once, the scenario of
// support/judge/stream-scenario.ts posts while they all listen (one set of statuses serves both), and each check
// judges what arrived on its own transport's streams: a deviation of one transport fails only that transport's
// checks. A stream that did not open blocks the checks that listen on it (by STREAM-SSE-1 when no event stream
// answered 200, by STREAM-WS-1 when A's WebSocket user stream did not open). An event stream is read whatever its
// Content-Type, which STREAM-SSE-1 alone judges; an event check needs its stream open and the event's cause made,
// nothing more.
import { Actor, actors } from './support/act/actors.ts';
import { directCarriesDirectMessage, hashtagCarriesTaggedStatus, listCarriesMemberStatus, localCarriesPublicStatus, localHashtagCarriesTaggedStatus, otherHashtagLeavesOutStatus, publicCarriesPublicStatus, publicLeavesOutPrivateStatus, userCarriesOwnStatus } from './support/judge/stream-carrying.ts';
import { answersEventStreams, carriesHeartbeats, deleteNamesStatusId, framesEvents, framesMessages, opensUserStream, updateCarriesStatus } from './support/judge/stream-frames.ts';
import { mutedThreadStaysQuiet, notificationIsObject, unmutedThreadNotifies, userCarriesNotification } from './support/judge/stream-notifications.ts';
import { StreamingScenario } from './support/judge/stream-scenario.ts';
import { check } from './support/judge/verify.ts';
import { it, made, section, step } from './support/run/checks.ts';
import { excerpt } from './support/talk/http.ts';
import { openSse } from './support/talk/sse.ts';
import { openWebSocket } from './support/talk/websocket.ts';

const { config } = actors();

// The scenario plays while the health check runs: neither waits for the other. Its statuses are deleted by the
// scenario itself, and the ledger reads them gone.
const played = step('every stream of both transports opened, and the scenario played while they all listen', { as: 'A', cost: { api: 15, streams: 18 } }, async () =>
  made(await StreamingScenario.play({ sse: openSse, webSocket: openWebSocket })),
);

const health = step('GET /api/v1/streaming/health', { as: 'anonymous', cost: { api: 1 } }, async () => {
  // The health check belongs to the streaming service, which may have an address of its own.
  const anyone = new Actor('anonymous', { ...config, baseUrl: config.streamingUrl });
  return made(await anyone.get('/api/v1/streaming/health', { headers: { accept: 'text/plain' } }));
});

const sse = { played };
const webSocket = { played };

section('Streaming', () => {
  section('Streaming (server-sent events)', () => {
    it('STREAM-HEALTH-1 GET /api/v1/streaming/health answers OK', { needs: { health } }, ({ health: exchange }) => {
      check(exchange.status === 200 && exchange.text.trim() === 'OK', 'HTTP 200 with the body OK', `HTTP ${exchange.status ?? exchange.error} ${excerpt(exchange.text, 200)}`, exchange);
    });

    section('events on the streams', () => {
      it('STREAM-SSE-1 every stream answers with Content-Type text/event-stream', { needs: sse }, ({ played }) => answersEventStreams(played.sse));
      it('EVENTS-COMMENT-1 the HTTP stream carries heartbeat comments (lines that begin with a colon)', { needs: sse }, ({ played }) => carriesHeartbeats(played.sse));
      it('EVENTS-FRAME-1 an event is an event: line with its name and a data: line with its JSON-encoded payload', { needs: sse }, ({ played }) => framesEvents(played.sse));
      it('EVENTS-UPDATE-1 an update event carries the new Status (SSE)', { needs: sse }, ({ played }) => updateCarriesStatus(played.sse));
      it('EVENTS-DELETE-1 a delete event carries the id of the deleted status (SSE)', { needs: sse }, ({ played }) => deleteNamesStatusId(played.sse));
      it('EVENTS-NOTIFICATION-1 a notification event carries a JSON object (SSE)', { needs: sse }, ({ played }, context) => notificationIsObject(played.sse, context));
      it('STREAM-PUBLIC-1 a public status produces update on the public stream (SSE)', { needs: sse }, ({ played }) => publicCarriesPublicStatus(played.sse));
      it('STREAM-PUBLIC-2 a private status produces no update on the public stream (SSE)', { needs: sse }, ({ played }) => publicLeavesOutPrivateStatus(played.sse));
      it('STREAM-LOCAL-1 a public status of this server produces update on the local stream (SSE)', { needs: sse }, ({ played }) => localCarriesPublicStatus(played.sse));
      it('STREAM-HASHTAG-1 a public status produces update on the hashtag stream of its tag (SSE)', { needs: sse }, ({ played }) => hashtagCarriesTaggedStatus(played.sse));
      it('STREAM-HASHTAG-2 a public status produces update on the local hashtag stream of its tag (SSE)', { needs: sse }, ({ played }) => localHashtagCarriesTaggedStatus(played.sse));
      it('STREAM-HASHTAG-3 a public status produces no update on the hashtag stream of another tag (SSE)', { needs: sse }, ({ played }) => otherHashtagLeavesOutStatus(played.sse));
      it('STREAM-LIST-1 a status of a list member produces update on the list stream (SSE)', { needs: sse }, ({ played }, context) => listCarriesMemberStatus(played.sse, context));
      it('STREAM-DIRECT-1 a direct message reaches the direct stream (SSE)', { needs: sse }, ({ played }) => directCarriesDirectMessage(played.sse));
      it("STREAM-USER-1 a new status produces update on its author's user stream (SSE)", { needs: sse }, ({ played }) => userCarriesOwnStatus(played.sse));
      it("STREAM-USER-2 another user's mention produces notification on the user stream (SSE)", { needs: sse }, ({ played }, context) => userCarriesNotification(played.sse, context));
      it('STREAM-USER-3 after mute, a reply in the muted thread produces no notification (SSE)', { needs: sse }, ({ played }, context) => mutedThreadStaysQuiet(played.sse, context));
      it('STREAM-USER-4 after unmute, a reply in the thread produces notification again (SSE)', { needs: sse }, ({ played }, context) => unmutedThreadNotifies(played.sse, context));
    });
  });

  section('Streaming (WebSocket)', () => {
    it('STREAM-WS-1 a request to /api/v1/streaming with access_token and stream=user opens the user stream', { needs: webSocket }, ({ played }) => opensUserStream(played.webSocket));
    it('STREAM-WS-2 every message carries the event name and its JSON-encoded payload (a string)', { needs: webSocket }, ({ played }) => framesMessages(played.webSocket));
    it('EVENTS-UPDATE-1 an update event carries the new Status (WebSocket)', { needs: webSocket }, ({ played }) => updateCarriesStatus(played.webSocket));
    it('EVENTS-DELETE-1 a delete event carries the id of the deleted status (WebSocket)', { needs: webSocket }, ({ played }) => deleteNamesStatusId(played.webSocket));
    it('EVENTS-NOTIFICATION-1 a notification event carries a JSON object (WebSocket)', { needs: webSocket }, ({ played }, context) => notificationIsObject(played.webSocket, context));
    it('STREAM-PUBLIC-1 a public status produces update on stream=public (WebSocket)', { needs: webSocket }, ({ played }) => publicCarriesPublicStatus(played.webSocket));
    it('STREAM-PUBLIC-2 a private status produces no update on stream=public (WebSocket)', { needs: webSocket }, ({ played }) => publicLeavesOutPrivateStatus(played.webSocket));
    it('STREAM-LOCAL-1 a public status of this server produces update on stream=public:local (WebSocket)', { needs: webSocket }, ({ played }) => localCarriesPublicStatus(played.webSocket));
    it('STREAM-HASHTAG-1 a public status produces update on stream=hashtag for its tag (WebSocket)', { needs: webSocket }, ({ played }) => hashtagCarriesTaggedStatus(played.webSocket));
    it('STREAM-HASHTAG-2 a public status produces update on stream=hashtag:local for its tag (WebSocket)', { needs: webSocket }, ({ played }) => localHashtagCarriesTaggedStatus(played.webSocket));
    it('STREAM-HASHTAG-3 a public status produces no update on stream=hashtag for another tag (WebSocket)', { needs: webSocket }, ({ played }) => otherHashtagLeavesOutStatus(played.webSocket));
    it('STREAM-LIST-1 a status of a list member produces update on stream=list (WebSocket)', { needs: webSocket }, ({ played }, context) => listCarriesMemberStatus(played.webSocket, context));
    it('STREAM-DIRECT-1 a direct message reaches stream=direct (WebSocket)', { needs: webSocket }, ({ played }) => directCarriesDirectMessage(played.webSocket));
    it("STREAM-USER-1 a new status produces update on its author's stream=user (WebSocket)", { needs: webSocket }, ({ played }) => userCarriesOwnStatus(played.webSocket));
    it("STREAM-USER-2 another user's mention produces notification on stream=user (WebSocket)", { needs: webSocket }, ({ played }, context) => userCarriesNotification(played.webSocket, context));
    it('STREAM-USER-3 after mute, a reply in the muted thread produces no notification (WebSocket)', { needs: webSocket }, ({ played }, context) => mutedThreadStaysQuiet(played.webSocket, context));
    it('STREAM-USER-4 after unmute, a reply in the thread produces notification again (WebSocket)', { needs: webSocket }, ({ played }, context) => unmutedThreadNotifies(played.webSocket, context));
  });
});

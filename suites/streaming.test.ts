// The contract's two streaming sections, "Streaming (server-sent events)" and "Streaming (WebSocket)", with the
// Events rules both obey. The streams of both transports are opened, then the scenario's moves post while they all
// listen (support/act/stream-moves.ts: one set of statuses serves both), each a step the plan costs and orders; each
// check judges what arrived on its own transport's streams: a deviation of one transport fails only that transport's
// checks. A check both transports have is declared once and runs over each (wpt's variants), a result per transport.
// A stream that did not open blocks the checks that listen on it (by STREAM-SSE-1 when no event stream answered 200,
// by STREAM-WS-1 when A's WebSocket user stream did not open). An event stream is read whatever its Content-Type,
// which STREAM-SSE-1 alone judges; an event check needs its stream open and the event's cause made, nothing more.
import { actors } from './support/act/actors.ts';
import { SETTLE_REREADS } from './support/act/settle.ts';
import { NEEDS_B } from './support/act/stream-keys.ts';
import { deletePublic, muteThread, openStreams, postDirect, postPublic, readDeleted, readDirect, reply, streamsOpened, unmuteThread } from './support/act/stream-moves.ts';
import { directCarriesDirectMessage, hashtagCarriesTaggedStatus, listCarriesMemberStatus, localCarriesPublicStatus, localHashtagCarriesTaggedStatus, otherHashtagLeavesOutStatus, publicCarriesPublicStatus, publicLeavesOutPrivateStatus, userCarriesOwnStatus } from './support/judge/stream-carrying.ts';
import { answersEventStreams, carriesHeartbeats, deleteNamesStatusId, framesEvents, framesMessages, opensUserStream, updateCarriesStatus } from './support/judge/stream-frames.ts';
import { mutedThreadStaysQuiet, notificationIsObject, unmutedThreadNotifies, userCarriesNotification } from './support/judge/stream-notifications.ts';
import { StreamingScenario } from './support/judge/stream-scenario.ts';
import { check } from './support/judge/verify.ts';
import { it, made, NEEDS_B_DELETIONS, notMade, requirement, section, step } from './support/run/checks.ts';
import { excerpt } from './support/talk/http.ts';
import { openSse } from './support/talk/sse.ts';
import { openWebSocket } from './support/talk/websocket.ts';

const { config, b } = actors();
// B posts, replies and mentions A; without B, A posts the public status and nothing notifies A: the poster's steps are
// declared as it. Without B, A's share of the Deletion bucket (15 a run) has room for the public status's deletion
// alone: B alone replies, and A's direct message is posted only beside B's statuses.
const posterAs = b ? 'B' : 'A';
const hasB = b !== undefined;
// A transport's streams open in one step: A's, and the poster's user stream where B posts.
const opened = { alsoAs: hasB ? (['B'] as const) : [], cost: { streams: streamsOpened(config, hasB) } };

const sseStreams = step('every event stream opened (server-sent events)', { as: 'A', ...opened }, async (_, { actor, also }) => made(await openStreams(openSse, config, actor, also.B ?? actor)));
const webSocketStreams = step('every WebSocket stream opened', { as: 'A', ...opened }, async (_, { actor, also }) => made(await openStreams(openWebSocket, config, actor, also.B ?? actor)));

// No stream open on any transport: nothing could carry what a post makes, so nothing is posted and no check waits for
// an event (each transport's checks are blocked by its own cause).
const heard = step('a stream of either transport open to listen', { as: 'A', needs: { sseStreams, webSocketStreams }, cost: {} }, async ({ sseStreams, webSocketStreams }) => {
  const both = [sseStreams, webSocketStreams];
  return both.some(({ streams }) => Object.values(streams).some((stream) => stream?.accepted)) ? made(both) : notMade({ summary: 'no stream of either transport opened' });
});

// The ledger deletes the direct message and reads it gone; A's read of it shows the ledger that a read of a status answers it.
const withoutB = () => notMade({ summary: NEEDS_B_DELETIONS });
const direct = step("A's direct message, posted while the streams listen", { as: 'A', needs: { heard }, cost: { api: b ? 3 : 0 } }, async (_, { actor }) => (hasB ? postDirect(actor) : withoutB()));
const directRead = step("A's read of its direct message", { as: 'A', needs: { direct }, cost: { api: b ? 1 : 0 } }, ({ direct }, { actor }) => readDirect(actor, direct));
// The scenario deletes it, and deletedRead reads it gone for the ledger.
const publicStatus = step('the public status tagged for the hashtag streams, mentioning A with B', { as: posterAs, needs: { heard }, uses: { direct }, cost: { api: 1 } }, ({ direct }, { actor }) => postPublic(actor, direct));
// Each move in the thread acts on the public status: they keep this order, the mute around the private reply.
const thread = { needs: { publicStatus }, changes: [publicStatus] };
const mute = step('A mutes the thread of the public status', { as: 'A', ...thread, cost: { api: b ? 1 : 0 } }, async ({ publicStatus }, { actor }) => (hasB ? muteThread(actor, publicStatus) : notMade({ summary: NEEDS_B })));
const replyCost = { cost: { api: b ? 3 : 0 } };
const privateReply = step('a private reply in the thread', { as: 'B', ...thread, ...replyCost }, ({ publicStatus }, { actor }) => reply(actor, publicStatus, 'private'), withoutB);
const unmute = step('A unmutes the thread', { as: 'A', needs: { publicStatus, mute }, changes: [publicStatus], cost: { api: b ? 1 : 0 } }, ({ publicStatus, mute }, { actor }) => unmuteThread(actor, publicStatus, mute));
const publicReply = step('a public reply in the thread, tagged another tag', { as: 'B', ...thread, ...replyCost }, ({ publicStatus }, { actor }) => reply(actor, publicStatus, 'public'), withoutB);
const deletion = step('the public status deleted once the public streams carried it', { as: posterAs, needs: { publicStatus, heard }, changes: [publicStatus], cost: { api: 1 } }, ({ publicStatus, heard }, { actor }) =>
  deletePublic(actor, publicStatus, heard.map(({ streams }) => streams.public)),
);
// A server that deletes in the background shows the status for a while: the read is made again up to SETTLE_REREADS
// times within the settle window (settle.ts), which the step's hold covers.
const deletedRead = step('the public status read after its deletion', { as: posterAs, needs: { publicStatus, deletion }, cost: { api: 1 }, mayAdd: SETTLE_REREADS }, ({ publicStatus }, { actor }) =>
  readDeleted(actor, publicStatus),
);

// The health check belongs to the streaming service, which may have an address of its own.
const health = step('GET /api/v1/streaming/health', { as: 'anonymous', cost: { api: 1 } }, async (_, { actor }) =>
  made(await actor.atStreamingService().get('/api/v1/streaming/health', { headers: { accept: 'text/plain' } })),
);

/** What every stream check judges: the moves' outcomes, whatever they came to, with its transport's streams. */
const played = { heard, direct, directRead, publicStatus, mute, privateReply, unmute, publicReply, deletion, deletedRead };
const sse = { uses: { ...played, streams: sseStreams } };
const webSocket = { uses: { ...played, streams: webSocketStreams } };
/** A check of both transports runs over each (wpt's variants): one result per transport, titled with it. */
const bothTransports = { uses: played, variants: [{ name: 'SSE', uses: { streams: sseStreams } }, { name: 'WebSocket', uses: { streams: webSocketStreams } }] };
const withB = { ...bothTransports, requires: [requirement(b, NEEDS_B)] };
/** The checks judged on B's replies or A's direct message, which are posted only where B is configured. */
const withBsDeletions = { ...bothTransports, requires: [requirement(b, NEEDS_B_DELETIONS)] };
const withList = {
  ...bothTransports,
  requires: [
    requirement(config.listId, 'needs CONFORMANCE_LIST_ID: a list of account A that includes account B (the contract cannot create lists)'),
    requirement(b, `${NEEDS_B} (B is the member of the list whose status the list stream must carry)`),
  ],
};
const on = StreamingScenario.of;

section('Streaming', () => {
  section('Streaming (server-sent events)', () => {
    it('STREAM-HEALTH-1 GET /api/v1/streaming/health answers OK', { needs: { health } }, ({ health: exchange }) => {
      check(exchange.status === 200 && exchange.text.trim() === 'OK', 'HTTP 200 with the body OK', `HTTP ${exchange.status ?? exchange.error} ${excerpt(exchange.text, 200)}`, exchange);
    });
    it('STREAM-SSE-1 every stream answers with Content-Type text/event-stream', sse, (played) => answersEventStreams(on(played)));
    it('EVENTS-COMMENT-1 the HTTP stream carries heartbeat comments (lines that begin with a colon)', sse, (played) => carriesHeartbeats(on(played)));
    it('EVENTS-FRAME-1 an event is an event: line with its name and a data: line with its JSON-encoded payload', sse, (played) => framesEvents(on(played)));
  });

  section('Streaming (WebSocket)', () => {
    it('STREAM-WS-1 a request to /api/v1/streaming with access_token and stream=user opens the user stream', webSocket, (played) => opensUserStream(on(played)));
    it('STREAM-WS-2 every message carries the event name and its JSON-encoded payload (a string)', webSocket, (played) => framesMessages(on(played)));
  });

  section('events on the streams of both transports', () => {
    it('EVENTS-UPDATE-1 an update event carries the new Status', bothTransports, (played) => updateCarriesStatus(on(played)));
    it('EVENTS-DELETE-1 a delete event carries the id of the deleted status', bothTransports, (played) => deleteNamesStatusId(on(played)));
    it('EVENTS-NOTIFICATION-1 a notification event carries a JSON object', withB, (played) => notificationIsObject(on(played)));
    it('STREAM-PUBLIC-1 a public status produces update on the public stream', bothTransports, (played) => publicCarriesPublicStatus(on(played)));
    it('STREAM-PUBLIC-2 a private status produces no update on the public stream', withBsDeletions, (played) => publicLeavesOutPrivateStatus(on(played)));
    it('STREAM-LOCAL-1 a public status of this server produces update on the local stream', bothTransports, (played) => localCarriesPublicStatus(on(played)));
    it('STREAM-HASHTAG-1 a public status produces update on the hashtag stream of its tag', bothTransports, (played) => hashtagCarriesTaggedStatus(on(played)));
    it('STREAM-HASHTAG-2 a public status produces update on the local hashtag stream of its tag', bothTransports, (played) => localHashtagCarriesTaggedStatus(on(played)));
    it('STREAM-HASHTAG-3 a public status produces no update on the hashtag stream of another tag', withBsDeletions, (played) => otherHashtagLeavesOutStatus(on(played)));
    it('STREAM-LIST-1 a status of a list member produces update on the list stream', withList, (played) => listCarriesMemberStatus(on(played)));
    it('STREAM-DIRECT-1 a direct message reaches the direct stream', withBsDeletions, (played) => directCarriesDirectMessage(on(played)));
    it("STREAM-USER-1 a new status produces update on its author's user stream", bothTransports, (played) => userCarriesOwnStatus(on(played)));
    it("STREAM-USER-2 another user's mention produces notification on the user stream", withB, (played) => userCarriesNotification(on(played)));
    it('STREAM-USER-3 after mute, a reply in the muted thread produces no notification', withB, (played) => mutedThreadStaysQuiet(on(played)));
    it('STREAM-USER-4 after unmute, a reply in the thread produces notification again', withB, (played) => unmutedThreadNotifies(on(played)));
  });
});

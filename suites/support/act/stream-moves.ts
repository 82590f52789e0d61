// The moves of the streaming scenario, each one step of suites/streaming.test.ts that the planner costs and orders:
// the streams of a transport opened (A's, and the user stream of the public status's author), then, while they all
// listen, A's direct message and A's read of it (with B only), the poster's public status (B, or A without B) that
// mentions A, A's mute of its thread, B's private reply, A's unmute, B's public reply, the poster's DELETE of the
// public status once the public streams carried it, and the poster's read of it after. The judges of judge/ only read
// what these brought (judge/stream-scenario.ts), as the types of stream-moves-model.ts: none of them sends a request.
//
// A move never judges: it ends as what it made (and when, for the waits of the events it causes) or as the cause a
// check needing it is blocked by.
import { createdObject, type Exchange } from '../talk/http.ts';
import type { Config } from '../talk/config.ts';
import { carrying, type EventStream, type Opener, type StreamRequest } from '../talk/streams.ts';
import type { Actor } from './actors.ts';
import { authorGap, type PreparedStatus } from './created.ts';
import { remember } from './ledger.ts';
import { took } from './moves.ts';
import { now, settle } from './settle.ts';
import { answerOf, causeOf, failed, succeeded, type Step, type StepOutcome } from './steps.ts';
import { OTHER_TAG, TAG } from './stream-keys.ts';
import type { Muted, OpenedStreams, Posted, PostedPublic, PostedReply } from './stream-moves-model.ts';

/** The stream connections one transport opens: A's eight (the list stream with a list), and the poster's user stream with B. */
export const streamsOpened = (config: Config, withB: boolean): number => 7 + (config.listId ? 1 : 0) + (withB ? 1 : 0);

/** Every stream of one transport: A's, and the user stream of the public status's author. */
export async function openStreams(open: Opener, config: Config, a: Actor, poster: Actor): Promise<OpenedStreams> {
  const listen = (actor: Actor, request: Omit<StreamRequest, 'actor' | 'token'>) => open(config, { actor: actor.name, token: actor.token, ...request });
  const [user, authorUser, pub, local, hashtag, localHashtag, otherHashtag, list, direct] = await Promise.all([
    listen(a, { stream: 'user' }),
    poster === a ? undefined : listen(poster, { stream: 'user' }),
    listen(a, { stream: 'public' }),
    listen(a, { stream: 'public:local' }),
    listen(a, { stream: 'hashtag', tag: TAG }),
    listen(a, { stream: 'hashtag:local', tag: TAG }),
    listen(a, { stream: 'hashtag', tag: OTHER_TAG }),
    config.listId ? listen(a, { stream: 'list', list: config.listId }) : undefined,
    listen(a, { stream: 'direct' }),
  ]);
  return { streams: { user, authorUser: authorUser ?? user, public: pub, local, hashtag, localHashtag, otherHashtag, list, direct }, withB: poster !== a };
}

const timed = (created: PreparedStatus): StepOutcome<Posted> =>
  created.ok ? { ok: true, value: { status: created.value, at: Date.now() }, exchange: created.exchange } : { ok: false, cause: created.cause, ...(created.exchange ? { exchange: created.exchange } : {}) };

/** A's direct message, posted while every stream listens. */
export async function postDirect(a: Actor): Promise<StepOutcome<Posted>> {
  return timed(await a.createStatus({ status: 'conformance probe: a direct message on the streams', visibility: 'direct' }));
}

/** A's read of its own direct message: what the direct stream may carry is what its user may see. */
export async function readDirect(a: Actor, direct: Posted): Promise<StepOutcome<Exchange>> {
  const read = await a.get(`/api/v1/statuses/${direct.status.id}`);
  return { ok: true, value: read, exchange: read };
}

/** A's acct, from the status A created first (whatever else is wrong with it): the poster mentions A with it. */
function mentionOf(direct: StepOutcome<Posted>): Step<string> {
  const status = direct.exchange ? createdObject(direct.exchange) : undefined;
  const acct = (status?.account as { acct?: unknown } | null | undefined)?.acct;
  if (typeof acct === 'string' && acct !== '' && direct.exchange) return succeeded(acct, direct.exchange);
  if (!direct.ok) return failed(direct.cause, direct.exchange);
  // A Status without its account is the Status's gap; an account without acct is the Account's.
  return failed(authorGap(status, 'acct, to mention A by', direct.exchange), direct.exchange);
}

/**
 * What the poster writes first: A's acct, which A's direct message gives only with B (B's statuses then notify A),
 * nothing without it.
 */
const written = (mention: Step<string>) => (mention.ok ? `@${mention.value} ` : '');

/** The poster's public status tagged TAG, mentioning A with B. */
export async function postPublic(poster: Actor, direct: StepOutcome<Posted>): Promise<StepOutcome<PostedPublic>> {
  const mention = mentionOf(direct);
  const created = await poster.createStatus({ status: `${written(mention)}conformance probe: a public status on the streams #${TAG}`, visibility: 'public' });
  const posted = timed(created);
  return posted.ok ? { ...posted, value: { ...posted.value, created, mention } } : posted;
}

/** A's mute (or unmute) of the thread: it took when its answer, or a read after it, shows the flag (moves.ts). */
async function moveThread(a: Actor, published: PostedPublic, action: 'mute' | 'unmute'): Promise<Step<string>> {
  const exchange = await a.post(`/api/v1/statuses/${published.status.id}/${action}`);
  const clause = action === 'mute' ? 'STATUS-MUTE-1' : 'STATUS-MUTE-3';
  return took(a, published.created, succeeded(exchange, exchange), 'muted', action === 'mute', clause, `POST .../${action}`);
}

/** A mutes the thread before the private reply; the ledger unmutes it unless the scenario's unmute took. */
export async function muteThread(a: Actor, published: PostedPublic): Promise<StepOutcome<Muted>> {
  const moved = await moveThread(a, published, 'mute');
  const undo = remember(`mute of ${published.status.id} by A`, () => a.post(`/api/v1/statuses/${published.status.id}/unmute`));
  return { ok: true, value: { moved, undo } };
}

/** A unmutes the thread before the public reply, which then notifies A again. */
export async function unmuteThread(a: Actor, published: PostedPublic, muted: Muted): Promise<Step<string>> {
  const moved = await moveThread(a, published, 'unmute');
  if (moved.ok) muted.undo?.settle();
  return moved;
}

/** B's reply to its public status, mentioning A: private (what public streams leave out), or public tagged OTHER_TAG. */
export async function reply(b: Actor, published: PostedPublic, visibility: 'private' | 'public'): Promise<StepOutcome<PostedReply>> {
  const words = visibility === 'private' ? 'a private reply on the streams' : `a public reply on the streams #${OTHER_TAG}`;
  const created = await b.createStatus({ status: `${written(published.mention)}conformance probe: ${words}`, in_reply_to_id: published.status.id, visibility });
  return { ok: true, value: { created, at: Date.now() } };
}

/**
 * The poster's DELETE of the public status, once each transport's public stream carried it (or did not within the
 * timeout): a server that delivers asynchronously could otherwise send the delete before the update it deletes.
 * `at` is when the request was sent: its delete event may come before the answer.
 */
export async function deletePublic(poster: Actor, published: PostedPublic, publicStreams: readonly (EventStream | undefined)[]): Promise<StepOutcome<{ at: number }>> {
  await Promise.all(publicStreams.map((stream) => (stream?.accepted ? stream.find(carrying(published.status.id), published.at) : undefined)));
  const at = Date.now();
  const answer = await poster.delete(`/api/v1/statuses/${published.status.id}`);
  if (answer.status !== 200) return { ok: false, cause: causeOf('STATUS-DELETE-1', `DELETE of the poster's own status answered ${answerOf(answer)}`, answer), exchange: answer };
  published.created.settle();
  return { ok: true, value: { at }, exchange: answer };
}

/** The poster's read of the public status after its DELETE, within the settle window: the ledger reads it gone by it. */
export async function readDeleted(poster: Actor, published: PostedPublic): Promise<StepOutcome<Exchange>> {
  const { exchange } = await settle(() => poster.get(`/api/v1/statuses/${published.status.id}`), (answer) => answer.status !== 200, now());
  return { ok: true, value: exchange, exchange };
}

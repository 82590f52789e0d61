// The streaming behaviour both transports must show, written once: the streams a run opens, what it posts while
// they listen, and one verifier per clause. suites/streaming-sse.test.ts and suites/streaming-websocket.test.ts name
// the clauses in their titles and play this scenario over their own transport.
//
// Frugal: five statuses serve every stream. A posts a private status, then the poster (B, or A without B) posts a
// public status that mentions A and carries TAG, then A posts a direct message. With B, A mutes the public status's
// thread, B replies in it, A unmutes, B replies again with OTHER_TAG. Last, the poster deletes the public status.
import type { TestContext } from 'vitest';
import { actors, type Actor, type Status } from './actors.ts';
import { remember } from './cleanup.ts';
import { excerpt, type Exchange } from './http.ts';
import { needs } from './preconditions.ts';
import { describeEvent, type EventStream, type Opener, type StreamEvent, type StreamRequest } from './streams.ts';
import { expectResource, fail } from './verify.ts';

const TAG = 'conformancestream';
const OTHER_TAG = 'conformanceother';
const NEEDS_B = 'needs CONFORMANCE_TOKEN_B: the other user posts, replies and mentions A';

type Json = { ok: true; value: unknown } | { ok: false; reason: string };

function parseJson(text: string): Json {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `not JSON (${(error as Error).message})` };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An update whose payload is this status. */
function updateOf(status: Status): (event: StreamEvent) => boolean {
  return (event) => {
    if (event.event !== 'update') return false;
    const payload = parseJson(event.data);
    return payload.ok && isObject(payload.value) && payload.value.id === status.id;
  };
}

/**
 * The id a delete payload names, compared as text: parsing a bare snowflake as a JSON number would lose digits.
 * Both a bare id (what Mastodon sends) and a JSON string (the contract's "JSON-encoded") name it.
 */
function deletedIdOf(data: string): string {
  const text = data.trim();
  if (!text.startsWith('"')) return text;
  const parsed = parseJson(text);
  return parsed.ok && typeof parsed.value === 'string' ? parsed.value : text;
}

const deleteOf = (id: string) => (event: StreamEvent) => event.event === 'delete' && deletedIdOf(event.data) === id;

/**
 * A notification that names this status and none of the others. The Notification's fields are not shown, so
 * the status is looked for anywhere in the payload's text, not at a field.
 */
function notificationAbout(id: string, others: readonly string[] = []): (event: StreamEvent) => boolean {
  return (event) => event.event === 'notification' && event.data.includes(id) && !others.some((other) => event.data.includes(other));
}

/**
 * Any event that carries this status. Which stream carries which event is not shown: Mastodon delivers a direct
 * message on the direct stream as a `conversation` event that holds it, older servers as an `update`.
 */
const carrying = (id: string) => (event: StreamEvent) => event.event !== 'delete' && event.data.includes(id);

export interface Streams {
  /** A's user stream: notifications, and A's home timeline. */
  user: EventStream;
  /** The user stream of the public status's author. */
  authorUser: EventStream;
  public: EventStream;
  local: EventStream;
  hashtag: EventStream;
  localHashtag: EventStream;
  otherHashtag: EventStream;
  list?: EventStream;
  direct: EventStream;
}

export interface Posted {
  privateStatus: Status;
  publicStatus: Status;
  directStatus: Status;
  /** B's replies in the public status's thread: while A muted it, and after A unmuted it (only with B). */
  mutedReply?: Status;
  unmutedReply?: Status;
  mute?: Exchange;
  unmute?: Exchange;
  deletion: Exchange;
  /** When each cause happened: a wait for its event lasts at most the timeout from then. */
  at: { public: number; direct: number; unmutedReply: number; deletion: number };
}

export class StreamingScenario {
  private constructor(
    readonly streams: Streams,
    readonly posted: Posted,
  ) {}

  /** Opens every stream over the transport, then posts while they listen. */
  static async play(open: Opener): Promise<StreamingScenario> {
    const { config, a, b } = actors();
    const poster = b ?? a;
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
    const streams: Streams = { user, authorUser: authorUser ?? user, public: pub, local, hashtag, localHashtag, otherHashtag, list, direct };

    const { status: privateStatus } = await a.createStatus({ status: 'conformance probe: a private status on the streams', visibility: 'private' });
    const mention = poster === a ? '' : `@${privateStatus.account.acct} `;
    const published = await poster.createStatus({ status: `${mention}conformance probe: a public status on the streams #${TAG}`, visibility: 'public' });
    const publicStatus = published.status;
    const at = { public: Date.now(), direct: 0, unmutedReply: 0, deletion: 0 };
    const { status: directStatus } = await a.createStatus({ status: 'conformance probe: a direct message on the streams', visibility: 'direct' });
    at.direct = Date.now();

    const posted: Omit<Posted, 'deletion'> = { privateStatus, publicStatus, directStatus, at };
    if (b) {
      const thread = `/api/v1/statuses/${publicStatus.id}`;
      posted.mute = await a.post(`${thread}/mute`);
      const muted = remember(`mute of ${publicStatus.id} by A`, () => a.post(`${thread}/unmute`));
      ({ status: posted.mutedReply } = await b.createStatus({ status: `${mention}conformance probe: a reply in a muted thread`, in_reply_to_id: publicStatus.id, visibility: 'unlisted' }));
      posted.unmute = await a.post(`${thread}/unmute`);
      if (posted.unmute.status === 200) muted.settle();
      ({ status: posted.unmutedReply } = await b.createStatus({ status: `${mention}conformance probe: a reply after unmute #${OTHER_TAG}`, in_reply_to_id: publicStatus.id, visibility: 'public' }));
      at.unmutedReply = Date.now();
    }
    // A server that delivers asynchronously could otherwise send the delete before the update it deletes.
    await pub.find(carrying(publicStatus.id), at.public);
    const deletion = await poster.delete(`/api/v1/statuses/${publicStatus.id}`);
    if (deletion.status === 200) published.settle();
    at.deletion = Date.now();
    return new StreamingScenario(streams, { ...posted, deletion });
  }

  // Posting a public status produces update on public, on the author's user stream and on hashtag streams for its tags.
  async publicCarriesPublicStatus(): Promise<void> {
    const { publicStatus, at } = this.posted;
    await this.streams.public.waitFor(`an update event carrying public status ${publicStatus.id}`, updateOf(publicStatus), at.public);
  }

  async localCarriesPublicStatus(): Promise<void> {
    const { publicStatus, at } = this.posted;
    await this.streams.local.waitFor(`an update event carrying local public status ${publicStatus.id}`, updateOf(publicStatus), at.public);
  }

  async hashtagCarriesTaggedStatus(): Promise<void> {
    const { publicStatus, at } = this.posted;
    await this.streams.hashtag.waitFor(`an update event carrying status ${publicStatus.id} tagged #${TAG}`, updateOf(publicStatus), at.public);
  }

  async localHashtagCarriesTaggedStatus(): Promise<void> {
    const { publicStatus, at } = this.posted;
    await this.streams.localHashtag.waitFor(`an update event carrying local status ${publicStatus.id} tagged #${TAG}`, updateOf(publicStatus), at.public);
  }

  async userCarriesOwnStatus(): Promise<void> {
    const { publicStatus, at } = this.posted;
    await this.streams.authorUser.waitFor(`an update event carrying the author's new status ${publicStatus.id}`, updateOf(publicStatus), at.public);
  }

  // A private status produces none on public; the public status posted after it is the sentinel.
  async publicLeavesOutPrivateStatus(): Promise<void> {
    const { privateStatus, publicStatus, at } = this.posted;
    await this.streams.public.expectNone(
      `update event carrying private status ${privateStatus.id}`,
      updateOf(privateStatus),
      `the update event carrying public status ${publicStatus.id}, posted after it`,
      updateOf(publicStatus),
      at.public,
    );
  }

  // No update on a hashtag stream for another tag; B's reply carrying that tag, posted later, is the sentinel.
  async otherHashtagLeavesOutStatus(context: TestContext): Promise<void> {
    const { publicStatus, unmutedReply, at } = this.posted;
    needs(context, unmutedReply, `${NEEDS_B} (its reply tagged #${OTHER_TAG} shows when the #${OTHER_TAG} stream has been quiet long enough)`);
    const sentinel = unmutedReply as Status;
    await this.streams.otherHashtag.expectNone(
      `update event carrying status ${publicStatus.id}, which is tagged #${TAG} only`,
      updateOf(publicStatus),
      `the update event carrying status ${sentinel.id} tagged #${OTHER_TAG}, posted after it`,
      updateOf(sentinel),
      at.unmutedReply,
    );
  }

  async listCarriesMemberStatus(context: TestContext): Promise<void> {
    const { config, b } = actors();
    needs(context, config.listId, 'needs CONFORMANCE_LIST_ID: a list of account A that includes account B (the contract cannot create lists)');
    needs(context, b, `${NEEDS_B} (B is the member of the list whose status the list stream must carry)`);
    const { publicStatus, at } = this.posted;
    const list = this.streams.list as EventStream;
    await list.waitFor(`an update event carrying status ${publicStatus.id} of the list's member B`, updateOf(publicStatus), at.public);
  }

  async directCarriesDirectMessage(): Promise<void> {
    const { directStatus, at } = this.posted;
    await this.streams.direct.waitFor(`an event carrying direct message ${directStatus.id}`, carrying(directStatus.id), at.direct);
  }

  /** The notification about B's mention of A in the public status (not about B's replies, which also name it). */
  private async mentionNotification(context: TestContext): Promise<StreamEvent> {
    const { publicStatus, mutedReply, unmutedReply, at } = this.posted;
    needs(context, mutedReply && unmutedReply, NEEDS_B);
    const replies = [(mutedReply as Status).id, (unmutedReply as Status).id];
    return this.streams.user.waitFor(`a notification event about B's mention of A in status ${publicStatus.id}`, notificationAbout(publicStatus.id, replies), at.public);
  }

  async userCarriesNotification(context: TestContext): Promise<void> {
    await this.mentionNotification(context);
  }

  // After mute, a reply in the muted thread produces no notification; the notification after unmute is the sentinel.
  async mutedThreadStaysQuiet(context: TestContext): Promise<void> {
    const { mutedReply, unmutedReply, mute, at } = this.posted;
    needs(context, mutedReply && unmutedReply && mute, NEEDS_B);
    this.expectOperation(mute as Exchange, 'mute');
    const [quiet, resumed] = [mutedReply as Status, unmutedReply as Status];
    await this.streams.user.expectNone(
      `notification event about reply ${quiet.id}, posted while A muted the thread`,
      notificationAbout(quiet.id),
      `the notification event about reply ${resumed.id}, posted after A unmuted the thread`,
      notificationAbout(resumed.id),
      at.unmutedReply,
    );
  }

  async unmutedThreadNotifies(context: TestContext): Promise<void> {
    const { unmutedReply, unmute, at } = this.posted;
    needs(context, unmutedReply && unmute, NEEDS_B);
    this.expectOperation(unmute as Exchange, 'unmute');
    const resumed = unmutedReply as Status;
    await this.streams.user.waitFor(`a notification event about reply ${resumed.id}, posted after A unmuted the thread`, notificationAbout(resumed.id), at.unmutedReply);
  }

  // Events table: update carries a Status.
  async updateCarriesStatus(): Promise<void> {
    const { publicStatus, at } = this.posted;
    const stream: EventStream = this.streams.public;
    const event = await stream.waitFor(`an update event that names status ${publicStatus.id}`, (e) => e.event === 'update' && e.data.includes(publicStatus.id), at.public);
    const payload = parseJson(event.data);
    if (!payload.ok) stream.fail('an update payload that is JSON: a Status', `${payload.reason}: ${describeEvent(event)}`);
    const id = isObject(payload.value) ? payload.value.id : undefined;
    if (id !== publicStatus.id) stream.fail(`the payload is the Status itself: id "${publicStatus.id}" at the top`, `payload ${excerpt(event.data, 300)}`);
    expectResource('Status', payload.value, stream.exchange);
  }

  // Events table: delete carries the id of the deleted status.
  async deleteNamesStatusId(): Promise<void> {
    const { publicStatus, deletion, at } = this.posted;
    this.expectOperation(deletion, 'DELETE');
    await this.streams.public.waitFor(`a delete event whose payload is the id ${publicStatus.id} (compared as text)`, deleteOf(publicStatus.id), at.deletion);
  }

  // Events table: notification carries a Notification, whose fields are not shown: a JSON object.
  async notificationIsObject(context: TestContext): Promise<void> {
    const event = await this.mentionNotification(context);
    const payload = parseJson(event.data);
    if (!payload.ok || !isObject(payload.value)) {
      this.streams.user.fail('a notification payload that is a JSON object', `${payload.ok ? `JSON ${typeof payload.value}` : payload.reason}: ${describeEvent(event)}`);
    }
  }

  /** Every stream of the run, for the checks that judge them all. */
  all(): EventStream[] {
    return [...new Set(Object.values(this.streams).filter((s): s is EventStream => s !== undefined))];
  }

  /** The operation the check builds on must have worked, or the check cannot judge the stream. */
  private expectOperation(exchange: Exchange, what: string): void {
    if (exchange.status !== 200) fail(`${what} answers 200, so the stream can be judged`, `${what} answered ${exchange.status ?? exchange.error}`, exchange);
  }
}

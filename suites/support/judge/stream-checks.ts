// The streaming behaviour both transports must show, written once: the streams a run opens, what it posts while
// they listen, and one verifier per clause (with the few that only one transport has). suites/streaming.test.ts
// names the clauses in its titles and plays this scenario over both transports at once.
//
// Frugal: both transports listen while the same statuses are posted, and four statuses serve every stream, the
// fewest that show a direct message, a private status and two public ones (the absence on another tag's stream needs
// a later public status with that tag), in a thread that A mutes between its replies. A posts a direct message; its
// account gives A's acct. The poster (B, or A without B) posts a public status that mentions A and carries TAG; with
// B, A mutes its thread. The poster replies privately (the private status that public streams leave out); with B, A
// unmutes. The poster replies in public with OTHER_TAG (what shows the public stream and the other tag's stream got
// past the statuses they leave out). Last, the poster deletes the public status. The replies mention A too, so with
// B they are the muted and the resumed notification.
//
// The preparation never judges: a stream that did not open, a status that could not be made, a mute that did not
// mute are steps that failed, and the checks that need them are blocked by their cause. An event that did not come
// blocks the checks that build on it, named by the clause of that event (or of its framing, when it came unnamed).
import type { TestContext } from 'vitest';
import { actors, createdObject, madeWith, type Actor, type Created, type PreparedStatus, type Status } from './actors.ts';
import type { RootCause } from './clauses.ts';
import { remember } from './ledger.ts';
import { excerpt, type Exchange } from '../talk/http.ts';
import { answerOf, block, causeOf, countJudged, failed, need, needs, since, succeeded, type Step } from './preconditions.ts';
import { took } from './moves.ts';
import { observeResource } from './resources.ts';
import { now, settle, settleWindowMs } from './settle.ts';
import { describeEvent, isEventStream, type EventStream, type Opener, type StreamEvent, type StreamRequest } from '../talk/streams.ts';

const TAG = 'conformancestream';
const OTHER_TAG = 'conformanceother';
const NEEDS_B = 'needs CONFORMANCE_TOKEN_B: the other user posts, replies and mentions A';
const MUTE_RELEASE = '1.4.2';

type Json = { ok: true; value: unknown } | { ok: false; reason: string };

function parseJson(text: string): Json {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `not JSON (${(error as Error).message})` };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The status a payload is, when it is one: a JSON object whose id is the status's. */
function statusPayload(data: string, id: string): Record<string, unknown> | undefined {
  const payload = parseJson(data);
  return payload.ok && isObject(payload.value) && payload.value.id === id ? payload.value : undefined;
}

/** Whether a payload (or a WebSocket message) names the status: its id at the top, or in an object it wraps. */
function names(text: string | undefined, id: string): boolean {
  const parsed = text === undefined ? undefined : parseJson(text);
  if (!parsed?.ok || !isObject(parsed.value)) return false;
  return parsed.value.id === id || Object.values(parsed.value).some((inner) => isObject(inner) && inner.id === id);
}

/** Any event but a delete that names this status: what absence is judged by, whatever its frame. */
const carriesStatus = (id: string) => (event: StreamEvent) => event.event !== 'delete' && (names(event.data, id) || names(event.message, id));

/** An update about this status; the shape of its payload is EVENTS-UPDATE-1's to judge. */
const updateAbout = (id: string) => (event: StreamEvent) => event.event === 'update' && names(event.data, id);

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

/** The streams of a run: A's, and the user stream of the public status's author. */
type StreamKey = 'user' | 'authorUser' | 'public' | 'local' | 'hashtag' | 'localHashtag' | 'otherHashtag' | 'list' | 'direct';

/** The clause of what each stream carries: a stream that does not open (while others do) fails it. */
const CARRIES: Record<Exclude<StreamKey, 'user'>, string> = {
  authorUser: 'STREAM-USER-1',
  public: 'STREAM-PUBLIC-1',
  local: 'STREAM-LOCAL-1',
  hashtag: 'STREAM-HASHTAG-1',
  localHashtag: 'STREAM-HASHTAG-2',
  otherHashtag: 'STREAM-HASHTAG-1',
  list: 'STREAM-LIST-1',
  direct: 'STREAM-DIRECT-1',
};

/** The streams that carry the public status (tagged TAG, by the author), the public stream first. */
const CARRYING_PUBLIC: readonly StreamKey[] = ['public', 'local', 'hashtag', 'localHashtag', 'authorUser'];

interface Posted {
  directStatus: Step<Status>;
  /** A's acct, written in the public status and B's replies: the mention that notifies A. */
  mention: Step<string>;
  publicStatus: Step<Status>;
  /**
   * The poster's replies to the public status, a private one, then a public one tagged OTHER_TAG. The absence checks
   * need of them only their visibility (madeWith): a reply link the server dropped matters to the mute checks alone.
   */
  privateReply: PreparedStatus;
  publicReply: PreparedStatus;
  /** With B only: A's mute of the thread before the private reply, and A's unmute before the public one. */
  mute: Step<unknown>;
  unmute: Step<unknown>;
  /** The poster's DELETE of the public status. */
  deletion: Step<unknown>;
  /** When each cause happened: a wait for its event lasts at most the timeout from then. */
  at: { direct: number; public: number; publicReply: number; deletion: number };
}

type Thread = Pick<Posted, 'privateReply' | 'publicReply' | 'mute' | 'unmute'>;

const notMade = (cause: RootCause): PreparedStatus => ({ ...failed<Status>(cause), settle: () => undefined, unkept: [] });

/** Nothing posted, for want of a stream to listen: every step has the cause that no stream opened. */
function notPosted(cause: RootCause): Posted {
  const none = failed<never>(cause);
  return { directStatus: none, mention: none, publicStatus: none, privateReply: notMade(cause), publicReply: notMade(cause), mute: none, unmute: none, deletion: none, at: { direct: 0, public: 0, publicReply: 0, deletion: 0 } };
}

/**
 * The poster replies to the public status privately, then in public tagged OTHER_TAG. With B, A mutes the thread
 * before the private reply and unmutes it before the public one: without B no reply could notify A.
 */
async function replyInThread(a: Actor, b: Actor | undefined, published: Step<Status>, written: string): Promise<Thread> {
  if (!published.ok) {
    const cause = published.cause;
    return { privateReply: notMade(cause), publicReply: notMade(cause), mute: failed(cause), unmute: failed(cause) };
  }
  const poster = b ?? a;
  const root = published.value.id;
  const thread = `/api/v1/statuses/${root}`;
  const withoutB = failed<string>({ summary: NEEDS_B });
  /** A's mute or unmute of the thread: it took when its answer, or a read after it, shows the flag (moves.ts). */
  const moved = async (action: 'mute' | 'unmute', clause: string) => {
    const exchange = await a.post(`${thread}/${action}`);
    return took(a, published, succeeded(exchange, exchange), 'muted', action === 'mute', clause, `POST .../${action}`);
  };
  const mute = b ? await moved('mute', 'STATUS-MUTE-1') : withoutB;
  const muted = b ? remember(`mute of ${root} by A`, () => a.post(`${thread}/unmute`)) : undefined;
  const privateReply = await poster.createStatus({ status: `${written}conformance probe: a private reply on the streams`, in_reply_to_id: root, visibility: 'private' });
  const unmute = b ? await moved('unmute', 'STATUS-MUTE-3') : withoutB;
  if (unmute.ok) muted?.settle();
  const publicReply = await poster.createStatus({ status: `${written}conformance probe: a public reply on the streams #${OTHER_TAG}`, in_reply_to_id: root, visibility: 'public' });
  return { privateReply, publicReply, mute, unmute };
}

export class StreamingScenario {
  private constructor(
    /** Every stream as it was opened, for the checks of the opening itself. */
    private readonly streams: Record<StreamKey, EventStream | undefined>,
    /** Each stream as a step: open, or the cause that it is not. */
    private readonly opened: Record<StreamKey, Step<EventStream>>,
    private readonly posted: Posted,
  ) {}

  /**
   * Opens every stream over each transport, then posts while they all listen: one set of statuses serves every
   * transport, each judged on its own streams. Never throws.
   */
  static async play<T extends string>(openers: Record<T, Opener>): Promise<Record<T, StreamingScenario>> {
    const { a, b } = actors();
    const poster = b ?? a;
    const transports = Object.keys(openers) as T[];
    const runs = await Promise.all(
      transports.map(async (transport) => {
        const streams = await openStreams(openers[transport], a, poster);
        return { transport, streams, opened: openedSteps(streams, b ? 'STREAM-USER-2' : 'STREAM-USER-1') };
      }),
    );

    // No stream open on any transport: nothing could carry what a post makes, so nothing is posted and no check
    // waits for an event. Each transport's checks are blocked by its own cause (STREAM-SSE-1, STREAM-WS-1).
    const unheard = runs.flatMap(({ transport, streams, opened }) =>
      opened.public.ok || Object.values(opened).some((step) => step.ok) ? [] : [[transport, new StreamingScenario(streams, opened, notPosted(opened.public.cause))] as const],
    );
    if (unheard.length === runs.length) return Object.fromEntries(unheard) as Record<T, StreamingScenario>;

    const directStatus = await a.createStatus({ status: 'conformance probe: a direct message on the streams', visibility: 'direct' });
    const at = { direct: Date.now(), public: 0, publicReply: 0, deletion: 0 };
    const mention = mentionOf(directStatus);
    const written = b && mention.ok ? `@${mention.value} ` : '';
    const published = await poster.createStatus({ status: `${written}conformance probe: a public status on the streams #${TAG}`, visibility: 'public' });
    at.public = Date.now();

    const thread = await replyInThread(a, b, published, written);
    at.publicReply = Date.now();

    let deletion: Step<unknown> = published;
    if (published.ok) {
      // A server that delivers asynchronously could otherwise send the delete before the update it deletes.
      await Promise.all(runs.map(({ opened: { public: pub } }) => (pub.ok ? pub.value.find(carrying(published.value.id), at.public) : undefined)));
      // Its delete event may come before the answer: the wait starts when the request is sent.
      at.deletion = Date.now();
      const answer = await poster.delete(`/api/v1/statuses/${published.value.id}`);
      if (answer.status === 200) published.settle();
      deletion = answer.status === 200 ? succeeded(undefined, answer) : failed(causeOf('STATUS-DELETE-1', `DELETE of the poster's own status answered ${answerOf(answer)}`, answer), answer);
    }
    const posted: Posted = { directStatus, mention, publicStatus: published, ...thread, deletion, at };
    return Object.fromEntries(runs.map(({ transport, streams, opened }) => [transport, new StreamingScenario(streams, opened, posted)])) as Record<T, StreamingScenario>;
  }

  /** Every stream of the run, for the checks that judge them all. */
  private all(): EventStream[] {
    return [...new Set(Object.values(this.streams).filter((s): s is EventStream => s !== undefined))];
  }

  /**
   * The stream a check listens on. When it did not open, the check is blocked by that cause, unless the cause is the
   * check's own clause (`judging`): the stream the clause describes does not work, and that is its failure.
   */
  private listening(key: StreamKey, judging?: string): EventStream {
    const step = this.opened[key];
    const stream = this.streams[key];
    if (!step.ok && judging && step.cause.clause === judging && stream) stream.fail(`${stream.label} opens`);
    return need(step);
  }

  /**
   * Why a stream showed no update about a status: an event that names it came without a name (its frame's clause:
   * EVENTS-FRAME-1, or STREAM-WS-2 for a WebSocket message), or nothing came (`clause`, what the stream carries).
   */
  private missingUpdate(stream: EventStream, id: string, clause: string): RootCause {
    return this.missing(stream, 'update', id, clause, (e) => names(e.data, id) || names(e.message, id));
  }

  /** Like missingUpdate, for a notification about a status. */
  private missingNotification(stream: EventStream, id: string, clause: string): RootCause {
    return this.missing(stream, 'notification', id, clause, (e) => e.data.includes(id) || (e.message ?? '').includes(id));
  }

  /** Each missing event has one cause, worked out once: every check it blocks names the same. */
  private readonly causes = new Map<string, RootCause>();

  private missing(stream: EventStream, event: string, id: string, clause: string, about: (e: StreamEvent) => boolean): RootCause {
    const key = `${stream.label} ${event} ${id}`;
    let cause = this.causes.get(key);
    if (!cause) {
      const unnamed = stream.events.find((e) => e.event === undefined && about(e));
      cause = unnamed ? this.unframed(stream, unnamed) : stream.unreadable() ?? causeOf(clause, `${stream.label} delivered no ${event} about status ${id} within ${stream.timeoutMs} ms: ${stream.lastSeen()}`, stream.exchange);
      this.causes.set(key, cause);
    }
    return cause;
  }

  private unframed(stream: EventStream, event: StreamEvent): RootCause {
    const clause = stream.transport === 'WebSocket' ? 'STREAM-WS-2' : 'EVENTS-FRAME-1';
    return causeOf(clause, `${stream.label} delivered the event without its name: ${describeEvent(event)}`, stream.exchange);
  }

  /**
   * The first event that matches on the public stream or, where that stream delivered none, on another open stream
   * that carries the public status: an event check needs its event and a stream open, not the public stream's
   * working. With none anywhere, the check is blocked by the public stream's missing update (STREAM-PUBLIC-1).
   */
  private async eventAbout(status: Status, matches: (event: StreamEvent) => boolean, since: number): Promise<{ stream: EventStream; event: StreamEvent }> {
    for (const key of CARRYING_PUBLIC) {
      const step = this.opened[key];
      const event = step.ok ? await step.value.find(matches, since) : undefined;
      if (step.ok && event) return { stream: step.value, event };
    }
    return block(this.missingUpdate(this.listening('public'), status.id, 'STREAM-PUBLIC-1'));
  }

  /** The first update about the status on a stream that carries it by `clause`; its Status is observed for RESOURCE-STATUS-1. */
  private async expectUpdate(key: StreamKey, clause: string, status: Status, since: number, what: string): Promise<StreamEvent> {
    const stream = this.listening(key, clause);
    const event = await stream.find(updateAbout(status.id), since);
    if (event) {
      const payload = statusPayload(event.data, status.id);
      if (payload) observeResource('Status', payload, stream.exchange);
      countJudged();
      return event;
    }
    const cause = this.missingUpdate(stream, status.id, clause);
    if (cause.clause !== clause) block(cause);
    return stream.fail(`${what} (on ${stream.label}, within ${stream.timeoutMs} ms)`);
  }

  // Posting a public status produces update on public, on the author's user stream and on hashtag streams for its tags.
  async publicCarriesPublicStatus(): Promise<void> {
    const { publicStatus, publicReply, at } = this.posted;
    const status = need(publicStatus);
    await this.expectUpdate('public', 'STREAM-PUBLIC-1', status, at.public, `an update event carrying public status ${status.id}`);
    // The public reply is a public status too: the sentinel STREAM-PUBLIC-2 waits for is judged here.
    if (publicReply.ok) await this.expectUpdate('public', 'STREAM-PUBLIC-1', publicReply.value, at.publicReply, `an update event carrying public reply ${publicReply.value.id}`);
  }

  async localCarriesPublicStatus(): Promise<void> {
    const { publicStatus, at } = this.posted;
    const status = need(publicStatus);
    await this.expectUpdate('local', 'STREAM-LOCAL-1', status, at.public, `an update event carrying local public status ${status.id}`);
  }

  async hashtagCarriesTaggedStatus(): Promise<void> {
    const { publicStatus, publicReply, at } = this.posted;
    const status = need(publicStatus);
    await this.expectUpdate('hashtag', 'STREAM-HASHTAG-1', status, at.public, `an update event carrying status ${status.id} tagged #${TAG}`);
    // So is the reply on its own tag's stream: the sentinel STREAM-HASHTAG-3 waits for.
    if (publicReply.ok) {
      await this.expectUpdate('otherHashtag', 'STREAM-HASHTAG-1', publicReply.value, at.publicReply, `an update event carrying reply ${publicReply.value.id} tagged #${OTHER_TAG}`);
    }
  }

  async localHashtagCarriesTaggedStatus(): Promise<void> {
    const { publicStatus, at } = this.posted;
    const status = need(publicStatus);
    await this.expectUpdate('localHashtag', 'STREAM-HASHTAG-2', status, at.public, `an update event carrying local status ${status.id} tagged #${TAG}`);
  }

  async userCarriesOwnStatus(): Promise<void> {
    const { publicStatus, at } = this.posted;
    const status = need(publicStatus);
    await this.expectUpdate('authorUser', 'STREAM-USER-1', status, at.public, `an update event carrying the author's new status ${status.id}`);
  }

  // A private status produces none on public; the public reply posted after it must arrive to show that.
  async publicLeavesOutPrivateStatus(): Promise<void> {
    const { privateReply, publicReply, at } = this.posted;
    const [hidden, shown] = [madeWith(privateReply, ['visibility']), madeWith(publicReply, ['visibility'])];
    const stream = this.listening('public');
    await stream.expectNone(
      `event carrying private status ${hidden.id}`,
      carriesStatus(hidden.id),
      `the update event carrying public status ${shown.id}, posted after it`,
      carriesStatus(shown.id),
      at.publicReply,
      () => this.missingUpdate(stream, shown.id, 'STREAM-PUBLIC-1'),
    );
  }

  // No update on a hashtag stream for another tag; the public reply carrying that tag, posted later, must arrive to show that.
  async otherHashtagLeavesOutStatus(): Promise<void> {
    const { publicStatus, publicReply, at } = this.posted;
    const [status, tagged] = [need(publicStatus), madeWith(publicReply, ['visibility'])];
    const stream = this.listening('otherHashtag');
    await stream.expectNone(
      `event carrying status ${status.id}, which is tagged #${TAG} only`,
      carriesStatus(status.id),
      `the update event carrying status ${tagged.id} tagged #${OTHER_TAG}, posted after it`,
      carriesStatus(tagged.id),
      at.publicReply,
      () => this.missingUpdate(stream, tagged.id, 'STREAM-HASHTAG-1'),
    );
  }

  async listCarriesMemberStatus(context: TestContext): Promise<void> {
    const { config, b } = actors();
    needs(context, config.listId, 'needs CONFORMANCE_LIST_ID: a list of account A that includes account B (the contract cannot create lists)');
    needs(context, b, `${NEEDS_B} (B is the member of the list whose status the list stream must carry)`);
    const { publicStatus, at } = this.posted;
    const status = need(publicStatus);
    await this.expectUpdate('list', 'STREAM-LIST-1', status, at.public, `an update event carrying status ${status.id} of the list's member B`);
  }

  async directCarriesDirectMessage(): Promise<void> {
    const { directStatus, at } = this.posted;
    const status = need(directStatus);
    const stream = this.listening('direct', 'STREAM-DIRECT-1');
    if (await stream.find(carrying(status.id), at.direct)) return countJudged();
    // The stream carries what its user may see: a direct message its author cannot read cannot arrive either.
    const read = await actors().a.get(`/api/v1/statuses/${status.id}`);
    if (read.status !== 200) block(causeOf('STATUS-VIS-6', `the author's read of the direct message answered ${answerOf(read)}`, read));
    blockIfUnreadable(stream);
    stream.fail(`an event carrying direct message ${status.id} (on ${stream.label}, within ${stream.timeoutMs} ms)`);
  }

  /**
   * The notification about B's mention of A in the public status (not about B's replies, which also name it). The
   * check of `clause` fails without it; the others are blocked.
   */
  private async mentionNotification(context: TestContext, clause?: string): Promise<StreamEvent> {
    needs(context, actors().b, NEEDS_B);
    const { publicStatus, privateReply, publicReply, mention, at } = this.posted;
    const status = need(publicStatus);
    need(mention);
    const stream = this.listening('user', clause);
    const replies = [privateReply, publicReply].flatMap((reply) => (reply.ok ? [reply.value.id] : []));
    const event = await stream.find(notificationAbout(status.id, replies), at.public);
    if (event) return event;
    const cause = this.missingNotification(stream, status.id, 'STREAM-USER-2');
    if (cause.clause !== clause) block(cause);
    return stream.fail(`a notification event about B's mention of A in status ${status.id} (on ${stream.label}, within ${stream.timeoutMs} ms)`);
  }

  async userCarriesNotification(context: TestContext): Promise<void> {
    await this.mentionNotification(context, 'STREAM-USER-2');
    countJudged();
  }

  /** What the mute checks build on: B's replies before and after A's unmute, each of which works. */
  private async thread(context: TestContext): Promise<{ quiet: Status; resumed: Status; stream: EventStream }> {
    needs(context, actors().b, NEEDS_B);
    since(context, actors().config, MUTE_RELEASE);
    const stream = this.listening('user');
    const { mute, privateReply, unmute, publicReply } = this.posted;
    need(mute);
    const quiet = need(privateReply);
    need(unmute);
    const resumed = need(publicReply);
    // The user stream delivers notifications at all: else the mute checks cannot tell anything.
    await this.mentionNotification(context);
    return { quiet, resumed, stream };
  }

  // After mute, a reply in the muted thread produces no notification; the notification after unmute must arrive to show that.
  async mutedThreadStaysQuiet(context: TestContext): Promise<void> {
    const { quiet, resumed, stream } = await this.thread(context);
    await stream.expectNone(
      `notification event about reply ${quiet.id}, posted while A muted the thread`,
      notificationAbout(quiet.id),
      `the notification event about reply ${resumed.id}, posted after A unmuted the thread`,
      notificationAbout(resumed.id),
      this.posted.at.publicReply,
      () => this.missingNotification(stream, resumed.id, 'STREAM-USER-4'),
    );
  }

  async unmutedThreadNotifies(context: TestContext): Promise<void> {
    const { resumed, stream } = await this.thread(context);
    const event = await stream.find(notificationAbout(resumed.id), this.posted.at.publicReply);
    if (event) return countJudged();
    const cause = this.missingNotification(stream, resumed.id, 'STREAM-USER-4');
    if (cause.clause !== 'STREAM-USER-4') block(cause);
    stream.fail(`a notification event about reply ${resumed.id}, posted after A unmuted the thread (on ${stream.label}, within ${stream.timeoutMs} ms)`);
  }

  // Events table: update carries a Status.
  async updateCarriesStatus(): Promise<void> {
    const { publicStatus, at } = this.posted;
    const status = need(publicStatus);
    const { stream, event } = await this.eventAbout(status, (e) => e.event === 'update' && e.data.includes(status.id), at.public);
    const payload = parseJson(event.data);
    if (!payload.ok) return stream.fail('an update payload that is JSON: a Status', `${payload.reason}: ${describeEvent(event)}`);
    const id = isObject(payload.value) ? payload.value.id : undefined;
    if (id !== status.id) return stream.fail(`the payload is the Status itself: id "${status.id}" at the top`, `payload ${excerpt(event.data, 300)}`);
    // Its fields are the Status table's: RESOURCE-STATUS-1 judges them over the run.
    observeResource('Status', payload.value, stream.exchange);
    countJudged();
  }

  // Events table: delete carries the id of the deleted status. It needs the stream open and the status deleted,
  // nothing more: a delete that came is judged whether or not the update before it came.
  async deleteNamesStatusId(): Promise<void> {
    const { publicStatus, deletion, at } = this.posted;
    const status = need(publicStatus);
    need(deletion);
    const stream = this.listening('public');
    if (await stream.find(deleteOf(status.id), at.deletion)) return countJudged();
    const unnamed = stream.events.find((e) => e.event === undefined && deletedIdOf(e.data) === status.id);
    if (unnamed) block(this.unframed(stream, unnamed));
    // A delete that came after the DELETE, whatever it names, is judged. A stream that carried nothing of the status,
    // neither its update nor a delete, fails what the stream carries.
    const deletes = stream.eventsSince(at.deletion).filter((e) => e.event === 'delete');
    if (deletes.length === 0 && !stream.events.some(carriesStatus(status.id))) block(this.missingUpdate(stream, status.id, 'STREAM-PUBLIC-1'));
    // A status that still exists after its DELETE answered 200 was not deleted: no delete event can be expected.
    const { a, b } = actors();
    const { exchange: read } = await settle(() => (b ?? a).get(`/api/v1/statuses/${status.id}`), (answer) => answer.status !== 200, now());
    if (read.status === 200) block(causeOf('STATUS-DELETE-2', `the status still reads after its DELETE answered 200 (settle window ${settleWindowMs()} ms)`, read));
    const actual = deletes.length > 0 ? `${deletes.map(describeEvent).slice(0, 3).join('; ')} (${stream.lastSeen()})` : stream.lastSeen();
    stream.fail(`a delete event whose payload is the id ${status.id} (compared as text; on ${stream.label}, within ${stream.timeoutMs} ms)`, actual);
  }

  // Events table: notification carries a Notification, whose fields are not shown: a JSON object.
  async notificationIsObject(context: TestContext): Promise<void> {
    const event = await this.mentionNotification(context);
    const payload = parseJson(event.data);
    if (!payload.ok || !isObject(payload.value)) {
      this.listening('user').fail('a notification payload that is a JSON object', `${payload.ok ? `JSON ${typeof payload.value}` : payload.reason}: ${describeEvent(event)}`);
    }
    countJudged();
  }

  // Server-sent events: every stream that answered is an event stream; none answering at all is this clause's failure too.
  answersEventStreams(): void {
    const answered = this.all().filter((s) => s.exchange.status === 200);
    const pub = this.streams.public as EventStream;
    if (answered.length === 0) pub.fail('at least one stream answered 200', pub.lastSeen());
    for (const stream of answered) {
      if (!isEventStream(stream.exchange)) stream.fail('Content-Type text/event-stream', `Content-Type ${stream.exchange.headers['content-type'] ?? '(none)'}`);
    }
    countJudged(answered.length);
  }

  // Events rule 1: heartbeat comments, within the timeout of the opening.
  async carriesHeartbeats(): Promise<void> {
    const stream = this.listening('public');
    if (await stream.findComment()) return countJudged();
    blockIfUnreadable(stream);
    stream.fail(`a comment line (a heartbeat) (on ${stream.label}, within ${stream.timeoutMs} ms of opening)`);
  }

  // Events rule 2: an event: line with its name, then a data: line with the JSON-encoded payload. Judged on the first
  // event about the public status, its update or its delete (which event is which is the Events table's to judge).
  async framesEvents(): Promise<void> {
    const { publicStatus, at } = this.posted;
    const status = need(publicStatus);
    const { stream, event } = await this.eventAbout(status, (e) => e.data.includes(status.id), at.public);
    if (!event.event) stream.fail('an event: line naming the event before the data: line', `event name ${describeEvent(event)}`);
    if (!parseJson(event.data).ok) stream.fail('a data: payload that is JSON-encoded', describeEvent(event));
    countJudged();
  }

  // WebSocket: A's user stream opens with the token in access_token.
  opensUserStream(): void {
    const stream = this.streams.user as EventStream;
    if (!stream.accepted) stream.fail('the upgrade answers 101 Switching Protocols: the token in access_token is accepted');
    countJudged();
  }

  // WebSocket: every message is {"event": name, "payload": JSON-encoded text}; judged once the public status's update came.
  async framesMessages(): Promise<void> {
    const { publicStatus, at } = this.posted;
    const status = need(publicStatus);
    const stream = this.listening('public');
    await stream.find(carriesStatus(status.id), at.public);
    const streams = this.all().filter((s) => s.accepted && s.events.length > 0);
    if (streams.length === 0) block(this.missingUpdate(stream, status.id, 'STREAM-PUBLIC-1'));
    for (const listened of streams) {
      for (const event of listened.events) {
        const wrong = messageFault(event.message ?? '');
        if (wrong) listened.fail(wrong, `message ${(event.message ?? '').slice(0, 300)}`);
      }
      countJudged(listened.events.length);
    }
  }
}

/** What a WebSocket message lacks of {"event": name, "payload": JSON-encoded text}, or undefined. */
function messageFault(message: string): string | undefined {
  const parsed = parseJson(message);
  if (!parsed.ok || !isObject(parsed.value)) return 'a message that is a JSON object';
  const { event: name, payload } = parsed.value;
  // filters_changed has no defined payload; every other event carries one, JSON-encoded into a string.
  const payloadOk = typeof payload === 'string' || (payload === undefined && name === 'filters_changed');
  return typeof name === 'string' && payloadOk ? undefined : 'a message {"event": name, "payload": JSON-encoded text}';
}

/** Blocks the running check when its stream is not readable as an event stream (STREAM-SSE-1). */
function blockIfUnreadable(stream: EventStream): void {
  const cause = stream.unreadable();
  if (cause) block(cause);
}

/** A's acct, from the status A created first (whatever else is wrong with it): the poster mentions A with it. */
function mentionOf(created: Created<Status>): Step<string> {
  const acct = (createdObject(created.exchange as Exchange)?.account as { acct?: unknown } | undefined)?.acct;
  if (typeof acct === 'string' && acct !== '') return succeeded(acct, created.exchange as Exchange);
  if (!created.ok) return failed(created.cause, created.exchange);
  return failed(causeOf('RESOURCE-STATUS-1', "A's status carries no account.acct to mention A by", created.exchange), created.exchange);
}

/** Every stream of a run over one transport: A's, and the user stream of the public status's author. */
async function openStreams(open: Opener, a: Actor, poster: Actor): Promise<Record<StreamKey, EventStream | undefined>> {
  const { config } = actors();
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
  return { user, authorUser: authorUser ?? user, public: pub, local, hashtag, localHashtag, otherHashtag, list, direct };
}

/**
 * Each stream as a step. One that did not open is blocked by the transport's clause when the transport shows no
 * working stream (SSE: none answered 200; WebSocket: A's user stream did not open), else by the clause of what it
 * carries, which its own check then fails. An SSE stream that answered 200 is read whatever its Content-Type.
 */
function openedSteps(streams: Record<StreamKey, EventStream | undefined>, userClause: string): Record<StreamKey, Step<EventStream>> {
  const present = Object.values(streams).filter((s): s is EventStream => s !== undefined);
  const webSocket = present[0]?.transport === 'WebSocket';
  const works = webSocket ? Boolean(streams.user?.accepted) : present.some((s) => s.accepted);
  const transportClause = webSocket ? 'STREAM-WS-1' : 'STREAM-SSE-1';
  const didNotOpen = (clause: string, stream: EventStream) => causeOf(clause, `${stream.label} did not open: ${stream.ended ?? answerOf(stream.exchange)}`, stream.exchange);
  // Without a working transport every stream has the one cause its reference stream shows.
  const noTransport = didNotOpen(transportClause, (webSocket ? streams.user : streams.public) as EventStream);
  const stepOf = (key: StreamKey): Step<EventStream> => {
    const stream = streams[key];
    if (!stream) return failed({ summary: 'the list stream is opened only with CONFORMANCE_LIST_ID' });
    if (stream.accepted) return succeeded(stream, stream.exchange);
    if (!works) return failed(noTransport, stream.exchange);
    return failed(didNotOpen(key === 'user' ? userClause : CARRIES[key], stream), stream.exchange);
  };
  const keys: StreamKey[] = ['user', 'authorUser', 'public', 'local', 'hashtag', 'localHashtag', 'otherHashtag', 'list', 'direct'];
  return Object.fromEntries(keys.map((key) => [key, stepOf(key)])) as Record<StreamKey, Step<EventStream>>;
}

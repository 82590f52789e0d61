// The streaming behaviour both transports must show, written once: the streams a run opens and what it posts while
// they listen (this scenario), and one check per clause, by what the streams show: which stream carries which status
// (stream-carrying.ts), the notifications and mutes (stream-notifications.ts), and the events' payloads and frames
// (stream-frames.ts), with the few that only one transport has. suites/streaming.test.ts names the clauses in its
// titles and plays this scenario over both transports at once.
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
import { actors, type Actor } from '../act/actors.ts';
import { createdObject, type Exchange } from '../talk/http.ts';
import { authorGap, type Created, type PreparedStatus, type Status } from '../act/created.ts';
import { type RootCause, answerOf, causeOf, failed, succeeded, type Step } from '../act/steps.ts';
import { remember } from '../act/ledger.ts';
import { block, countJudged, need } from './preconditions.ts';
import { took } from '../act/moves.ts';
import { observeResource } from './resources.ts';
import { describeEvent, type EventStream, type Opener, type StreamEvent, type StreamRequest } from '../talk/streams.ts';
import { carrying, names, statusPayload, updateAbout } from './stream-events.ts';
import { failOn, unreadable } from './stream-waits.ts';

export const TAG = 'conformancestream';
export const OTHER_TAG = 'conformanceother';
export const NEEDS_B = 'needs CONFORMANCE_TOKEN_B: the other user posts, replies and mentions A';
export const MUTE_RELEASE = '1.4.2';

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
    readonly streams: Record<StreamKey, EventStream | undefined>,
    /** Each stream as a step: open, or the cause that it is not. */
    readonly opened: Record<StreamKey, Step<EventStream>>,
    readonly posted: Posted,
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

    const posted = await postWhileListening(a, b, runs.map(({ opened }) => opened.public));
    return Object.fromEntries(runs.map(({ transport, streams, opened }) => [transport, new StreamingScenario(streams, opened, posted)])) as Record<T, StreamingScenario>;
  }

  /** Every stream of the run, for the checks that judge them all. */
  all(): EventStream[] {
    return [...new Set(Object.values(this.streams).filter((s): s is EventStream => s !== undefined))];
  }

  /**
   * The stream a check listens on. When it did not open, the check is blocked by that cause, unless the cause is the
   * check's own clause (`judging`): the stream the clause describes does not work, and that is its failure.
   */
  listening(key: StreamKey, judging?: string): EventStream {
    const step = this.opened[key];
    const stream = this.streams[key];
    if (!step.ok && judging && step.cause.clause === judging && stream) failOn(stream, `${stream.label} opens`);
    return need(step);
  }

  /**
   * Why a stream showed no update about a status: an event that names it came without a name (its frame's clause:
   * EVENTS-FRAME-1, or STREAM-WS-2 for a WebSocket message), or nothing came (`clause`, what the stream carries).
   */
  missingUpdate(stream: EventStream, id: string, clause: string): RootCause {
    return this.missing(stream, 'update', id, clause, (e) => names(e.data, id) || names(e.message, id));
  }

  /** Like missingUpdate, for a notification about a status. */
  missingNotification(stream: EventStream, id: string, clause: string): RootCause {
    return this.missing(stream, 'notification', id, clause, (e) => e.data.includes(id) || (e.message ?? '').includes(id));
  }

  /** Each missing event has one cause, worked out once: every check it blocks names the same. */
  private readonly causes = new Map<string, RootCause>();

  private missing(stream: EventStream, event: string, id: string, clause: string, about: (e: StreamEvent) => boolean): RootCause {
    const key = `${stream.label} ${event} ${id}`;
    let cause = this.causes.get(key);
    if (!cause) {
      const unnamed = stream.events.find((e) => e.event === undefined && about(e));
      cause = unnamed ? this.unframed(stream, unnamed) : unreadable(stream) ?? causeOf(clause, `${stream.label} delivered no ${event} about status ${id} within ${stream.timeoutMs} ms: ${stream.lastSeen()}`, stream.exchange);
      this.causes.set(key, cause);
    }
    return cause;
  }

  unframed(stream: EventStream, event: StreamEvent): RootCause {
    const clause = stream.transport === 'WebSocket' ? 'STREAM-WS-2' : 'EVENTS-FRAME-1';
    return causeOf(clause, `${stream.label} delivered the event without its name: ${describeEvent(event)}`, stream.exchange);
  }

  /**
   * The first event that matches on the public stream or, where that stream delivered none, on another open stream
   * that carries the public status: an event check needs its event and a stream open, not the public stream's
   * working. With none anywhere, the check is blocked by the public stream's missing update (STREAM-PUBLIC-1).
   */
  async eventAbout(status: Status, matches: (event: StreamEvent) => boolean, since: number): Promise<{ stream: EventStream; event: StreamEvent }> {
    for (const key of CARRYING_PUBLIC) {
      const step = this.opened[key];
      const event = step.ok ? await step.value.find(matches, since) : undefined;
      if (step.ok && event) return { stream: step.value, event };
    }
    return block(this.missingUpdate(this.listening('public'), status.id, 'STREAM-PUBLIC-1'));
  }

  /** The first update about the status on a stream that carries it by `clause`; its Status is observed for RESOURCE-STATUS-1. */
  async expectUpdate(key: StreamKey, clause: string, status: Status, since: number, what: string): Promise<StreamEvent> {
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
    return failOn(stream, `${what} (on ${stream.label}, within ${stream.timeoutMs} ms)`, stream.lastSeen(since));
  }
}

/** Blocks the running check when its stream is not readable as an event stream (STREAM-SSE-1). */
export function blockIfUnreadable(stream: EventStream): void {
  const cause = unreadable(stream);
  if (cause) block(cause);
}

/**
 * What the scenario posts while every stream listens, each cause timed for the waits of its events: A's direct
 * message, the poster's public status and its replies (with B, A's mute and unmute of the thread between them), then
 * the deletion of the public status once each transport's public stream carried it (or did not within the timeout).
 */
async function postWhileListening(a: Actor, b: Actor | undefined, publicStreams: readonly Step<EventStream>[]): Promise<Posted> {
  const poster = b ?? a;
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
    await Promise.all(publicStreams.map((pub) => (pub.ok ? pub.value.find(carrying(published.value.id), at.public) : undefined)));
    // Its delete event may come before the answer: the wait starts when the request is sent.
    at.deletion = Date.now();
    const answer = await poster.delete(`/api/v1/statuses/${published.value.id}`);
    if (answer.status === 200) published.settle();
    deletion = answer.status === 200 ? succeeded(undefined, answer) : failed(causeOf('STATUS-DELETE-1', `DELETE of the poster's own status answered ${answerOf(answer)}`, answer), answer);
  }
  return { directStatus, mention, publicStatus: published, ...thread, deletion, at };
}

/** A's acct, from the status A created first (whatever else is wrong with it): the poster mentions A with it. */
function mentionOf(created: Created<Status>): Step<string> {
  const status = createdObject(created.exchange as Exchange);
  const acct = (status?.account as { acct?: unknown } | null | undefined)?.acct;
  if (typeof acct === 'string' && acct !== '') return succeeded(acct, created.exchange as Exchange);
  if (!created.ok) return failed(created.cause, created.exchange);
  // A Status without its account is the Status's gap; an account without acct is the Account's.
  return failed(authorGap(status, 'acct, to mention A by', created.exchange), created.exchange);
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

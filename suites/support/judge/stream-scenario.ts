// The streaming behaviour both transports must show, written once: what the scenario's moves brought, as one
// transport's checks see it (this view), and one check per clause, by what the streams show: which stream carries
// which status (stream-carrying.ts), the notifications and mutes (stream-notifications.ts), and the events' payloads
// and frames (stream-frames.ts), with the few that only one transport has. The moves are steps of
// suites/streaming.test.ts (act/stream-moves.ts): the streams of both transports are opened, and the statuses posted
// while they all listen; each check is declared once there and run over each transport. Nothing here sends a request.
//
// Frugal: both transports listen while the same statuses are posted, and four statuses serve every stream, the
// fewest that show a direct message, a private status and two public ones (the absence on another tag's stream needs
// a later public status with that tag), in a thread that A mutes between its replies. With B, A posts a direct
// message; its account gives A's acct. The poster (B, or A without B) posts a public status that carries TAG and, with
// B, mentions A; with B, A mutes its thread, B replies privately (the private status that public streams leave out), A
// unmutes, and B replies in public with OTHER_TAG (what shows the public stream and the other tag's stream got past the
// statuses they leave out). Last, the poster deletes the public status. The replies mention A too: they are the muted
// and the resumed notification. Without B, A's share of the Deletion bucket (15 a run) holds the public status alone.
//
// The preparation never judges: a stream that did not open, a status that could not be made, a mute that did not
// mute are steps that failed, and the checks that need them are blocked by their cause. An event that did not come
// blocks the checks that build on it, named by the clause of that event (or of its framing, when it came unnamed).
import type { Exchange } from '../talk/http.ts';
import type { PreparedStatus, Status } from '../act/created.ts';
import { type RootCause, answerOf, causeOf, failed, succeeded, type Step, type StepOutcome } from '../act/steps.ts';
import type { Muted, OpenedStreams, Posted as PostedStatus, PostedPublic, PostedReply } from '../act/stream-moves-model.ts';
import { STREAM_KEYS, type StreamKey } from '../act/stream-keys.ts';
import { block, countJudged, need } from './preconditions.ts';
import { observeResource } from './resources.ts';
import { describeEvent, type EventStream, type StreamEvent } from '../talk/streams.ts';
import { names, statusPayload, updateAbout } from './stream-events.ts';
import { failOn, unreadable } from './stream-waits.ts';

/** What the scenario's moves came to (each a step of suites/streaming.test.ts), with the streams of one transport. */
export interface Played {
  /** The streams of the transport the check listens on, as they were opened. */
  streams: StepOutcome<OpenedStreams>;
  /** Whether any stream of any transport opened: without one, nothing was posted. */
  heard: StepOutcome<unknown>;
  direct: StepOutcome<PostedStatus>;
  /** A's read of its direct message. */
  directRead: StepOutcome<Exchange>;
  publicStatus: StepOutcome<PostedPublic>;
  mute: StepOutcome<Muted>;
  privateReply: StepOutcome<PostedReply>;
  unmute: StepOutcome<unknown>;
  publicReply: StepOutcome<PostedReply>;
  deletion: StepOutcome<{ at: number }>;
  /** The poster's read of the public status after its DELETE. */
  deletedRead: StepOutcome<Exchange>;
}

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

/** What the scenario posted while the streams listened, as the checks need it. */
interface Posted {
  directStatus: StepOutcome<Status>;
  /** A's read of its direct message. */
  directRead: StepOutcome<Exchange>;
  /** A's acct, written in the public status and B's replies: the mention that notifies A. */
  mention: Step<string>;
  publicStatus: StepOutcome<Status>;
  /**
   * The poster's replies to the public status, a private one, then a public one tagged OTHER_TAG. The absence checks
   * need of them only their visibility (madeWith): a reply link the server dropped matters to the mute checks alone.
   */
  privateReply: PreparedStatus;
  publicReply: PreparedStatus;
  /** With B only: A's mute of the thread before the private reply, and A's unmute before the public one. */
  mute: StepOutcome<unknown>;
  unmute: StepOutcome<unknown>;
  /** The poster's DELETE of the public status, and its read after. */
  deletion: StepOutcome<unknown>;
  deletedRead: StepOutcome<Exchange>;
  /** When each cause happened: a wait for its event lasts at most the timeout from then. */
  at: { direct: number; public: number; publicReply: number; deletion: number };
}

const notMade = (cause: RootCause): PreparedStatus => ({ ...failed<Status>(cause), settle: () => undefined, unkept: [] });

/** Nothing posted, for want of a stream to listen: every step has the cause that no stream opened. */
function notPosted(cause: RootCause): Posted {
  const none = failed<never>(cause);
  return { directStatus: none, directRead: none, mention: none, publicStatus: none, privateReply: notMade(cause), publicReply: notMade(cause), mute: none, unmute: none, deletion: none, deletedRead: none, at: { direct: 0, public: 0, publicReply: 0, deletion: 0 } };
}

/** A move's outcome as the checks see it: its value, or the cause it came to. */
function valueOf<T, V>(outcome: StepOutcome<T>, value: (made: T) => V): StepOutcome<V> {
  return outcome.ok ? { ok: true, value: value(outcome.value), ...(outcome.exchange ? { exchange: outcome.exchange } : {}) } : outcome;
}

/** What the moves posted, each failed one with its cause. */
function postedBy(played: Played): Posted {
  const { direct, publicStatus, privateReply, publicReply, deletion } = played;
  const reply = (outcome: StepOutcome<PostedReply>) => (outcome.ok ? outcome.value.created : notMade(outcome.cause));
  return {
    directStatus: valueOf(direct, (posted) => posted.status),
    directRead: played.directRead,
    mention: publicStatus.ok ? publicStatus.value.mention : failed(publicStatus.cause),
    publicStatus: valueOf(publicStatus, (posted) => posted.status),
    privateReply: reply(privateReply),
    publicReply: reply(publicReply),
    mute: played.mute.ok ? played.mute.value.moved : played.mute,
    unmute: played.unmute,
    deletion,
    deletedRead: played.deletedRead,
    at: {
      direct: direct.ok ? direct.value.at : 0,
      public: publicStatus.ok ? publicStatus.value.at : 0,
      publicReply: publicReply.ok ? publicReply.value.at : 0,
      deletion: deletion.ok ? deletion.value.at : 0,
    },
  };
}

/** One view of each transport's streams: every check of the transport shares it, and so the causes it works out. */
const views = new WeakMap<OpenedStreams, StreamingScenario>();

export class StreamingScenario {
  private constructor(
    /** Every stream as it was opened, for the checks of the opening itself. */
    readonly streams: Record<StreamKey, EventStream | undefined>,
    /** Each stream as a step: open, or the cause that it is not. */
    readonly opened: Record<StreamKey, Step<EventStream>>,
    readonly posted: Posted,
  ) {}

  /**
   * The scenario as the checks of one transport see it: its own streams, and what was posted while every stream of
   * both transports listened. With no stream open on any transport nothing was posted, and each transport's checks
   * are blocked by its own cause (STREAM-SSE-1, STREAM-WS-1).
   */
  static of(played: Played): StreamingScenario {
    const opening = need(played.streams);
    const known = views.get(opening);
    if (known) return known;
    const { streams, withB } = opening;
    const opened = openedSteps(streams, withB ? 'STREAM-USER-2' : 'STREAM-USER-1');
    const view = new StreamingScenario(streams, opened, played.heard.ok ? postedBy(played) : notPosted(opened.public.ok ? played.heard.cause : opened.public.cause));
    views.set(opening, view);
    return view;
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
  return Object.fromEntries(STREAM_KEYS.map((key) => [key, stepOf(key)])) as Record<StreamKey, Step<EventStream>>;
}

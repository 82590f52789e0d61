// The verifiers of an open stream (talk/streams.ts): each waits for what arrives up to a deadline and, when it does
// not come, fails the running check with the last thing the stream showed as "actual" (h2spec's verifiers).
// Absence is judged against a sentinel event, never a sleep: without the sentinel the check is blocked.
import { describeEvent, type EventStream, isEventStream, type StreamEvent } from '../talk/streams.ts';
import { type RootCause, causeOf } from '../act/steps.ts';
import { block, countJudged } from './preconditions.ts';
import { fail } from './verify.ts';

/** Fails the running check; actual defaults to the last thing the stream showed. */
export function failOn(stream: EventStream, expected: string, actual = stream.lastSeen()): never {
  stream.exchange.text = `(${stream.transport}: ${stream.tally()} so far)`;
  return fail(expected, actual, stream.exchange);
}

/** The first event that matches, waiting at most the timeout from `since` (when its cause happened). */
export async function waitFor(stream: EventStream, what: string, matches: (event: StreamEvent) => boolean, since = Date.now()): Promise<StreamEvent> {
  const found = await stream.find(matches, since);
  if (!found) failOn(stream, `${what} (on ${stream.label}, within ${stream.timeoutMs} ms)`, stream.lastSeen(since));
  countJudged();
  return found;
}

/** A comment line (a heartbeat), waiting at most the timeout from the opening of the stream. */
export async function waitForComment(stream: EventStream, what: string): Promise<string> {
  const found = await stream.findComment();
  if (found === undefined) failOn(stream, `${what} (on ${stream.label}, within ${stream.timeoutMs} ms of opening)`);
  countJudged();
  return found;
}

/**
 * Why nothing can be expected of an SSE stream: it answered another Content-Type than text/event-stream
 * (STREAM-SSE-1) and nothing in it read as an event stream, neither an event nor a comment. A stream with another
 * Content-Type whose bytes are an event stream is read as one: only its header is wrong.
 */
export function unreadable(stream: EventStream): RootCause | undefined {
  if (stream.transport !== 'server-sent events' || isEventStream(stream.exchange) || stream.events.length > 0 || stream.comments.length > 0) return undefined;
  const type = stream.exchange.headers['content-type'] ?? '(none)';
  return causeOf('STREAM-SSE-1', `${stream.label} answered Content-Type ${type}, and nothing in it read as an event stream: ${stream.lastSeen()}`, stream.exchange);
}

/**
 * Absence, judged without sleeping: no event may match `forbidden` before the first one that matches `sentinel`,
 * which the server sends after the forbidden one would have been sent. Without the sentinel nothing can be judged:
 * the check is blocked by `withoutSentinel`, the cause of the sentinel's absence.
 */
export async function expectNone(
  stream: EventStream,
  what: string,
  forbidden: (event: StreamEvent) => boolean,
  sentinelWhat: string,
  sentinel: (event: StreamEvent) => boolean,
  since = Date.now(),
  withoutSentinel: () => RootCause = () => ({ summary: `no ${sentinelWhat} on ${stream.label} within ${stream.timeoutMs} ms: ${stream.lastSeen()}` }),
): Promise<void> {
  const first = await stream.find((e) => forbidden(e) || sentinel(e), since);
  if (!first) block(withoutSentinel());
  if (forbidden(first)) failOn(stream, `no ${what} before ${sentinelWhat} (on ${stream.label})`, `${what}: ${describeEvent(first)}`);
  countJudged();
}

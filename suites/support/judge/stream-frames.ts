// What the events carry and how each transport frames them: the Events table (update, delete), the server-sent
// events' Content-Type, heartbeats and event: and data: lines, and the WebSocket's opening and messages.
import { excerpt } from '../talk/http.ts';
import { describeEvent, isEventStream, type EventStream } from '../talk/streams.ts';
import { block, countJudged, need } from './preconditions.ts';
import { causeOf } from '../act/steps.ts';
import { settleWindowMs } from '../act/settle.ts';
import { observeResource } from './resources.ts';
import { carriesStatus, deletedIdOf, deleteOf, isObject, parseJson } from './stream-events.ts';
import { blockIfUnreadable, type StreamingScenario } from './stream-scenario.ts';
import { failOn } from './stream-waits.ts';

// Events table: update carries a Status.
export async function updateCarriesStatus(scenario: StreamingScenario): Promise<void> {
  const { publicStatus, at } = scenario.posted;
  const status = need(publicStatus);
  const { stream, event } = await scenario.eventAbout(status, (e) => e.event === 'update' && e.data.includes(status.id), at.public);
  const payload = parseJson(event.data);
  if (!payload.ok) return failOn(stream, 'an update payload that is JSON: a Status', `${payload.reason}: ${describeEvent(event)}`);
  const id = isObject(payload.value) ? payload.value.id : undefined;
  if (id !== status.id) return failOn(stream, `the payload is the Status itself: id "${status.id}" at the top`, `payload ${excerpt(event.data, 300)}`);
  // Its fields are the Status table's: RESOURCE-STATUS-1 judges them over the run.
  observeResource('Status', payload.value, stream.exchange);
  countJudged();
}

// Events table: delete carries the id of the deleted status. It needs the stream open and the status deleted,
// nothing more: a delete that came is judged whether or not the update before it came.
export async function deleteNamesStatusId(scenario: StreamingScenario): Promise<void> {
  const { publicStatus, deletion, deletedRead, at } = scenario.posted;
  const status = need(publicStatus);
  need(deletion);
  const stream = scenario.listening('public');
  if (await stream.find(deleteOf(status.id), at.deletion)) return countJudged();
  const unnamed = stream.events.find((e) => e.event === undefined && deletedIdOf(e.data) === status.id);
  if (unnamed) block(scenario.unframed(stream, unnamed));
  // A delete that came after the DELETE, whatever it names, is judged. A stream that carried nothing of the status,
  // neither its update nor a delete, fails what the stream carries.
  const deletes = stream.eventsSince(at.deletion).filter((e) => e.event === 'delete');
  if (deletes.length === 0 && !stream.events.some(carriesStatus(status.id))) block(scenario.missingUpdate(stream, status.id, 'STREAM-PUBLIC-1'));
  // A status that still exists after its DELETE answered 200 was not deleted: no delete event can be expected.
  const read = need(deletedRead);
  if (read.status === 200) block(causeOf('STATUS-DELETE-2', `the status still reads after its DELETE answered 200 (settle window ${settleWindowMs()} ms)`, read));
  const actual = deletes.length > 0 ? `${deletes.map(describeEvent).slice(0, 3).join('; ')} (${stream.lastSeen()})` : stream.lastSeen();
  failOn(stream, `a delete event whose payload is the id ${status.id} (compared as text; on ${stream.label}, within ${stream.timeoutMs} ms)`, actual);
}

// Server-sent events: every stream that answered is an event stream; none answering at all is this clause's failure too.
export function answersEventStreams(scenario: StreamingScenario): void {
  const answered = scenario.all().filter((s) => s.exchange.status === 200);
  const pub = scenario.streams.public as EventStream;
  if (answered.length === 0) failOn(pub, 'at least one stream answered 200', pub.lastSeen());
  for (const stream of answered) {
    if (!isEventStream(stream.exchange)) failOn(stream, 'Content-Type text/event-stream', `Content-Type ${stream.exchange.headers['content-type'] ?? '(none)'}`);
  }
  countJudged(answered.length);
}

// Events rule 1: heartbeat comments, within the timeout of the opening.
export async function carriesHeartbeats(scenario: StreamingScenario): Promise<void> {
  const stream = scenario.listening('public');
  if (await stream.findComment()) return countJudged();
  blockIfUnreadable(stream);
  failOn(stream, `a comment line (a heartbeat) (on ${stream.label}, within ${stream.timeoutMs} ms of opening)`);
}

// Events rule 2: an event: line with its name, then a data: line with the JSON-encoded payload. Judged on the first
// event about the public status, its update or its delete (which event is which is the Events table's to judge).
export async function framesEvents(scenario: StreamingScenario): Promise<void> {
  const { publicStatus, at } = scenario.posted;
  const status = need(publicStatus);
  const { stream, event } = await scenario.eventAbout(status, (e) => e.data.includes(status.id), at.public);
  if (!event.event) failOn(stream, 'an event: line naming the event before the data: line', `event name ${describeEvent(event)}`);
  if (!parseJson(event.data).ok) failOn(stream, 'a data: payload that is JSON-encoded', describeEvent(event));
  countJudged();
}

// WebSocket: A's user stream opens with the token in access_token.
export function opensUserStream(scenario: StreamingScenario): void {
  const stream = scenario.streams.user as EventStream;
  if (!stream.accepted) failOn(stream, 'the upgrade answers 101 Switching Protocols: the token in access_token is accepted');
  countJudged();
}

// WebSocket: every message is {"event": name, "payload": JSON-encoded text}; judged once the public status's update came.
export async function framesMessages(scenario: StreamingScenario): Promise<void> {
  const { publicStatus, at } = scenario.posted;
  const status = need(publicStatus);
  const stream = scenario.listening('public');
  await stream.find(carriesStatus(status.id), at.public);
  const streams = scenario.all().filter((s) => s.accepted && s.events.length > 0);
  if (streams.length === 0) block(scenario.missingUpdate(stream, status.id, 'STREAM-PUBLIC-1'));
  for (const listened of streams) {
    for (const event of listened.events) {
      const wrong = messageFault(event.message ?? '');
      if (wrong) failOn(listened, wrong, `message ${(event.message ?? '').slice(0, 300)}`);
    }
    countJudged(listened.events.length);
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

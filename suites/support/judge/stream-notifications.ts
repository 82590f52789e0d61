// The notifications on A's user stream: B's mention of A, the quiet of a thread A muted and its return after the
// unmute, and the Notification an event carries. Each runs with B, who mentions A (suites/streaming.test.ts requires it).
import { describeEvent, type EventStream, type StreamEvent } from '../talk/streams.ts';
import type { Status } from '../act/created.ts';
import { block, countJudged, need } from './preconditions.ts';
import { isObject, notificationAbout, parseJson } from './stream-events.ts';
import type { StreamingScenario } from './stream-scenario.ts';
import { expectNone, failOn } from './stream-waits.ts';

/**
 * The notification about B's mention of A in the public status (not about B's replies, which also name it). The
 * check of `clause` fails without it; the others are blocked.
 */
async function mentionNotification(scenario: StreamingScenario, clause?: string): Promise<StreamEvent> {
  const { publicStatus, privateReply, publicReply, mention, at } = scenario.posted;
  const status = need(publicStatus);
  need(mention);
  const stream = scenario.listening('user', clause);
  const replies = [privateReply, publicReply].flatMap((reply) => (reply.ok ? [reply.value.id] : []));
  const event = await stream.find(notificationAbout(status.id, replies), at.public);
  if (event) return event;
  const cause = scenario.missingNotification(stream, status.id, 'STREAM-USER-2');
  if (cause.clause !== clause) block(cause);
  return failOn(stream, `a notification event about B's mention of A in status ${status.id} (on ${stream.label}, within ${stream.timeoutMs} ms)`);
}

export async function userCarriesNotification(scenario: StreamingScenario): Promise<void> {
  await mentionNotification(scenario, 'STREAM-USER-2');
  countJudged();
}

/** What the mute checks build on: B's replies before and after A's unmute, each of which works. */
async function thread(scenario: StreamingScenario): Promise<{ quiet: Status; resumed: Status; stream: EventStream }> {
  const stream = scenario.listening('user');
  const { mute, privateReply, unmute, publicReply } = scenario.posted;
  need(mute);
  const quiet = need(privateReply);
  need(unmute);
  const resumed = need(publicReply);
  // The user stream delivers notifications at all: else the mute checks cannot tell anything.
  await mentionNotification(scenario);
  return { quiet, resumed, stream };
}

// After mute, a reply in the muted thread produces no notification; the notification after unmute must arrive to show that.
export async function mutedThreadStaysQuiet(scenario: StreamingScenario): Promise<void> {
  const { quiet, resumed, stream } = await thread(scenario);
  await expectNone(
    stream,
    `notification event about reply ${quiet.id}, posted while A muted the thread`,
    notificationAbout(quiet.id),
    `the notification event about reply ${resumed.id}, posted after A unmuted the thread`,
    notificationAbout(resumed.id),
    scenario.posted.at.publicReply,
    () => scenario.missingNotification(stream, resumed.id, 'STREAM-USER-4'),
  );
}

export async function unmutedThreadNotifies(scenario: StreamingScenario): Promise<void> {
  const { resumed, stream } = await thread(scenario);
  const event = await stream.find(notificationAbout(resumed.id), scenario.posted.at.publicReply);
  if (event) return countJudged();
  const cause = scenario.missingNotification(stream, resumed.id, 'STREAM-USER-4');
  if (cause.clause !== 'STREAM-USER-4') block(cause);
  failOn(stream, `a notification event about reply ${resumed.id}, posted after A unmuted the thread (on ${stream.label}, within ${stream.timeoutMs} ms)`);
}

// Events table: notification carries a Notification, whose fields are not shown: a JSON object.
export async function notificationIsObject(scenario: StreamingScenario): Promise<void> {
  const event = await mentionNotification(scenario);
  const payload = parseJson(event.data);
  if (!payload.ok || !isObject(payload.value)) {
    failOn(scenario.listening('user'), 'a notification payload that is a JSON object', `${payload.ok ? `JSON ${typeof payload.value}` : payload.reason}: ${describeEvent(event)}`);
  }
  countJudged();
}

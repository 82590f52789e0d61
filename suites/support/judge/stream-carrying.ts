// Which stream carries which status, and what a stream leaves out: each check of the scenario (stream-scenario.ts)
// that waits for an update on the stream its clause names, or judges an absence against a later status.
import { block, countJudged, madeWith, need } from './preconditions.ts';
import { answerOf, causeOf } from '../act/steps.ts';
import { carrying } from '../talk/streams.ts';
import { carriesStatus } from './stream-events.ts';
import { OTHER_TAG, TAG } from '../act/stream-keys.ts';
import { blockIfUnreadable, type StreamingScenario } from './stream-scenario.ts';
import { expectNone, failOn } from './stream-waits.ts';

// Posting a public status produces update on public, on the author's user stream and on hashtag streams for its tags.
export async function publicCarriesPublicStatus(scenario: StreamingScenario): Promise<void> {
  const { publicStatus, publicReply, at } = scenario.posted;
  const status = need(publicStatus);
  await scenario.expectUpdate('public', 'STREAM-PUBLIC-1', status, at.public, `an update event carrying public status ${status.id}`);
  // The public reply is a public status too: the sentinel STREAM-PUBLIC-2 waits for is judged here.
  if (publicReply.ok) await scenario.expectUpdate('public', 'STREAM-PUBLIC-1', publicReply.value, at.publicReply, `an update event carrying public reply ${publicReply.value.id}`);
}

export async function localCarriesPublicStatus(scenario: StreamingScenario): Promise<void> {
  const { publicStatus, at } = scenario.posted;
  const status = need(publicStatus);
  await scenario.expectUpdate('local', 'STREAM-LOCAL-1', status, at.public, `an update event carrying local public status ${status.id}`);
}

export async function hashtagCarriesTaggedStatus(scenario: StreamingScenario): Promise<void> {
  const { publicStatus, publicReply, at } = scenario.posted;
  const status = need(publicStatus);
  await scenario.expectUpdate('hashtag', 'STREAM-HASHTAG-1', status, at.public, `an update event carrying status ${status.id} tagged #${TAG}`);
  // So is the reply on its own tag's stream: the sentinel STREAM-HASHTAG-3 waits for.
  if (publicReply.ok) {
    await scenario.expectUpdate('otherHashtag', 'STREAM-HASHTAG-1', publicReply.value, at.publicReply, `an update event carrying reply ${publicReply.value.id} tagged #${OTHER_TAG}`);
  }
}

export async function localHashtagCarriesTaggedStatus(scenario: StreamingScenario): Promise<void> {
  const { publicStatus, at } = scenario.posted;
  const status = need(publicStatus);
  await scenario.expectUpdate('localHashtag', 'STREAM-HASHTAG-2', status, at.public, `an update event carrying local status ${status.id} tagged #${TAG}`);
}

export async function userCarriesOwnStatus(scenario: StreamingScenario): Promise<void> {
  const { publicStatus, at } = scenario.posted;
  const status = need(publicStatus);
  await scenario.expectUpdate('authorUser', 'STREAM-USER-1', status, at.public, `an update event carrying the author's new status ${status.id}`);
}

// A private status produces none on public; the public reply posted after it must arrive to show that.
export async function publicLeavesOutPrivateStatus(scenario: StreamingScenario): Promise<void> {
  const { privateReply, publicReply, at } = scenario.posted;
  const [hidden, shown] = [madeWith(privateReply, ['visibility']), madeWith(publicReply, ['visibility'])];
  const stream = scenario.listening('public');
  await expectNone(
    stream,
    `event carrying private status ${hidden.id}`,
    carriesStatus(hidden.id),
    `the update event carrying public status ${shown.id}, posted after it`,
    carriesStatus(shown.id),
    at.publicReply,
    () => scenario.missingUpdate(stream, shown.id, 'STREAM-PUBLIC-1'),
  );
}

// No update on a hashtag stream for another tag; the public reply carrying that tag, posted later, must arrive to show that.
export async function otherHashtagLeavesOutStatus(scenario: StreamingScenario): Promise<void> {
  const { publicStatus, publicReply, at } = scenario.posted;
  const [status, tagged] = [need(publicStatus), madeWith(publicReply, ['visibility'])];
  const stream = scenario.listening('otherHashtag');
  await expectNone(
    stream,
    `event carrying status ${status.id}, which is tagged #${TAG} only`,
    carriesStatus(status.id),
    `the update event carrying status ${tagged.id} tagged #${OTHER_TAG}, posted after it`,
    carriesStatus(tagged.id),
    at.publicReply,
    () => scenario.missingUpdate(stream, tagged.id, 'STREAM-HASHTAG-1'),
  );
}

// Runs with a list of A's that has B as member (suites/streaming.test.ts requires both).
export async function listCarriesMemberStatus(scenario: StreamingScenario): Promise<void> {
  const { publicStatus, at } = scenario.posted;
  const status = need(publicStatus);
  await scenario.expectUpdate('list', 'STREAM-LIST-1', status, at.public, `an update event carrying status ${status.id} of the list's member B`);
}

export async function directCarriesDirectMessage(scenario: StreamingScenario): Promise<void> {
  const { directStatus, directRead, at } = scenario.posted;
  const status = need(directStatus);
  const stream = scenario.listening('direct', 'STREAM-DIRECT-1');
  if (await stream.find(carrying(status.id), at.direct)) return countJudged();
  // The stream carries what its user may see: a direct message its author cannot read cannot arrive either.
  const read = need(directRead);
  if (read.status !== 200) block(causeOf('STATUS-VIS-6', `the author's read of the direct message answered ${answerOf(read)}`, read));
  blockIfUnreadable(stream);
  failOn(stream, `an event carrying direct message ${status.id} (on ${stream.label}, within ${stream.timeoutMs} ms)`, stream.lastSeen(at.direct));
}

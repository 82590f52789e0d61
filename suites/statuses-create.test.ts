// The contract's "POST /api/v1/statuses parameters": Idempotency-Key, the parameters a creation needs and those
// it may not combine, polls, scheduled_at, and delete-and-redraft (resending what the DELETE answer gives back,
// as "Other operation parameters" says) as a property over generated texts. The contract does not show the code
// or body of a refused creation ("Error bodies for failed POST /api/v1/statuses calls: not shown"): a refusal is
// any 4xx, and each such check says so in its name. A refusal counts where the same request without the part it
// refuses was accepted (a server that refuses every creation refuses these too), not where the feature works. What
// a creation that should be refused made anyway is undone at once, so that no later check meets it; where the poll
// with media was made, the status with media only gets an image of its own, since a server may take a status' media
// with it.
// Every request is a named step, made once by the section's planner, side by side where the contract's order does
// not matter; the checks judge what the steps brought. The statuses the checks need anyway are the redraft
// property's originals: its steps delete them (the deletion the cleanup would make), resend what the DELETE
// answered, and delete the redraft.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { MEDIA_FIXTURES } from '../fixtures/media/index.ts';
import { actors, formNotUnderstood, type Actor } from './support/act/actors.ts';
import { createdId, madeStep, type Created, type Status } from './support/act/created.ts';
import { type RootCause, answerOf, causeOf, succeeded, type Step } from './support/act/steps.ts';
import { findClause } from './support/judge/clauses.ts';
import { block, controlled, need, since } from './support/judge/preconditions.ts';
import { observeResource } from './support/judge/resources.ts';
import { expectNoMismatch } from './support/judge/run-wide-owner.ts';
import { now, settle, settleWindowMs } from './support/act/settle.ts';
import { check, expectEqual, expectOk, expectRefusal, fail, statusLine } from './support/judge/verify.ts';
import { it, made, notMade, requirement, section, step, type Account, type DeclaredStep, type StepOutcome } from './support/run/checks.ts';
import type { FormParams } from './support/talk/form.ts';
import { createdObject, type Exchange } from './support/talk/http.ts';

const { config, b } = actors();
// The redrafts spend two deletions each: B makes every status here when configured, so that A's Deletion bucket
// (the one the other groups spend most, 30 per 30 minutes) keeps room, and the property deletes them as their owner.
// Without B, A's own checks spend A's whole share (15 a run): the steps that make or delete a status (deletesForB)
// are not run, and only the creations refused or scheduled fall back to A.
const AUTHOR: Account = b ? 'B' : 'A';
// The generated text mentions the poll's author, B.
const mention = config.usernameB;
// The release polls came with.
const POLLS_RELEASE = findClause('STATUS-POLL-1')?.since as string;
// Poll bounds are not shown: an hour is inside every server's range, and the option counts stay at 2 or 3.
const POLL_SECONDS = 3600;

interface Poll {
  expires_at: string;
  expired?: boolean;
  multiple: boolean;
  options: { title: string; votes_count?: unknown }[];
}
type PollStatus = Status & { created_at: string; content?: string; poll: Poll | null; media_attachments: { id: string }[] };
interface ScheduledStatus {
  id: string;
  scheduled_at: string;
  params: { text?: string | null; visibility?: string | null } | null;
}
type Source = PollStatus & { text: string };

const mediaOf = (status: PollStatus) => (Array.isArray(status.media_attachments) ? status.media_attachments.map((m) => m.id) : status.media_attachments);
const pollOf = (status: PollStatus) => status.poll && { options: status.poll.options?.map((o) => o.title), multiple: status.poll.multiple };

/** Texts of every kind a client sends: unicode, HTML-looking text, mentions of the suite's own account, hashtags, long text. */
function texts(): fc.Arbitrary<string> {
  // No "@" in free text: a generated mention could notify a stranger on a live server.
  const free = (s: string) => s.replace(/@/g, '(at)');
  const piece = fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(free),
    fc.constantFrom('<b>bold</b>', '<script>alert(1)</script>', '&amp; &lt;p&gt;', '<a href="#top">a link</a>', '</p><p>'),
    fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/).map((tag) => `#${tag}`),
    ...(mention ? [fc.constant(`@${mention}`)] : []),
  );
  const short = fc.array(piece, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' '));
  // Maximum status length is not shown: 400 characters stays inside every server's limit.
  const long = fc.string({ unit: 'grapheme-ascii', minLength: 300, maxLength: 400 }).map(free);
  return fc.oneof(short, long).map((body) => `conformance redraft ${body}`);
}

// The redraft property's runs, one per status the checks make anyway: both attachment kinds every time (the poll, with
// a generated text, and the status with media only).
const POLL = { options: ['yes', 'no', 'maybe'], multiple: true };
// Generated from the run's seed (CONFORMANCE_SEED): the same seed, the same text, so that a verdict does not move
// between two runs. The poll carries it: its redraft is the property's run with text and poll.
const POLL_TEXT = fc.sample(texts(), { numRuns: 1, seed: config.seed })[0] as string;
/** The Idempotency-Key checks' submission where the poll made no status: the plainest creation. */
const SUBMISSION = { status: 'conformance probe: a submission with an Idempotency-Key', visibility: 'unlisted' };
const SCHEDULED_TEXT = 'conformance probe: a scheduled status, cancelled by the run';

// The first creation, so it carries a parameter without brackets besides its text and visibility (language): a
// server that reads only some of a form is then told from one that misreads only its bracket names (WIRE-FORM-1).
const pollStatusParams = (hideTotals: boolean): FormParams => ({
  status: POLL_TEXT,
  visibility: 'unlisted',
  language: 'en',
  poll: { options: POLL.options, multiple: POLL.multiple, expires_in: POLL_SECONDS, ...(hideTotals ? { hide_totals: true } : {}) },
});

/**
 * The status a creation made, also when it is not all that was asked (a visibility not kept does not matter to
 * the checks here; what they judge, they check themselves); a creation that made none blocks the check.
 */
function madeStatus(created: Step<Status>): PollStatus {
  return need(madeStep(created)) as PollStatus;
}

/** A status a step made, as it was made, with its creation, whose ledger entry the deletion settles. */
interface Made {
  status: PollStatus;
  created: Created<Status>;
}

/** A creation as a step's outcome, as lenient as madeStatus: the status it made, or, where it made none, its cause. */
function madeOutcome(created: Created<Status>): StepOutcome<Made> {
  const step = madeStep(created);
  return step.ok ? made({ status: step.value as PollStatus, created }, step.exchange) : notMade(step.cause, step.exchange);
}

/**
 * A creation the server should refuse, malformed on purpose (so a server error to it is this check's, not
 * ERRORS-5XX-1's): what it makes anyway is undone at once (the ledger then meets a 404: undone).
 */
async function attemptRefused(author: Actor, params: FormParams): Promise<Exchange> {
  const exchange = await author.attemptStatus(params, { malformed: true });
  const body = createdObject(exchange);
  if (typeof body?.id === 'string') {
    // The contract shows no way to cancel a scheduled status: Mastodon's DELETE /api/v1/scheduled_statuses/:id.
    await author.delete('scheduled_at' in body ? `/api/v1/scheduled_statuses/${body.id}` : `/api/v1/statuses/${body.id}`);
  }
  return exchange;
}

/**
 * The positive control of a refusal: the same creation without the part refused was accepted (2xx), whatever it
 * made of the rest (that is its own check's). Else `clause`, whose check judges that creation, blocks.
 */
function acceptedWithout(control: StepOutcome<unknown> | Exchange, clause: string, what: string): void {
  const outcome = 'method' in control ? succeeded(control, control) : control;
  if (!outcome.exchange && !outcome.ok) block(outcome.cause);
  controlled(outcome.exchange && succeeded(outcome.exchange, outcome.exchange), clause, what);
}

// The first creation shows how the server reads a creation (form data, or JSON: see Actor.createStatus); the others
// come after it, so that each is read as its check means it. The poll goes first: the bracket names are the most a
// form carries. It goes with an Idempotency-Key of its own, as every creation does (a JSON retry with the same key
// would only repeat its answer), and is also the submission the Idempotency-Key checks send again: they only read
// its answer, and their resubmissions come before its DELETE. Its cost includes the ledger's reads of it and of its
// poll gone, once its redraft deleted it.
const poll = step('a poll, made with poll[hide_totals], else without it: the first creation', { as: 'B', deletesForB: true, cost: { api: 3 } }, async (_, { actor: author }) => {
  const withHiddenTotals = await author.createStatus(pollStatusParams(true));
  // The poll the poll checks judge: the one made with hide_totals, or, where that made none, one made without it.
  const pollStatus = createdId(withHiddenTotals.exchange as Exchange) ? withHiddenTotals : await author.createStatus(pollStatusParams(false));
  return made({ withHiddenTotals, pollStatus }, pollStatus.exchange);
});
const afterThePoll = [poll];

// Before the poll's DELETE: the account that is not its author, A, reads the poll made with poll[hide_totals]: what
// it hides, it hides from the others (STATUS-EFFECT-1, -3).
/** What the checks of a poll read by another account need first: B makes the poll, so that A is not its author. */
const byAnotherAccount = requirement(b, 'needs CONFORMANCE_TOKEN_B: B makes the poll that A, another account, reads');
const pollReadByOther = step('the poll made with poll[hide_totals], read by the other account', { as: 'A', needs: { poll }, cost: { api: 1 } }, async ({ poll: { withHiddenTotals } }, { actor }) => {
  const id = createdId(withHiddenTotals.exchange as Exchange);
  if (!id) return notMade(causeOf('STATUS-POLL-4', `a poll created with poll[hide_totals] answered ${answerOf(withHiddenTotals.exchange as Exchange)}`, withHiddenTotals.exchange));
  const read = await actor.get(`/api/v1/statuses/${id}`);
  return made({ created: withHiddenTotals.exchange as Exchange, read }, read);
});

/**
 * The Poll another account's read shows: its read of an unlisted status answering is STATUS-VIS-1's, a poll it
 * leaves out STATUS-POLL-1's.
 */
function pollReadBy(read: Exchange): Poll {
  if (read.status !== 200) block(causeOf('STATUS-VIS-1', `another account's read of an unlisted status answered ${answerOf(read)}`, read));
  const { poll: shown } = expectOk<PollStatus>(read, 'Status');
  if (typeof shown !== 'object' || shown === null || !Array.isArray(shown.options)) block(causeOf('STATUS-POLL-1', `a read of a status with a poll answered poll ${JSON.stringify(shown)}`, read));
  return shown;
}

// The image of the status with media only (and so of its redraft: a deleted status's media may be resent), of the
// ordinary size MEDIA-UPLOAD-1 judges, which a server has no reason to refuse. The poll with media tries it first.
// The cost includes the ledger's read of its file there (the file's first), its delete and its read of the file gone.
const mediaUpload = step('an image uploaded for the status with media only, which the poll with media tries first', { as: AUTHOR, cost: { api: 2, files: 2 } }, (_, { actor }) =>
  actor.upload(MEDIA_FIXTURES.png),
);

// Before the status with media only: a server that refuses it leaves the image as it was. One that makes the poll
// anyway has it undone at once, and may take the image with it (a deleted status may take its media): the status with
// media only then gets an image of its own.
const pollWithMedia = step(
  'a poll with media_ids[] of that image, undone at once if made',
  { as: AUTHOR, needs: { attachment: mediaUpload }, changes: [mediaUpload], after: afterThePoll, cost: { api: 1 } },
  async ({ attachment }, { actor }) => {
    const probe = { options: ['yes', 'no'], expires_in: POLL_SECONDS };
    return made(await attemptRefused(actor, { status: 'conformance probe: a poll with media', visibility: 'direct', media_ids: [attachment.id], poll: probe }));
  },
);

// Made as clients make one: media_ids[] and no status parameter at all (not an empty one). Its cost includes the
// ledger's read of it gone, once STATUS-DELETE-5's deletion deleted it.
const mediaStatus = step(
  'the status with media only: media_ids[] and no status parameter',
  { as: 'B', needs: { attachment: mediaUpload }, uses: { pollWithMedia }, after: afterThePoll, deletesForB: true, cost: { api: 2 } },
  async ({ attachment, pollWithMedia }, { actor: author }) => {
    let media = attachment;
    if (pollWithMedia.ok && createdId(pollWithMedia.value)) {
      // Made only where the poll with media was made: as a step it would cost an upload on every server.
      const own = await author.upload(MEDIA_FIXTURES.png);
      if (!own.ok) return notMade(own.cause, own.exchange);
      media = own.value;
    }
    const created = await author.createStatus({ visibility: 'unlisted', media_ids: [media.id] });
    return made(created, created.exchange);
  },
);

// For the checks of what became of it: a creation that made no status is STATUS-PARAMS-2's, a status made without its
// media MEDIA-ATTACH-1's.
const mediaOriginal = step('the status with media only, carrying its media', { as: 'B', needs: { mediaStatus }, cost: {} }, async ({ mediaStatus: created }) => {
  const original = madeOutcome(created);
  if (!original.ok) return notMade(causeOf('STATUS-PARAMS-2', `a creation with media_ids[] and no status answered ${answerOf(created.exchange as Exchange)}`, created.exchange));
  const media = mediaOf(original.value.status);
  if (!(Array.isArray(media) && media.length > 0)) {
    return notMade(causeOf('MEDIA-ATTACH-1', `a status created with media_ids[] answered media_attachments ${JSON.stringify(media)}`, created.exchange));
  }
  return original;
});

const withoutExpiry = step('a poll without poll[expires_in], undone at once if made', { as: AUTHOR, after: afterThePoll, cost: { api: 1 } }, async (_, { actor }) =>
  made(await attemptRefused(actor, { status: 'conformance probe: a poll that never closes', visibility: 'direct', poll: { options: ['yes', 'no'] } })),
);

const withoutText = step('a creation with neither status nor media_ids[], undone at once if made', { as: AUTHOR, after: afterThePoll, cost: { api: 1 } }, async (_, { actor }) =>
  made(await attemptRefused(actor, { visibility: 'direct' })),
);

/** A submission the Idempotency-Key checks send again (its creation, as it went): the status it made and its key. */
interface Submission extends Made {
  key: string;
}

/** The Idempotency-Key a creation went with (Actor.postStatus gives every creation one). */
const keyOf = (exchange: Exchange) => Object.entries(exchange.requestHeaders).find(([name]) => name.toLowerCase() === 'idempotency-key')?.[1];

/** A creation as a submission to send again, as lenient as madeOutcome; one that went without a key made none. */
function submission(created: Created<Status>): StepOutcome<Submission> {
  const original = madeOutcome(created);
  const key = created.exchange && keyOf(created.exchange);
  if (!original.ok || !key) return original.ok ? notMade({ summary: 'the submission went without an Idempotency-Key' }) : original;
  return made({ ...original.value, key }, original.exchange);
}

// The poll, as it was made; where it made no status (a server without polls), a plain submission, made only then:
// the Idempotency-Key checks need a submission, not a poll.
const submitted = step('the submission the Idempotency-Key checks send again: the poll, else a plain one', { as: 'B', needs: { poll }, cost: {} }, async ({ poll: { pollStatus } }, { actor }) => {
  const asPoll = submission(pollStatus);
  return asPoll.ok ? asPoll : submission(await actor.createStatus(SUBMISSION));
});

/**
 * Another Idempotency-Key that begins as `key` does, all but its last 12 characters: a server that keeps only the
 * beginning of a key takes the two for one.
 */
const anotherKey = (key: string) => `${key.slice(0, Math.max(0, key.length - 12))}${randomUUID().slice(-12)}`;

// What the same key gives again is the submission's status, on the ledger already once; the cost includes the ledger's
// delete and read gone of the status the other key made (no read of it present: the other account's read of the poll
// showed a status of the file, run/cleanup-reads.ts shownPresent), and its poll's reads before (the first read of a poll in the file, the first the ledger deletes) and after. The other key goes
// twice at the same moment: one status for one key, whatever the timing (the ledger undoes that status once, and a second
// one, where the server made two, too). All come before the poll's DELETE.
const resubmissions = step(
  'the same submission again, with the same Idempotency-Key, and twice at the same moment with another',
  { as: 'B', needs: { submitted }, changes: [poll, submitted], deletesForB: true, cost: { api: 7 } },
  async ({ submitted: { status, created, key } }, { actor: author }) => {
    // Each sent as the submission went, its body format too: a server may read a form and not JSON, or the reverse.
    const submission = created.exchange as Exchange;
    const [again, [other, otherAgain]] = await Promise.all([
      author.submitAgain(submission, { 'Idempotency-Key': key }),
      author.submitTwiceAtOnce(submission, { 'Idempotency-Key': anotherKey(key) }),
    ]);
    if (createdId(again.exchange) === status.id) again.settle();
    return made({ again, other, otherAgain });
  },
);

// Direct: if the server published one anyway and the ledger could not reach it in time, nobody else sees it. The cost
// includes the ledger's read, cancellation and read gone of the scheduled status.
const scheduled = step('a creation scheduled half an hour ahead', { as: AUTHOR, after: afterThePoll, cost: { api: 4 } }, async (_, { actor: author }) => {
  // Whole seconds, half an hour ahead: well past the 5 minutes, and equal after any rounding to the second.
  const at = new Date(Math.ceil((Date.now() + 30 * 60_000) / 1000) * 1000);
  const exchange = await author.attemptStatus({ status: SCHEDULED_TEXT, visibility: 'direct', scheduled_at: at.toISOString() });
  return made({ exchange, at }, exchange);
});

// A scheduling refused means something only where a plain creation is accepted: one is made to tell, only then (a step
// that always made it would cost a creation, its delete and its read on every server that schedules).
const plainBesideScheduling = step(
  'a plain creation, where the creation scheduled half an hour ahead answered no object',
  { as: AUTHOR, needs: { scheduled }, after: afterThePoll, cost: {}, mayAdd: 3 },
  async ({ scheduled: { exchange } }, { actor }) =>
    made(createdObject(exchange) ? undefined : await actor.createStatus({ status: 'conformance probe: a plain creation beside a refused scheduling', visibility: 'direct' })),
);

const tooSoon = step('a creation scheduled a minute ahead, undone at once if made', { as: AUTHOR, after: afterThePoll, cost: { api: 1 } }, async (_, { actor }) =>
  made(await attemptRefused(actor, { status: SCHEDULED_TEXT, visibility: 'direct', scheduled_at: new Date(Date.now() + 60_000).toISOString() })),
);

/** A DELETE of a status a step made, and its answer. */
interface Deletion {
  original: Made;
  exchange: Exchange;
}

/** DELETE of a status a step made (the deletion the cleanup would make: the ledger then reads it gone); the answer is a Status for RESOURCE-STATUS-1. */
async function deleteMade(author: Actor, { status, created }: Made): Promise<Exchange> {
  const exchange = await author.delete(`/api/v1/statuses/${status.id}`);
  if (exchange.status === 200) created.settle();
  const source = createdObject(exchange);
  if (exchange.status === 200 && source) observeResource('Status', source, exchange);
  return exchange;
}

/** The DELETE of an original, made once: `object` is the step that made it. */
const deletionOf = (name: string, original: DeclaredStep<Made>, object: DeclaredStep<unknown>): DeclaredStep<Deletion> =>
  step(name, { as: 'B', needs: { original }, changes: [object], deletesForB: true, cost: { api: 1 } }, async ({ original }, { actor }) => {
    const exchange = await deleteMade(actor, original);
    return made({ original, exchange }, exchange);
  });

// STATUS-DELETE-5 judges its answer, which the redraft of the status with media only then resends.
const mediaDeletion = deletionOf('DELETE of the status with media only', mediaOriginal, mediaStatus);

// Options the server reordered would be resent reordered: the equivalence holds only for a poll made as asked.
const pollOriginal = step('the poll, made with its options as asked', { as: 'B', needs: { poll }, cost: {} }, async ({ poll: { pollStatus } }) => {
  const original = madeOutcome(pollStatus);
  if (!original.ok) return original;
  const options = pollOf(original.value.status)?.options;
  if (JSON.stringify(options) !== JSON.stringify(POLL.options)) {
    return notMade(causeOf('STATUS-POLL-1', `a poll created with options ${JSON.stringify(POLL.options)} answered options ${JSON.stringify(options)}`, pollStatus.exchange));
  }
  return original;
});

const pollDeletion = deletionOf('DELETE of the poll', pollOriginal, poll);

/** The source text a DELETE answer gives back: none (empty, null or absent) for a status with media only. */
const sourceTextOf = (source: Source) => (typeof source.text === 'string' ? source.text : '');

/**
 * What a DELETE answer gives back to resend: since 2.9.0 the source text, and the media or poll. An answer without
 * what there is to resend leaves nothing to redraft: by STATUS-DELETE-1 for a status with text, by STATUS-DELETE-5 for
 * one with media only (whose text may be none).
 */
function sourceToResend(exchange: Exchange, withMediaOnly: boolean): StepOutcome<Source> {
  const source = createdObject(exchange);
  const clause = withMediaOnly ? 'STATUS-DELETE-5' : 'STATUS-DELETE-1';
  if (exchange.status !== 200 || !source) return notMade(causeOf(clause, `DELETE of the caller's own status answered ${answerOf(exchange)}`, exchange));
  if (withMediaOnly) {
    const media = mediaOf(source as PollStatus);
    if (!(Array.isArray(media) && media.length > 0)) return notMade(causeOf(clause, `DELETE of the caller's own status with media only answered media_attachments ${JSON.stringify(media)}`, exchange));
    return made(source as Source, exchange);
  }
  // A text that is there but no string is the Status type's (text null for a status with text).
  if ('text' in source && typeof source.text !== 'string') {
    return notMade(causeOf('RESOURCE-STATUS-1', `DELETE of the caller's own status answered text ${JSON.stringify(source.text)}`, exchange));
  }
  if (typeof source.text !== 'string') return notMade(causeOf(clause, "DELETE of the caller's own status answered no text", exchange));
  return made(source as Source, exchange);
}

/**
 * What the contract says to resend: text as status, media ids, poll options and multiple with a fresh expires_in
 * and hide_totals. No text is sent as no status parameter, as the status with media only was made.
 */
function redraftParams(source: Source): FormParams {
  const text = sourceTextOf(source);
  const params: FormParams = { ...(text !== '' ? { status: text } : {}), visibility: 'unlisted' };
  const mediaIds = mediaOf(source);
  if (Array.isArray(mediaIds) && mediaIds.length > 0) params.media_ids = mediaIds;
  const poll = pollOf(source);
  if (poll) params.poll = { ...poll, expires_in: POLL_SECONDS, hide_totals: false };
  return params;
}

/** Why a redraft refused cannot be judged: the original still reads after its DELETE (STATUS-DELETE-2), its media still attached. */
async function stillThere(author: Actor, status: Status): Promise<RootCause | undefined> {
  // A server may delete in the background: the read waits for it within the settle window.
  const { exchange: read } = await settle(() => author.get(`/api/v1/statuses/${status.id}`), (answer) => answer.status !== 200, now());
  return read.status === 200 ? causeOf('STATUS-DELETE-2', `a status still reads after its DELETE answered 200 (settle window ${settleWindowMs()} ms)`, read) : undefined;
}

/** A redraft: the original as made, what its DELETE gave back, the creation that resent it, and the redraft as made with its own DELETE answer, or why it made none. */
type Redraft = { before: PollStatus; source: Source; redraft: Created<Status> } & ({ after: PollStatus; redraftSource: Source; exchange: Exchange } | { notCreated: RootCause });

/**
 * A run of the redraft property: what the original's DELETE answered resent, and the redraft deleted in turn. The
 * original and its DELETE answer are preparation (what fails blocks the check); the redraft is the clause.
 */
async function redraft(author: Actor, { original, exchange }: Deletion, withMediaOnly: boolean): Promise<StepOutcome<Redraft>> {
  const source = sourceToResend(exchange, withMediaOnly);
  if (!source.ok) return source;
  const resent = { before: original.status, source: source.value, redraft: await author.createStatus(redraftParams(source.value)) };
  // A redraft made without some of what was resent is judged field by field.
  const redrafted = madeStep(resent.redraft);
  if (!redrafted.ok) {
    const cause = await stillThere(author, original.status);
    return cause ? notMade(cause) : made({ ...resent, notCreated: redrafted.cause });
  }
  const after = redrafted.value as PollStatus;
  const deletion = await deleteMade(author, { status: after, created: resent.redraft });
  const redraftSource = sourceToResend(deletion, withMediaOnly);
  return redraftSource.ok ? made({ ...resent, after, redraftSource: redraftSource.value, exchange: deletion }, deletion) : redraftSource;
}

/**
 * The redraft of an original once deleted; the status with media only's (`media`, its attachment) resends its media
 * alone, as it was made. The cost includes the ledger's read of the redraft gone, and of the poll's redraft's poll.
 */
const redraftOf = (name: string, deletion: DeclaredStep<Deletion>, media?: DeclaredStep<unknown>): DeclaredStep<Redraft> =>
  step(name, { as: 'B', needs: { deletion }, changes: media ? [media] : [], deletesForB: true, cost: { api: media ? 3 : 4 } }, ({ deletion }, { actor }) => redraft(actor, deletion, media !== undefined));

const pollRedraft = redraftOf('the poll redrafted from its DELETE answer, and deleted', pollDeletion);
const mediaRedraft = redraftOf('the status with media only redrafted from its DELETE answer, and deleted', mediaDeletion, mediaUpload);

/** Judges one run of the redraft property: an equivalent status, field by field. */
function judgeRedraft(run: Redraft): void {
  if ('notCreated' in run) fail('the redraft created: a Status with what was resent', run.notCreated.summary, run.redraft.exchange);
  const { before, source, redraft, after, redraftSource, exchange } = run;
  expectEqual(sourceTextOf(redraftSource), sourceTextOf(source), 'text of the redraft', exchange);
  expectEqual(after.content, before.content, 'content of the redraft', redraft.exchange);
  expectEqual(mediaOf(after), mediaOf(before), 'media_attachments ids of the redraft', redraft.exchange);
  expectEqual(pollOf(after), pollOf(before), 'poll options and multiple of the redraft', redraft.exchange);
}

/** The Poll of the poll checks' status: they need one, and a status made without it blocks them. */
function pollIn(pollStatus: Created<Status>): Poll {
  const status = madeStatus(pollStatus);
  if (typeof status.poll !== 'object' || status.poll === null) {
    block(causeOf('STATUS-POLL-1', `a status created with poll[options][] answered poll ${JSON.stringify(status.poll)}`, pollStatus.exchange));
  }
  return status.poll;
}

const isScheduled = (body: Record<string, unknown> | undefined): body is Record<string, unknown> & ScheduledStatus => body !== undefined && 'scheduled_at' in body && 'params' in body;

/** The ScheduledStatus the creation answered: the other checks of scheduled_at need one, and an answer without it blocks them. */
function scheduledStatus(exchange: Exchange): ScheduledStatus {
  const body = createdObject(exchange);
  if (!isScheduled(body)) block(causeOf('STATUS-SCHEDULED-1', `a creation with scheduled_at answered ${answerOf(exchange)}${body ? ', not a ScheduledStatus' : ''}`, exchange));
  return body;
}

section('POST /api/v1/statuses parameters', () => {
  section('Idempotency-Key', () => {
    /** What a submission answered, in the terms of these checks: the id of the status it gave, or the answer. */
    const shown = (exchange: Exchange) => (createdId(exchange) ? `status ${createdId(exchange)}` : statusLine(exchange));
    const submissions = { needs: { submitted, resubmissions } };

    // The status code of a creation is STATUS-CREATE-1's: these checks judge which status each submission gave.
    it('STATUS-IDEMPOTENCY-1 the same Idempotency-Key twice gives the same status, not a duplicate', submissions, ({ submitted: { status }, resubmissions: { again } }) => {
      const exchange = again.exchange;
      check(createdId(exchange) === status.id, `the second submission gives status ${status.id}`, shown(exchange), exchange);
    });

    it(
      'STATUS-IDEMPOTENCY-1 one Idempotency-Key sent twice at the same moment gives one status, not two',
      submissions,
      ({ resubmissions: { other, otherAgain } }) => {
        const otherId = createdId(other);
        // Whether the first of the two made a status at all is STATUS-IDEMPOTENCY-2's (a new key gives a new status).
        if (otherId === undefined) block(causeOf('STATUS-IDEMPOTENCY-2', `a submission with a new Idempotency-Key answered ${shown(other)}`, other));
        check(createdId(otherAgain) === otherId, `both submissions give status ${otherId}`, shown(otherAgain), otherAgain);
      },
    );

    it('STATUS-IDEMPOTENCY-2 a different Idempotency-Key gives a new status', submissions, ({ submitted: { status }, resubmissions: { other } }) => {
      const otherId = createdId(other);
      check(otherId !== undefined && otherId !== status.id, `a new status, other than ${status.id}`, shown(other), other);
    });
  });

  it('STATUS-PARAMS-1 a creation with neither status nor media_ids is refused (any 4xx)', { needs: { withoutText }, uses: { submitted } }, ({ withoutText, submitted }) => {
    acceptedWithout(submitted, 'STATUS-CREATE-1', 'a creation with status');
    expectRefusal(withoutText);
  });

  // Whether the status carries the media is MEDIA-ATTACH-1's; its status code, STATUS-CREATE-1's.
  it('STATUS-PARAMS-2 a creation with media_ids[] and no status parameter creates the status', { needs: { mediaStatus } }, ({ mediaStatus: created }) => {
    // A's and B's tokens hold the broad write scope: a refusal for its scope is ACCESS-BROAD-1's, not the creation's.
    if (!created.ok && created.cause.clause === 'ACCESS-BROAD-1') block(created.cause);
    const exchange = created.exchange as Exchange;
    check(createdId(exchange) !== undefined, 'the status created (2xx with an id)', statusLine(exchange), exchange);
  });

  section('polls', () => {
    it('STATUS-POLL-1 poll[options][] are the options of the Poll, in order', { needs: { poll } }, ({ poll: { pollStatus } }) => {
      const status = madeStatus(pollStatus);
      check(typeof status.poll === 'object' && status.poll !== null, 'a Poll in poll', `poll ${JSON.stringify(status.poll)}`, pollStatus.exchange);
      expectEqual((status.poll as Poll).options?.map((o) => o.title), POLL.options, 'poll.options titles', pollStatus.exchange);
    });

    it('STATUS-POLL-2 poll[expires_in] is the seconds the poll stays open: expires_at is created_at plus expires_in', { needs: { poll } }, ({ poll: { pollStatus } }) => {
      const open = (Date.parse(pollIn(pollStatus).expires_at) - Date.parse(madeStatus(pollStatus).created_at)) / 1000;
      // Both times are the server's: only its own processing time lies between them.
      check(Math.abs(open - POLL_SECONDS) <= 60, `expires_at - created_at = ${POLL_SECONDS} s (within a minute)`, `${open} s`, pollStatus.exchange);
    });

    it('STATUS-POLL-3 poll[multiple] is reflected in Poll.multiple', { needs: { poll } }, ({ poll: { pollStatus } }) => {
      expectEqual(pollIn(pollStatus).multiple, POLL.multiple, 'poll.multiple', pollStatus.exchange);
    });

    it('STATUS-POLL-4 poll[hide_totals] is accepted: the status is created with its Poll', { needs: { poll } }, ({ poll: { pollStatus, withHiddenTotals } }) => {
      pollIn(pollStatus);
      const exchange = withHiddenTotals.exchange as Exchange;
      const body = createdObject(exchange);
      check(typeof body?.id === 'string', 'the status created (2xx with an id)', statusLine(exchange), exchange);
      check(typeof body?.poll === 'object' && body.poll !== null, 'the status created with its Poll', `poll ${JSON.stringify(body?.poll)}`, exchange);
    });

    // The poll row of STATUS-CREATE-4, whose check in Statuses judges a status of each visibility without a poll: a
    // server may give statuses with polls a visibility of its own. The status with media only, asked unlisted as the
    // poll is, is the control: where it did not keep unlisted either, visibility is ignored whatever the status
    // carries, which that check fails (one deviation, one failure).
    it('STATUS-CREATE-4 visibility is reflected in a status created with a poll', { needs: { poll }, uses: { mediaStatus } }, ({ poll: { pollStatus }, mediaStatus }, context) => {
      // Its clause came before polls did: the check waits for their release (STATUS-POLL-1's).
      since(context, config, POLLS_RELEASE);
      const asked = pollStatusParams(false).visibility;
      const control = mediaStatus.ok ? mediaStatus.value.exchange : undefined;
      const kept = control && (createdObject(control) as Status | undefined)?.visibility;
      if (kept !== undefined && kept !== asked) block(causeOf('STATUS-CREATE-4', `a status created ${asked} without a poll answered visibility ${JSON.stringify(kept)}`, control));
      expectEqual(madeStatus(pollStatus).visibility, asked, 'visibility of the status created with a poll', pollStatus.exchange);
    });

    it(
      'STATUS-EFFECT-1 poll[hide_totals] hides the vote counts of an open poll from another account',
      { requires: [byAnotherAccount], needs: { pollReadByOther } },
      ({ pollReadByOther: { read } }) => {
        const shown = pollReadBy(read);
        // An hour's poll that ended already has its poll[expires_in] misread: its counts may show.
        if (shown.expired === true) block(causeOf('STATUS-POLL-2', `a poll of ${POLL_SECONDS} s read as expired within the run`, read));
        const counts = shown.options.map((option) => option.votes_count);
        check(counts.every((count) => count === null || count === undefined), 'no votes_count of an option shown (null or absent) until the poll ends', `votes_count ${JSON.stringify(counts)}`, read);
      },
    );

    it(
      "STATUS-EFFECT-3 another account's later read of a poll shows its options and multiple as created",
      { requires: [byAnotherAccount], needs: { pollReadByOther } },
      ({ pollReadByOther: { created, read } }) => {
        // Against what the creation answered: an answer that did not keep them is STATUS-POLL-1's and STATUS-POLL-3's.
        const asCreated = (createdObject(created) as PollStatus | undefined)?.poll;
        const shown = pollReadBy(read);
        expectEqual(pollOf({ poll: shown } as PollStatus), asCreated && pollOf({ poll: asCreated } as PollStatus), 'poll options and multiple, read by another account', read);
      },
    );

    it(
      "STATUS-EFFECT-4 another account's later read of a poll shows the expires_at it was created with",
      { requires: [byAnotherAccount], needs: { pollReadByOther } },
      ({ pollReadByOther: { created, read } }) => {
        const shown = pollReadBy(read).expires_at;
        // Against what the creation answered: an answer without its poll is STATUS-POLL-1's, one without a time in
        // expires_at, or another one, STATUS-POLL-2's.
        const createdPoll = (createdObject(created) as PollStatus | undefined)?.poll;
        if (typeof createdPoll !== 'object' || createdPoll === null) block(causeOf('STATUS-POLL-1', `a status created with poll[options][] answered poll ${JSON.stringify(createdPoll)}`, created));
        const asCreated = createdPoll.expires_at;
        const createdAt = typeof asCreated === 'string' ? Date.parse(asCreated) : NaN;
        if (Number.isNaN(createdAt)) block(causeOf('STATUS-POLL-2', `a poll created with poll[expires_in] answered expires_at ${JSON.stringify(asCreated)}`, created));
        // A second either way: a server may keep the time to the second and answer the creation to the millisecond.
        const apart = typeof shown === 'string' ? Math.abs(Date.parse(shown) - createdAt) : NaN;
        check(apart <= 1000, `expires_at ${asCreated}, as the creation answered (within a second)`, `expires_at ${JSON.stringify(shown)}`, read);
      },
    );

    it.runWide('RESOURCE-POLL-1', { needs: { poll } }, ({ poll: { pollStatus } }) => (pollStatus.ok ? undefined : pollStatus.cause));

    it('STATUS-POLL-5 a poll without poll[expires_in] is refused (any 4xx)', { needs: { poll, withoutExpiry } }, ({ poll: { pollStatus }, withoutExpiry }) => {
      acceptedWithout(pollStatus, 'STATUS-POLL-1', 'the poll with poll[expires_in]');
      expectRefusal(withoutExpiry);
    });

    // Its attachment first: an upload that failed blocks it before the poll's control.
    it('STATUS-POLL-6 a poll together with media_ids is refused (any 4xx)', { needs: { pollWithMedia, poll } }, ({ pollWithMedia, poll: { pollStatus } }) => {
      acceptedWithout(pollStatus, 'STATUS-POLL-1', 'the poll without media_ids');
      expectRefusal(pollWithMedia);
    });

    it('WIRE-FORM-1 form parameters with [] and bracket names (poll[options][]) are understood', { needs: { poll } }, ({ poll: { pollStatus } }) => {
      const notUnderstood = formNotUnderstood();
      if (notUnderstood?.clause === 'WIRE-FORM-2') block(causeOf('WIRE-FORM-2', 'a form-encoded creation was not understood, its JSON equivalent was', notUnderstood.exchange));
      if (notUnderstood?.clause === 'WIRE-FORM-1') {
        fail('poll[options][] understood as the poll options', 'the status was made without its poll; the same parameters as JSON made it', notUnderstood.exchange);
      }
      // Understood is every option arrived; their order is STATUS-POLL-1's.
      const sorted = (titles: readonly string[] | undefined) => (titles ? [...titles].sort() : titles);
      expectEqual(sorted(pollIn(pollStatus).options?.map((o) => o.title)), sorted(POLL.options), 'poll options sent as poll[options][], in any order', pollStatus.exchange);
    });
  });

  section('scheduled_at', () => {
    it(
      'STATUS-SCHEDULED-1 scheduled_at at least 5 minutes ahead answers a ScheduledStatus for that time',
      { needs: { scheduled, plain: plainBesideScheduling } },
      ({ scheduled: { exchange, at }, plain }) => {
        // A scheduling refused means something only where a plain creation is accepted, which the plain one tells.
        if (plain) need(plain);
        // A Status published at once is not observed as a ScheduledStatus: that is this clause's failure, not the resource's.
        check(isScheduled(createdObject(exchange)), 'a ScheduledStatus (scheduled_at and params)', statusLine(exchange), exchange);
        const body = expectOk<ScheduledStatus>(exchange, 'ScheduledStatus');
        check(Date.parse(body.scheduled_at) === at.getTime(), `scheduled_at ${at.toISOString()}`, `scheduled_at ${body.scheduled_at}`, exchange);
      },
    );

    it('RESOURCE-SCHEDULED-1 a ScheduledStatus has id, scheduled_at, params and media_attachments', { needs: { scheduled } }, ({ scheduled: { exchange } }) => {
      scheduledStatus(exchange);
      expectNoMismatch('RESOURCE-SCHEDULED-1');
    });

    it("STATUS-SCHEDULED-2 a ScheduledStatus's params echo the request: text and visibility as sent", { needs: { scheduled } }, ({ scheduled: { exchange } }) => {
      const { params } = scheduledStatus(exchange);
      expectEqual(params?.text, SCHEDULED_TEXT, 'params.text', exchange);
      expectEqual(params?.visibility, 'direct', 'params.visibility', exchange);
    });

    // A refusal needs no working scheduling: a server that ignores scheduled_at publishes what it must refuse.
    it('STATUS-SCHEDULED-3 scheduled_at less than 5 minutes ahead is refused (any 4xx)', { needs: { scheduled, tooSoon } }, ({ scheduled: { exchange }, tooSoon }) => {
      acceptedWithout(exchange, 'STATUS-SCHEDULED-1', 'the creation scheduled at least 5 minutes ahead');
      expectRefusal(tooSoon);
    });
  });

  section('delete and redraft', () => {
    /** The ids of a status's media, in an order of their own: the order of media_attachments is not shown. */
    const mediaSet = (status: PollStatus) => {
      const media = mediaOf(status);
      return Array.isArray(media) ? [...media].sort() : media;
    };

    // The DELETE answer of a status with media only is its source: its media to resend, and no text (an empty one,
    // null or none at all: the contract's "Status with text and media_attachments or poll" is read leniently there,
    // and the type of a text that is there is RESOURCE-STATUS-1's).
    it('STATUS-DELETE-5 DELETE of a status with media only answers its media_attachments; its text, where given, is empty', { needs: { mediaDeletion } }, ({ mediaDeletion: { original, exchange } }) => {
      const source = expectOk<Source>(exchange, 'Status', 200);
      expectEqual(mediaSet(source), mediaSet(original.status), 'ids of media_attachments', exchange);
      const { text } = source as { text?: unknown };
      check(text === undefined || text === null || text === '', 'text empty, null or absent: the status has no source text', `text ${JSON.stringify(text)}`, exchange);
    });

    it(
      "STATUS-REDRAFT-1 resending the DELETE answer's text, media ids and poll creates an equivalent status (property over generated texts)",
      { uses: { pollOriginal, pollRedraft, mediaOriginal, mediaRedraft } },
      (runs) => {
        // The property's runs, in its order: the poll with the generated text, the status with media only.
        const all = [[runs.pollOriginal, runs.pollRedraft], [runs.mediaOriginal, runs.mediaRedraft]] as const;
        // The runs whose originals lack what the equivalence needs are left out, not the others: a server that ignores
        // polls still has its media and text redrafts judged, and the check is blocked only where those held.
        const unjudged = all.flatMap(([original]) => (original.ok ? [] : [original.cause]))[0];
        const judged = all.flatMap(([original, redrafted]) => (original.ok ? [redrafted] : []));
        if (unjudged && judged.length === 0) block(unjudged);
        // Each run redrafts one of the statuses the checks made, each once; the first that fails or is blocked ends
        // the check, as a counterexample ends the property.
        for (const redrafted of judged) {
          if (!redrafted.ok) block(redrafted.cause);
          judgeRedraft(redrafted.value);
        }
        if (unjudged) block(unjudged);
      },
    );
  });
});

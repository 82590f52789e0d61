// The contract's "POST /api/v1/statuses parameters": Idempotency-Key, the parameters a creation needs and those
// it may not combine, polls, scheduled_at, and delete-and-redraft (resending what the DELETE answer gives back,
// as "Other operation parameters" says) as a property over generated texts. The contract does not show the code
// or body of a refused creation ("Error bodies for failed POST /api/v1/statuses calls: not shown"): a refusal is
// any 4xx, and each such check says so in its name. A refusal counts where the same request without the part it
// refuses was accepted (a server that refuses every creation refuses these too), not where the feature works. What
// a creation that should be refused made anyway is undone at once, so that no later check meets it; such a probe
// attaches only an attachment of its own, since a server may take a status' media with it.
// Every request is made once, at the start and side by side where the contract's order does not matter; the checks
// judge the answers. The statuses the checks need anyway are the redraft property's originals: the property
// deletes them (the deletion the cleanup would make), resends what the DELETE answered, and deletes the redraft.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { MEDIA_FIXTURES } from '../fixtures/media/index.ts';
import { actors, formNotUnderstood } from './support/act/actors.ts';
import { createdId, madeStep, type Attachment, type Created, type Status } from './support/act/created.ts';
import { createdObject, type Exchange } from './support/talk/http.ts';
import { type RootCause, answerOf, causeOf, failed, succeeded, type Step } from './support/act/steps.ts';
import { releaseAtLeast } from './support/talk/config.ts';
import type { FormParams } from './support/talk/form.ts';
import { block, controlled, need, since } from './support/judge/preconditions.ts';
import { observeResource } from './support/judge/resources.ts';
import { expectNoMismatch } from './support/judge/run-wide.ts';
import { now, settle, settleWindowMs } from './support/act/settle.ts';
import { check, expectEqual, expectOk, expectRefusal, fail, statusLine } from './support/judge/verify.ts';

const { config, a, b } = actors();
// The redrafts spend two deletions each: B makes every status here when configured, so that A's Deletion bucket
// (the one the other groups spend most, 30 per 30 minutes) keeps room, and the property deletes them as their owner.
const author = b ?? a;
const mention = author === a ? config.usernameA : config.usernameB;
// The releases that added the parameters (the contract's Versioning table).
const SCHEDULING = '2.7.0';
const POLLS = '2.8.0';
const SOURCE_ON_DELETE = '2.9.0';
// Poll bounds are not shown: an hour is inside every server's range, and the option counts stay at 2 or 3.
const POLL_SECONDS = 3600;

interface Poll {
  expires_at: string;
  multiple: boolean;
  options: { title: string }[];
}
type PollStatus = Status & { created_at: string; content?: string; poll: Poll | null; media_attachments: { id: string }[] };
interface ScheduledStatus {
  id: string;
  scheduled_at: string;
  params: { text?: string | null; visibility?: string | null } | null;
}
type Source = PollStatus & { text: string };
type Attached = { kind: 'none' } | { kind: 'media' } | { kind: 'poll'; options: string[]; multiple: boolean };

const mediaOf = (status: PollStatus) => (Array.isArray(status.media_attachments) ? status.media_attachments.map((m) => m.id) : status.media_attachments);

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

// The redraft property's runs, one per status the checks make anyway: both attachment kinds every time, on texts
// that have broken servers before, and a generated text on the Idempotency-Key submission.
const POLL: Attached & { kind: 'poll' } = { kind: 'poll', options: ['yes', 'no', 'maybe'], multiple: true };
const POLL_RUN: [string, Attached] = [`conformance redraft <b>bold</b> & ünïcødé 🐘 «quotes» 日本語 #conformance${mention ? ` @${mention}` : ''}`, POLL];
// A status with media only, created without a status parameter (STATUS-PARAMS-2): its DELETE answer has no text to
// resend (STATUS-DELETE-5), so its redraft sends media_ids[] alone, as it was made.
const MEDIA_RUN: [string, Attached] = ['', { kind: 'media' }];
// Generated from the run's seed (CONFORMANCE_SEED): the same seed, the same text, so that a verdict does not move between two runs.
const GENERATED_RUN: [string, Attached] = [fc.sample(texts(), { numRuns: 1, seed: config.seed })[0] as string, { kind: 'none' }];

/**
 * The status a creation made, also when it is not all that was asked (a visibility not kept does not matter to
 * the checks here; what they judge, they check themselves); a creation that made none blocks the check.
 */
function made(created: Step<Status>): PollStatus {
  return need(madeStep(created)) as PollStatus;
}

/**
 * A creation the server should refuse, malformed on purpose (so a server error to it is this check's, not
 * ERRORS-5XX-1's): what it makes anyway is undone at once (the ledger then meets a 404: undone).
 */
async function attemptRefused(params: FormParams): Promise<Exchange> {
  const exchange = await author.attemptStatus(params, { malformed: true });
  const body = createdObject(exchange);
  if (typeof body?.id === 'string') {
    // The contract shows no way to cancel a scheduled status: Mastodon's DELETE /api/v1/scheduled_statuses/:id.
    await author.delete('scheduled_at' in body ? `/api/v1/scheduled_statuses/${body.id}` : `/api/v1/statuses/${body.id}`);
  }
  return exchange;
}

describe('POST /api/v1/statuses parameters', () => {
  const submission = { status: GENERATED_RUN[0], visibility: 'unlisted' };
  // The first creation, so it carries a parameter without brackets besides its text and visibility (language): a
  // server that reads only some of a form is then told from one that misreads only its bracket names (WIRE-FORM-1).
  const pollStatusParams = (hideTotals: boolean): FormParams => ({
    status: POLL_RUN[0],
    visibility: 'unlisted',
    language: 'en',
    poll: { options: POLL.options, multiple: POLL.multiple, expires_in: POLL_SECONDS, ...(hideTotals ? { hide_totals: true } : {}) },
  });
  const scheduledText = 'conformance probe: a scheduled status, cancelled by the run';
  // Whole seconds, half an hour ahead: well past the 5 minutes, and equal after any rounding to the second.
  const at = new Date(Math.ceil((Date.now() + 30 * 60_000) / 1000) * 1000);
  const polls = releaseAtLeast(config.serverVersion, POLLS);
  const scheduling = releaseAtLeast(config.serverVersion, SCHEDULING);

  let first: Created<Status>;
  let again: Created<Status>;
  let other: Exchange;
  let withoutText: Exchange;
  let withHiddenTotals: Created<Status>;
  // The poll the poll checks judge: the one made with hide_totals, or, where that made none, one made without it.
  let pollStatus: Created<Status>;
  let withoutExpiry: Exchange;
  // The image attachment of the status with media only (and so of the media run of the redraft property: a deleted
  // status's media may be resent), and one of the poll with media's own: a server that accepts it loses its media when
  // the probe is undone. Both are the image of ordinary size MEDIA-UPLOAD-1 judges, which a server has no reason to refuse.
  let attachment: Step<Attachment>;
  let probeAttachment: Step<Attachment> = failed({ summary: `no attachment before release ${POLLS}` });
  let pollWithMedia: Exchange | undefined;
  let mediaStatus: Created<Status> | undefined;
  let scheduled: Exchange;
  let tooSoon: Exchange;

  /**
   * The positive control of a refusal: the same creation without the part refused was accepted (2xx), whatever it
   * made of the rest (that is its own check's). Else `clause`, whose check judges that creation, blocks.
   */
  function acceptedWithout(made: Step<unknown> | Exchange | undefined, clause: string, what: string): void {
    const exchange = made && 'method' in made ? made : made?.exchange;
    if (!exchange && made && 'ok' in made && !made.ok) block(made.cause);
    controlled(exchange && succeeded(exchange, exchange), clause, what);
  }

  /** The Idempotency-Key submissions: the first, the same again, and the same with another key. */
  async function submitFirst(key: Record<string, string>): Promise<void> {
    first = await author.createStatus(submission, { headers: key });
  }
  async function submitAgain(key: Record<string, string>): Promise<void> {
    if (!createdId(first.exchange as Exchange)) return;
    [again, other] = await Promise.all([
      author.createStatus(submission, { headers: key }),
      author.attemptStatus(submission, { headers: { 'Idempotency-Key': `conformance-${randomUUID()}` } }),
    ]);
    // The same status as the first is on the ledger already, once: the property deletes it.
    if (createdId(again.exchange as Exchange) === createdId(first.exchange as Exchange)) again.settle();
  }

  /** The poll checks' status, made with hide_totals: a server that refuses it leaves them a poll made without it. */
  async function makePoll(): Promise<void> {
    withHiddenTotals = await author.createStatus(pollStatusParams(true));
    pollStatus = createdId(withHiddenTotals.exchange as Exchange) ? withHiddenTotals : await author.createStatus(pollStatusParams(false));
  }

  /** The poll with media, with its own attachment: what a server makes of it is undone at once. */
  async function probePollWithMedia(upload: Promise<Step<Attachment>>): Promise<void> {
    probeAttachment = await upload;
    if (!probeAttachment.ok) return;
    const poll = { options: ['yes', 'no'], expires_in: POLL_SECONDS };
    pollWithMedia = await attemptRefused({ status: 'conformance probe: a poll with media', visibility: 'direct', media_ids: [probeAttachment.value.id], poll });
  }

  /** The status with media only, made as clients make one: media_ids[] and no status parameter at all (not an empty one). */
  async function attachMedia(upload: Promise<Step<Attachment>>): Promise<void> {
    attachment = await upload;
    if (attachment.ok) mediaStatus = await author.createStatus({ visibility: 'unlisted', media_ids: [attachment.value.id] });
  }

  /** The creation of the status with media only; an upload that failed blocks the check with its cause. */
  function mediaOnlyCreation(): Created<Status> {
    if (!attachment.ok) block(attachment.cause);
    return mediaStatus as Created<Status>;
  }

  /**
   * The status with media only, for the checks of what became of it, with the media it carries: an upload that failed
   * keeps its cause, a creation that made no status is STATUS-PARAMS-2's, a status made without its media MEDIA-ATTACH-1's.
   */
  function mediaOnlyStatus(): Step<PollStatus> {
    if (!attachment.ok) return failed(attachment.cause);
    const created = mediaStatus as Created<Status>;
    const step = madeStep(created);
    if (!step.ok) return failed(causeOf('STATUS-PARAMS-2', `a creation with media_ids[] and no status answered ${answerOf(created.exchange as Exchange)}`, created.exchange));
    const media = mediaOf(step.value as PollStatus);
    if (!(Array.isArray(media) && media.length > 0)) {
      return failed(causeOf('MEDIA-ATTACH-1', `a status created with media_ids[] answered media_attachments ${JSON.stringify(media)}`, created.exchange));
    }
    return step as Step<PollStatus>;
  }

  /**
   * Each status's DELETE, made once, by the first check that needs its answer: STATUS-DELETE-5 judges the one of the
   * status with media only, which the redraft property then resends; the property deletes the others.
   */
  const deletions = new Map<string, Promise<Exchange>>();
  function deleteOnce(created: Created<Status>, status: Status): Promise<Exchange> {
    let deletion = deletions.get(status.id);
    if (!deletion) {
      deletion = author.delete(`/api/v1/statuses/${status.id}`).then((exchange) => {
        if (exchange.status === 200) created.settle();
        // The answer is a Status for RESOURCE-STATUS-1.
        const source = createdObject(exchange);
        if (exchange.status === 200 && source) observeResource('Status', source, exchange);
        return exchange;
      });
      deletions.set(status.id, deletion);
    }
    return deletion;
  }

  beforeAll(async () => {
    const key = { 'Idempotency-Key': `conformance-${randomUUID()}` };
    const upload = author.upload(MEDIA_FIXTURES.png);
    const probeUpload = polls ? author.upload(MEDIA_FIXTURES.png) : undefined;
    // The first creation shows how the server reads a creation (form data, or JSON: see Actor.createStatus); the
    // others follow it, so that each is read as its check means it. The poll goes first: the bracket names are the
    // most a form carries, and a JSON retry of a submission with an Idempotency-Key would only repeat its answer.
    if (polls) await makePoll();
    await Promise.all([
      submitFirst(key).then(() => submitAgain(key)),
      attemptRefused({ visibility: 'direct' }).then((exchange) => (withoutText = exchange)),
      polls && attemptRefused({ status: 'conformance probe: a poll that never closes', visibility: 'direct', poll: { options: ['yes', 'no'] } }).then((exchange) => (withoutExpiry = exchange)),
      attachMedia(upload),
      probeUpload && probePollWithMedia(probeUpload),
      // Direct: if the server published one anyway and the ledger could not reach it in time, nobody else sees it.
      scheduling && author.attemptStatus({ status: scheduledText, visibility: 'direct', scheduled_at: at.toISOString() }).then((exchange) => (scheduled = exchange)),
      scheduling && attemptRefused({ status: scheduledText, visibility: 'direct', scheduled_at: new Date(Date.now() + 60_000).toISOString() }).then((exchange) => (tooSoon = exchange)),
    ]);
  });

  describe('Idempotency-Key', () => {
    /** What a submission answered, in the terms of these checks: the id of the status it gave, or the answer. */
    const shown = (exchange: Exchange) => (createdId(exchange) ? `status ${createdId(exchange)}` : statusLine(exchange));

    // The status code of a creation is STATUS-CREATE-1's: these checks judge which status each submission gave.
    it('STATUS-IDEMPOTENCY-1 the same Idempotency-Key twice gives the same status, not a duplicate', () => {
      const { id } = made(first);
      const exchange = again.exchange as Exchange;
      check(createdId(exchange) === id, `the second submission gives status ${id}`, shown(exchange), exchange);
    });

    it('STATUS-IDEMPOTENCY-2 a different Idempotency-Key gives a new status', () => {
      const { id } = made(first);
      const otherId = createdId(other);
      check(otherId !== undefined && otherId !== id, `a new status, other than ${id}`, shown(other), other);
    });
  });

  it('STATUS-PARAMS-1 a creation with neither status nor media_ids is refused (any 4xx)', () => {
    acceptedWithout(first, 'STATUS-CREATE-1', 'a creation with status');
    expectRefusal(withoutText);
  });

  // Whether the status carries the media is MEDIA-ATTACH-1's; its status code, STATUS-CREATE-1's.
  it('STATUS-PARAMS-2 a creation with media_ids[] and no status parameter creates the status', () => {
    const created = mediaOnlyCreation();
    // A's and B's tokens hold the broad write scope: a refusal for its scope is ACCESS-BROAD-1's, not the creation's.
    if (!created.ok && created.cause.clause === 'ACCESS-BROAD-1') block(created.cause);
    const exchange = created.exchange as Exchange;
    check(createdId(exchange) !== undefined, 'the status created (2xx with an id)', statusLine(exchange), exchange);
  });

  describe('polls', () => {
    /** The Poll of the poll checks' status: they need one, and a status made without it blocks them. */
    const poll = (): Poll => {
      const status = made(pollStatus);
      if (typeof status.poll !== 'object' || status.poll === null) {
        block(causeOf('STATUS-POLL-1', `a status created with poll[options][] answered poll ${JSON.stringify(status.poll)}`, pollStatus.exchange));
      }
      return status.poll;
    };

    it('STATUS-POLL-1 poll[options][] are the options of the Poll, in order', (context) => {
      since(context, config, POLLS);
      const status = made(pollStatus);
      check(typeof status.poll === 'object' && status.poll !== null, 'a Poll in poll', `poll ${JSON.stringify(status.poll)}`, pollStatus.exchange);
      expectEqual((status.poll as Poll).options?.map((o) => o.title), POLL.options, 'poll.options titles', pollStatus.exchange);
    });

    it('STATUS-POLL-2 poll[expires_in] is the seconds the poll stays open: expires_at is created_at plus expires_in', (context) => {
      since(context, config, POLLS);
      const open = (Date.parse(poll().expires_at) - Date.parse(made(pollStatus).created_at)) / 1000;
      // Both times are the server's: only its own processing time lies between them.
      check(Math.abs(open - POLL_SECONDS) <= 60, `expires_at - created_at = ${POLL_SECONDS} s (within a minute)`, `${open} s`, pollStatus.exchange);
    });

    it('STATUS-POLL-3 poll[multiple] is reflected in Poll.multiple', (context) => {
      since(context, config, POLLS);
      expectEqual(poll().multiple, POLL.multiple, 'poll.multiple', pollStatus.exchange);
    });

    it('STATUS-POLL-4 poll[hide_totals] is accepted: the status is created with its Poll', (context) => {
      since(context, config, POLLS);
      poll();
      const exchange = withHiddenTotals.exchange as Exchange;
      const body = createdObject(exchange);
      check(typeof body?.id === 'string', 'the status created (2xx with an id)', statusLine(exchange), exchange);
      check(typeof body?.poll === 'object' && body.poll !== null, 'the status created with its Poll', `poll ${JSON.stringify(body?.poll)}`, exchange);
    });

    it('RESOURCE-POLL-1 a Poll has the fields and types of the contract', (context) => {
      since(context, config, POLLS);
      expectNoMismatch('RESOURCE-POLL-1', pollStatus.ok ? undefined : pollStatus.cause);
    });

    it('STATUS-POLL-5 a poll without poll[expires_in] is refused (any 4xx)', (context) => {
      since(context, config, POLLS);
      acceptedWithout(pollStatus, 'STATUS-POLL-1', 'the poll with poll[expires_in]');
      expectRefusal(withoutExpiry);
    });

    it('STATUS-POLL-6 a poll together with media_ids is refused (any 4xx)', (context) => {
      since(context, config, POLLS);
      need(probeAttachment);
      acceptedWithout(pollStatus, 'STATUS-POLL-1', 'the poll without media_ids');
      expectRefusal(pollWithMedia as Exchange);
    });

    it('WIRE-FORM-1 form parameters with [] and bracket names (poll[options][]) are understood', (context) => {
      since(context, config, POLLS);
      const notUnderstood = formNotUnderstood();
      if (notUnderstood?.clause === 'WIRE-FORM-2') block(causeOf('WIRE-FORM-2', 'a form-encoded creation was not understood, its JSON equivalent was', notUnderstood.exchange));
      if (notUnderstood?.clause === 'WIRE-FORM-1') {
        fail('poll[options][] understood as the poll options', 'the status was made without its poll; the same parameters as JSON made it', notUnderstood.exchange);
      }
      // Understood is every option arrived; their order is STATUS-POLL-1's.
      const sorted = (titles: readonly string[] | undefined) => (titles ? [...titles].sort() : titles);
      expectEqual(sorted(poll().options?.map((o) => o.title)), sorted(POLL.options), 'poll options sent as poll[options][], in any order', pollStatus.exchange);
    });
  });

  describe('scheduled_at', () => {
    const isScheduled = (body: Record<string, unknown> | undefined): body is Record<string, unknown> & ScheduledStatus => body !== undefined && 'scheduled_at' in body && 'params' in body;

    /** The ScheduledStatus the creation answered: the other checks here need one, and an answer without it blocks them. */
    function scheduledStatus(): ScheduledStatus {
      const body = createdObject(scheduled);
      if (!isScheduled(body)) block(causeOf('STATUS-SCHEDULED-1', `a creation with scheduled_at answered ${answerOf(scheduled)}${body ? ', not a ScheduledStatus' : ''}`, scheduled));
      return body;
    }

    it('STATUS-SCHEDULED-1 scheduled_at at least 5 minutes ahead answers a ScheduledStatus for that time', async (context) => {
      since(context, config, SCHEDULING);
      // A scheduling refused means something only where a plain creation is accepted: one is made to tell.
      if (!createdObject(scheduled)) need(await author.createStatus({ status: 'conformance probe: a plain creation beside a refused scheduling', visibility: 'direct' }));
      // A Status published at once is not observed as a ScheduledStatus: that is this clause's failure, not the resource's.
      check(isScheduled(createdObject(scheduled)), 'a ScheduledStatus (scheduled_at and params)', statusLine(scheduled), scheduled);
      const body = expectOk<ScheduledStatus>(scheduled, 'ScheduledStatus');
      check(Date.parse(body.scheduled_at) === at.getTime(), `scheduled_at ${at.toISOString()}`, `scheduled_at ${body.scheduled_at}`, scheduled);
    });

    it('RESOURCE-SCHEDULED-1 a ScheduledStatus has id, scheduled_at, params and media_attachments', (context) => {
      since(context, config, SCHEDULING);
      scheduledStatus();
      expectNoMismatch('RESOURCE-SCHEDULED-1');
    });

    it("STATUS-SCHEDULED-2 a ScheduledStatus's params echo the request: text and visibility as sent", (context) => {
      since(context, config, SCHEDULING);
      const { params } = scheduledStatus();
      expectEqual(params?.text, scheduledText, 'params.text', scheduled);
      expectEqual(params?.visibility, 'direct', 'params.visibility', scheduled);
    });

    // A refusal needs no working scheduling: a server that ignores scheduled_at publishes what it must refuse.
    it('STATUS-SCHEDULED-3 scheduled_at less than 5 minutes ahead is refused (any 4xx)', (context) => {
      since(context, config, SCHEDULING);
      acceptedWithout(scheduled, 'STATUS-SCHEDULED-1', 'the creation scheduled at least 5 minutes ahead');
      expectRefusal(tooSoon);
    });
  });

  describe('delete and redraft', () => {
    const pollOf = (status: PollStatus) => status.poll && { options: status.poll.options?.map((o) => o.title), multiple: status.poll.multiple };
    /** The ids of a status's media, in an order of their own: the order of media_attachments is not shown. */
    const mediaSet = (status: PollStatus) => {
      const media = mediaOf(status);
      return Array.isArray(media) ? [...media].sort() : media;
    };
    /** The source text a DELETE answer gives back: none (empty, null or absent) for a status with media only. */
    const sourceTextOf = (source: Source) => (typeof source.text === 'string' ? source.text : '');

    // The DELETE answer of a status with media only is its source: its media to resend, and no text (an empty one,
    // null or none at all: the contract's "Status with text and media_attachments or poll" is read leniently there,
    // and the type of a text that is there is RESOURCE-STATUS-1's).
    it('STATUS-DELETE-5 DELETE of a status with media only answers its media_attachments; its text, where given, is empty', async (context) => {
      since(context, config, SOURCE_ON_DELETE);
      const original = need(mediaOnlyStatus());
      const exchange = await deleteOnce(mediaStatus as Created<Status>, original);
      const source = expectOk<Source>(exchange, 'Status', 200);
      expectEqual(mediaSet(source), mediaSet(original), 'ids of media_attachments', exchange);
      const { text } = source as { text?: unknown };
      check(text === undefined || text === null || text === '', 'text empty, null or absent: the status has no source text', `text ${JSON.stringify(text)}`, exchange);
    });

    /**
     * The DELETE answer of a status to redraft: since 2.9.0 it carries the source text, and the media or poll, to
     * resend. An answer without what there is to resend leaves nothing to redraft: the check is blocked, by
     * STATUS-DELETE-1 for a status with text, by STATUS-DELETE-5 for one with media only (whose text may be none).
     */
    async function deleteForRedraft(created: Created<Status>, status: Status, withMediaOnly: boolean): Promise<{ source: Source; exchange: Exchange }> {
      const exchange = await deleteOnce(created, status);
      const source = createdObject(exchange);
      const clause = withMediaOnly ? 'STATUS-DELETE-5' : 'STATUS-DELETE-1';
      if (exchange.status !== 200 || !source) block(causeOf(clause, `DELETE of the caller's own status answered ${answerOf(exchange)}`, exchange));
      if (withMediaOnly) {
        const media = mediaOf(source as PollStatus);
        if (!(Array.isArray(media) && media.length > 0)) block(causeOf(clause, `DELETE of the caller's own status with media only answered media_attachments ${JSON.stringify(media)}`, exchange));
        return { source: source as Source, exchange };
      }
      // A text that is there but no string is the Status type's (text null for a status with text).
      if ('text' in source && typeof source.text !== 'string') {
        block(causeOf('RESOURCE-STATUS-1', `DELETE of the caller's own status answered text ${JSON.stringify(source.text)}`, exchange));
      }
      if (typeof source.text !== 'string') block(causeOf(clause, "DELETE of the caller's own status answered no text", exchange));
      return { source: source as Source, exchange };
    }

    /** A redraft refused while the original still reads after its DELETE (STATUS-DELETE-2) cannot be judged: its media are still attached. */
    async function requireDeleted(status: Status): Promise<void> {
      // A server may delete in the background: the read waits for it within the settle window.
      const { exchange: read } = await settle(() => author.get(`/api/v1/statuses/${status.id}`), (answer) => answer.status !== 200, now());
      if (read.status === 200) block(causeOf('STATUS-DELETE-2', `a status still reads after its DELETE answered 200 (settle window ${settleWindowMs()} ms)`, read));
    }

    /**
     * What the contract says to resend: text as status, media ids, poll options and multiple with a fresh expires_in
     * and hide_totals. No text is sent as no status parameter, as the status with media only was made.
     */
    function redraftOf(source: Source): FormParams {
      const text = sourceTextOf(source);
      const params: FormParams = { ...(text !== '' ? { status: text } : {}), visibility: 'unlisted' };
      const mediaIds = mediaOf(source);
      if (Array.isArray(mediaIds) && mediaIds.length > 0) params.media_ids = mediaIds;
      const poll = pollOf(source);
      if (poll) params.poll = { ...poll, expires_in: POLL_SECONDS, hide_totals: false };
      return params;
    }

    // The originals and their DELETE answers are preparation (what fails blocks the check); the redraft is the clause.
    it("STATUS-REDRAFT-1 resending the DELETE answer's text, media ids and poll creates an equivalent status (property over generated texts)", async (context) => {
      since(context, config, SOURCE_ON_DELETE);
      const originals = new Map<string, () => Created<Status> | undefined>([
        [POLL_RUN[0], () => pollStatus],
        [MEDIA_RUN[0], () => mediaStatus],
        [GENERATED_RUN[0], () => first],
      ]);
      /** Why a run cannot be judged: its original lacks what the equivalence needs (its poll as asked, its media). */
      const unjudgeable = ([text, attached]: [string, Attached]): RootCause | undefined => {
        if (attached.kind === 'media') {
          const step = mediaOnlyStatus();
          return step.ok ? undefined : step.cause;
        }
        const original = originals.get(text)?.();
        if (!original) return { summary: 'the status to redraft was not made' };
        const step = madeStep(original);
        if (!step.ok) return step.cause;
        const before = step.value as PollStatus;
        // Options the server reordered would be resent reordered: the equivalence holds only for a poll made as asked.
        const options = pollOf(before)?.options;
        if (attached.kind === 'poll' && JSON.stringify(options) !== JSON.stringify(attached.options)) {
          return causeOf('STATUS-POLL-1', `a poll created with options ${JSON.stringify(attached.options)} answered options ${JSON.stringify(options)}`, original.exchange);
        }
        return undefined;
      };
      // The runs whose originals lack what they need are left out, not the others: a server that ignores polls still
      // has its media and text redrafts judged, and the check is blocked only where those held.
      const all = [GENERATED_RUN, POLL_RUN, MEDIA_RUN];
      const causes = all.map(unjudgeable);
      const runs = all.filter((_, i) => !causes[i]);
      const unjudged = causes.find((cause) => cause !== undefined);
      if (runs.length === 0) block(unjudged as RootCause);
      const property = fc.asyncProperty(fc.constantFrom(...runs), async ([text, attached]) => {
        const original = originals.get(text)?.() as Created<Status>;
        const before = made(original);
        const withMediaOnly = attached.kind === 'media';
        const { source } = await deleteForRedraft(original, before, withMediaOnly);
        const redraft = await author.createStatus(redraftOf(source));
        // A redraft made without some of what was resent is judged below, field by field.
        const redrafted = madeStep(redraft);
        if (!redrafted.ok) {
          await requireDeleted(before);
          fail('the redraft created: a Status with what was resent', redrafted.cause.summary, redraft.exchange);
        }
        const after = redrafted.value as PollStatus;
        const { source: redraftSource, exchange } = await deleteForRedraft(redraft, after, withMediaOnly);
        expectEqual(sourceTextOf(redraftSource), sourceTextOf(source), 'text of the redraft', exchange);
        expectEqual(after.content, before.content, 'content of the redraft', redraft.exchange);
        expectEqual(mediaOf(after), mediaOf(before), 'media_attachments ids of the redraft', redraft.exchange);
        expectEqual(pollOf(after), pollOf(before), 'poll options and multiple of the redraft', redraft.exchange);
      });
      // Each run redrafts one of the statuses made above, each once: the runs are those examples. No shrinking:
      // each run costs requests.
      // A check that fails or is blocked inside the property ends it: its error is the check's outcome.
      const details = await fc.check(property, { numRuns: runs.length, endOnFailure: true, examples: runs.map((run) => [run]) });
      if (details.failed) throw details.errorInstance instanceof Error ? details.errorInstance : new Error(fc.defaultReportMessage(details));
      if (unjudged) block(unjudged);
    });
  });
});

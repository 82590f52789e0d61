// The contract's "POST /api/v1/statuses parameters": Idempotency-Key, the parameters a creation needs and those
// it may not combine, polls, scheduled_at, and delete-and-redraft (resending what the DELETE answer gives back,
// as "Other operation parameters" says) as a property over generated texts. The contract does not show the code
// or body of a refused creation ("Error bodies for failed POST /api/v1/statuses calls: not shown"): a refusal is
// any 4xx, and each such check says so in its name. What a creation that should be refused made anyway is undone
// at once, so that no later check meets it (the shared attachment stays free to attach).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { MEDIA_FIXTURES } from '../fixtures/media/index.ts';
import { actors, createdId, createdObject, type Attachment, type Created, type Status } from './support/actors.ts';
import { releaseAtLeast } from './support/config.ts';
import type { FormParams } from './support/form.ts';
import type { Exchange } from './support/http.ts';
import { answerOf, block, causeOf, need, since, type Step } from './support/preconditions.ts';
import { expectNoMismatch } from './support/run-wide.ts';
import { check, expectEqual, expectOk, expectRefusal, fail, statusLine } from './support/verify.ts';

const { config, a, b } = actors();
// The redrafts spend two deletions each: B makes them when configured, so that A's Deletion bucket (the one the other
// groups spend most, 30 per 30 minutes) keeps room for them.
const author = b ?? a;
// The releases that added the parameters (the contract's Versioning table).
const SCHEDULING = '2.7.0';
const POLLS = '2.8.0';
const SOURCE_ON_DELETE = '2.9.0';
// Poll bounds are not shown: an hour is inside every server's range, and the option counts stay at 2 or 3.
const POLL_SECONDS = 3600;
// Each run of the delete-and-redraft property costs two creations and two deletions (the Deletion bucket).
const REDRAFT_RUNS = 3;

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

/**
 * The status a creation made, also when it is not all that was asked (a visibility not kept does not matter to
 * the checks here; what they judge, they check themselves); a creation that made none blocks the check.
 */
function made(created: Step<Status>): PollStatus {
  const body = created.exchange ? createdObject(created.exchange) : undefined;
  if (typeof body?.id !== 'string' && !created.ok) block(created.cause);
  return body as PollStatus;
}

/**
 * A creation the server should refuse, malformed on purpose (so a server error to it is this check's, not
 * ERRORS-5XX-1's): what it makes anyway is undone at once (the ledger then meets a 404: undone).
 */
async function attemptRefused(params: FormParams): Promise<Exchange> {
  const exchange = await a.attemptStatus(params, { malformed: true });
  const body = createdObject(exchange);
  if (typeof body?.id === 'string') {
    // The contract shows no way to cancel a scheduled status: Mastodon's DELETE /api/v1/scheduled_statuses/:id.
    await a.delete('scheduled_at' in body ? `/api/v1/scheduled_statuses/${body.id}` : `/api/v1/statuses/${body.id}`);
  }
  return exchange;
}

/** One image attachment of A's serves every check that needs media ids: a deleted status's media may be resent. */
let attachment: Promise<Step<Attachment>> | undefined;
const sharedAttachment = () => (attachment ??= a.upload(MEDIA_FIXTURES.png));

describe('POST /api/v1/statuses parameters', () => {
  describe('Idempotency-Key', () => {
    const params = { status: 'conformance probe: one submission, sent twice', visibility: 'unlisted' };
    let first: Created<Status>;
    let again: Exchange;
    let other: Exchange;

    beforeAll(async () => {
      const key = { 'Idempotency-Key': `conformance-${randomUUID()}` };
      first = await a.createStatus(params, { headers: key });
      if (!createdId(first.exchange as Exchange)) return;
      again = await a.attemptStatus(params, { headers: key });
      other = await a.attemptStatus(params, { headers: { 'Idempotency-Key': `conformance-${randomUUID()}` } });
    });

    /** What a submission answered, in the terms of these checks: the id of the status it gave, or the answer. */
    const shown = (exchange: Exchange) => (createdId(exchange) ? `status ${createdId(exchange)}` : statusLine(exchange));

    // The status code of a creation is STATUS-CREATE-1's: these checks judge which status each submission gave.
    it('STATUS-IDEMPOTENCY-1 the same Idempotency-Key twice gives the same status, not a duplicate', () => {
      const { id } = made(first);
      check(createdId(again) === id, `the second submission gives status ${id}`, shown(again), again);
    });

    it('STATUS-IDEMPOTENCY-2 a different Idempotency-Key gives a new status', () => {
      const { id } = made(first);
      const otherId = createdId(other);
      check(otherId !== undefined && otherId !== id, `a new status, other than ${id}`, shown(other), other);
    });
  });

  it('STATUS-PARAMS-1 a creation with neither status nor media_ids is refused (any 4xx)', async () => {
    expectRefusal(await attemptRefused({ visibility: 'direct' }));
  });

  describe('polls', () => {
    const options = ['first option', 'second option', 'third option'];
    let created: Created<Status>;

    beforeAll(async () => {
      if (!releaseAtLeast(config.serverVersion, POLLS)) return;
      created = await a.createStatus({ status: 'conformance probe: a poll', visibility: 'unlisted', poll: { options, expires_in: POLL_SECONDS, multiple: true } });
    });

    /** The Poll of the created status: the other poll checks need one, and a status made without it blocks them. */
    const poll = (): Poll => {
      const status = made(created);
      if (typeof status.poll !== 'object' || status.poll === null) {
        block(causeOf('STATUS-POLL-1', `a status created with poll[options][] answered poll ${JSON.stringify(status.poll)}`, created.exchange));
      }
      return status.poll;
    };

    it('STATUS-POLL-1 poll[options][] are the options of the Poll, in order', (context) => {
      since(context, config, POLLS);
      const status = made(created);
      check(typeof status.poll === 'object' && status.poll !== null, 'a Poll in poll', `poll ${JSON.stringify(status.poll)}`, created.exchange);
      expectEqual((status.poll as Poll).options?.map((o) => o.title), options, 'poll.options titles', created.exchange);
    });

    it('STATUS-POLL-2 poll[expires_in] is the seconds the poll stays open: expires_at is created_at plus expires_in', (context) => {
      since(context, config, POLLS);
      const open = (Date.parse(poll().expires_at) - Date.parse(made(created).created_at)) / 1000;
      // Both times are the server's: only its own processing time lies between them.
      check(Math.abs(open - POLL_SECONDS) <= 60, `expires_at - created_at = ${POLL_SECONDS} s (within a minute)`, `${open} s`, created.exchange);
    });

    it('STATUS-POLL-3 poll[multiple] is reflected in Poll.multiple', (context) => {
      since(context, config, POLLS);
      expectEqual(poll().multiple, true, 'poll.multiple', created.exchange);
    });

    // A creation of its own: a server that refuses hide_totals leaves the other poll checks something to judge.
    it('STATUS-POLL-4 poll[hide_totals] is accepted: the status is created with its Poll', async (context) => {
      since(context, config, POLLS);
      poll();
      const exchange = await a.attemptStatus({ status: 'conformance probe: a poll with hidden totals', visibility: 'direct', poll: { options: ['yes', 'no'], expires_in: POLL_SECONDS, hide_totals: true } });
      const body = createdObject(exchange);
      check(typeof body?.id === 'string', 'the status created (2xx with an id)', statusLine(exchange), exchange);
      check(typeof body?.poll === 'object' && body.poll !== null, 'the status created with its Poll', `poll ${JSON.stringify(body?.poll)}`, exchange);
    });

    it('RESOURCE-POLL-1 a Poll has the fields and types of the contract', (context) => {
      since(context, config, POLLS);
      expectNoMismatch('RESOURCE-POLL-1', created.ok ? undefined : created.cause);
    });

    it('STATUS-POLL-5 a poll without poll[expires_in] is refused (any 4xx)', async (context) => {
      since(context, config, POLLS);
      poll();
      expectRefusal(await attemptRefused({ status: 'conformance probe: a poll that never closes', visibility: 'direct', poll: { options: ['yes', 'no'] } }));
    });

    it('STATUS-POLL-6 a poll together with media_ids is refused (any 4xx)', async (context) => {
      since(context, config, POLLS);
      poll();
      const media = need(await sharedAttachment());
      const params = { status: 'conformance probe: a poll with media', visibility: 'direct', media_ids: [media.id], poll: { options: ['yes', 'no'], expires_in: POLL_SECONDS } };
      expectRefusal(await attemptRefused(params));
    });
  });

  describe('scheduled_at', () => {
    const text = 'conformance probe: a scheduled status, cancelled by the run';
    // Whole seconds, half an hour ahead: well past the 5 minutes, and equal after any rounding to the second.
    const at = new Date(Math.ceil((Date.now() + 30 * 60_000) / 1000) * 1000);
    let scheduled: Exchange;

    beforeAll(async () => {
      if (!releaseAtLeast(config.serverVersion, SCHEDULING)) return;
      // Direct: if the server published one anyway and the ledger could not reach it in time, nobody else sees it.
      scheduled = await a.attemptStatus({ status: text, visibility: 'direct', scheduled_at: at.toISOString() });
    });

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
      if (!createdObject(scheduled)) need(await a.createStatus({ status: 'conformance probe: a plain creation beside a refused scheduling', visibility: 'direct' }));
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
      expectEqual(params?.text, text, 'params.text', scheduled);
      expectEqual(params?.visibility, 'direct', 'params.visibility', scheduled);
    });

    // Refusing a time too soon means something only where a time far enough ahead schedules.
    it('STATUS-SCHEDULED-3 scheduled_at less than 5 minutes ahead is refused (any 4xx)', async (context) => {
      since(context, config, SCHEDULING);
      scheduledStatus();
      const inOneMinute = new Date(Date.now() + 60_000);
      expectRefusal(await attemptRefused({ status: text, visibility: 'direct', scheduled_at: inOneMinute.toISOString() }));
    });
  });

  describe('delete and redraft', () => {
    type Attached = { kind: 'none' } | { kind: 'media' } | { kind: 'poll'; options: string[]; multiple: boolean };

    /** Texts of every kind a client sends: unicode, HTML-looking text, mentions of the suite's own account, hashtags, long text. */
    function texts(mention: string | undefined): fc.Arbitrary<string> {
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

    const attachments: fc.Arbitrary<Attached> = fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.constant({ kind: 'media' as const }),
      fc.record({
        kind: fc.constant('poll' as const),
        options: fc.uniqueArray(fc.stringMatching(/^[a-z]{1,12}$/), { minLength: 2, maxLength: 3 }),
        multiple: fc.boolean(),
      }),
    );

    /**
     * The DELETE answer of a status to redraft: since 2.9.0 it carries the source text, and the media or poll, to
     * resend. An answer without the text (STATUS-DELETE-1) leaves nothing to resend: the check is blocked.
     */
    async function deleteForRedraft(created: Created<Status>, status: Status): Promise<{ source: Source; exchange: Exchange }> {
      const exchange = await author.delete(`/api/v1/statuses/${status.id}`);
      if (exchange.status === 200) created.settle();
      const source = createdObject(exchange);
      if (exchange.status !== 200 || typeof source?.text !== 'string') {
        block(causeOf('STATUS-DELETE-1', `DELETE of the caller's own status answered ${answerOf(exchange)}${source ? ` with text ${JSON.stringify(source.text)}` : ''}`, exchange));
      }
      return { source: source as Source, exchange };
    }

    /** A redraft refused while the original still reads after its DELETE (STATUS-DELETE-2) cannot be judged: its media are still attached. */
    async function requireDeleted(status: Status): Promise<void> {
      const read = await author.get(`/api/v1/statuses/${status.id}`);
      if (read.status === 200) block(causeOf('STATUS-DELETE-2', 'a status still reads after its DELETE answered 200', read));
    }

    const mediaOf = (status: PollStatus) => (Array.isArray(status.media_attachments) ? status.media_attachments.map((m) => m.id) : status.media_attachments);
    const pollOf = (status: PollStatus) => status.poll && { options: status.poll.options?.map((o) => o.title), multiple: status.poll.multiple };

    /** What the contract says to resend: text as status, media ids, poll options and multiple with a fresh expires_in and hide_totals. */
    function redraftOf(source: Source): FormParams {
      const params: FormParams = { status: source.text, visibility: 'unlisted' };
      const mediaIds = mediaOf(source);
      if (Array.isArray(mediaIds) && mediaIds.length > 0) params.media_ids = mediaIds;
      const poll = pollOf(source);
      if (poll) params.poll = { ...poll, expires_in: POLL_SECONDS, hide_totals: false };
      return params;
    }

    // The originals and their DELETE answers are preparation (what fails blocks the check); the redraft is the clause.
    it("STATUS-REDRAFT-1 resending the DELETE answer's text, media ids and poll creates an equivalent status (property over generated texts)", async (context) => {
      since(context, config, SOURCE_ON_DELETE);
      // An attachment of the author's own: only the caller's attachments may be attached.
      const media = need(await (author === a ? sharedAttachment() : author.upload(MEDIA_FIXTURES.png)));
      const paramsOf = (text: string, attached: Attached): FormParams => ({
        status: text,
        visibility: 'unlisted',
        ...(attached.kind === 'media' ? { media_ids: [media.id] } : {}),
        ...(attached.kind === 'poll' ? { poll: { options: attached.options, multiple: attached.multiple, expires_in: POLL_SECONDS } } : {}),
      });
      const mention = author === a ? config.usernameA : config.usernameB;
      const property = fc.asyncProperty(texts(mention), attachments, async (text, attached) => {
        const original = await author.createStatus(paramsOf(text, attached));
        const before = need(original) as PollStatus;
        const options = pollOf(before)?.options;
        // Options the server reordered would be resent reordered: the equivalence holds only for a poll made as asked.
        if (attached.kind === 'poll' && JSON.stringify(options) !== JSON.stringify(attached.options)) {
          block(causeOf('STATUS-POLL-1', `a poll created with options ${JSON.stringify(attached.options)} answered options ${JSON.stringify(options)}`, original.exchange));
        }
        const { source } = await deleteForRedraft(original, before);
        const redraft = await author.createStatus(redraftOf(source));
        if (!redraft.ok) {
          await requireDeleted(before);
          fail('the redraft created: a Status with what was resent', redraft.cause.summary, redraft.exchange);
        }
        const after = redraft.value as PollStatus;
        const { source: redraftSource, exchange } = await deleteForRedraft(redraft, after);
        expectEqual(redraftSource.text, source.text, 'text of the redraft', exchange);
        expectEqual(after.content, before.content, 'content of the redraft', redraft.exchange);
        expectEqual(mediaOf(after), mediaOf(before), 'media_attachments ids of the redraft', redraft.exchange);
        expectEqual(pollOf(after), pollOf(before), 'poll options and multiple of the redraft', redraft.exchange);
      });
      // Both attachment kinds run every time; the other runs are generated. No shrinking: each run costs requests.
      const examples: [string, Attached][] = [
        [`conformance redraft <b>bold</b> & #conformance${mention ? ` @${mention}` : ''}`, { kind: 'poll', options: ['yes', 'no', 'maybe'], multiple: true }],
        ['conformance redraft ünïcødé 🐘 «quotes» 日本語 #redraft', { kind: 'media' }],
      ];
      // A check that fails or is blocked inside the property ends it: its error is the check's outcome.
      const details = await fc.check(property, { numRuns: REDRAFT_RUNS, endOnFailure: true, examples });
      if (details.failed) throw details.errorInstance instanceof Error ? details.errorInstance : new Error(fc.defaultReportMessage(details));
    });
  });
});

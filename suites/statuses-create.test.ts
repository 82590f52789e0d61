// The contract's "POST /api/v1/statuses parameters": Idempotency-Key, the parameters a creation needs and those
// it may not combine, polls, scheduled_at, and delete-and-redraft (resending what the DELETE answer gives back,
// as "Other operation parameters" says) as a property over generated texts. The contract does not show the code
// or body of a refused creation ("Error bodies for failed POST /api/v1/statuses calls: not shown"): a refusal is
// any 4xx, and each such check says so in its name.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, it } from 'vitest';
import { MEDIA_FIXTURES } from '../fixtures/media/index.ts';
import { actors, type Attachment, type Status } from './support/actors.ts';
import { remember } from './support/cleanup.ts';
import { releaseAtLeast } from './support/config.ts';
import type { FormParams } from './support/form.ts';
import { jsonOf, type Exchange, type RequestOptions } from './support/http.ts';
import { since } from './support/preconditions.ts';
import { check, expectEqual, expectJson, expectOk, expectRefusal, expectResource } from './support/verify.ts';

const { config, a } = actors();
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
  params: { text?: string | null; visibility?: string | null };
}

/** What the run made and put on the ledger, so that no answer puts the same object on it twice. */
const onLedger = new Set<string>();

/**
 * A creation the check judges, refusal included: whatever the server makes anyway goes on the ledger, a Status
 * to be deleted, a ScheduledStatus to be cancelled through Mastodon's DELETE /api/v1/scheduled_statuses/:id
 * (the contract shows no way to cancel one; best effort).
 */
async function attemptStatus(params: FormParams, options?: RequestOptions): Promise<Exchange> {
  const exchange = await a.post('/api/v1/statuses', params, options);
  const json = jsonOf(exchange);
  const made = exchange.status !== undefined && exchange.status < 300 && json.ok ? (json.value as Record<string, unknown> | null) : null;
  const id = made?.id;
  if (made && typeof id === 'string' && !onLedger.has(id)) {
    onLedger.add(id);
    const scheduled = 'scheduled_at' in made && 'params' in made;
    const path = scheduled ? `/api/v1/scheduled_statuses/${id}` : `/api/v1/statuses/${id}`;
    remember(`${scheduled ? 'scheduled status' : 'status'} ${id} of A`, () => a.delete(path));
  }
  return exchange;
}

/** One image attachment of A's serves every check that needs media ids: a deleted status's media may be resent. */
let attachment: Promise<Attachment> | undefined;
const sharedAttachment = () => (attachment ??= a.upload(MEDIA_FIXTURES.png).then((uploaded) => uploaded.attachment));

describe('POST /api/v1/statuses parameters', () => {
  describe('Idempotency-Key', () => {
    const params = { status: 'conformance probe: one submission, sent twice', visibility: 'unlisted' };
    let first: Exchange;
    let again: Exchange;
    let other: Exchange;

    beforeAll(async () => {
      const key = { 'Idempotency-Key': `conformance-${randomUUID()}` };
      first = await attemptStatus(params, { headers: key });
      again = await attemptStatus(params, { headers: key });
      other = await attemptStatus(params, { headers: { 'Idempotency-Key': `conformance-${randomUUID()}` } });
    });

    it('STATUS-IDEMPOTENCY-1 the same Idempotency-Key twice gives the same status, not a duplicate', () => {
      const id = expectOk<Status>(first, 'Status').id;
      expectEqual(expectOk<Status>(again, 'Status').id, id, 'id of the second answer', again);
    });

    it('STATUS-IDEMPOTENCY-2 a different Idempotency-Key gives a new status', () => {
      const id = expectOk<Status>(first, 'Status').id;
      const otherId = expectOk<Status>(other, 'Status').id;
      check(otherId !== id, `a status other than ${id}`, `id ${otherId}`, other);
    });
  });

  it('STATUS-PARAMS-1 a creation with neither status nor media_ids is refused (any 4xx)', async () => {
    expectRefusal(await attemptStatus({ visibility: 'direct' }, { malformed: true }));
  });

  describe('polls', () => {
    const options = ['first option', 'second option', 'third option'];
    let created: Exchange;
    const pollStatus = () => expectOk<PollStatus>(created, 'Status');
    /** The Poll of the created status: a status without one fails the running check. */
    const poll = (): Poll => {
      const status = pollStatus();
      check(status.poll !== null, 'a Poll in poll', 'poll null', created);
      return status.poll as Poll;
    };

    beforeAll(async () => {
      if (!releaseAtLeast(config.serverVersion, POLLS)) return;
      const params = { status: 'conformance probe: a poll', visibility: 'unlisted', poll: { options, expires_in: POLL_SECONDS, multiple: true, hide_totals: true } };
      created = await attemptStatus(params);
    });

    it('STATUS-POLL-1 poll[options][] are the options of the Poll, in order', (context) => {
      since(context, config, POLLS);
      expectEqual(poll().options.map((o) => o.title), options, 'poll.options titles', created);
    });

    it('STATUS-POLL-2 poll[expires_in] is the seconds the poll stays open: expires_at is created_at plus expires_in', (context) => {
      since(context, config, POLLS);
      const open = (Date.parse(poll().expires_at) - Date.parse(pollStatus().created_at)) / 1000;
      // Both times are the server's: only its own processing time lies between them.
      check(Math.abs(open - POLL_SECONDS) <= 60, `expires_at - created_at = ${POLL_SECONDS} s (within a minute)`, `${open} s`, created);
    });

    it('STATUS-POLL-3 poll[multiple] is reflected in Poll.multiple', (context) => {
      since(context, config, POLLS);
      expectEqual(poll().multiple, true, 'poll.multiple', created);
    });

    it('STATUS-POLL-4 poll[hide_totals] is accepted: the status is created with its Poll', (context) => {
      since(context, config, POLLS);
      poll();
    });

    it('RESOURCE-POLL-1 a Poll has the fields and types of the contract', (context) => {
      since(context, config, POLLS);
      expectResource('Poll', (expectJson(created) as { poll?: unknown }).poll, created);
    });

    it('STATUS-POLL-5 a poll without poll[expires_in] is refused (any 4xx)', async (context) => {
      since(context, config, POLLS);
      expectRefusal(await attemptStatus({ status: 'conformance probe: a poll that never closes', visibility: 'direct', poll: { options: ['yes', 'no'] } }, { malformed: true }));
    });

    it('STATUS-POLL-6 a poll together with media_ids is refused (any 4xx)', async (context) => {
      since(context, config, POLLS);
      const media = await sharedAttachment();
      const params = { status: 'conformance probe: a poll with media', visibility: 'direct', media_ids: [media.id], poll: { options: ['yes', 'no'], expires_in: POLL_SECONDS } };
      expectRefusal(await attemptStatus(params, { malformed: true }));
    });
  });

  describe('scheduled_at', () => {
    const text = 'conformance probe: a scheduled status, cancelled by the run';
    // Whole seconds, half an hour ahead: well past the 5 minutes, and equal after any rounding to the second.
    const at = new Date(Math.ceil((Date.now() + 30 * 60_000) / 1000) * 1000);
    let scheduled: Exchange;
    let tooSoon: Exchange;

    beforeAll(async () => {
      if (!releaseAtLeast(config.serverVersion, SCHEDULING)) return;
      // Direct: if the server published one anyway and the ledger could not reach it in time, nobody else sees it.
      scheduled = await attemptStatus({ status: text, visibility: 'direct', scheduled_at: at.toISOString() });
      const inOneMinute = new Date(Date.now() + 60_000);
      tooSoon = await attemptStatus({ status: text, visibility: 'direct', scheduled_at: inOneMinute.toISOString() }, { malformed: true });
    });

    it('STATUS-SCHEDULED-1 scheduled_at at least 5 minutes ahead answers a ScheduledStatus for that time', (context) => {
      since(context, config, SCHEDULING);
      const body = expectOk<ScheduledStatus>(scheduled, 'ScheduledStatus');
      check(Date.parse(body.scheduled_at) === at.getTime(), `scheduled_at ${at.toISOString()}`, `scheduled_at ${body.scheduled_at}`, scheduled);
    });

    it('RESOURCE-SCHEDULED-1 a ScheduledStatus has id, scheduled_at, params and media_attachments', (context) => {
      since(context, config, SCHEDULING);
      expectResource('ScheduledStatus', expectJson(scheduled), scheduled);
    });

    it("STATUS-SCHEDULED-2 a ScheduledStatus's params echo the request: text and visibility as sent", (context) => {
      since(context, config, SCHEDULING);
      const { params } = expectOk<ScheduledStatus>(scheduled, 'ScheduledStatus');
      expectEqual(params.text, text, 'params.text', scheduled);
      expectEqual(params.visibility, 'direct', 'params.visibility', scheduled);
    });

    it('STATUS-SCHEDULED-3 scheduled_at less than 5 minutes ahead is refused (any 4xx)', (context) => {
      since(context, config, SCHEDULING);
      expectRefusal(tooSoon);
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

    /** The DELETE answer: since 2.9.0 it carries the source text, and the media or poll, to resend. */
    async function deleteForRedraft(created: { status: Status; settle: () => void }): Promise<{ source: PollStatus & { text: string }; exchange: Exchange }> {
      const exchange = await a.delete(`/api/v1/statuses/${created.status.id}`);
      if (exchange.status === 200) created.settle();
      const source = expectOk<PollStatus>(exchange, 'Status');
      check(typeof source.text === 'string', 'the DELETE answer carries text', `text ${JSON.stringify(source.text)}`, exchange);
      return { source: source as PollStatus & { text: string }, exchange };
    }

    /** What the contract says to resend: text as status, media ids, poll options and multiple with a fresh expires_in and hide_totals. */
    function redraftOf(source: PollStatus & { text: string }): FormParams {
      const params: FormParams = { status: source.text, visibility: 'unlisted' };
      const mediaIds = source.media_attachments.map((m) => m.id);
      if (mediaIds.length > 0) params.media_ids = mediaIds;
      if (source.poll) {
        params.poll = { options: source.poll.options.map((o) => o.title), multiple: source.poll.multiple, expires_in: POLL_SECONDS, hide_totals: false };
      }
      return params;
    }

    const pollOf = (status: PollStatus) => status.poll && { options: status.poll.options.map((o) => o.title), multiple: status.poll.multiple };
    const mediaOf = (status: PollStatus) => status.media_attachments.map((m) => m.id);

    it("STATUS-REDRAFT-1 resending the DELETE answer's text, media ids and poll creates an equivalent status (property over generated texts)", async (context) => {
      since(context, config, SOURCE_ON_DELETE);
      const media = await sharedAttachment();
      const paramsOf = (text: string, attached: Attached): FormParams => ({
        status: text,
        visibility: 'unlisted',
        ...(attached.kind === 'media' ? { media_ids: [media.id] } : {}),
        ...(attached.kind === 'poll' ? { poll: { options: attached.options, multiple: attached.multiple, expires_in: POLL_SECONDS } } : {}),
      });
      const mention = config.usernameA;
      const property = fc.asyncProperty(texts(mention), attachments, async (text, attached) => {
        const original = await a.createStatus(paramsOf(text, attached));
        const { source } = await deleteForRedraft(original);
        const redraft = await a.createStatus(redraftOf(source));
        const { source: redraftSource, exchange } = await deleteForRedraft(redraft);
        const before = original.status as PollStatus;
        const after = redraft.status as PollStatus;
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
      const details = await fc.check(property, { numRuns: REDRAFT_RUNS, endOnFailure: true, examples });
      if (details.failed) throw details.errorInstance instanceof Error ? details.errorInstance : new Error(fc.defaultReportMessage(details));
    });
  });
});

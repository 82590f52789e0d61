// The input space of POST /api/v1/statuses (docs/exploring.md): its parameter table as a model, each parameter with
// classes of values (valid, at the edge of what the contract allows, just past it, of the wrong type, missing where
// required), and the conditions between them kept where the table states them (status or media_ids, a poll needs
// poll[expires_in], a poll or media_ids). A covering set gives every class of every parameter one row: the valid
// classes combined, rotated so that their pairs vary; every other class alone on a valid creation, so that its
// verdict is its own. Random rows follow, seeded. What the contract says of each row is the oracle's
// (judge/explore-create-oracle.ts); this module only draws and sends, as the caller B, whose Deletion bucket the rows that
// create spend (A's carries the run's own and the id inputs').
import { createdObject, type Exchange } from '../talk/http.ts';
import type { Actor } from './actors.ts';
import { createdId } from './created.ts';
import type { DeletionShare } from './deletion-share.ts';
import { remember } from './ledger.ts';
import { BOOST_VISIBILITIES, choiceOf, CREATE_PARAMETERS, CREATE_SHRINK_REQUESTS, type CreateInput, type CreationsSent, formOf, rulingOf, type SentBoost, type SentCreation, smallerRows } from './explore-create-model.ts';
export * from './explore-create-model.ts';

/**
 * Sends the rows one after another as `caller` (B): what a creation makes is on the ledger (attemptStatus), and a
 * status made of a row the contract says succeeds is read at once by its owner and by `other` (A), whose reads judge
 * the effects. Every row, a refused one too (a deviating server may make it), is sent only with a deletion of
 * `share` (each status made costs one of the caller's, at the ledger's cleanup), given back where it made none; one
 * of a class the run holds no object of is not sent.
 */
export async function sendCreations(caller: Actor, other: Actor, inputs: readonly CreateInput[], anothersAttachment: string | undefined, share: DeletionShare): Promise<CreationsSent> {
  const result: CreationsSent = { sent: [], notSent: [] };
  for (const input of inputs) {
    const sendable = await sendCreation(caller, other, input, anothersAttachment, share);
    if (typeof sendable === 'string') result.notSent.push({ input, why: sendable });
    else result.sent.push(sendable);
  }
  return result;
}

/** A status made, not a scheduled one: the scheduled status's cancellation is no deletion of the Deletion bucket. */
export const madeStatus = (exchange: Exchange): boolean => createdId(exchange) !== undefined && !('scheduled_at' in (createdObject(exchange) ?? {}));

/**
 * Sends one row, with a deletion of `share` given back where it made no status (one whose answer never came may have
 * made one: its deletion is kept); why it was not sent, where it needs what the run lacks or no deletion is left.
 */
export async function sendCreation(caller: Actor, other: Actor, input: CreateInput, anothersAttachment: string | undefined, share: DeletionShare): Promise<SentCreation | 'no object of its class' | 'deletions spent'> {
  const needs = CREATE_PARAMETERS.some((p) => choiceOf(input.row, p).needsAttachment);
  if (needs && anothersAttachment === undefined) return 'no object of its class';
  if (!share.take()) return 'deletions spent';
  const form = formOf(input.row, { ...(anothersAttachment === undefined ? {} : { anothersAttachment }), now: Date.now(), drawn: input.drawn });
  // Where a rule or a success covers the row, a server error is its clause's; where the answer is open, ERRORS-5XX-1's.
  const exchange = await caller.attemptStatus(form, rulingOf(input.row).kind === 'open' ? {} : { malformed: true });
  if (!madeStatus(exchange) && exchange.error === undefined) share.giveBack();
  const id = createdId(exchange);
  if (id === undefined || !madeStatus(exchange) || rulingOf(input.row).kind !== 'answers') return { input, form, exchange };
  const path = `/api/v1/statuses/${encodeURIComponent(id)}`;
  const [ownerRead, otherRead] = [await caller.get(path), await other.get(path)];
  return { input, form, exchange, ownerRead, otherRead };
}

/**
 * The smallest row that still breaks what `stillBroken` tells, tried smallest first (smallerRows), at most
 * CREATE_SHRINK_REQUESTS rows, each status made on the ledger as any other and within what is left of the caller's
 * deletions (`share`): a deviating server's bound; a conforming server gives no finding to shrink. The finding itself where no smaller row breaks it.
 */
export async function shrinkCreation(caller: Actor, other: Actor, finding: SentCreation, keep: readonly string[], stillBroken: (sent: SentCreation) => boolean, share: DeletionShare): Promise<SentCreation> {
  // A row a rule refuses is a valid creation and one class already: its smallest.
  if (rulingOf(finding.input.row).kind === 'refused') return finding;
  const anothersAttachment = (finding.form.media_ids as string[] | undefined)?.[0];
  for (const row of smallerRows(finding.input.row, keep).slice(0, CREATE_SHRINK_REQUESTS)) {
    const tried = await sendCreation(caller, other, { ...finding.input, row }, anothersAttachment, share);
    if (tried === 'deletions spent') break;
    if (typeof tried !== 'string' && stillBroken(tried)) return tried;
  }
  return finding;
}

/**
 * Sends the boosts of `statusId` as `booster`, each on the ledger until its unreblog answers, and the reads of each;
 * each with a deletion of `share` (its unreblog), given back where no boost was made.
 */
export async function sendBoosts(booster: Actor, other: Actor, statusId: string, share: DeletionShare): Promise<SentBoost[]> {
  const sent: SentBoost[] = [];
  const path = `/api/v1/statuses/${encodeURIComponent(statusId)}`;
  for (const visibility of BOOST_VISIBILITIES) {
    if (!share.take()) break;
    const boost = await booster.post(`${path}/reblog`, { visibility });
    const id = createdId(boost);
    if (id === undefined) {
      if (boost.error === undefined) share.giveBack();
      sent.push({ visibility, boost });
      continue;
    }
    const entry = remember(`boost of ${statusId} by ${booster.name}, explored`, () => booster.post(`${path}/unreblog`), { made: boost });
    const ownerRead = await booster.get(`/api/v1/statuses/${encodeURIComponent(id)}`);
    const otherRead = visibility === 'unlisted' ? await other.get(`/api/v1/statuses/${encodeURIComponent(id)}`) : undefined;
    const undo = await booster.post(`${path}/unreblog`);
    if (undo.status !== undefined && undo.status >= 200 && undo.status < 300) entry.settle();
    sent.push({ visibility, boost, ownerRead, ...(otherRead ? { otherRead } : {}) });
  }
  return sent;
}

// The contract's "Media" section: the v1 and v2 uploads, reads while processing continues, updates, the focal
// point and attaching to a status, with the Errors rows these operations answer. The Uploading bucket allows
// 30 uploads per 30 minutes, so this file uploads five files once, each in a step of its own, and lets several checks
// judge each:
//   image-640x480.png (v1, description and focus): sizes, read and update by its owner and by B, focus property, B's
//     attempt to attach it, attached (an image of A's own instead, uploaded only where B's attempt made a status, since
//     a server may take the PNG with the status that attempt's undo deletes)
//   image-320x240.jpg (v2, description and focus): answered at once, read until processed, attached
//   the status that attaches them: read by B, for what another account sees of its media
//   unknown.bin (v1), not-an-image.png (v1, and v2 where it fails in the background)
// What the steps upload is an image of ordinary size and format, the PNG MEDIA-UPLOAD-1 judges: a server may refuse
// a tiny or odd file (size and format limits are not shown), and such a refusal would block what needed the upload by
// a clause whose own check passed. The odd files are their own probes'.
// The first creation (MEDIA-ATTACH-2's control) shows how the server reads bodies: every step that sends a form body
// uses it, to follow it. Once its reads have ended, the v2 upload of not-an-image.png is deleted: its id is the
// attachment that does not exist, which the missing read and update ask for.
// The steps never judge: an upload that failed blocks the checks that need its attachment (by MEDIA-UPLOAD-1 or
// MEDIA-V2-1), and the Attachment schema is observed for RESOURCE-ATTACHMENT-1, which reports it last. Each request is
// made once, by the step that a check needs; the planner runs the steps side by side where they act on different
// objects (the uploads, the reads), and those on the PNG (its updates by B and A, then the status that attaches it)
// one after another: the checks judge the answers.
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { MEDIA_FIXTURES, uploadOf, type MediaFixture } from '../fixtures/media/index.ts';
import { actors, formNotUnderstood, type Actor, type UploadApi } from './support/act/actors.ts';
import { createdId, type Attachment, type Status } from './support/act/created.ts';
import { createdObject, type Exchange } from './support/talk/http.ts';
import { findClause, releaseHas } from './support/judge/clauses.ts';
import { EMBEDDED_MEDIA_READ_MS } from './support/talk/config.ts';
import type { FormParams } from './support/talk/form.ts';
import { block, controlled, countJudged, notJudged, requireThat } from './support/judge/preconditions.ts';
import { answerOf, causeOf, succeeded, type Step } from './support/act/steps.ts';
import { now, settle } from './support/act/settle.ts';
import { check, expectEqual, expectError, expectOk, expectRefusal, fail } from './support/judge/verify.ts';
import { it, made, notMade, requirement, section, step, type StepOutcome } from './support/run/checks.ts';

const { config, a, b } = actors();
// The v2 uploads and the focal point came with the releases of their clauses (the catalogue's since).
const v2 = releaseHas(config.serverVersion, 'MEDIA-V2-1');
const withFocus = releaseHas(config.serverVersion, 'MEDIA-FOCUS-1');
// An id no server has given out, far above any snowflake of this century: where the run could delete no attachment
// of its own, whose id is of the server's own shape (a server may refuse an id of another shape before any lookup).
const MISSING_ID = '999999999999999999';
const MEDIA_INVALID = 'Validation failed: File content type is invalid, File is invalid';
const NEEDS_B = 'needs CONFORMANCE_TOKEN_B';
// The pause before the second read of an upload still processing: well past a quick server's processing, so that such a
// server is read twice, not three times. The embedded server's ends before its own pace's second read, however loaded
// the machine (EMBEDDED_MEDIA_READ_MS): a run's request count does not move with the load.
const NEXT_READ_MS = config.embedded ? EMBEDDED_MEDIA_READ_MS : 500;
// Servers may keep focus as 32-bit floats or round it; a ten-thousandth is far below anything a client crops by.
const FOCUS_TOLERANCE = 1e-4;
// aspect may be rounded (Mastodon sends it unrounded, others to a few digits).
const ASPECT_TOLERANCE = 0.01;
// Size meta are whole pixels: a preview scaled from the original may be a pixel off the exact ratio.
const PIXEL_TOLERANCE = 1;

const PNG_DESCRIPTION = 'conformance probe: a gradient, 640 by 480';
const PNG_FOCUS = { x: 0.5, y: -0.25 };
// The JPEG's, which A's reads of it show once processed (MEDIA-EFFECT-3): the v2 upload is equal to v1 in all other aspects.
const JPEG_DESCRIPTION = 'conformance probe: an image, 320 by 240';
const JPEG_FOCUS = { x: -0.5, y: 0.25 };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const mediaPath = (attachment: Attachment) => `/api/v1/media/${attachment.id}`;

/** An upload's attachment, with the answer that made it: the evidence of the checks that judge it. */
interface Uploaded {
  attachment: Attachment;
  exchange: Exchange;
}

/** An upload by A as a step: an answer 2xx with an id is enough to go on; else the upload's clause blocks what needs it. */
async function uploaded(a: Actor, fixture: MediaFixture, params: FormParams = {}, api: UploadApi = 'v1'): Promise<StepOutcome<Uploaded>> {
  const upload = await a.upload(fixture, params, api);
  return upload.ok ? made({ attachment: upload.value, exchange: upload.exchange }, upload.exchange) : upload;
}

/**
 * Reads an attachment until its processing ends (any answer but 206, or a 200 without the url of its file, which a
 * server that answers 200 while processing continues gives: MEDIA-READ-2's to judge, not the end of the reads): at
 * once, the read most likely to find it unfinished, then after NEXT_READ_MS and twice as long each time, so a slow
 * server costs a few reads rather than many; gives up at CONFORMANCE_TIMEOUT_MS.
 */
async function readUntilProcessed(actor: Actor, id: string): Promise<Exchange[]> {
  const reads: Exchange[] = [];
  const deadline = Date.now() + config.timeoutMs;
  for (let wait = 0; ; wait = wait ? wait * 2 : NEXT_READ_MS) {
    await sleep(Math.min(wait, Math.max(0, deadline - Date.now())));
    const read = await actor.get(`/api/v1/media/${id}`);
    reads.push(read);
    const unfinished = read.status === 206 || (read.status === 200 && !withUrl(read));
    if (!unfinished || Date.now() >= deadline) return reads;
  }
}

/** Whether a 200 read carries the url of the processed file. */
const withUrl = (read: Exchange) => {
  const url = createdObject(read)?.url;
  return typeof url === 'string' && url !== '';
};

/** The v2 upload of the JPEG and A's reads of it until its processing ended. */
interface Processing extends Uploaded {
  reads: Exchange[];
}

/**
 * The v2 upload once processed, for the checks that need its sizes or attach it: the last read answered 200 with
 * the url of its file. Else the MEDIA-READ clause that did not hold: it never ended, ended otherwise, or had no url.
 */
function processedOf(processing: StepOutcome<Processing>): Step<Attachment> {
  if (!processing.ok) return processing;
  const { attachment, reads } = processing.value;
  const last = reads.at(-1) as Exchange;
  if (last.status === 206) return notMade(causeOf('MEDIA-READ-1', `processing had not ended after ${reads.length} reads within CONFORMANCE_TIMEOUT_MS`, last), last);
  if (last.status !== 200) return notMade(causeOf('MEDIA-READ-1', `the read after processing answered ${answerOf(last)}`, last), last);
  if (!withUrl(last)) return notMade(causeOf('MEDIA-READ-2', 'a 200 read answered without the url of the file', last), last);
  return succeeded(attachment, last);
}

/** The v2 upload of the invalid file and A's reads of it until its processing ended (none where it made nothing). */
interface FailedProcessing {
  upload: Exchange;
  reads: Exchange[];
}

/** The attachment that does not exist (one the run deleted, else MISSING_ID), and what its read and update answered. */
interface Missing {
  id: string;
  deleted: boolean;
  /** From 3.1.3, with the read of an attachment. */
  read: Exchange | undefined;
  update: Exchange;
}

/** A read of the deleted attachment that shows it there: the 422 of its failed processing, or its own body. */
const stillThere = (read: Exchange, id: string) => read.status === 422 || createdObject(read)?.id === id;

/**
 * Whether the deleted attachment is gone: a read after its delete that shows it there (the 422 of its failed
 * processing, or its own body) means that delete, outside the contract, did not delete it, and nothing can be judged.
 */
function expectMissing({ id, deleted, read }: Missing): void {
  if (!deleted || !read) return;
  if (stillThere(read, id)) block(causeOf(undefined, `DELETE /api/v1/media/:id answered 2xx, and a read of the attachment after it answered ${answerOf(read)}`, read));
}

interface Size {
  width: number;
  height: number;
  size: unknown;
  aspect: number;
}

/** meta.original or meta.small read for its values: the JSON types of its fields are RESOURCE-ATTACHMENT-1's to judge. */
function sizeOf(attachment: Attachment, key: 'original' | 'small'): Size | undefined {
  const found: unknown = isObject(attachment.meta) ? attachment.meta[key] : undefined;
  return isObject(found) ? { width: Number(found.width), height: Number(found.height), size: found.size, aspect: Number(found.aspect) } : undefined;
}

const inPixels = (size: Size | undefined): size is Size => size !== undefined && Number.isInteger(size.width) && Number.isInteger(size.height) && size.width > 0 && size.height > 0;

/** One of meta.original and meta.small for MEDIA-UPLOAD-2: there, in whole pixels, size "<width>x<height>", aspect width/height. */
function expectSize(attachment: Attachment, key: 'original' | 'small', exchange: Exchange): Size {
  const what = `meta.${key}`;
  const size = sizeOf(attachment, key);
  if (!size) fail(`${what}: {width, height, size, aspect}`, `${what}: ${JSON.stringify(isObject(attachment.meta) ? attachment.meta[key] : undefined)}`, exchange);
  check(inPixels(size), `${what}.width and .height: whole pixels`, JSON.stringify(attachment.meta[key]), exchange);
  expectEqual(size.size, `${size.width}x${size.height}`, `${what}.size`, exchange);
  check(Math.abs(size.aspect - size.width / size.height) <= ASPECT_TOLERANCE, `${what}.aspect = ${size.width}/${size.height}`, `${what}.aspect = ${size.aspect}`, exchange);
  return size;
}

const focusIs = (actual: unknown, expected: { x: number; y: number }): boolean =>
  isObject(actual) && Math.abs(Number(actual.x) - expected.x) <= FOCUS_TOLERANCE && Math.abs(Number(actual.y) - expected.y) <= FOCUS_TOLERANCE;

function expectFocus(actual: unknown, expected: { x: number; y: number }, exchange: Exchange): void {
  check(focusIs(actual, expected), `meta.focus = ${JSON.stringify(expected)}`, `meta.focus = ${JSON.stringify(actual)}`, exchange);
}

const focusOf = (attachment: Attachment): unknown => (isObject(attachment.meta) ? attachment.meta.focus : undefined);

/** A later answer's attachment has the focal point an earlier answer gave it, where that one gave one (else MEDIA-FOCUS-1's). */
function expectFocusAsBefore(later: Attachment, before: Attachment, exchange: Exchange): void {
  const focus = focusOf(before);
  if (isObject(focus)) expectFocus(focusOf(later), { x: Number(focus.x), y: Number(focus.y) }, exchange);
}

/**
 * An answer the check can judge: a 403 (a status code the contract does not give) refused the token's scopes
 * (Authentication 12: which broad scopes imply which narrow ones is not shown), so the check cannot be judged.
 */
function judgeable(exchange: Exchange, what: string): Exchange {
  if (exchange.status === 403) block(causeOf(undefined, `${what} answered HTTP 403`, exchange));
  return exchange;
}

/**
 * The positive control of the refusals of GET /api/v1/media/:id: a read by A of its own v2 upload that answered 2xx
 * (else the last one). A server without the operation refuses every read; then MEDIA-READ-1 blocks those checks.
 */
function ownRead(jpegReads: StepOutcome<Processing>, invalidV2: FailedProcessing): void {
  const reads = [...(jpegReads.ok ? jpegReads.value.reads : []), ...invalidV2.reads];
  const read = reads.find((r) => r.status !== undefined && r.status >= 200 && r.status < 300) ?? reads.at(-1);
  if (!read) block(jpegReads.ok ? { summary: "A's attachments were not read" } : jpegReads.cause);
  controlled(succeeded(read, read), 'MEDIA-READ-1', "A's read of its own attachment");
}

/** The positive control of the refusals of the update: A's update of its own attachment (MEDIA-UPDATE-1's) answered 2xx. */
function updateAccepted(updated: Exchange, operation: string): void {
  const control = judgeable(updated, "A's update");
  controlled(succeeded(control, control), 'MEDIA-UPDATE-1', operation);
}

/** The focus parameter as the contract writes it: "x,y". */
const focusParam = (focus: { x: number; y: number }) => `${focus.x},${focus.y}`;
const inFocusRange = (v: number) => v >= -1 && v <= 1;
const focusInRange = (focus: { x: number; y: number }) => inFocusRange(focus.x) && inFocusRange(focus.y);

/**
 * The focal point of MEDIA-UPDATE-1's update, generated in range (hundredths, as clients send them) from the run's
 * seed (CONFORMANCE_SEED): another seed tries another point, the same seed the same one, so that a verdict does not
 * move between two runs. Never the upload's point nor the centre (a server's default): an update that changed
 * nothing must not pass for one that changed the focus. It is also the generated run of the MEDIA-FOCUS-2 property.
 */
const inRangeCoordinate = fc.integer({ min: -100, max: 100 }).map((n) => n / 100);
const UPDATED_FOCUS = fc.sample(
  fc.record({ x: inRangeCoordinate, y: inRangeCoordinate }).filter((f) => !focusIs(f, PNG_FOCUS) && !focusIs(f, { x: 0, y: 0 })),
  { numRuns: 1, seed: config.seed },
)[0] as { x: number; y: number };
const UPDATED_DESCRIPTION = 'conformance probe: an updated description';
// MEDIA-UPDATE-1's update, and the same with a thumbnail that is not an image. The focal point is the part of
// MEDIA-UPDATE-1 that gates on its release (2.3.0): the update's description is judged at every release.
const PNG_UPDATE = { description: UPDATED_DESCRIPTION, focus: withFocus ? focusParam(UPDATED_FOCUS) : undefined };
/**
 * The other runs of the MEDIA-FOCUS-2 property, fixed: a corner of the range and a value beyond it. Three updates of
 * one attachment in all; no shrinking, which would cost more requests.
 */
const FOCUS_RUNS: { x: number; y: number }[] = [
  { x: -1, y: 1 },
  { x: 1.5, y: 0 },
];

/** One run of the MEDIA-FOCUS-2 property: the focal point sent, and what the update answered. */
interface FocusRun {
  focus: { x: number; y: number };
  exchange: Exchange;
}

// Unlisted: another account reads it (MEDIA-EFFECT-2), and no public timeline shows it.
const ATTACHED = { status: 'conformance probe: a status with media', sensitive: true, visibility: 'unlisted' };
/** MEDIA-ATTACH-2's control: whether sensitive is kept on a status at all. */
const SENSITIVE = { status: 'conformance probe: a sensitive status without media', sensitive: true, visibility: 'private' };
/** B's creation with A's attachment, which MEDIA-ATTACH-3 wants refused. */
const attachedByB = (id: string) => ({ status: 'conformance probe: not my media', media_ids: [id], visibility: 'private' });

/** The status created with A's attachments, and the ids it was created with. */
interface Attached {
  creation: Step<Status>;
  ids: string[];
}

/** The ids of the attachments a status carries. */
function mediaIdsOf(status: Record<string, unknown>): unknown[] {
  const media = status.media_attachments;
  return Array.isArray(media) ? media.map((m: unknown) => (isObject(m) ? m.id : m)) : [];
}

/** The status a creation answered, also when its visibility is not what was asked (that is STATUS-CREATE-4's). */
function answered(creation: StepOutcome<Status>): Status {
  const body = creation.exchange ? createdObject(creation.exchange) : undefined;
  if (!body && !creation.ok) return block(creation.cause);
  return body as Status;
}

/**
 * A creation that probes the server (as JSON when asked, as the whole file once forms are not understood): whatever
 * it made is deleted at once, so no other check meets it.
 */
async function probe(actor: Actor, params: FormParams, asJson = false): Promise<Exchange> {
  const exchange = await actor.attemptStatus(params, asJson ? { json: params } : {});
  const id = createdId(exchange);
  if (id) await actor.delete(`/api/v1/statuses/${id}`);
  return exchange;
}

// The ledger deletes what a step made and reads it gone at the end (cleanup-reads.ts): each upload's cost counts its
// delete and the read of its file, each creation's its delete and its read. Before its first delete of a kind it also
// reads one there, counted on the first creation (planned with every other creation) and on the PNG's upload.

// MEDIA-ATTACH-2's control, and the file's first creation: it shows how the server reads bodies (actors.ts), so each
// step that sends a form body uses it. It also stands for how this file sends bodies, which a later creation may
// settle anew (media_ids[] as form data unread, WIRE-FORM-1): the creations with media_ids[] name it in `changes`,
// so B's attempt goes as it did before the attached status is created. Where B reads the attached status, that read
// shows the ledger the attached status there; without B the ledger reads that one before its delete (the attached
// status's cost).
const sensitiveWithoutMedia = step('a sensitive status without media, the first creation', { as: 'A', cost: { api: 3 } }, (_, { actor }) => actor.createStatus(SENSITIVE));
const afterFirstCreation = { firstCreation: sensitiveWithoutMedia };

// Where the release has no v2 upload (3.1.3), MEDIA-UPLOAD-2 and the attached status go on without the JPEG: the part
// of them that gates on the release, here (the checks of the v2 upload itself are skipped by the catalogue's since).
// The steps of the v2 uploads then send nothing.
const NO_V2 = { summary: `no v2 upload before release ${findClause('MEDIA-V2-1')?.since}` };
const jpeg = step('image-320x240.jpg uploaded with v2', { as: 'A', cost: v2 ? { api: 2, files: 1 } : {} }, async (_, { actor }) =>
  v2 ? uploaded(actor, MEDIA_FIXTURES.jpeg, { description: JPEG_DESCRIPTION, focus: focusParam(JPEG_FOCUS) }, 'v2') : notMade(NO_V2),
);

const jpegReads = step('the JPEG read until its processing ended', { as: 'A', needs: { jpeg }, cost: { api: v2 ? 2 : 0 } }, async ({ jpeg }, { actor }) =>
  made({ ...jpeg, reads: await readUntilProcessed(actor, jpeg.attachment.id) }),
);

// It processes while the JPEG is read. Its delete and the read that shows it gone are the missing attachment's step's.
const invalidV2 = step('not-an-image.png uploaded with v2, and read until its processing ended', { as: 'A', cost: { api: v2 ? 3 : 0 } }, async (_, { actor: a }) => {
  if (!v2) return notMade(NO_V2);
  const upload = await a.sendUpload(MEDIA_FIXTURES.notAnImage, {}, 'v2');
  const id = createdId(upload);
  return made({ upload, reads: id ? await readUntilProcessed(a, id) : [] });
});

const png = step('image-640x480.png uploaded with v1, with a description and a focal point', { as: 'A', cost: { api: 2, files: 1 } }, (_, { actor }) =>
  uploaded(actor, MEDIA_FIXTURES.png, { description: PNG_DESCRIPTION, focus: focusParam(PNG_FOCUS) }),
);

const unknown = step('unknown.bin uploaded with v1', { as: 'A', cost: { api: 2, files: 2 } }, async (_, { actor }) => made(await actor.sendUpload(MEDIA_FIXTURES.unknown)));

// An invalid file the server kept anyway is removed at once (Mastodon's delete), so no other check meets it.
const invalid = step('not-an-image.png uploaded with v1', { as: 'A', cost: { api: 1 } }, async (_, { actor: a }) => {
  const upload = await a.sendUpload(MEDIA_FIXTURES.notAnImage);
  await a.deleteUpload(upload);
  return made(upload);
});

const readByB = step("B's read of A's PNG", { as: 'B', needs: { png }, cost: { api: 1 } }, async ({ png: { attachment } }, { actor }) => made(await actor.get(mediaPath(attachment))));

// An update made anyway is undone at once: the owner puts the description back.
const updateByB = step("B's update of A's PNG", { as: 'B', alsoAs: ['A'], needs: { png }, uses: afterFirstCreation, changes: [png], cost: { api: 1 } }, async ({ png: { attachment } }, { actor: b, also: { A: a } }) => {
  const exchange = await b.put(mediaPath(attachment), { description: 'conformance probe: not yours' });
  if (createdId(exchange)) await (a as Actor).put(mediaPath(attachment), { description: attachment.description });
  return made(exchange);
});

const updated = step("A's update of the PNG's description and focal point", { as: 'A', needs: { png }, uses: afterFirstCreation, changes: [png], cost: { api: 1 } }, async ({ png: { attachment } }, { actor }) =>
  made(await actor.put(mediaPath(attachment), PNG_UPDATE)),
);

// A multipart body, sent as it is: it waits for no creation.
const thumbnailUpdate = step("A's same update of the PNG with a thumbnail that is not an image", { as: 'A', needs: { png }, changes: [png], cost: { api: 1 } }, async ({ png: { attachment } }, { actor }) =>
  made(await actor.put(mediaPath(attachment), PNG_UPDATE, { uploads: [uploadOf(MEDIA_FIXTURES.notAnImage, 'thumbnail')] })),
);

// One after another. A focus out of range the server accepted is put right afterwards, so the attachment stays valid
// for the status that attaches it.
const focusUpdates = step("A's updates of the PNG's focal point to MEDIA-FOCUS-2's fixed runs", { as: 'A', needs: { png }, uses: afterFirstCreation, changes: [png], cost: { api: 2 } }, async ({ png: { attachment } }, { actor: a }) => {
  const runs: FocusRun[] = [];
  for (const focus of FOCUS_RUNS) runs.push({ focus, exchange: await a.put(mediaPath(attachment), { focus: focusParam(focus) }, { malformed: !focusInRange(focus) }) });
  if (runs.some(({ focus, exchange }) => !focusInRange(focus) && createdId(exchange))) await a.put(mediaPath(attachment), { focus: focusParam(PNG_FOCUS) });
  return made(runs);
});

/**
 * The read and update of an attachment that does not exist: the invalid v2 upload, once its reads ended, deleted
 * (Mastodon's delete; the ledger's undo, made early); where none was deleted, an id no server gave out.
 */
const missing = step('an attachment that does not exist, read and updated', { as: 'A', uses: { invalidV2, ...afterFirstCreation }, cost: { api: v2 ? 3 : 1 } }, async ({ invalidV2 }, { actor: a }) => {
  const { upload, reads } = invalidV2.ok ? invalidV2.value : { upload: undefined, reads: [] };
  const ended = reads.length > 0 && reads.at(-1)?.status !== 206;
  const removed = upload && ended ? await a.deleteUpload(upload) : undefined;
  const deletedAt = now();
  const deleted = removed?.status !== undefined && removed.status >= 200 && removed.status < 300;
  const id = deleted ? (createdId(upload as Exchange) as string) : MISSING_ID;
  const path = `/api/v1/media/${id}`;
  // A server may delete in the background: the read waits for the attachment gone within the settle window, and the
  // update is sent once the read has shown it gone. The read is MEDIA-READ-5's, which comes with 3.1.3: the part of
  // this step that gates on the release (MEDIA-UPDATE-4's update is sent at every release, of MISSING_ID before it).
  const read = v2 ? (await settle(() => a.get(path), (answer) => !stillThere(answer, id), deletedAt)).exchange : undefined;
  return made<Missing>({ id, deleted, read, update: await a.put(path, { description: 'conformance probe: no such attachment' }) });
});

// B's attempt to attach A's PNG (MEDIA-ATTACH-3), after A's updates of it and before A attaches it: a server that
// refuses it leaves the PNG as it was; what one made anyway is deleted at once, and may have taken the PNG with it (a
// deleted status may take its media), so A's status then attaches an image of its own. Without CONFORMANCE_TOKEN_B
// it sends nothing (only A's status waits for it then).
const attachByB = step(
  "B's creation of a status with A's PNG",
  { as: 'B', needs: { png }, uses: afterFirstCreation, changes: [png, sensitiveWithoutMedia], cost: { api: b ? 1 : 0 } },
  async ({ png }, { actor }) => made(await probe(actor, attachedByB(png.attachment.id))),
  () => notMade({ summary: NEEDS_B }),
);

// After every update of the PNG and B's attempt to attach it, and with the JPEG only once processed: Mastodon refuses
// to attach a file still processing, and to update one attached. Where neither could be had, the PNG's upload says why.
const attached = step(
  'a sensitive status created with media_ids[] of the PNG and the processed JPEG',
  { as: 'A', uses: { png, jpegReads, attachByB, ...afterFirstCreation }, changes: [png, jpeg, sensitiveWithoutMedia], cost: { api: b ? 3 : 4 } },
  async ({ png, jpegReads, attachByB }, { actor: a }): Promise<StepOutcome<Attached>> => {
    const ready = processedOf(jpegReads);
    if (!png.ok && !ready.ok) return notMade(png.cause);
    let image = png.ok ? png.value.attachment : undefined;
    if (image && attachByB.ok && createdId(attachByB.value)) {
      // Made only where B's status with the PNG was made: as a step it would cost an upload on every server.
      const own = await a.upload(MEDIA_FIXTURES.png);
      if (!own.ok && !ready.ok) return notMade(own.cause, own.exchange);
      image = own.ok ? own.value : undefined;
    }
    const ids = [...(image ? [image.id] : []), ...(ready.ok ? [ready.value.id] : [])];
    return made({ creation: await a.createStatus({ ...ATTACHED, media_ids: ids }), ids });
  },
);

// Planned only for MEDIA-EFFECT-2, which requires B.
const attachedReadByB = step("B's read of A's status with media", { as: 'B', needs: { attached }, cost: { api: 1 } }, async ({ attached: { creation } }, { actor }) => {
  const id = creation.exchange && createdId(creation.exchange);
  if (!id) return notMade(creation.ok ? { summary: 'the status with media was made without an id' } : creation.cause, creation.exchange);
  return made({ creation: creation.exchange as Exchange, read: await actor.get(`/api/v1/statuses/${id}`) });
});

// Whether media_ids[] was read at all as form data, the same creation as JSON tells (undone at once): sent only where
// the form's creation answered other attachments than it was given and the form is not known to be misread (a step
// that always sent it would cost a creation and its delete on every server). It comes after every step on the media:
// a deleted status may take its media with it.
const attachedAsJson = step(
  "the status with media_ids[] created again as JSON, where the form's creation answered other attachments",
  { as: 'A', needs: { attached }, changes: [png, jpeg, attached], cost: {}, mayAdd: 2 },
  async ({ attached: { creation, ids } }, { actor }) => {
    const asCreated = creation.exchange ? createdObject(creation.exchange) : undefined;
    const lost = asCreated !== undefined && mediaIdsOf(asCreated).sort().join() !== [...ids].sort().join() && !formNotUnderstood();
    return made(lost ? await probe(actor, { ...ATTACHED, media_ids: ids }, true) : undefined);
  },
);

// B's creation with A's PNG again, as JSON, where the form's made a status without the PNG: whether media_ids[] was read
// at all as form data (undone at once). Sent only then, after every step on the PNG and the status that attaches it.
const attachByBAsJson = step(
  "B's creation of a status with A's PNG again as JSON, where the form's made a status without it",
  { as: 'B', needs: { png, attachByB }, changes: [png, attached], cost: {}, mayAdd: 2 },
  async ({ png: { attachment }, attachByB: exchange }, { actor }) => {
    const status = createdObject(exchange);
    const sentAsForm = exchange.requestHeaders['content-type'] === 'application/x-www-form-urlencoded';
    const without = status !== undefined && sentAsForm && !mediaIdsOf(status).includes(attachment.id);
    return made(without ? await probe(actor, attachedByB(attachment.id), true) : undefined);
  },
);

section('Media', () => {
  it('MEDIA-UPLOAD-1 the v1 upload answers 200 and an Attachment', { uses: { png } }, ({ png }) => {
    expectOk(judgeable(png.exchange as Exchange, 'the v1 upload'), 'Attachment', 200);
  });

  it('MEDIA-UPLOAD-2 meta.original is the real size of the uploaded image, with size "<width>x<height>" and aspect', { needs: { png }, uses: { jpegReads } }, ({ png, jpegReads }) => {
    const judge = (attachment: Attachment, fixture: MediaFixture, exchange: Exchange) => {
      const original = expectSize(attachment, 'original', exchange);
      expectEqual([original.width, original.height], [fixture.width, fixture.height], `meta.original [width, height] of ${fixture.file}`, exchange);
      expectSize(attachment, 'small', exchange);
    };
    judge(png.attachment, MEDIA_FIXTURES.png, png.exchange);
    // The JPEG's sizes are known once its processing has finished: on a read that answered 200 with its url.
    const ready = processedOf(jpegReads);
    if (ready.ok) judge(createdObject(ready.exchange) as Attachment, MEDIA_FIXTURES.jpeg, ready.exchange);
  });

  it('MEDIA-UPLOAD-3 meta.small keeps the aspect of meta.original: previews are never cropped', { needs: { png } }, ({ png: { attachment, exchange } }) => {
    const [original, small] = [sizeOf(attachment, 'original'), sizeOf(attachment, 'small')];
    requireThat(inPixels(original) && inPixels(small), () => causeOf('MEDIA-UPLOAD-2', 'the upload answered no meta.original and meta.small in whole pixels', exchange));
    const [o, s] = [original as Size, small as Size];
    const uncroppedHeight = (s.width * o.height) / o.width;
    check(Math.abs(s.height - uncroppedHeight) <= PIXEL_TOLERANCE, `meta.small ${s.width}x${Math.round(uncroppedHeight)} (the aspect of ${o.width}x${o.height})`, `meta.small ${s.width}x${s.height}`, exchange);
  });

  it('MEDIA-UPLOAD-4 the description given with the upload is the Attachment description', { needs: { png } }, ({ png: { attachment, exchange } }) => {
    expectEqual(attachment.description, PNG_DESCRIPTION, 'description', exchange);
  });

  it('MEDIA-FOCUS-1 the focus given with the upload is meta.focus', { needs: { png } }, ({ png: { attachment, exchange } }) => {
    expectFocus(focusOf(attachment), PNG_FOCUS, exchange);
  });

  it('MEDIA-UPLOAD-5 a file that is not understood becomes an attachment of type unknown with blurhash null', { needs: { unknown }, uses: { png } }, async ({ unknown, png }, context) => {
    // The contract allows both: "an attachment is created even when the file is not understood", and 422 for an
    // "unsupported ... type". A refusal must then be the Errors row.
    judgeable(unknown, 'the v1 upload of a file that is not understood');
    if (unknown.status === 422) {
      expectError(unknown, 422, MEDIA_INVALID);
      await context.annotate('the server refused a file it does not understand (422) instead of keeping it as type unknown', 'observation');
      return;
    }
    // Where no upload works at all, the v1 upload's clause says why.
    if (!png.ok && !createdObject(unknown)) block(png.cause);
    const attachment = expectOk<Attachment>(unknown, 'Attachment', [200, 202]);
    expectEqual(attachment.type, 'unknown', 'type', unknown);
    expectEqual(attachment.blurhash, null, 'blurhash', unknown);
  });

  it('MEDIA-UPLOAD-6 a file that claims to be an image and is not answers 422 with the contract text', { needs: { invalid }, uses: { png } }, ({ invalid, png }) => {
    // The positive control: the same upload of an image that is one (MEDIA-UPLOAD-1's PNG) was accepted.
    const control = judgeable(png.exchange as Exchange, 'the v1 upload');
    controlled(succeeded(control, control), 'MEDIA-UPLOAD-1', 'the v1 upload of an image');
    expectError(judgeable(invalid, 'the v1 upload of an invalid file'), 422, MEDIA_INVALID);
  });

  it('MEDIA-V2-1 the v2 upload answers 202 and an Attachment with url null', { uses: { jpeg } }, ({ jpeg }) => {
    const exchange = judgeable(jpeg.exchange as Exchange, 'the v2 upload');
    expectEqual(expectOk<Attachment>(exchange, 'Attachment', 202).url, null, 'url', exchange);
  });

  it('MEDIA-V2-2 the v2 upload answer carries the preview_url of the thumbnail it prepared', { needs: { jpeg } }, ({ jpeg: { attachment, exchange } }) => {
    const { preview_url: preview } = attachment;
    check(typeof preview === 'string' && preview !== '', 'preview_url: a URL', `preview_url: ${JSON.stringify(preview)}`, exchange);
  });

  it('MEDIA-READ-1 reading the v2 upload reaches 200 and the Attachment once processing has finished', { needs: { jpegReads } }, ({ jpegReads: { attachment, reads } }) => {
    const last = reads.at(-1) as Exchange;
    if (last.status === 206) fail(`processing ends within CONFORMANCE_TIMEOUT_MS (${config.timeoutMs} ms)`, `HTTP 206 after ${reads.length} reads`, last);
    expectEqual(expectOk<Attachment>(last, 'Attachment', 200).id, attachment.id, 'id', last);
  });

  it("MEDIA-EFFECT-3 the caller's later read of an attachment shows the description and focal point its upload answered", { uses: { jpegReads } }, ({ jpegReads }) => {
    // A read that never answered the processed attachment is MEDIA-READ-1's or MEDIA-READ-2's.
    const ready = processedOf(jpegReads);
    if (!ready.ok || !jpegReads.ok) return block(ready.ok ? { summary: 'the JPEG was not read' } : ready.cause);
    const uploadedAs = jpegReads.value.attachment;
    const read = createdObject(ready.exchange) as Attachment;
    expectEqual(read.description, uploadedAs.description, 'description of the JPEG read once processed, as its upload answered', ready.exchange);
    expectFocusAsBefore(read, uploadedAs, ready.exchange);
  });

  it(
    'MEDIA-READ-2 a read before processing has finished answers 206; a 200 read carries the url of the file',
    { needs: { invalidV2 }, uses: { jpegReads } },
    async ({ invalidV2, jpegReads }, context) => {
      ownRead(jpegReads, invalidV2);
      if (!jpegReads.ok) block(jpegReads.cause);
      const { exchange: upload, reads } = jpegReads.value;
      // The url of a 200 read is what is judged: reads that never reached 200 left nothing to judge, MEDIA-READ-1's failure.
      const last = reads.at(-1) as Exchange;
      if (!reads.some((read) => read.status === 200)) block(causeOf('MEDIA-READ-1', `no read answered 200: ${reads.map((r) => r.status).join(', ')}`, last));
      const seen = `reads until processed: ${reads.map((r) => r.status).join(', ')}`;
      await context.annotate(seen, 'observation');
      // A 206 answer's body is not given by the contract, so it is not judged; the final status is MEDIA-READ-1's.
      // A 200 without url is a read before processing finished answered 200: this clause's failure.
      for (const read of reads) {
        if (read.status === 200) {
          const { url } = expectOk<Attachment>(read, 'Attachment', 200);
          check(typeof url === 'string' && url !== '', 'a 200 read: url of the processed file', `url: ${JSON.stringify(url)}`, read);
        }
      }
      // The 206 itself is judged only where a read met an upload still processing (either v2 upload's): where none
      // did, that case went unseen, and a pass would claim it.
      const unfinished = [...reads, ...invalidV2.reads].filter((read) => read.status === 206);
      if (unfinished.length === 0) {
        if (upload.status !== 202) block(causeOf('MEDIA-V2-1', `the v2 upload processed the file before it answered (${answerOf(upload)}), so no read could find it processing`, upload));
        notJudged(`no read found an attachment still processing (${seen}): whether such a read answers 206 went unseen`);
      }
      countJudged(unfinished.length);
    },
  );

  it('MEDIA-READ-3 a read where processing failed answers 422 with the contract text', { needs: { invalidV2 }, uses: { jpegReads } }, ({ invalidV2, jpegReads }) => {
    ownRead(jpegReads, invalidV2);
    const { upload, reads } = invalidV2;
    if (!createdId(upload)) {
      // A server may judge the file before it answers; then no processing can fail later (the upload row covers it).
      if (upload.status !== 422) block(causeOf('MEDIA-V2-1', `the v2 upload of ${MEDIA_FIXTURES.notAnImage.file} answered ${answerOf(upload)}`, upload));
      const synchronous = jpegReads.ok && jpegReads.value.exchange.status !== 202 ? jpegReads.value.exchange : undefined;
      block(synchronous ? causeOf('MEDIA-V2-1', `the v2 upload processed the file before it answered (${answerOf(synchronous)}), so no processing could fail later`, synchronous) : { summary: 'the v2 upload refused the invalid file at once (HTTP 422), so no processing could fail later' });
    }
    const last = reads.at(-1) as Exchange;
    if (last.status === 206) block(causeOf('MEDIA-READ-1', `processing had not ended after ${reads.length} reads within CONFORMANCE_TIMEOUT_MS`, last));
    // A server that answers 200 while processing continues (MEDIA-READ-2) cannot show a failed processing apart from an unfinished one.
    const early = (jpegReads.ok ? jpegReads.value.reads : []).find((read) => read.status === 200 && !withUrl(read));
    if (last.status === 200 && !withUrl(last) && early) block(causeOf('MEDIA-READ-2', 'reads answer 200 without url before processing has finished', early));
    expectError(last, 422, MEDIA_INVALID);
  });

  it(
    "MEDIA-READ-4 reading another user's attachment answers 404 \"Record not found\"",
    { requires: [requirement(b, NEEDS_B)], needs: { readByB, invalidV2 }, uses: { jpegReads } },
    ({ readByB, invalidV2, jpegReads }) => {
      ownRead(jpegReads, invalidV2);
      expectError(judgeable(readByB, "B's read"), 404, 'Record not found');
    },
  );

  it(
    'MEDIA-READ-5 reading an attachment that does not exist (one the run deleted) answers 404 "Record not found"',
    { needs: { missing, invalidV2 }, uses: { jpegReads } },
    ({ missing, invalidV2, jpegReads }) => {
      ownRead(jpegReads, invalidV2);
      const exchange = judgeable(missing.read as Exchange, 'the read');
      expectMissing(missing);
      expectError(exchange, 404, 'Record not found');
    },
  );

  it("MEDIA-UPDATE-2 updating another user's attachment answers 404 \"Record not found\"", { requires: [requirement(b, NEEDS_B)], needs: { updated, updateByB } }, ({ updated, updateByB }) => {
    // A server without the update refuses everyone: the 404 counts where A's update of its own attachment answered 2xx.
    updateAccepted(updated, "A's update of its own attachment");
    expectError(judgeable(updateByB, "B's update"), 404, 'Record not found');
  });

  it('MEDIA-UPDATE-1 an update before attachment changes description and focus', { needs: { updated } }, ({ updated }) => {
    const attachment = expectOk<Attachment>(judgeable(updated, 'the update'), 'Attachment', 200);
    expectEqual(attachment.description, UPDATED_DESCRIPTION, 'description', updated);
    // The focal point only from 2.3.0 (PNG_UPDATE).
    if (withFocus) expectFocus(focusOf(attachment), UPDATED_FOCUS, updated);
  });

  it('MEDIA-UPDATE-3 an update with a thumbnail that is not an image is refused with 422', { needs: { updated, thumbnailUpdate } }, ({ updated, thumbnailUpdate }) => {
    // The positive control: the same update without the thumbnail (MEDIA-UPDATE-1's) was accepted.
    updateAccepted(updated, 'the same update without the thumbnail');
    // The contract's text names the file ("File ... is invalid"); a server may name the thumbnail instead.
    expectError(judgeable(thumbnailUpdate, 'the update'), 422);
  });

  it('MEDIA-UPDATE-4 an update of an attachment that does not exist (one the run deleted) answers 404 "Record not found"', { needs: { updated, missing } }, ({ updated, missing }) => {
    // The positive control: A's update of its own attachment answered 2xx (a server without the update refuses all).
    updateAccepted(updated, "A's update of its own attachment");
    const exchange = judgeable(missing.update, 'the update');
    expectMissing(missing);
    expectError(exchange, 404, 'Record not found');
  });

  it('MEDIA-FOCUS-2 focus values in range round-trip through an update, and no focus value answers 5xx', { needs: { updated, focusUpdates } }, async ({ updated, focusUpdates }) => {
    // The property needs an update that applies a focal point at all: one that ignores it is MEDIA-UPDATE-1's failure.
    const update = judgeable(updated, 'the update');
    const applied = createdObject(update);
    if (update.status !== 200 || !applied || !focusIs(focusOf(applied as Attachment), UPDATED_FOCUS)) {
      block(causeOf('MEDIA-UPDATE-1', `the update to focus ${focusParam(UPDATED_FOCUS)} answered ${answerOf(update)}, meta.focus ${JSON.stringify(applied ? focusOf(applied as Attachment) : undefined)}`, update));
    }
    // Each run judges one of the updates made above, each once (MEDIA-UPDATE-1's among them): the runs are those examples.
    const runs: FocusRun[] = [{ focus: UPDATED_FOCUS, exchange: update }, ...focusUpdates];
    const property = fc.asyncProperty(fc.integer({ min: 0, max: runs.length - 1 }), async (run) => {
      const { focus, exchange } = runs[run] as FocusRun;
      check(exchange.status !== undefined && exchange.status < 500, 'an answer below HTTP 500', exchange.error ?? `HTTP ${exchange.status}`, exchange);
      // What a server does with a value out of range is not shown.
      if (focusInRange(focus)) expectFocus(focusOf(expectOk<Attachment>(exchange, 'Attachment', 200)), focus, exchange);
    });
    // The failure shows the request that broke the property.
    const details = await fc.check(property, { numRuns: runs.length, endOnFailure: true, examples: runs.map((_, run) => [run]) });
    if (details.failed) throw details.errorInstance instanceof Error ? details.errorInstance : new Error(fc.defaultReportMessage(details));
  });

  section('attached to a status', () => {
    it('MEDIA-ATTACH-1 a status created with media_ids[] carries those attachments', { needs: { attached, attachedAsJson } }, ({ attached: { creation, ids }, attachedAsJson }) => {
      // The order of media_attachments is not shown: compare as sets.
      const carried = mediaIdsOf(answered(creation)).sort();
      const wanted = [...ids].sort();
      if (attachedAsJson) {
        // The same creation as JSON, sent where the form's lost attachments: whether media_ids[] was read at all as form data.
        const asJson = createdObject(attachedAsJson);
        if (asJson && mediaIdsOf(asJson).sort().join() === wanted.join()) {
          block(causeOf('WIRE-FORM-1', 'media_ids[] sent as form data was not read: the same creation as JSON carried the attachments', creation.exchange));
        }
      }
      expectEqual(carried, wanted, 'ids of media_attachments', creation.exchange);
    });

    it('MEDIA-ATTACH-2 a status created with media_ids[] and sensitive is sensitive', { needs: { attached }, uses: { sensitiveWithoutMedia } }, ({ attached: { creation }, sensitiveWithoutMedia }) => {
      const { sensitive } = answered(creation);
      if (sensitive !== true) {
        // Whether sensitive is kept on any status, one without media tells: without a spoiler_text, as here, STATUS-CREATE-7's.
        const control = answered(sensitiveWithoutMedia);
        if (control.sensitive !== true) block(causeOf('STATUS-CREATE-7', `a status created with sensitive, without spoiler_text and media, answered sensitive = ${JSON.stringify(control.sensitive)}`, sensitiveWithoutMedia.exchange));
      }
      expectEqual(sensitive, true, 'sensitive', creation.exchange);
    });

    it(
      'MEDIA-EFFECT-1 the status that attaches the PNG carries the description and focal point its last update gave it',
      { needs: { png, attached, updated, thumbnailUpdate, focusUpdates }, uses: { attachByB } },
      ({ png: { attachment }, attached: { creation, ids }, updated, thumbnailUpdate, focusUpdates, attachByB }) => {
        if (!ids.includes(attachment.id)) {
          // B's creation with A's PNG made a status, so A's attaches an image of its own: B's status carrying the PNG is
          // MEDIA-ATTACH-3's; one made without it, the form's that lost media_ids[] (as MEDIA-ATTACH-3's check finds).
          const byB = attachByB.ok ? createdObject(attachByB.value) : undefined;
          const clause = byB && mediaIdsOf(byB).includes(attachment.id) ? 'MEDIA-ATTACH-3' : (formNotUnderstood()?.clause ?? 'WIRE-FORM-1');
          block(causeOf(clause, `B's creation with A's PNG made status ${String(byB?.id)}: A's status attaches an image of its own`, attachByB.exchange));
        }
        // The PNG as its updates left it: the last one accepted answered it so (each update's answer is its own clause's).
        const accepted = [updated, thumbnailUpdate, ...focusUpdates.map((run) => run.exchange)].filter((exchange) => createdId(exchange) === attachment.id);
        const last = accepted.at(-1);
        if (!last) block(causeOf('MEDIA-UPDATE-1', `the update of the PNG answered ${answerOf(updated)}`, updated));
        const expected = createdObject(last) as Attachment;
        const carried = (answered(creation).media_attachments as unknown[] | undefined)?.find((m): m is Attachment => isObject(m) && m.id === attachment.id);
        // A status made without the PNG it was given is MEDIA-ATTACH-1's to judge.
        if (!carried) block(causeOf('MEDIA-ATTACH-1', `a status created with media_ids[] of the PNG answered media_attachments ${JSON.stringify(mediaIdsOf(answered(creation)))}`, creation.exchange));
        expectEqual(carried.description, expected.description, 'description of the attached PNG, as its last update answered', creation.exchange as Exchange);
        // A focal point out of range the server accepted was put back to the upload's (focusUpdates).
        const putBack = focusUpdates.some(({ focus, exchange }) => !focusInRange(focus) && createdId(exchange));
        const lastFocus = focusOf(expected);
        // A last answer without a focal point is MEDIA-UPDATE-1's.
        if (withFocus && (putBack || isObject(lastFocus))) expectFocus(focusOf(carried), putBack ? PNG_FOCUS : (lastFocus as { x: number; y: number }), creation.exchange as Exchange);
      },
    );

    it(
      "MEDIA-EFFECT-2 another account's later read of a status with media carries them, with the description and focal point the creation answered",
      { requires: [requirement(b, NEEDS_B)], needs: { attachedReadByB } },
      ({ attachedReadByB: { creation, read } }) => {
        const asCreated = createdObject(creation) as Status;
        // A status made other than unlisted may be hidden from B: STATUS-CREATE-4's; an unlisted one hidden, STATUS-VIS-1's.
        if (asCreated.visibility !== ATTACHED.visibility) block(causeOf('STATUS-CREATE-4', `a status created unlisted answered visibility ${JSON.stringify(asCreated.visibility)}`, creation));
        if (read.status !== 200) block(causeOf('STATUS-VIS-1', `another account's read of an unlisted status answered ${answerOf(read)}`, read));
        const shown = expectOk<Status>(read, 'Status');
        const attachments = (status: Status) => (Array.isArray(status.media_attachments) ? status.media_attachments : []).filter(isObject) as Attachment[];
        const created = attachments(asCreated);
        // A creation that answered no media is MEDIA-ATTACH-1's.
        if (created.length === 0) block(causeOf('MEDIA-ATTACH-1', `a status created with media_ids[] answered media_attachments ${JSON.stringify(asCreated.media_attachments)}`, creation));
        // The order of media_attachments is not shown: compare as sets.
        expectEqual(mediaIdsOf(shown).sort(), mediaIdsOf(asCreated).sort(), 'ids of media_attachments, read by another account', read);
        for (const attachment of created) {
          const carried = attachments(shown).find((m) => m.id === attachment.id) as Attachment;
          expectEqual(carried.description, attachment.description, `description of attachment ${attachment.id}, read by another account`, read);
          expectFocusAsBefore(carried, attachment, read);
        }
      },
    );

    it(
      "MEDIA-ATTACH-3 another user's attachment in media_ids[] is refused",
      { requires: [requirement(b, NEEDS_B)], needs: { png, attachByB, attachByBAsJson }, uses: { attached } },
      ({ png: { attachment }, attachByB: exchange, attachByBAsJson: asJson, attached }) => {
        const status = createdObject(exchange);
        // A status of B's that carries A's attachment fails the clause whatever the control shows.
        if (status && mediaIdsOf(status).includes(attachment.id)) fail("a refusal: the attachment is A's", `B's status ${String(status.id)} was created with it (HTTP ${exchange.status})`, exchange);
        if (asJson) {
          // Made without the attachment from a form: whether media_ids[] was read at all, the same creation as JSON
          // tells (the control's creation, made after this one, may have shown already which form clause the server breaks).
          if (asJson.status !== undefined && asJson.status >= 400 && asJson.status < 500) {
            block(causeOf(formNotUnderstood()?.clause ?? 'WIRE-FORM-1', 'media_ids[] sent as form data was not read: the same creation as JSON was refused', exchange));
          }
        }
        // The positive control: the same creation with the caller's own attachments (MEDIA-ATTACH-1's) was accepted.
        if (!attached.ok) block(attached.cause);
        const { creation } = attached.value;
        if (!creation.exchange && !creation.ok) block(creation.cause);
        controlled(creation.exchange && succeeded(creation.exchange, creation.exchange), 'MEDIA-ATTACH-1', "A's creation with its own attachments");
        // Error bodies for failed POST /api/v1/statuses calls are not shown: any refusal will do.
        expectRefusal(judgeable(exchange, "B's creation"));
      },
    );
  });

  // The run-wide clause this group owns judges every Attachment it met, so it comes last.
  section('every answer of the group', () => {
    it.runWide('RESOURCE-ATTACHMENT-1', { uses: { png } }, ({ png }) => (png.ok ? undefined : png.cause));
  });
});

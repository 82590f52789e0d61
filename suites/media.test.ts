// The contract's "Media" section: the v1 and v2 uploads, reads while processing continues, updates, the focal
// point and attaching to a status, with the Errors rows these operations answer. The Uploading bucket allows
// 30 uploads per 30 minutes, so this file uploads five files once and lets several checks judge each:
//   image-640x480.png (v1, description and focus): sizes, read and update by its owner and by B, focus property, attached
//   image-320x240.jpg (v2): answered at once, read until processed, attached
//   unknown.bin (v1), not-an-image.png (v1, and v2 where it fails in the background)
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { beforeAll, describe, it, type TestContext } from 'vitest';
import { MEDIA_FIXTURES, uploadOf, type MediaFixture } from '../fixtures/media/index.ts';
import { actors, type Actor, type Attachment, type Status } from './support/actors.ts';
import { remember } from './support/cleanup.ts';
import { releaseAtLeast } from './support/config.ts';
import { jsonOf, type Exchange } from './support/http.ts';
import { needs, since } from './support/preconditions.ts';
import { check, expectEqual, expectError, expectJson, expectOk, expectRefusal, expectResource, fail } from './support/verify.ts';

const { config, a, b } = actors();
// An id no server has given out: far above any snowflake of this century.
const MISSING_ID = '999999999999999999';
const MEDIA_INVALID = 'Validation failed: File content type is invalid, File is invalid';
const FIRST_READ_MS = 100;
// Servers may keep focus as 32-bit floats or round it; a ten-thousandth is far below anything a client crops by.
const FOCUS_TOLERANCE = 1e-4;
// aspect may be rounded (Mastodon sends it unrounded, others to a few digits).
const ASPECT_TOLERANCE = 0.01;
// Size meta are whole pixels: a preview scaled from the original may be a pixel off the exact ratio.
const PIXEL_TOLERANCE = 1;

const PNG_DESCRIPTION = 'conformance probe: a gradient, 640 by 480';
const PNG_FOCUS = { x: 0.5, y: -0.25 };

/** The id of the attachment an upload created, if it created one. */
function idOf(exchange: Exchange | undefined): string | undefined {
  const json = exchange ? jsonOf(exchange) : undefined;
  if (!exchange?.status || exchange.status >= 300 || !json?.ok) return undefined;
  const id = (json.value as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** The attachment an upload answered; its status code is for MEDIA-UPLOAD-1 and MEDIA-V2-1 to judge. */
const uploaded = (exchange: Exchange) => expectOk<Attachment>(exchange, 'Attachment', [200, 202]);

/**
 * Reads an attachment until its processing ends (any answer but 206), waiting 100 ms and then twice as long
 * each time, so a slow server costs a few reads rather than many; gives up at CONFORMANCE_TIMEOUT_MS.
 */
async function readUntilProcessed(actor: Actor, id: string): Promise<Exchange[]> {
  const reads: Exchange[] = [];
  const deadline = Date.now() + config.timeoutMs;
  for (let wait = FIRST_READ_MS; ; wait *= 2) {
    await sleep(Math.min(wait, Math.max(0, deadline - Date.now())));
    const read = await actor.get(`/api/v1/media/${id}`);
    reads.push(read);
    if (read.status !== 206 || Date.now() >= deadline) return reads;
  }
}

/** Whether a read answered the processed attachment: 200 with the url of its file. */
function processed(read: Exchange | undefined): read is Exchange {
  const json = read?.status === 200 ? jsonOf(read) : undefined;
  return json?.ok === true && typeof (json.value as { url?: unknown } | null)?.url === 'string';
}

/**
 * The last read, which must have ended processing: still 206 at the deadline fails the running check. Without
 * an attachment to read the check is skipped: the upload's own checks report why there is none.
 */
function finalRead(context: TestContext, reads: readonly Exchange[]): Exchange {
  const last = reads.at(-1);
  if (!last) return context.skip('the v2 upload created no attachment to read');
  if (last.status === 206) {
    fail(`processing ends within CONFORMANCE_TIMEOUT_MS (${config.timeoutMs} ms)`, `HTTP 206 after ${reads.length} reads`, last);
  }
  return last;
}

type Size = NonNullable<Attachment['meta']['original']>;

/** One of meta.original and meta.small: integers, size "<width>x<height>", aspect width/height. */
function expectSize(size: Size | undefined, what: string, exchange: Exchange): Size {
  if (!size) fail(`${what}: {width, height, size, aspect}`, `${what}: missing`, exchange);
  check(Number.isInteger(size.width) && Number.isInteger(size.height), `${what}.width and .height: integers`, `${JSON.stringify(size)}`, exchange);
  expectEqual(size.size, `${size.width}x${size.height}`, `${what}.size`, exchange);
  check(Math.abs(size.aspect - size.width / size.height) <= ASPECT_TOLERANCE, `${what}.aspect = ${size.width}/${size.height}`, `${what}.aspect = ${size.aspect}`, exchange);
  return size;
}

function expectFocus(actual: Attachment['meta']['focus'], expected: { x: number; y: number }, exchange: Exchange): void {
  const close = actual !== undefined && Math.abs(actual.x - expected.x) <= FOCUS_TOLERANCE && Math.abs(actual.y - expected.y) <= FOCUS_TOLERANCE;
  check(close, `meta.focus = ${JSON.stringify(expected)}`, `meta.focus = ${JSON.stringify(actual)}`, exchange);
}

/** The focus parameter as the contract writes it: "x,y". */
const focusParam = (focus: { x: number; y: number }) => `${focus.x},${focus.y}`;
const inFocusRange = (v: number) => v >= -1 && v <= 1;

describe('Media', () => {
  const v2 = releaseAtLeast(config.serverVersion, '3.1.3');
  let png: Exchange;
  let unknown: Exchange;
  let invalid: Exchange;
  let jpeg: Exchange | undefined;
  let jpegReads: Exchange[] = [];
  let invalidV2: Exchange | undefined;
  let invalidV2Reads: Exchange[] = [];

  beforeAll(async () => {
    png = await a.sendUpload(MEDIA_FIXTURES.png, { description: PNG_DESCRIPTION, focus: focusParam(PNG_FOCUS) });
    unknown = await a.sendUpload(MEDIA_FIXTURES.unknown);
    invalid = await a.sendUpload(MEDIA_FIXTURES.notAnImage);
    if (!v2) return;
    // Both v2 uploads first, then the reads: the second file processes while the first is read.
    jpeg = await a.sendUpload(MEDIA_FIXTURES.jpeg, {}, 'v2');
    invalidV2 = await a.sendUpload(MEDIA_FIXTURES.notAnImage, {}, 'v2');
    const jpegId = idOf(jpeg);
    if (jpegId) jpegReads = await readUntilProcessed(a, jpegId);
    const invalidId = idOf(invalidV2);
    if (invalidId) invalidV2Reads = await readUntilProcessed(a, invalidId);
  });

  it('MEDIA-UPLOAD-1 the v1 upload answers 200 and an Attachment', () => {
    expectOk(png, 'Attachment', 200);
  });

  it('RESOURCE-ATTACHMENT-1 every Attachment answered has the fields and types of the contract', () => {
    // The body of a 206 read is not given by the contract, so it is not judged.
    const answers = [png, unknown, jpeg, jpegReads.at(-1)].filter((e): e is Exchange => idOf(e) !== undefined && e?.status !== 206);
    if (answers.length === 0) fail('an Attachment to judge', 'no upload created an attachment', png);
    for (const exchange of answers) expectResource('Attachment', expectJson(exchange, [200, 202]), exchange);
  });

  it('MEDIA-UPLOAD-2 meta.original is the real size of the uploaded image, with size "<width>x<height>" and aspect', () => {
    const judge = (exchange: Exchange, fixture: MediaFixture) => {
      const { meta } = expectOk<Attachment>(exchange, 'Attachment', [200, 202]);
      const original = expectSize(meta.original, 'meta.original', exchange);
      expectEqual([original.width, original.height], [fixture.width, fixture.height], `meta.original [width, height] of ${fixture.file}`, exchange);
      expectSize(meta.small, 'meta.small', exchange);
    };
    judge(png, MEDIA_FIXTURES.png);
    // The JPEG's sizes are known once its processing has finished: on a read that answered 200 with its url.
    const jpegRead = jpegReads.at(-1);
    if (processed(jpegRead)) judge(jpegRead, MEDIA_FIXTURES.jpeg);
  });

  it('MEDIA-UPLOAD-3 meta.small keeps the aspect of meta.original: previews are never cropped', () => {
    const { meta } = uploaded(png);
    const original = expectSize(meta.original, 'meta.original', png);
    const small = expectSize(meta.small, 'meta.small', png);
    const uncroppedHeight = (small.width * original.height) / original.width;
    check(
      Math.abs(small.height - uncroppedHeight) <= PIXEL_TOLERANCE,
      `meta.small ${small.width}x${Math.round(uncroppedHeight)} (the aspect of ${original.size})`,
      `meta.small ${small.size}`,
      png,
    );
  });

  it('MEDIA-UPLOAD-4 the description given with the upload is the Attachment description', () => {
    expectEqual(uploaded(png).description, PNG_DESCRIPTION, 'description', png);
  });

  it('MEDIA-FOCUS-1 the focus given with the upload is meta.focus', (context) => {
    since(context, config, '2.3.0');
    expectFocus(uploaded(png).meta.focus, PNG_FOCUS, png);
  });

  it('MEDIA-UPLOAD-5 a file that is not understood becomes an attachment of type unknown with blurhash null', async (context) => {
    // The contract allows both: "an attachment is created even when the file is not understood", and 422 for an
    // "unsupported ... type". A refusal must then be the Errors row.
    if (unknown.status === 422) {
      expectError(unknown, 422, MEDIA_INVALID);
      await context.annotate('the server refused a file it does not understand (422) instead of keeping it as type unknown', 'observation');
      return;
    }
    const attachment = uploaded(unknown);
    expectEqual(attachment.type, 'unknown', 'type', unknown);
    expectEqual(attachment.blurhash, null, 'blurhash', unknown);
  });

  it('MEDIA-UPLOAD-6 a file that claims to be an image and is not answers 422 with the contract text', () => {
    expectError(invalid, 422, MEDIA_INVALID);
  });

  it('MEDIA-V2-1 the v2 upload answers 202 and an Attachment with url null', (context) => {
    since(context, config, '3.1.3');
    const attachment = expectOk<Attachment>(jpeg as Exchange, 'Attachment', 202);
    expectEqual(attachment.url, null, 'url', jpeg);
  });

  it('MEDIA-V2-2 the v2 upload answer carries the preview_url of the thumbnail it prepared', (context) => {
    since(context, config, '3.1.3');
    // Read without the schema: a missing preview is this clause's failure, not the resource's.
    const body = expectJson(jpeg as Exchange, [200, 202]) as { preview_url?: unknown };
    check(typeof body.preview_url === 'string' && body.preview_url !== '', 'preview_url: a URL', `preview_url: ${JSON.stringify(body.preview_url)}`, jpeg);
  });

  it('MEDIA-READ-1 reading the v2 upload reaches 200 and the Attachment once processing has finished', (context) => {
    since(context, config, '3.1.3');
    const last = finalRead(context, jpegReads);
    expectEqual(expectOk<Attachment>(last, 'Attachment', 200).id, idOf(jpeg), 'id', last);
  });

  it('MEDIA-READ-2 a read before processing has finished answers 206; a 200 read carries the url of the file', async (context) => {
    since(context, config, '3.1.3');
    needs(context, jpegReads.length > 0, 'the v2 upload created no attachment to read');
    // A 206 answer's body is not given by the contract, so it is not judged; the final status is MEDIA-READ-1's.
    for (const read of jpegReads) {
      if (read.status === 200) {
        const { url } = expectOk<Attachment>(read, 'Attachment', 200);
        check(typeof url === 'string' && url !== '', 'a 200 read: url of the processed file', `url: ${JSON.stringify(url)}`, read);
      }
    }
    await context.annotate(`reads until processed: ${jpegReads.map((r) => r.status).join(', ')}`, 'observation');
  });

  it('MEDIA-READ-3 a read where processing failed answers 422 with the contract text', (context) => {
    since(context, config, '3.1.3');
    // A server may judge the file before it answers; then no processing can fail later (the upload row covers it).
    if (invalidV2?.status === 422) context.skip('the v2 upload refused the invalid file at once, so no processing failed');
    expectError(finalRead(context, invalidV2Reads), 422, MEDIA_INVALID);
  });

  it("MEDIA-READ-4 reading another user's attachment answers 404 \"Record not found\"", async (context) => {
    since(context, config, '3.1.3');
    needs(context, b, 'needs CONFORMANCE_TOKEN_B');
    const id = uploaded(png).id;
    expectError(await (b as Actor).get(`/api/v1/media/${id}`), 404, 'Record not found');
  });

  it('MEDIA-READ-5 reading an attachment that does not exist answers 404 "Record not found"', async (context) => {
    since(context, config, '3.1.3');
    expectError(await a.get(`/api/v1/media/${MISSING_ID}`), 404, 'Record not found');
  });

  it("MEDIA-UPDATE-2 updating another user's attachment answers 404 \"Record not found\"", async (context) => {
    needs(context, b, 'needs CONFORMANCE_TOKEN_B');
    const id = uploaded(png).id;
    expectError(await (b as Actor).put(`/api/v1/media/${id}`, { description: 'conformance probe: not yours' }), 404, 'Record not found');
  });

  it('MEDIA-UPDATE-1 an update before attachment changes description and focus', async () => {
    const id = uploaded(png).id;
    const focus = { x: -0.75, y: 0.5 };
    const withFocus = releaseAtLeast(config.serverVersion, '2.3.0');
    const description = 'conformance probe: an updated description';
    const exchange = await a.put(`/api/v1/media/${id}`, { description, focus: withFocus ? focusParam(focus) : undefined });
    const attachment = expectOk<Attachment>(exchange, 'Attachment', 200);
    expectEqual(attachment.description, description, 'description', exchange);
    if (withFocus) expectFocus(attachment.meta.focus, focus, exchange);
  });

  it('MEDIA-UPDATE-3 an update with a thumbnail that is not an image is refused with 422', async (context) => {
    since(context, config, '3.2.0');
    const id = uploaded(png).id;
    const exchange = await a.put(`/api/v1/media/${id}`, {}, { uploads: [uploadOf(MEDIA_FIXTURES.notAnImage, 'thumbnail')] });
    // The contract's text names the file ("File ... is invalid"); a server may name the thumbnail instead.
    expectError(exchange, 422);
  });

  it('MEDIA-FOCUS-2 focus values in range round-trip through an update, and no focus value answers 5xx', async (context) => {
    since(context, config, '2.3.0');
    const id = uploaded(png).id;
    const inRange = fc.integer({ min: -100, max: 100 }).map((n) => n / 100);
    const outOfRange = fc.tuple(fc.integer({ min: 101, max: 400 }), fc.boolean()).map(([n, negative]) => (negative ? -n : n) / 100);
    const coordinate = fc.oneof({ arbitrary: inRange, weight: 4 }, { arbitrary: outOfRange, weight: 1 });
    // What a server does with a value out of range is not shown; an accepted one is put right afterwards, so the
    // attachment stays valid for the checks that attach it.
    let acceptedOutOfRange = false;
    const property = fc.asyncProperty(fc.record({ x: coordinate, y: coordinate }), async (focus) => {
      const inRange = inFocusRange(focus.x) && inFocusRange(focus.y);
      const exchange = await a.put(`/api/v1/media/${id}`, { focus: focusParam(focus) }, { malformed: !inRange });
      check(exchange.status !== undefined && exchange.status < 500, 'an answer below HTTP 500', exchange.error ?? `HTTP ${exchange.status}`, exchange);
      if (inRange) {
        expectFocus(expectOk<Attachment>(exchange, 'Attachment', 200).meta.focus, focus, exchange);
      } else if ((exchange.status as number) < 300) {
        acceptedOutOfRange = true;
      }
    });
    // Eight updates of one attachment (two fixed: a corner of the range and a value beyond it); no shrinking,
    // which would cost more requests: the failure shows the request that broke the property.
    const examples: [{ x: number; y: number }][] = [[{ x: -1, y: 1 }], [{ x: 1.5, y: 0 }]];
    const details = await fc.check(property, { numRuns: 8, endOnFailure: true, examples });
    if (acceptedOutOfRange) await a.put(`/api/v1/media/${id}`, { focus: focusParam(PNG_FOCUS) });
    if (details.failed) throw details.errorInstance instanceof Error ? details.errorInstance : new Error(fc.defaultReportMessage(details));
  });

  it("MEDIA-ATTACH-3 another user's attachment in media_ids[] is refused", async (context) => {
    needs(context, b, 'needs CONFORMANCE_TOKEN_B');
    const other = b as Actor;
    const id = uploaded(png).id;
    const exchange = await other.post('/api/v1/statuses', { status: 'conformance probe: not my media', media_ids: [id], visibility: 'private' });
    const created = idOf(exchange);
    if (created) remember(`status ${created} of ${other.name}`, () => other.delete(`/api/v1/statuses/${created}`));
    // Error bodies for failed POST /api/v1/statuses calls are not shown: any refusal will do.
    expectRefusal(exchange);
  });

  describe('attached to a status', () => {
    let status: Status;
    let creation: Exchange;
    let attachedIds: string[];

    beforeAll(async () => {
      // The JPEG only once processed: Mastodon refuses to attach a file still processing.
      attachedIds = [idOf(png), processed(jpegReads.at(-1)) ? idOf(jpeg) : undefined].filter((id): id is string => id !== undefined);
      if (attachedIds.length === 0) fail('an attachment to attach', 'no upload created an attachment', png);
      ({ status, exchange: creation } = await a.createStatus({
        status: 'conformance probe: a status with media',
        media_ids: attachedIds,
        sensitive: true,
        visibility: 'private',
      }));
    });

    it('MEDIA-ATTACH-1 a status created with media_ids[] carries those attachments', () => {
      const carried = (status.media_attachments as Attachment[]).map((m) => m.id);
      // The order of media_attachments is not shown: compare as sets.
      expectEqual([...carried].sort(), [...attachedIds].sort(), 'ids of media_attachments', creation);
    });

    it('MEDIA-ATTACH-2 a status created with media_ids[] and sensitive is sensitive', () => {
      expectEqual(status.sensitive, true, 'sensitive', creation);
    });
  });
});

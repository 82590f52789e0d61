// The input space of the Media table's upload (POST /api/v1/media, /api/v2/media) and update (PUT of the caller's own
// attachment), docs/exploring.md: each form parameter with classes of values (valid, at the edge of what the contract
// allows, past it, of the wrong type), drawn from CONFORMANCE_SEED. A covering set gives every class of every parameter
// one row: the valid classes combined, every other class alone on a valid upload (its verdict is its own); random rows
// follow, seeded. Uploads are the Uploading bucket's (30 per 30 minutes per account): the exploration's share is
// declared once (EXPLORE_UPLOADS) and each upload is counted before it is sent, a refused one too, as servers count it.
// What the contract says of each row is the oracle's (judge/explore-media-oracle.ts); this module draws and sends.
import { uploadOf } from '../../../fixtures/media/index.ts';
import type { Actor } from './actors.ts';
import { BASE_UPLOAD, FILES, formOf, MEDIA_SHRINK_BOUND, type MediaParameter, removable, type SentUpdate, type SentUpload, THUMBNAILS, type UpdateInput, type UpdateRow, type UploadInput, type UploadRow, UploadShare, without } from './explore-media-model.ts';
export * from './explore-media-model.ts';

/**
 * Sends one upload as `caller`, counted first. `judgedHere`: a clause covers the row (not open), so that its check,
 * not ERRORS-5XX-1, judges a server error. What it makes is on the ledger (actors.ts sendUpload).
 */
export async function sendUploadRow(caller: Actor, input: UploadInput, share: UploadShare, judgedHere: boolean): Promise<SentUpload | undefined> {
  if (!share.take()) return undefined;
  const { row } = input;
  const thumbnail = row.thumbnail === 'absent' ? {} : { thumbnail: THUMBNAILS[row.thumbnail] };
  const exchange = await caller.sendUpload(FILES[row.file], formOf(row, input.drawn), row.api, { ...thumbnail, ...(judgedHere ? { malformed: true } : {}) });
  return { input, exchange };
}

/** Sends one update of the caller's own attachment `id`. */
export async function sendUpdateRow(caller: Actor, input: UpdateInput, id: string, judgedHere: boolean): Promise<SentUpdate> {
  const { row } = input;
  const uploads = row.thumbnail === 'absent' ? [] : [uploadOf(THUMBNAILS[row.thumbnail], 'thumbnail')];
  const options = { ...(uploads.length ? { uploads } : {}), ...(judgedHere ? { malformed: true } : {}) };
  const exchange = await caller.put(`/api/v1/media/${encodeURIComponent(id)}`, formOf(row, input.drawn), options);
  return { input, id, exchange };
}

/** The base an update's row shrinks towards: nothing sent. */
const NO_UPDATE: UpdateRow = { description: 'absent', focus: 'absent', thumbnail: 'absent' };

/**
 * The smallest row that still breaks what `broken` tells: each parameter the broken clause does not concern taken
 * out in turn (back to the base's class), kept out where the clause still breaks, within MEDIA_SHRINK_BOUND tries (a
 * description lost beside a thumbnail shrinks to the two). `send` sends a row, undefined where it may not (the share).
 */
async function shrinkRow<R extends object, S extends { input: { row: R } }>(finding: S, base: R, keep: readonly MediaParameter[], broken: (sent: S) => boolean, send: (row: R) => Promise<S | undefined>): Promise<S> {
  let smallest = finding;
  const parameters = removable(finding.input.row, base, keep);
  for (const p of parameters.slice(0, MEDIA_SHRINK_BOUND.rowsPerFinding)) {
    const row = without(smallest.input.row, base, p);
    // An update that would send nothing judges no effect: the parameter stays.
    if (!Object.values(row).some((k) => k !== 'absent')) continue;
    const sent = await send(row);
    if (!sent) break;
    if (broken(sent)) smallest = sent;
  }
  return smallest;
}

/** The smallest upload that still breaks what `broken` tells (shrinkRow), each try an upload within the share; the values drawn are kept. */
export function shrinkUpload(caller: Actor, finding: SentUpload, keep: readonly MediaParameter[], broken: (sent: SentUpload) => boolean, share: UploadShare, judgedHere: (row: UploadRow) => boolean): Promise<SentUpload> {
  return shrinkRow(finding, BASE_UPLOAD, keep, broken, (row) => sendUploadRow(caller, { row, drawn: finding.input.drawn, drawnBy: 'shrinking' }, share, judgedHere(row)));
}

/** The smallest update that still breaks what `broken` tells (shrinkRow), each try a request, no upload. */
export function shrinkUpdate(caller: Actor, finding: SentUpdate, keep: readonly MediaParameter[], broken: (sent: SentUpdate) => boolean, judgedHere: (row: UpdateRow) => boolean): Promise<SentUpdate> {
  return shrinkRow(finding, NO_UPDATE, keep, broken, (row) => sendUpdateRow(caller, { row, drawn: finding.input.drawn, drawnBy: 'shrinking' }, finding.id, judgedHere(row)));
}

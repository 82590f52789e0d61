// The model of the media uploads and updates: their classes, covering and random rows, the uploads' share, the forms and
// costs, and the types of what was sent. explore-media.ts sends them; this module holds no request, so that the oracle
// (judge/explore-media-oracle.ts) reads it without importing what sends.
import fc from 'fast-check';
import { matching } from './matching.ts';
import { MEDIA_FIXTURES, type MediaFixture } from '../../../fixtures/media/index.ts';
import type { FormParams } from '../talk/form.ts';
import type { Exchange } from '../talk/http.ts';
import type { UploadApi } from './actors.ts';
import { drawStreams, EXPLORE_STREAMS, streamCost, streamCovering, type StreamInput } from './explore-streams-model.ts';

/** How the contract rules a class: its documented effect (valid), a refusal row, or no rule at all (open). */
export type MediaRuling = 'valid' | 'refused' | 'open';

export interface MediaClass {
  name: string;
  ruling: MediaRuling;
  /** How it reads in --list and in a finding. */
  words: string;
}

/** The upload's parameters: the endpoint (v1 or v2) and its form, each with its classes. */
export interface UploadRow {
  api: UploadApi;
  file: 'png' | 'jpeg' | 'gif' | 'unknown' | 'garbage';
  description: DescriptionClass;
  focus: FocusClass;
  thumbnail: 'absent' | 'image' | 'garbage';
}
type DescriptionClass = 'absent' | 'text' | 'empty' | 'long';
type FocusClass = 'absent' | 'inside' | 'edge' | 'past' | 'malformed';
/** The update's parameters: the upload's form without the file. */
export type UpdateRow = Pick<UploadRow, 'description' | 'focus' | 'thumbnail'>;
export type MediaParameter = keyof UploadRow;

const c = (name: string, ruling: MediaRuling, words: string): MediaClass => ({ name, ruling, words });
// Valid classes first, in the order the covering rows combine them.
export const MEDIA_CLASSES: Record<MediaParameter, readonly MediaClass[]> = {
  api: [c('v1', 'valid', 'POST /api/v1/media'), c('v2', 'valid', 'POST /api/v2/media')],
  file: [
    c('png', 'valid', 'a PNG image'),
    c('jpeg', 'valid', 'a JPEG image'),
    c('gif', 'valid', 'a GIF image'),
    c('unknown', 'valid', 'a file that is no image (application/octet-stream): type unknown'),
    c('garbage', 'refused', 'garbage bytes claiming image/png: an invalid file'),
  ],
  description: [c('text', 'valid', 'a text'), c('absent', 'valid', 'left out'), c('empty', 'open', 'the empty string (whether it is kept or null: not shown)'), c('long', 'open', '1600 characters (size limits: not shown)')],
  focus: [
    c('inside', 'valid', '"x,y" inside -1..1'),
    c('edge', 'valid', '"x,y" with a coordinate at -1 or 1'),
    c('absent', 'valid', 'left out'),
    c('past', 'open', '"x,y" with a coordinate past -1..1 (the answer is not shown; no 5xx, MEDIA-FOCUS-2)'),
    c('malformed', 'open', 'no pair of numbers (the answer is not shown; no 5xx, MEDIA-FOCUS-2)'),
  ],
  thumbnail: [c('image', 'valid', 'a PNG thumbnail'), c('absent', 'valid', 'left out'), c('garbage', 'refused', 'garbage bytes claiming image/png: an invalid file')],
};
export const UPLOAD_PARAMETERS: readonly MediaParameter[] = ['api', 'file', 'description', 'focus', 'thumbnail'];
export const UPDATE_PARAMETERS: readonly (keyof UpdateRow)[] = ['description', 'focus', 'thumbnail'];

/** The clause whose release brought a parameter's classes other than the default (the Versioning table). */
export const MEDIA_RELEASES: Partial<Record<MediaParameter, { clause: string; fallback: string }>> = {
  api: { clause: 'MEDIA-V2-1', fallback: 'v1' },
  focus: { clause: 'MEDIA-FOCUS-1', fallback: 'absent' },
  thumbnail: { clause: 'MEDIA-UPDATE-3', fallback: 'absent' },
};

export const classOf = (parameter: MediaParameter, name: string): MediaClass => MEDIA_CLASSES[parameter].find((k) => k.name === name) as MediaClass;

/** The classes of a parameter the server's release has: a parameter not yet released is left out (its fallback). */
export function releasedClasses(parameter: MediaParameter, released: (clause: string) => boolean): readonly MediaClass[] {
  const release = MEDIA_RELEASES[parameter];
  if (!release || released(release.clause)) return MEDIA_CLASSES[parameter];
  return MEDIA_CLASSES[parameter].filter((k) => k.name === release.fallback);
}

/** The upload every other class is sent alone on: a PNG by v1, nothing else. */
export const BASE_UPLOAD: UploadRow = { api: 'v1', file: 'png', description: 'absent', focus: 'absent', thumbnail: 'absent' };

/**
 * The covering rows of `parameters`: the valid classes combined, row i taking each parameter's (i mod its count)
 * valid class, as many rows as the parameter with most valid classes has; then every other class alone on `base`.
 */
function coveringOf<R extends object>(parameters: readonly (keyof R & MediaParameter)[], base: R, released: (clause: string) => boolean): R[] {
  const valid = parameters.map((p) => releasedClasses(p, released).filter((k) => k.ruling === 'valid'));
  const rows: R[] = [];
  const combined = Math.max(...valid.map((classes) => classes.length));
  for (let i = 0; i < combined; i++) rows.push(Object.fromEntries(parameters.map((p, j) => [p, (valid[j] as MediaClass[])[i % (valid[j] as MediaClass[]).length]?.name])) as R);
  for (const p of parameters) for (const k of releasedClasses(p, released)) if (k.ruling !== 'valid') rows.push({ ...base, [p]: k.name });
  return rows;
}

export const uploadCovering = (released: (clause: string) => boolean): UploadRow[] => coveringOf<UploadRow>(UPLOAD_PARAMETERS, BASE_UPLOAD, released);
/** The update's covering rows: each sends one or more parameters; none sends nothing (its answer would judge no effect). */
export const updateCovering = (released: (clause: string) => boolean): UpdateRow[] =>
  coveringOf<UpdateRow>(UPDATE_PARAMETERS, { description: 'absent', focus: 'absent', thumbnail: 'absent' }, released).filter((row) => Object.values(row).some((k) => k !== 'absent'));

/** Rows drawn whole from the seed, each parameter's class from its released ones. */
function randomRowsOf<R extends object>(parameters: readonly (keyof R & MediaParameter)[], released: (clause: string) => boolean, seed: number, count: number): R[] {
  if (count <= 0) return [];
  const record = Object.fromEntries(parameters.map((p) => [p, fc.constantFrom(...releasedClasses(p, released).map((k) => k.name))]));
  return fc.sample(fc.record(record) as unknown as fc.Arbitrary<R>, { seed, numRuns: count });
}

/**
 * The Uploading bucket's calls --explore N adds to an account's, by what spends them, declared once: beside a run's own
 * (at most 15 per account, suites/self/budget.test.ts) each account stays within the bucket's 30 per 30 minutes.
 * `objects`: the attachments the id classes name (A's own and the one it deletes, B's). A's `inputs`: the explored
 * uploads, covering, random and shrinking.
 */
export const EXPLORE_UPLOADS = {
  A: { objects: 2, inputs: 13 },
  B: { objects: 1 },
} as const;
/** The uploads shrinking keeps of A's inputs: the covering and random rows leave them. */
export const SHRINK_UPLOADS = 2;
/** The most updates drawn at random beside the covering ones (each one request, no upload). */
export const RANDOM_UPDATES = 2;

export const exploreUploadsOf = (who: keyof typeof EXPLORE_UPLOADS): number => Object.values(EXPLORE_UPLOADS[who]).reduce((sum: number, n: number) => sum + n, 0);

/** The values a row sends, drawn from the seed: the focal point and the description of its classes. */
export interface Drawn {
  focus?: string;
  description?: string;
}

const hundredths = (min: number, max: number) => fc.integer({ min, max }).map((n) => n / 100);
const FOCUS_VALUES: Record<Exclude<FocusClass, 'absent'>, fc.Arbitrary<string>> = {
  inside: fc.tuple(hundredths(-99, 99), hundredths(-99, 99)).map(([x, y]) => `${x},${y}`),
  // A coordinate at -1 or 1, the other anywhere in range: corners and sides.
  edge: fc.tuple(fc.constantFrom(-1, 1), hundredths(-100, 100), fc.boolean()).map(([edge, other, xFirst]) => (xFirst ? `${edge},${other}` : `${other},${edge}`)),
  past: fc.tuple(fc.constantFrom(-1, 1), hundredths(101, 500), hundredths(-100, 100), fc.boolean()).map(([sign, past, other, xFirst]) => (xFirst ? `${sign * past},${other}` : `${other},${sign * past}`)),
  malformed: fc.constantFrom('a,b', '0.5', '0.5,0.5,0.5', 'NaN,0', '1;1', ','),
};
const DESCRIPTION_VALUES: Record<Exclude<DescriptionClass, 'absent'>, fc.Arbitrary<string>> = {
  text: matching(/^[a-z]{3,12}( [a-z]{3,12}){0,3}$/).map((words) => `conformance probe: ${words}`),
  empty: fc.constant(''),
  long: fc.constant('conformance probe, a long description. '.repeat(41).slice(0, 1600)),
};

/** The values of a row's classes, drawn from their own stream of the seed (`k`: the row's place). */
export function drawValues(row: Pick<UploadRow, 'focus' | 'description'>, seed: number, k: number): Drawn {
  const focus = row.focus === 'absent' ? undefined : fc.sample(FOCUS_VALUES[row.focus], { seed: seed + 2_000_003 + k, numRuns: 1 })[0];
  const description = row.description === 'absent' ? undefined : fc.sample(DESCRIPTION_VALUES[row.description], { seed: seed + 3_000_017 + k, numRuns: 1 })[0];
  return { ...(focus === undefined ? {} : { focus }), ...(description === undefined ? {} : { description }) };
}

export interface UploadInput {
  row: UploadRow;
  drawn: Drawn;
  drawnBy: 'covering' | 'random' | 'shrinking';
}
export interface UpdateInput {
  row: UpdateRow;
  drawn: Drawn;
  drawnBy: 'covering' | 'random' | 'shrinking';
}

/** What the media exploration may take: whether it runs, what the release has, and the requests it may spend. */
export interface MediaScope {
  released: (clause: string) => boolean;
  /** Requests the explored media may spend (--explore N's own, within the uploads above). */
  requests: number;
}

/** The file a row's file class sends, and its thumbnail. */
export const FILES: Record<UploadRow['file'], MediaFixture> = { png: MEDIA_FIXTURES.png, jpeg: MEDIA_FIXTURES.jpeg, gif: MEDIA_FIXTURES.gif, unknown: MEDIA_FIXTURES.unknown, garbage: MEDIA_FIXTURES.notAnImage };
export const THUMBNAILS: Record<Exclude<UploadRow['thumbnail'], 'absent'>, MediaFixture> = { image: MEDIA_FIXTURES.thumbnail, garbage: MEDIA_FIXTURES.notAnImage };

/** Whether a conforming server makes an attachment of the row: not where a file or a thumbnail is invalid. */
const makes = (row: UploadRow) => row.file !== 'garbage' && row.thumbnail !== 'garbage';
/**
 * The /api requests an upload costs on a server that answers as the contract says: its own, and for an attachment
 * made, the ledger's delete and its read (as the objects' attachments are counted), and the read of its file (outside
 * /api: `uploadFiles`).
 */
export const uploadRequests = (row: UploadRow): number => (makes(row) ? 3 : 1);
export const uploadFiles = (row: UploadRow): number => (makes(row) ? 1 : 0);

/** The explored uploads and updates of a run, the same for one seed: the covering rows first, then random ones, within the uploads and the requests. */
export function drawMedia(scope: MediaScope, seed: number): { uploads: UploadInput[]; updates: UpdateInput[] } {
  let requests = scope.requests;
  let uploadsLeft = EXPLORE_UPLOADS.A.inputs - SHRINK_UPLOADS;
  const uploads: UploadInput[] = [];
  const updates: UpdateInput[] = [];
  const takeUpload = (row: UploadRow, drawnBy: UploadInput['drawnBy']) => {
    if (uploadsLeft < 1 || requests < uploadRequests(row)) return;
    uploadsLeft -= 1;
    requests -= uploadRequests(row);
    uploads.push({ row, drawn: drawValues(row, seed, uploads.length), drawnBy });
  };
  const takeUpdate = (row: UpdateRow, drawnBy: UpdateInput['drawnBy']) => {
    if (requests < 1) return;
    requests -= 1;
    updates.push({ row, drawn: drawValues(row, seed, 500 + updates.length), drawnBy });
  };
  // Covering first, an upload and an update a round, so that both are reached before either is reached twice.
  const coveringUploads = uploadCovering(scope.released);
  const coveringUpdates = updateCovering(scope.released);
  for (let round = 0; round < Math.max(coveringUploads.length, coveringUpdates.length); round++) {
    const upload = coveringUploads[round];
    const update = coveringUpdates[round];
    if (upload) takeUpload(upload, 'covering');
    if (update) takeUpdate(update, 'covering');
  }
  for (const row of randomRowsOf<UploadRow>(UPLOAD_PARAMETERS, scope.released, seed + 4_001, uploadsLeft)) takeUpload(row, 'random');
  for (const row of randomRowsOf<UpdateRow>(UPDATE_PARAMETERS, scope.released, seed + 5_003, RANDOM_UPDATES)) if (Object.values(row).some((k) => k !== 'absent')) takeUpdate(row, 'random');
  return { uploads, updates };
}

/** The form a row sends: the drawn description and focus, where its classes send one (a shrunk row keeps its finding's values). */
export const formOf = (row: Pick<UploadRow, 'description' | 'focus'>, drawn: Drawn): FormParams => ({
  ...(row.description === 'absent' || drawn.description === undefined ? {} : { description: drawn.description }),
  ...(row.focus === 'absent' || drawn.focus === undefined ? {} : { focus: drawn.focus }),
});

/** A row sent, and its answer. */
export interface SentUpload {
  input: UploadInput;
  exchange: Exchange;
}
export interface SentUpdate {
  input: UpdateInput;
  /** The attachment updated: the caller's own. */
  id: string;
  exchange: Exchange;
}

/**
 * The count of the Uploading bucket the explored inputs may still spend: each upload is counted before it is sent,
 * a refused one too, and none is sent past the share.
 */
export class UploadShare {
  constructor(private left: number) {}
  take(): boolean {
    if (this.left < 1) return false;
    this.left -= 1;
    return true;
  }
  get remaining(): number {
    return this.left;
  }
}

/**
 * The parameters shrinking takes out of a finding's row, one at a time (each back to the base's class), in the
 * order of the table: those `keep` names (the ones the broken clause concerns) stay.
 */
export function removable<R extends object>(row: R, base: R, keep: readonly MediaParameter[]): (keyof R & MediaParameter)[] {
  return (Object.keys(row) as (keyof R & MediaParameter)[]).filter((p) => !keep.includes(p) && row[p] !== base[p]);
}

/** A row with one parameter back to the base's class. */
export const without = <R extends object>(row: R, base: R, p: keyof R): R => ({ ...row, [p]: base[p] });

/** How a row reads in a finding: each parameter sent, with its class and the value drawn. */
export function describeRow(row: Partial<UploadRow>, drawn: Drawn): string {
  const parts = (Object.keys(row) as MediaParameter[])
    .filter((p) => row[p] !== 'absent')
    .map((p) => {
      const value = p === 'focus' ? ` ${JSON.stringify(drawn.focus)}` : p === 'description' ? ` (${(drawn.description ?? '').length} characters)` : '';
      return p === 'api' ? `${row.api}` : `${p} ${row[p]}${value}`;
    });
  return parts.join(', ');
}

/** The most rows shrinking one finding may send (an upload each, within the share), and the most findings shrunk. */
export const MEDIA_SHRINK_BOUND = { rowsPerFinding: 2, findings: 3 } as const;

/** What --explore N explores of media and streams: nothing without N; else the streams (within EXPLORE_STREAMS), then the uploads and updates with what N leaves. */
export interface MediaStreamPart {
  uploads: UploadInput[];
  updates: UpdateInput[];
  streams: StreamInput[];
}

/**
 * The media and streaming inputs of a run, the same for one seed: under --explore N only (the default run's share is
 * spent on ids that name nothing), at most N requests and streams, within A's share of uploads and EXPLORE_STREAMS.
 */
export function drawMediaAndStreams(explore: number | undefined, released: (clause: string) => boolean, withList: boolean, seed: number): MediaStreamPart {
  if (!explore) return { uploads: [], updates: [], streams: [] };
  const streams = drawStreams(streamCovering(withList, released('STREAM-HEALTH-1')), Math.min(EXPLORE_STREAMS, explore), seed);
  const { uploads, updates } = drawMedia({ released, requests: explore - streams.length }, seed);
  return { uploads, updates, streams };
}

/** The /api requests of a run's explored uploads and updates on a server that answers as the contract says (shrinking aside). */
export const mediaRequests = (part: Pick<MediaStreamPart, 'uploads' | 'updates'>): number => part.uploads.reduce((sum, u) => sum + uploadRequests(u.row), 0) + part.updates.length;
/** The files at their url the ledger reads of the attachments made. */
export const mediaFiles = (part: Pick<MediaStreamPart, 'uploads'>): number => part.uploads.reduce((sum, u) => sum + uploadFiles(u.row), 0);

/** What the part reaches, for --list and the results: rows, classes left out, streams. */
export function mediaStreamCoverage(part: MediaStreamPart, released: (clause: string) => boolean): string[] {
  const leftOut = (rows: readonly Partial<UploadRow>[], parameters: readonly MediaParameter[]) =>
    parameters.flatMap((p) => MEDIA_CLASSES[p].filter((k) => !rows.some((row) => row[p] === k.name)).map((k) => `${p} ${k.name} (${releasedClasses(p, released).includes(k) ? 'beyond the uploads and requests' : 'outside the release'})`));
  const words = (n: number, covering: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'} (${covering} covering, ${n - covering} random)`;
  const line = (name: string, rows: readonly { row: Partial<UploadRow>; drawnBy: string }[], parameters: readonly MediaParameter[]) => {
    const missed = leftOut(rows.map((r) => r.row), parameters);
    return `${name}: ${words(rows.length, rows.filter((r) => r.drawnBy === 'covering').length, 'row')}${missed.length ? `; left out: ${missed.join(', ')}` : '; every class of every parameter reached'}`;
  };
  if (part.uploads.length + part.updates.length + part.streams.length === 0) return ['media upload, media update, streams: outside the scope (--explore N explores them)'];
  return [line('media upload', part.uploads, UPLOAD_PARAMETERS), line('media update', part.updates, UPDATE_PARAMETERS), `streams: ${words(part.streams.length, part.streams.filter((s) => s.drawnBy === 'covering').length, 'stream')}, ${[...new Set(part.streams.map((s) => s.streamClass))].length} classes`];
}

/** What the announcement of --explore N says the media and streams add: their requests on a conforming server, A's uploads, the streams. */
export function mediaAnnounced(explore: number, released: (clause: string) => boolean, withList: boolean, seed: number): { requests: number; uploads: { A: number; B: number }; streams: number } {
  const part = drawMediaAndStreams(explore, released, withList, seed);
  return { requests: mediaRequests(part) + streamCost(part.streams).api, uploads: { A: exploreUploadsOf('A'), B: exploreUploadsOf('B') }, streams: streamCost(part.streams).streams };
}

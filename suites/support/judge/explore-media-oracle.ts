// The oracle of the explored media and streams (docs/exploring.md): for every row of the upload's and the update's
// parameters, and every stream opened, what the contract says the answer is and the clause that says it. A row with an
// invalid file (a file or thumbnail that claims an image type and is none) is the Errors table's 422 row; a row of valid
// classes is the Media table's Returns column (v1 200, v2 202 with url null, the update's Attachment), then each
// parameter's documented effect on the answer (description, meta.focus, type unknown). Where the contract shows no
// rule (a focal point past -1..1 or no pair of numbers, an empty or long description, an unknown stream value, a
// hashtag stream without its tag, a list id that names nothing, a stream without a token), only a server error is
// judged: MEDIA-FOCUS-2's failure for a focal point ("no value makes the server fail"), else ERRORS-5XX-1's warning.
import { classOf, describeRow, MEDIA_CLASSES, MEDIA_RELEASES, UPDATE_PARAMETERS, UPLOAD_PARAMETERS, type MediaParameter, type SentUpdate, type SentUpload, type UpdateRow, type UploadRow } from '../act/explore-media-model.ts';
import { describeStream, type SentStream, type StreamCell } from '../act/explore-streams-model.ts';
import { createdObject, excerpt, type Exchange } from '../talk/http.ts';
import { isEventStream } from '../talk/streams.ts';
import { judgedOnce, observeMismatch } from './run-wide.ts';
import { observeErrorBody } from './verify.ts';
import { releaseWords } from './explore-create-oracle.ts';
import type { Judged } from './explore-expectation.ts';

const MEDIA_INVALID = 'Validation failed: File content type is invalid, File is invalid';
// Servers may keep focus as 32-bit floats or round it; a ten-thousandth is far below anything a client crops by.
const FOCUS_TOLERANCE = 1e-4;

/** One explored answer judged under one clause: the shape explore-oracle.ts reports. */
export interface MediaInstance {
  clause: string;
  holds: boolean;
  expected: string;
  exchange: Exchange;
  what: string;
  /** The parameters whose classes the clause concerns: what shrinking keeps. */
  concerns: readonly MediaParameter[];
  /** What a holding answer is observed for besides (the error body). */
  observe?: () => void;
}

type AnyRow = Partial<UploadRow> & Pick<UploadRow, 'description' | 'focus' | 'thumbnail'>;
const isUpload = (row: AnyRow): row is UploadRow => 'api' in row && row.api !== undefined;
const ruling = (row: AnyRow, p: MediaParameter) => (row[p] === undefined ? 'valid' : classOf(p, row[p] as string).ruling);
const refusedBy = (row: AnyRow): MediaParameter | undefined => (['file', 'thumbnail'] as const).find((p) => row[p] !== undefined && ruling(row, p) === 'refused');

/**
 * Where a server error to a row is judged: the refusal's clause, MEDIA-FOCUS-2 for a focal point the contract leaves
 * open, the success's clause for a row of valid classes; undefined where only a description is open (ERRORS-5XX-1's,
 * run-wide, as the request is then sent).
 */
export function fiveHundredClauseOf(row: AnyRow): string | undefined {
  if (refusedBy(row)) return isUpload(row) ? 'MEDIA-UPLOAD-6' : 'MEDIA-UPDATE-3';
  if (ruling(row, 'focus') === 'open') return 'MEDIA-FOCUS-2';
  if (ruling(row, 'description') === 'open') return undefined;
  return isUpload(row) ? (row.api === 'v2' ? 'MEDIA-V2-1' : 'MEDIA-UPLOAD-1') : 'MEDIA-UPDATE-1';
}

const focusPair = (value: string | undefined) => {
  const [x, y] = (value ?? '').split(',').map(Number);
  return { x: x as number, y: y as number };
};
const focusIs = (actual: unknown, expected: { x: number; y: number }) => {
  const focus = actual as { x?: unknown; y?: unknown } | undefined;
  return typeof focus === 'object' && focus !== null && Math.abs(Number(focus.x) - expected.x) <= FOCUS_TOLERANCE && Math.abs(Number(focus.y) - expected.y) <= FOCUS_TOLERANCE;
};

/** The instances of one sent row: its refusal or its success, then each valid parameter's effect on an answer that made the attachment. */
function rowInstances(row: AnyRow, drawn: { focus?: string; description?: string }, exchange: Exchange, what: string): MediaInstance[] {
  const upload = isUpload(row);
  const status = exchange.status;
  const refused = refusedBy(row);
  if (refused) {
    const clause = upload ? 'MEDIA-UPLOAD-6' : 'MEDIA-UPDATE-3';
    // The v2 upload may take an invalid file and fail its processing in the background (MEDIA-READ-3's row).
    const statuses = upload && row.api === 'v2' && refused === 'file' ? [422, 202] : [422];
    const words = statuses.map((s) => (s === 422 ? `HTTP 422 {"error": "${MEDIA_INVALID}"}` : 'HTTP 202 (processing then fails: MEDIA-READ-3)')).join(' or ');
    return [{ clause, holds: status !== undefined && statuses.includes(status), expected: words, exchange, what, concerns: upload ? ['api', refused] : [refused], observe: () => {
      if (status === 422) observeErrorBody(exchange, upload ? MEDIA_INVALID : undefined);
    } }];
  }
  const body = createdObject(exchange);
  const made = status !== undefined && status >= 200 && status < 300 && body !== undefined;
  const open = (['description', 'focus'] as const).filter((p) => ruling(row, p) === 'open');
  const instances: MediaInstance[] = [];
  if (open.length) {
    // Open: any answer below 500; a focal point's server error is MEDIA-FOCUS-2's, a description's ERRORS-5XX-1's (run-wide).
    if (open.includes('focus')) instances.push({ clause: 'MEDIA-FOCUS-2', holds: status === undefined || status < 500, expected: 'an answer below HTTP 500 (a focal point past -1..1 or malformed: its answer is not shown, but no value makes the server fail)', exchange, what, concerns: ['focus'] });
    if (!made) return instances;
  } else {
    const success = upload ? (row.api === 'v2' ? { clause: 'MEDIA-V2-1', status: 202, words: 'HTTP 202 with an Attachment, url null' } : { clause: 'MEDIA-UPLOAD-1', status: 200, words: 'HTTP 200 with an Attachment' }) : { clause: 'MEDIA-UPDATE-1', status: 200, words: 'HTTP 200 with the Attachment' };
    const urlNull = !upload || row.api !== 'v2' || body?.url === null;
    const holds = status === success.status && body !== undefined && urlNull;
    instances.push({ clause: success.clause, holds, expected: success.words, exchange, what, concerns: upload ? ['api'] : [] });
    if (!holds) return instances;
  }
  if (row.description === 'text') {
    const clause = upload ? 'MEDIA-UPLOAD-4' : 'MEDIA-UPDATE-1';
    instances.push({ clause, holds: body?.description === drawn.description, expected: `description = ${JSON.stringify(drawn.description)}`, exchange, what, concerns: upload ? ['api', 'description'] : ['description'] });
  }
  const image = !upload || (row.file !== 'unknown' && row.file !== 'garbage');
  if ((row.focus === 'inside' || row.focus === 'edge') && image) {
    const clause = upload ? 'MEDIA-FOCUS-1' : 'MEDIA-FOCUS-2';
    const meta = body?.meta as { focus?: unknown } | undefined;
    instances.push({ clause, holds: focusIs(meta?.focus, focusPair(drawn.focus)), expected: `meta.focus = ${JSON.stringify(focusPair(drawn.focus))}`, exchange, what, concerns: upload ? ['api', 'focus'] : ['focus'] });
  }
  if (upload && row.file === 'unknown') {
    instances.push({ clause: 'MEDIA-UPLOAD-5', holds: body?.type === 'unknown' && body?.blurhash === null, expected: 'type "unknown" and blurhash null', exchange, what, concerns: ['api', 'file'] });
  }
  return instances;
}

export const uploadInstances = (sent: SentUpload): MediaInstance[] => rowInstances(sent.input.row, sent.input.drawn, sent.exchange, `upload ${describeRow(sent.input.row, sent.input.drawn)}`);
export const updateInstances = (sent: SentUpdate): MediaInstance[] => rowInstances(sent.input.row, sent.input.drawn, sent.exchange, `update of the caller's own attachment (${sent.id}) with ${describeRow(sent.input.row, sent.input.drawn) || 'nothing'}`);

/** What a stream input must answer: a clause, or open (only a server error, ERRORS-5XX-1's warning). */
export function streamExpectation(cell: StreamCell): { clause: string; words: string } | { open: string } {
  if (cell.transport === 'health') return { clause: 'STREAM-HEALTH-1', words: 'HTTP 200 with the body OK' };
  const valid = cell.streamClass === 'plain' || cell.streamClass === 'tag-word' || cell.streamClass === 'tag-digits' || cell.streamClass === 'tag-capitals' || cell.streamClass === 'list-own';
  if (!valid) {
    const why: Record<string, string> = {
      'tag-missing': 'a hashtag stream without its tag',
      'tag-hash': "a tag written with '#'",
      'list-never-existed': 'a list id that names nothing',
      'list-malformed': 'a malformed list id',
      'no-token': 'a stream without a token (how an event stream carries its token is not shown; the WebSocket section gives no refusal)',
      'unknown-value': 'a stream value the WebSocket section does not allow',
      'stream-missing': 'a WebSocket request without a stream value',
    };
    return { open: `${why[cell.streamClass] ?? cell.streamClass}: its answer is not shown` };
  }
  return cell.transport === 'sse' ? { clause: 'STREAM-SSE-1', words: 'HTTP 200 with Content-Type text/event-stream' } : { clause: 'STREAM-WS-1', words: 'HTTP 101 Switching Protocols: the stream opened' };
}

/** The instances of the explored streams under a clause: the opening judged; an open one's server error is observed for ERRORS-5XX-1, run-wide. */
export function streamInstances(sent: readonly SentStream[], clauseId: string): MediaInstance[] {
  const instances: MediaInstance[] = [];
  for (const { input, exchange, ended } of sent) {
    const expectation = streamExpectation(input);
    const what = `${describeStream(input)}${ended ? ` (${ended})` : ''}`;
    if ('open' in expectation) continue;
    if (expectation.clause !== clauseId) continue;
    const holds = input.transport === 'health' ? exchange.status === 200 && exchange.text.trim() === 'OK' : input.transport === 'sse' ? exchange.status === 200 && isEventStream(exchange) : exchange.status === 101;
    instances.push({ clause: expectation.clause, holds, expected: expectation.words, exchange, what, concerns: [] });
  }
  return instances;
}

/**
 * The explored streams whose answer the contract leaves open, judged for ERRORS-5XX-1 (a warning, run-wide): a stream's
 * opening passes no registered check of its own, so it is observed here.
 */
export function observeOpenStreams(sent: readonly SentStream[]): void {
  for (const { input, exchange, ended } of sent) {
    const expectation = streamExpectation(input);
    if (!('open' in expectation) || exchange.status === undefined) continue;
    judgedOnce('ERRORS-5XX-1');
    if (exchange.status < 500) continue;
    observeMismatch('ERRORS-5XX-1', `stream ${input.transport} ${input.streamClass}`, 'an answer below HTTP 500', `HTTP ${exchange.status} to ${describeStream(input)} (as ${exchange.actor}): ${excerpt(ended ?? exchange.text, 120)} (${expectation.open})`, exchange);
  }
}

/** The clauses the explored media and streams are judged under. */
export const MEDIA_STREAM_CLAUSES = ['MEDIA-UPLOAD-1', 'MEDIA-V2-1', 'MEDIA-UPLOAD-4', 'MEDIA-UPLOAD-5', 'MEDIA-UPLOAD-6', 'MEDIA-FOCUS-1', 'MEDIA-FOCUS-2', 'MEDIA-UPDATE-1', 'MEDIA-UPDATE-3', 'STREAM-HEALTH-1', 'STREAM-SSE-1', 'STREAM-WS-1'] as const;

/** The model as --list and docs/exploring.md show it: each parameter's classes and what the contract says of them, and each stream class. */
export function mediaStreamModelLines(): string[] {
  const lines = ["media upload (POST /api/v1/media, /api/v2/media, as A; each counted in A's Uploading bucket) and media update (PUT /api/v1/media/:id of A's own attachment; no file)"];
  const rulingWords: Record<string, string> = {
    valid: 'its effect shown on the answer',
    refused: `HTTP 422 {"error": "${MEDIA_INVALID}"} (MEDIA-UPLOAD-6; the update's thumbnail MEDIA-UPDATE-3; v2 may take the file and fail processing, 202)`,
    open: 'open: any answer below 500',
  };
  for (const p of UPLOAD_PARAMETERS) {
    const release = MEDIA_RELEASES[p];
    lines.push(`  ${p}${UPDATE_PARAMETERS.includes(p as keyof UpdateRow) ? ' (upload and update)' : ' (upload)'}${releaseWords(release?.clause)}`);
    for (const k of MEDIA_CLASSES[p]) lines.push(`    ${`${k.name}: ${k.words}`.padEnd(70)} ${rulingWords[k.ruling]}`);
  }
  lines.push('  effects: description (MEDIA-UPLOAD-4; update MEDIA-UPDATE-1), meta.focus of an image (MEDIA-FOCUS-1; update MEDIA-FOCUS-2), type unknown and blurhash null (MEDIA-UPLOAD-5); v1 200 (MEDIA-UPLOAD-1), v2 202 url null (MEDIA-V2-1)');
  lines.push('  a 5xx: the clause of the row (a focal point open: MEDIA-FOCUS-2); a description open alone: ERRORS-5XX-1\'s warning');
  lines.push("streams (each opened as A unless tokenless, closed once its opening answered; one IP access call each)");
  const classes = ['plain', 'tag-word', 'tag-digits', 'tag-capitals', 'list-own', 'tag-missing', 'tag-hash', 'list-never-existed', 'list-malformed', 'no-token', 'unknown-value', 'stream-missing'] as const;
  const health = streamExpectation({ transport: 'health', stream: 'health', streamClass: 'plain' });
  if (!('open' in health)) lines.push(`  ${'health'.padEnd(20)} ${health.words} (${health.clause})`);
  for (const streamClass of classes) {
    const [sse, ws] = (['sse', 'websocket'] as const).map((transport) => streamExpectation({ transport, stream: 'user', streamClass }));
    const words = (e: ReturnType<typeof streamExpectation> | undefined) => (e && !('open' in e) ? `${e.words} (${e.clause})` : '');
    lines.push(`  ${streamClass.padEnd(20)} ${sse && 'open' in sse ? `open: ${sse.open}; a 5xx is ERRORS-5XX-1's warning` : `server-sent events: ${words(sse)}; WebSocket: ${words(ws)}`}`);
  }
  return lines;
}

/** The explored media and streams whose clause is `clauseId`, each finding with its smallest row where it shrank. */
export function judgedOnMedia(explored: { uploads?: readonly SentUpload[]; updates?: readonly SentUpdate[]; smallestMedia?: ReadonlyMap<SentUpload | SentUpdate, SentUpload | SentUpdate>; streams?: readonly SentStream[] }, clauseId: string): Judged[] {
  const rows: { sent: SentUpload | SentUpdate; instances: (s: never) => MediaInstance[] }[] = [
    ...(explored.uploads ?? []).map((sent) => ({ sent, instances: uploadInstances as (s: never) => MediaInstance[] })),
    ...(explored.updates ?? []).map((sent) => ({ sent, instances: updateInstances as (s: never) => MediaInstance[] })),
  ];
  const judged: Judged[] = rows.flatMap(({ sent, instances }) =>
    instances(sent as never)
      .filter((i) => i.clause === clauseId)
      .map((i) => {
        const smallest = explored.smallestMedia?.get(sent);
        const shrunk = !i.holds && smallest && smallest !== sent ? instances(smallest as never).find((s) => s.clause === clauseId && !s.holds) : undefined;
        return { holds: i.holds, expected: i.expected, exchange: i.exchange, what: i.what, ...(i.observe ? { observe: i.observe } : {}), ...(shrunk ? { smallest: { exchange: shrunk.exchange, expected: shrunk.expected, words: `shrunk to ${shrunk.what}` } } : {}) };
      }),
  );
  return [...judged, ...streamInstances(explored.streams ?? [], clauseId).map(({ holds, expected, exchange, what }) => ({ holds, expected, exchange, what }))];
}

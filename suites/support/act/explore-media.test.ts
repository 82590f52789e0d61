import { describe, expect, it } from 'vitest';
import { LIMITS } from '../talk/pacing.ts';
import { BASE_UPLOAD, drawMediaAndStreams, EXPLORE_UPLOADS, exploreUploadsOf, MEDIA_CLASSES, MEDIA_SHRINK_BOUND, releasedClasses, removable, SHRINK_UPLOADS, updateCovering, without, UPDATE_PARAMETERS, uploadCovering, UPLOAD_PARAMETERS, uploadRequests } from './explore-media.ts';
import { ALLOWED_STREAMS, EXPLORE_STREAMS, streamCovering } from './explore-streams.ts';

const everything = () => true;
/** The most uploads of one account a full run's own checks may make (suites/self/budget.test.ts keeps them below). */
const RUN_UPLOADS = 15;

describe('the explored media and streams', () => {
  it('should cover every class of every parameter of the upload and the update', () => {
    const uploads = uploadCovering(everything);
    for (const p of UPLOAD_PARAMETERS) expect(new Set(uploads.map((row) => row[p])), p).toEqual(new Set(MEDIA_CLASSES[p].map((k) => k.name)));
    const updates = updateCovering(everything);
    for (const p of UPDATE_PARAMETERS) expect(new Set(updates.map((row) => row[p])), p).toEqual(new Set(MEDIA_CLASSES[p].map((k) => k.name)));
    // Each class that is not valid goes alone on the base upload: its verdict is its own.
    for (const row of uploads.filter((r) => UPLOAD_PARAMETERS.some((p) => MEDIA_CLASSES[p].find((k) => k.name === r[p])?.ruling !== 'valid'))) {
      expect(UPLOAD_PARAMETERS.filter((p) => row[p] !== BASE_UPLOAD[p])).toHaveLength(1);
    }
  });

  it('should leave out the parameters a release does not have (thumbnail before 3.2.0, v2 before 3.1.3)', () => {
    const before = (clause: string) => clause !== 'MEDIA-UPDATE-3' && clause !== 'MEDIA-V2-1';
    expect(releasedClasses('thumbnail', before).map((k) => k.name)).toEqual(['absent']);
    expect(uploadCovering(before).every((row) => row.thumbnail === 'absent' && row.api === 'v1')).toBe(true);
  });

  it("should keep each account's uploads within the Uploading bucket beside the run's own, shrinking's included", () => {
    for (const who of ['A', 'B'] as const) expect(exploreUploadsOf(who) + RUN_UPLOADS, who).toBeLessThanOrEqual(LIMITS.Uploading.limit);
    const { uploads } = drawMediaAndStreams(1000, everything, true, 1);
    expect(uploads.length + SHRINK_UPLOADS).toBeLessThanOrEqual(EXPLORE_UPLOADS.A.inputs);
    expect(SHRINK_UPLOADS).toBeGreaterThanOrEqual(MEDIA_SHRINK_BOUND.rowsPerFinding);
  });

  it('should spend at most N requests, nothing without --explore, and draw the same from one seed', () => {
    expect(drawMediaAndStreams(undefined, everything, true, 1)).toEqual({ uploads: [], updates: [], streams: [] });
    expect(drawMediaAndStreams(0, everything, true, 1)).toEqual({ uploads: [], updates: [], streams: [] });
    for (const n of [5, 30, 200]) {
      const part = drawMediaAndStreams(n, everything, true, 1);
      const requests = part.uploads.reduce((sum, u) => sum + uploadRequests(u.row), 0) + part.updates.length + part.streams.length;
      expect(requests, `--explore ${n}`).toBeLessThanOrEqual(n);
    }
    expect(drawMediaAndStreams(200, everything, true, 1)).toEqual(drawMediaAndStreams(200, everything, true, 1));
    const focal = (seed: number) => drawMediaAndStreams(200, everything, true, seed).uploads.map((u) => u.drawn.focus);
    expect(focal(2)).not.toEqual(focal(1));
  });

  it('should open every allowed stream value on both transports, every tag and list class, within the streams bound', () => {
    const cells = streamCovering(true, true);
    for (const stream of ALLOWED_STREAMS) for (const transport of ['sse', 'websocket']) expect(cells.some((c) => c.stream === stream && c.transport === transport), `${transport} ${stream}`).toBe(true);
    const classes = new Set(cells.map((c) => c.streamClass));
    for (const k of ['tag-word', 'tag-digits', 'tag-missing', 'tag-hash', 'list-own', 'list-never-existed', 'list-malformed', 'no-token', 'unknown-value', 'stream-missing']) expect(classes.has(k as never), k).toBe(true);
    expect(cells.length).toBeLessThanOrEqual(EXPLORE_STREAMS);
    expect(streamCovering(false, true).some((c) => c.streamClass === 'list-own')).toBe(false);
  });

  it('should shrink a row by taking out, one at a time, the parameters its clause does not concern', () => {
    const row = { api: 'v2', file: 'jpeg', description: 'text', focus: 'edge', thumbnail: 'image' } as const;
    expect(removable(row, BASE_UPLOAD, ['api', 'description'])).toEqual(['file', 'focus', 'thumbnail']);
    expect(without(row, BASE_UPLOAD, 'focus')).toEqual({ ...row, focus: 'absent' });
    expect(removable({ ...BASE_UPLOAD, description: 'text' }, BASE_UPLOAD, ['api', 'description'])).toEqual([]);
  });
});

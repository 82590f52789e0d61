// What a run counts as a status creation: a status the server published, once, whatever the answers repeat.
import { beforeEach, describe, expect, it } from 'vitest';
import { addCounts, countAnswer, countRequest, countsSnapshot, countStreamConnection, emptyCounts, inPart, inPartOf, inPartThatSent, noteSentIn, outsidePartsSnapshot, partsSnapshot, requestEnded } from './counts.ts';
import { startFile } from './file-state.ts';

const status = (id: string) => JSON.stringify({ id, content: '<p>hi</p>', visibility: 'public' });

describe('status creations', () => {
  beforeEach(() => startFile());

  it('should count each status a 2xx answer names once: an Idempotency-Key resubmission answers the same status', () => {
    countAnswer('POST', '/api/v1/statuses', 200, status('1'));
    countAnswer('POST', '/api/v1/statuses', 200, status('1'));
    countAnswer('POST', '/api/v1/statuses', 200, status('2'));
    expect(countsSnapshot().statusCreations).toBe(2);
  });

  it('should count a refusal as nothing, and a 2xx answer without a status id as a creation (the server may have made one)', () => {
    countAnswer('POST', '/api/v1/statuses', 422, '{"error":"Validation failed"}');
    countAnswer('POST', '/api/v1/statuses', 200, 'not json');
    expect(countsSnapshot().statusCreations).toBe(1);
  });

  it('should count a ScheduledStatus as a scheduled status, not a creation', () => {
    countAnswer('POST', '/api/v1/statuses', 200, JSON.stringify({ id: '7', scheduled_at: '2030-01-01T00:00:00.000Z', params: {} }));
    expect(countsSnapshot()).toMatchObject({ statusCreations: 0, scheduledStatuses: 1 });
  });
});

describe('the time pacing waited', () => {
  it('should be wall time: groups that waited side by side for one reset waited once', () => {
    const group = (from: number, to: number) => ({ ...emptyCounts(), pacedMs: to - from, pacedSpans: [[from, to] as [number, number]] });
    const run = [group(0, 60_000), group(1_000, 61_000), group(120_000, 125_000)].reduce((into, from) => addCounts(into, from), emptyCounts());
    expect(run.pacedMs).toBe(66_000);
  });
});

describe("each step's part", () => {
  beforeEach(() => startFile());

  const send = (path: string) => {
    countRequest('A', 'GET', path);
    requestEnded();
  };

  it("should count a step's requests and streams in its part, the ledger's later calls for what it made too, and the rest outside every part", async () => {
    const made = await inPart('a status', { api: 1 }, async (part) => {
      send('/api/v1/statuses');
      countStreamConnection();
      return part;
    });
    send('/api/v1/instance');
    await inPartOf(made, async () => send('/system/file.png'));
    expect(partsSnapshot().map(({ name, sent }) => [name, sent])).toEqual([['a status', { api: 1, oauth: 0, files: 1, streams: 1 }]]);
    expect(outsidePartsSnapshot()).toEqual({ api: 1, oauth: 0, files: 0, streams: 0 });
  });

  it("should count the calls another step makes in the ledger's place in the part that sent the creation", async () => {
    const creation = {};
    await inPart('a status', { api: 3 }, async () => {
      noteSentIn(creation);
      send('/api/v1/statuses');
    });
    await inPart('its delete', { api: 1 }, async () => {
      send('/api/v1/statuses/1/context');
      await inPartThatSent(creation, async () => send('/api/v1/statuses/1'));
    });
    expect(partsSnapshot().map(({ name, sent }) => [name, sent.api])).toEqual([
      ['a status', 2],
      ['its delete', 1],
    ]);
  });
});

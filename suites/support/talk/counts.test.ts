// What a run counts as a status creation: a status the server published, once, whatever the answers repeat.
import { beforeEach, describe, expect, it } from 'vitest';
import { addCounts, countAnswer, countsSnapshot, emptyCounts } from './counts.ts';
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

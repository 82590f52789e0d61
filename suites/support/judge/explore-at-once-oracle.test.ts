// The requests at the same moment, judged from their records: the second of a pair may be its row's "already" answer,
// a move stored twice shows at the undo after it, and each explored check judges the entries of its own clause.
import { describe, expect, it } from 'vitest';
import { atOnceCost, atOnceSequences, type AtOnceSequence, type SentAtOnce } from '../act/explore-at-once-model.ts';
import type { Sent } from '../act/sequence-model.ts';
import { judgeAtOnce } from './explore-at-once-oracle.ts';
import { failureOf, recorded } from './recorded.ts';
import { sentTogether } from '../talk/replay.ts';

const ID = '7';
const status = (fields: Record<string, unknown>) => ({ id: ID, favourited: false, bookmarked: false, muted: false, favourites_count: 0, reblogs_count: 0, ...fields });
const answer = (name: string, code: number, body: unknown) => recorded({ method: 'POST', path: `/api/v1/statuses/${ID}/${name}`, actor: 'B' }, code, body);
const move = (name: string, ...answers: ReturnType<typeof answer>[]): Sent => ({ kind: 'move', who: 'B', name, ...(answers.length > 1 ? { atOnce: true } : {}), answers });
const BOOKMARKS: AtOnceSequence = atOnceSequences(200, () => true, true).find((s) => s.flag === 'bookmarked') as AtOnceSequence;
const sentOf = (...sent: Sent[]): SentAtOnce[] => [{ sequence: BOOKMARKS, record: { statusId: ID, ownerId: '1', base: { favourites: 0, reblogs: 0 }, sent } }];
const bookmarked = answer('bookmark', 200, status({ bookmarked: true }));
const unbookmarked = answer('unbookmark', 200, status({ bookmarked: false }));
const notFound = answer('unbookmark', 404, { error: 'Record not found' });

describe('requests at the same moment', () => {
  it('STATUS-BOOKMARK-3 should take an unbookmark asked twice at once answered 200 and 404 (the second is the move asked again)', () => {
    const sent = sentOf(move('bookmark', bookmarked, bookmarked), move('unbookmark', unbookmarked), move('bookmark', bookmarked), move('unbookmark', unbookmarked, notFound));
    for (const clause of ['STATUS-BOOKMARK-1', 'STATUS-BOOKMARK-2', 'STATUS-BOOKMARK-3']) expect(failureOf(() => judgeAtOnce(sent, clause))).toBeUndefined();
    expect(judgeAtOnce(sent, 'STATUS-BOOKMARK-3')).toBe(1);
  });

  it('STATUS-BOOKMARK-3 should file the second of two unbookmarks at once that answers the flag still set, with the other beside it in its replay', () => {
    const stale = answer('unbookmark', 200, status({ bookmarked: true }));
    const sent = sentOf(move('bookmark', bookmarked, bookmarked), move('unbookmark', unbookmarked), move('bookmark', bookmarked), move('unbookmark', unbookmarked, stale));
    const failure = failureOf(() => judgeAtOnce(sent, 'STATUS-BOOKMARK-3'));
    expect(failure).toMatchObject({ clause: 'STATUS-BOOKMARK-3', actual: expect.stringContaining('one of the two sent at the same moment') });
    expect(failure?.replay?.some((step) => step.curl.endsWith('&'))).toBe(true);
  });

  it('STATUS-BOOKMARK-2 should file a bookmark stored twice at the undo after it, and leave what came after unjudged', () => {
    const bookmarkedToo = answer('bookmark', 200, status({ bookmarked: true }));
    const sent = sentOf(move('bookmark', bookmarked, bookmarkedToo), move('unbookmark', answer('unbookmark', 200, status({ bookmarked: true }))), move('bookmark', bookmarked), move('unbookmark', unbookmarked, notFound));
    sentTogether(bookmarked, bookmarkedToo);
    const failure = failureOf(() => judgeAtOnce(sent, 'STATUS-BOOKMARK-2'));
    expect(failure).toMatchObject({ clause: 'STATUS-BOOKMARK-2' });
    // Its replay sends the bookmarks before it at the same moment again, as they were sent.
    expect(failure?.replay?.map((step) => (step.curl === 'wait' ? 'wait' : step.curl.endsWith('&') ? '&' : 'curl'))).toEqual(['&', 'curl', 'wait', 'curl']);
    expect(judgeAtOnce(sent, 'STATUS-BOOKMARK-3')).toBe(0);
  });

  it('should plan nothing without --explore N, and declare every request of its plan (B configured, a 3.2.0 server: 27)', () => {
    expect(atOnceSequences(undefined, () => true, true)).toEqual([]);
    expect(atOnceSequences(0, () => true, true)).toEqual([]);
    expect(atOnceCost(atOnceSequences(200, () => true, true))).toEqual({ api: 27 });
    expect(atOnceSequences(200, (clause) => clause !== 'STATUS-BOOKMARK-1', false).map((s) => `${s.who} ${s.flag}`)).toEqual(['A favourited', 'A muted', 'A pinned']);
  });
});

// The state machine's judgement is a function of the recorded sequence: these tests build the sequences a server
// would have answered and read the clause each deviation is filed under.
import { describe, expect, it } from 'vitest';
import type { SequenceRecord, Sent } from '../act/sequence.ts';
import { recorded, failureOf } from './recorded.ts';
import { explorationBudget, judgeSequence } from './state-machine.ts';
import { step, freshModel } from './status-model.ts';

const ID = '7';
const OWNER = '1';
const status = (fields: Record<string, unknown>) => ({ id: ID, favourited: false, reblogged: false, bookmarked: false, muted: false, favourites_count: 0, reblogs_count: 0, ...fields });
const move = (who: 'A' | 'B', name: string, answers: Record<string, unknown>[], atOnce = false): Sent => ({
  kind: 'move',
  who,
  name,
  ...(atOnce ? { atOnce } : {}),
  answers: answers.map((body) => recorded({ method: 'POST', path: `/api/v1/statuses/${ID}/${name}`, actor: who }, 200, body)),
});
const read = (who: 'A' | 'B', body: Record<string, unknown>): Sent => ({ kind: 'read', who, exchange: recorded({ method: 'GET', path: `/api/v1/statuses/${ID}`, actor: who }, 200, body) });
const favouritedBy = (ids: string[]): Sent => ({ kind: 'list', list: 'favourited_by', exchange: recorded({ method: 'GET', path: `/api/v1/statuses/${ID}/favourited_by` }, 200, ids.map((id) => ({ id }))) });
const sequence = (...sent: Sent[]): SequenceRecord => ({ statusId: ID, ownerId: OWNER, base: { favourites: 0, reblogs: 0 }, sent });

describe('the state machine', () => {
  it('should give a repeated favourite its "already" clause, and an unfavourite of a status not favourited its own', () => {
    const once = step(freshModel({ favourites: 0, reblogs: 0 }), { who: 'B', name: 'favourite' });
    expect(once.expected.clause).toBe('STATUS-FAV-1');
    expect(step(once.next, { who: 'B', name: 'favourite' }).expected.clause).toBe('STATUS-FAV-2');
    expect(step(once.next, { who: 'A', name: 'unfavourite' }).expected).toMatchObject({ clause: 'STATUS-FAV-4', counts: { after: { favourites: 1 } } });
    expect(step(once.next, { who: 'A', name: 'unbookmark' }).expected).toMatchObject({ clause: 'STATUS-BOOKMARK-3', answer: 'not-found' });
  });

  it('STATUS-SEQUENCE-1 should pass a sequence whose answers and reads show the rows', () => {
    const record = sequence(
      move('B', 'favourite', [status({ favourited: true, favourites_count: 1 }), status({ favourited: true, favourites_count: 1 })], true),
      read('A', status({ favourites_count: 1 })),
      favouritedBy(['2']),
      move('B', 'favourite', [status({ favourited: true, favourites_count: 1 })]),
      // A count in an answer may lag the move: the one before it is taken.
      move('A', 'unfavourite', [status({ favourites_count: 1 })]),
      read('B', status({ favourited: true, favourites_count: 1 })),
    );
    expect(failureOf(() => judgeSequence(record))).toBeUndefined();
  });

  it('STATUS-FAV-2 should file a favourite asked again that counts again under the "already" row, naming the moves before it and replaying them', () => {
    const record = sequence(move('B', 'favourite', [status({ favourited: true, favourites_count: 1 })]), move('B', 'favourite', [status({ favourited: true, favourites_count: 2 })]));
    const failure = failureOf(() => judgeSequence(record));
    expect(failure).toMatchObject({ clause: 'STATUS-FAV-2', actual: 'favourites_count = 2, after the moves B favourite' });
  });

  it('STATUS-FAV-4 should file an unfavourite of a status not favourited that takes a favourite away', () => {
    const record = sequence(move('B', 'favourite', [status({ favourited: true, favourites_count: 1 })]), move('A', 'unfavourite', [status({ favourites_count: 0 })]));
    expect(failureOf(() => judgeSequence(record))).toMatchObject({ clause: 'STATUS-FAV-4' });
  });

  it('STATUS-FAV-2 should file a read after favourites at the same moment that counts two, or lists the account twice', () => {
    const twice = move('B', 'favourite', [status({ favourited: true, favourites_count: 1 }), status({ favourited: true, favourites_count: 1 })], true);
    expect(failureOf(() => judgeSequence(sequence(twice, read('A', status({ favourites_count: 2 })))))).toMatchObject({ clause: 'STATUS-FAV-2' });
    expect(failureOf(() => judgeSequence(sequence(twice, favouritedBy(['2', '2']))))).toMatchObject({ clause: 'STATUS-FAV-2' });
  });

  it('STATUS-SEQUENCE-1 should file a read that shows a count the moves did not leave, and judge only the span asked', () => {
    const record = sequence(move('B', 'favourite', [status({ favourited: true, favourites_count: 1 })]), read('B', status({ favourited: true, favourites_count: 0 })));
    expect(failureOf(() => judgeSequence(record))).toMatchObject({ clause: 'STATUS-SEQUENCE-1' });
    expect(failureOf(() => judgeSequence(record, { to: 1 }))).toBeUndefined();
  });

  it('should read the exploration budget from CONFORMANCE_EXPLORE, none unless a positive whole number', () => {
    expect(explorationBudget({})).toBe(0);
    expect(explorationBudget({ CONFORMANCE_EXPLORE: '200' })).toBe(200);
    expect(explorationBudget({ CONFORMANCE_EXPLORE: 'lots' })).toBe(0);
  });
});

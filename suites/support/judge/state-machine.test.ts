// The state machine's judgement is a function of the recorded sequence: these tests build the sequences a server
// would have answered and read the clause each deviation is filed under.
import { describe, expect, it } from 'vitest';
import { explorationBudget } from '../act/sequence.ts';
import type { SequenceRecord, Sent } from '../act/sequence-model.ts';
import { coveringSequences, freshModel, isFlagMove, movesOf, ROWS, step, type MoveName, type StatusModel, type Who } from '../act/status-model.ts';
import { recorded, failureOf } from './recorded.ts';
import { judgeSequence } from './state-machine.ts';

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

  it('should judge every move after the owner\'s delete as its row\'s 404 for a deleted status, and a read and a list as gone', () => {
    const gone = (who: 'A' | 'B', name: string, status = 404): Sent => ({ kind: 'move', who, name, answers: [recorded({ method: 'POST', path: `/api/v1/statuses/${ID}/${name}`, actor: who }, status, { error: 'Record not found' })] });
    const deleted = move('A', 'delete', [status({})]);
    const readGone = (status: number): Sent => ({ kind: 'read', who: 'A', exchange: recorded({ method: 'GET', path: `/api/v1/statuses/${ID}` }, status, {}) });
    const listGone = (status: number): Sent => ({ kind: 'list', list: 'favourited_by', exchange: recorded({ method: 'GET', path: `/api/v1/statuses/${ID}/favourited_by` }, status, []) });
    expect(step(freshModel({ favourites: 0, reblogs: 0 }), { who: 'B', name: 'delete' }).expected).toMatchObject({ clause: 'STATUS-DELETE-3', answer: 'not-found' });
    expect(failureOf(() => judgeSequence(sequence(move('B', 'favourite', [status({ favourited: true, favourites_count: 1 })]), deleted, readGone(404), listGone(404), gone('B', 'unfavourite'), gone('B', 'delete'))))).toBeUndefined();
    expect(failureOf(() => judgeSequence(sequence(deleted, gone('B', 'favourite', 200))))).toMatchObject({ clause: 'STATUS-FAV-5', actual: expect.stringContaining('after the moves A delete') });
    expect(failureOf(() => judgeSequence(sequence(deleted, gone('A', 'pin', 200))))).toMatchObject({ clause: 'STATUS-PIN-7' });
    expect(failureOf(() => judgeSequence(sequence(deleted, readGone(200))))).toMatchObject({ clause: 'STATUS-DELETE-2' });
    expect(failureOf(() => judgeSequence(sequence(deleted, listGone(200))))).toMatchObject({ clause: 'STATUS-DELETE-6' });
    expect(failureOf(() => judgeSequence(sequence(gone('A', 'delete', 500))))).toMatchObject({ clause: 'STATUS-DELETE-1' });
  });

  it('should replay the moves of earlier sequences on the status before a failing one', () => {
    const earlier = recorded({ method: 'POST', path: `/api/v1/statuses/${ID}/favourite`, actor: 'B' }, 200, status({ favourited: true }));
    const record = { ...sequence(move('B', 'unfavourite', [status({ favourites_count: -1 })])), prelude: [earlier] };
    expect(failureOf(() => judgeSequence(record))).toMatchObject({ clause: 'STATUS-FAV-4', actual: expect.stringContaining('1 moves and undos of earlier sequences') });
  });

  it('should cover every (account, move, state before) a row names, whatever the seed draws', () => {
    const names: MoveName[] = ['favourite', 'unfavourite', 'reblog', 'unreblog', 'bookmark', 'unbookmark', 'mute', 'unmute', 'pin', 'unpin', 'delete'];
    const accounts: Who[] = ['A', 'B'];
    const sent = new Set<string>();
    for (const moves of coveringSequences(names, accounts)) {
      moves.reduce((model: StatusModel, move) => {
        const state = model.deleted ? 'deleted' : isFlagMove(move.name) ? String(model.flags[move.who][ROWS[move.name].flag]) : 'standing';
        sent.add(`${move.who} ${move.name} ${state}`);
        return step(model, move).next;
      }, freshModel({ favourites: 0, reblogs: 0 }));
    }
    const rows = accounts.flatMap((who) =>
      movesOf(who, names).flatMap((name) => {
        if (!isFlagMove(name)) return [`${who} ${name} standing`];
        // A repeated reblog is not drawn: what it does is not shown.
        return name === 'reblog' ? [`${who} ${name} false`] : [`${who} ${name} false`, `${who} ${name} true`];
      }),
    );
    expect(rows.filter((row) => !sent.has(row))).toEqual([]);
    // Every move on a deleted status, by some account.
    expect(names.filter((name) => isFlagMove(name) && !accounts.some((who) => sent.has(`${who} ${name} deleted`)))).toEqual([]);
  });

  it("should take the exploration budget from the run's --explore N, none unless a positive whole number", () => {
    expect(explorationBudget({})).toBe(0);
    expect(explorationBudget({ explore: 200 })).toBe(200);
    expect(explorationBudget({ explore: 0 })).toBe(0);
  });
});

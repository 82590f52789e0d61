// The access matrix's judgement over recorded answers: every cell judged, one failure with the table of them all.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../talk/http.ts';
import { failureOf, recorded } from './recorded.ts';
import { expectEveryCell, tableOf, type AccessCell } from './access-cells.ts';

const NOT_FOUND = { error: 'Record not found' };

/** A list of a status as the HTTP layer records its answer. */
function cell(caller: string, status: string, operation: string, answered: number | undefined, body: unknown, extra: Partial<Exchange> = {}): AccessCell {
  const exchange = recorded({ method: 'GET', path: `/api/v1/statuses/7/${operation}`, actor: caller === 'no token' ? 'anonymous' : caller }, answered, body, extra);
  return { caller, status, operation, exchange };
}

describe('the cells of an access matrix', () => {
  it('STATUS-VIS-8 passes where every cell answered 404 "Record not found"', () => {
    const cells = [cell('B', 'private', 'reblogged_by', 404, NOT_FOUND), cell('no token', 'direct', 'favourited_by', 404, NOT_FOUND)];
    expect(failureOf(() => expectEveryCell(cells, 404, 'Record not found'))).toBeUndefined();
  });

  it('STATUS-VIS-8 fails once for a cell left open, with the table of every cell and the open one as its exchange', () => {
    const cells = [cell('B', 'private', 'reblogged_by', 404, NOT_FOUND), cell('no token', 'direct', 'favourited_by', 200, [])];
    const failure = failureOf(() => expectEveryCell(cells, 404, 'Record not found'));
    expect(failure).toMatchObject({ clause: 'STATUS-VIS-8', expected: 'HTTP 404 {"error": "Record not found"} in every cell' });
    expect(failure?.actual).toContain('1 of 2 cells answered otherwise');
    expect(failure?.actual).toContain(tableOf(cells));
    expect(failure?.exchange).toContain('favourited_by');
  });

  it('STATUS-VIS-8 takes as evidence a cell that was answered, not one that got no answer', () => {
    const lost = cell('B', 'private', 'reblogged_by', undefined, '', { error: 'timeout', unanswered: true });
    const open = cell('no token', 'direct', 'favourited_by', 200, []);
    const failure = failureOf(() => expectEveryCell([lost, open], 404, 'Record not found'));
    expect(failure?.exchange).toContain('favourited_by');
    expect(failure?.actual).toContain('no answer (timeout)');
  });

  it('lays the cells out as a table, a row a cell under a header', () => {
    const table = tableOf([cell('B', 'private', 'reblogged_by', 404, NOT_FOUND), cell('no token', 'direct', 'favourited_by', 200, [])]);
    expect(table.split('\n')).toEqual([
      '  caller   | status  | operation     | answer',
      '  B        | private | reblogged_by  | HTTP 404',
      '  no token | direct  | favourited_by | HTTP 200',
    ]);
  });
});

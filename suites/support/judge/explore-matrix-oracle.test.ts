import { describe, expect, it } from 'vitest';
import { cellExpectation } from './explore-matrix-oracle.ts';

describe('the oracle of the access matrix', () => {
  it('should take each cell\'s answer from the contract: the token\'s refusal, the visibility guard, the move\'s row, or open', () => {
    expect(cellExpectation({ operation: 'bookmark', caller: 'none', visibility: 'unlisted' })).toMatchObject({ kind: 'refused', clause: 'ERRORS-TOKEN-1', rows: [{ status: 401 }] });
    expect(cellExpectation({ operation: 'favourite', caller: 'other', visibility: 'direct' })).toMatchObject({ kind: 'refused', clause: 'STATUS-FAV-5', rows: [{ status: 404 }] });
    expect(cellExpectation({ operation: 'favourited_by', caller: 'other', visibility: 'private' })).toMatchObject({ kind: 'refused', clause: 'STATUS-VIS-8' });
    expect(cellExpectation({ operation: 'pin', caller: 'owner', visibility: 'unlisted' })).toMatchObject({ kind: 'refused', clause: 'STATUS-PIN-3', rows: [{ status: 422 }] });
    expect(cellExpectation({ operation: 'bookmark', caller: 'owner', visibility: 'direct' })).toMatchObject({ kind: 'answers', clause: 'STATUS-BOOKMARK-1', flag: { field: 'bookmarked', value: true } });
    expect(cellExpectation({ operation: 'mute', caller: 'other', visibility: 'unlisted' }).kind).toBe('open');
    expect(cellExpectation({ operation: 'favourited_by', caller: 'owner', visibility: 'direct' }).kind).toBe('open');
  });

});

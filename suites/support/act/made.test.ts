import { describe, expect, it } from 'vitest';
import type { Exchange } from '../talk/http.ts';
import { made, onMade, type MadeResource } from './made.ts';

describe('what the run made, handed to its listeners', () => {
  it('should hand each made object to every listener once, with its resource and exchange', () => {
    const seen: [MadeResource, unknown][] = [];
    const listener = (resource: MadeResource, value: unknown) => seen.push([resource, value]);
    onMade(listener);
    onMade(listener);
    made('Status', { id: '1' }, { method: 'POST', path: '/api/v1/statuses' } as Exchange);
    expect(seen).toEqual([['Status', { id: '1' }]]);
  });
});

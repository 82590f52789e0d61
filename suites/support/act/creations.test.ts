import { describe, expect, it } from 'vitest';
import type { Exchange } from '../talk/http.ts';
import { announceCreation, onCreation, type CreatedResource } from './creations.ts';

describe('the creations of the run, announced to their listeners', () => {
  it('should announce each created object to every listener once, with its resource and exchange', () => {
    const seen: [CreatedResource, unknown][] = [];
    const listener = (resource: CreatedResource, value: unknown) => seen.push([resource, value]);
    onCreation(listener);
    onCreation(listener);
    announceCreation('Status', { id: '1' }, { method: 'POST', path: '/api/v1/statuses' } as Exchange);
    expect(seen).toEqual([['Status', { id: '1' }]]);
  });
});

// The cases of the contract's types the run should meet: one is met by the answer of the operation that gives it,
// whatever the server left out of it.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../talk/http.ts';
import { observeResource } from './resources.ts';
import { runWideSnapshot } from './run-wide.ts';

const TEXTLESS = 'a Status without text (the DELETE answer of a status with media only), whose text is a string all the same';
/** The answer as the HTTP layer records it (its body aside: the schema's mismatches of this sketch of a Status are kept, not judged, here). */
const answer = (method: string): Exchange => ({
  method, url: 'http://127.0.0.1:1/api/v1/statuses/5', path: '/api/v1/statuses/5', actor: 'A', requestHeaders: {}, status: 200, headers: {}, text: '{}', truncated: false, ms: 1,
});
const met = () => runWideSnapshot().cases?.['RESOURCE-STATUS-1'] ?? [];

describe('a Status without text', () => {
  it('should not be met by a read, which answers no text', () => {
    observeResource('Status', { id: '5', media_attachments: [] }, answer('GET'));
    expect(met()).not.toContain(TEXTLESS);
  });

  it('should be met by the DELETE answer of a status with media only, its text left out as much as empty', () => {
    observeResource('Status', { id: '5', media_attachments: [{ id: '7' }] }, answer('DELETE'));
    expect(met()).toContain(TEXTLESS);
  });
});

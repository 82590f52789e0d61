// A flag is read on the status acted on: a server may answer it inside a boost of it, whose own flags are the boost's
// (issue 52: read on the wrapper, the owner's favourite blocked the scope checks by AUTH-BEARER-1, which had passed).
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../talk/http.ts';
import { flagOn, shows } from './moves.ts';

const answer = (body: unknown): Exchange => ({
  method: 'GET',
  url: 'http://server.invalid/api/v1/statuses/1',
  path: '/api/v1/statuses/1',
  actor: 'A',
  requestHeaders: {},
  status: 200,
  headers: { 'content-type': 'application/json' },
  text: JSON.stringify(body),
  truncated: false,
  ms: 1,
});

describe('the flag of the status acted on', () => {
  it('should read the flag on the status itself', () => {
    expect(flagOn(answer({ id: '1', favourited: true, reblog: null }), '1', 'favourited')).toBe(true);
  });

  it("should read the flag inside a boost of it, not the boost's own", () => {
    const wrapper = answer({ id: '9', favourited: false, reblog: { id: '1', favourited: true } });
    expect(flagOn(wrapper, '1', 'favourited')).toBe(true);
    expect(shows(wrapper, '1', 'favourited', true)).toEqual({ ok: true });
  });

  it('should read nothing of another status, or of a flag left out', () => {
    expect(flagOn(answer({ id: '9', favourited: true, reblog: { id: '2', favourited: true } }), '1', 'favourited')).toBeUndefined();
    expect(flagOn(answer({ id: '1' }), '1', 'pinned')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { AUTH_OPERATIONS } from '../act/explore-auth-model.ts';
import type { Exchange } from '../talk/http.ts';
import { CLAUSES } from './clauses.ts';
import { AUTH_CLAUSES, authInstances, authModelLines, describeAuthInput, judgeAuthExplored, judgedAuth } from './explore-auth-oracle.ts';

const answer = (status: number, body?: unknown): Exchange => ({
  method: 'POST',
  url: 'http://server.invalid/oauth/token',
  path: '/oauth/token',
  actor: 'anonymous',
  requestHeaders: {},
  status,
  headers: { 'content-type': 'application/json' },
  text: body === undefined ? '' : JSON.stringify(body),
  truncated: false,
  ms: 1,
});

describe('the oracle of the explored registration, OAuth and relations inputs', () => {
  const sent = (operation: 'token' | 'verify' | 'following' | 'register', row: Record<string, string>, exchange: Exchange) => ({ input: { operation, row, drawn: {}, drawnBy: 'covering' as const }, exchange });

  it('should judge a scope beyond the registered set refused, and a granted scope within it', () => {
    const beyond = authInstances(sent('token', { scope: 'beyond the registered set (read follow)' }, answer(200, { access_token: 't', scope: 'read follow' })));
    expect(beyond).toMatchObject([{ clause: 'OAUTH-SCOPE-1', holds: false }]);
    const granted = authInstances(sent('token', { scope: 'missing' }, answer(200, { access_token: 't', scope: 'read follow' })));
    expect(granted.map((i) => [i.clause, i.holds])).toEqual([
      ['OAUTH-TOKEN-1', true],
      ['OAUTH-SCOPE-1', false],
      ['OAUTH-CLIENTCRED-1', true],
    ]);
  });

  it('should leave open what the contract does not show, and judge there only a server error (unmarked)', () => {
    expect(authInstances(sent('register', { client_name: 'missing' }, answer(500)))).toEqual([]);
    expect(judgedAuth({ operation: 'register', row: { client_name: 'missing' } })).toBe(false);
    expect(authInstances(sent('following', { id: 'never existed', token: 'user' }, answer(404)))).toEqual([]);
    expect(authInstances(sent('token', { grant_type: 'unknown' }, answer(400)))).toEqual([]);
    expect(judgedAuth({ operation: 'token', row: { scope: 'unknown' } })).toBe(true);
  });

  it('should judge the token kinds by their rows: none and made up refused with 401, a user token answered', () => {
    expect(authInstances(sent('verify', { token: 'none' }, answer(401)))).toMatchObject([{ clause: 'APPS-VERIFY-2', holds: true }]);
    expect(authInstances(sent('following', { id: 'own', token: 'made up' }, answer(403)))).toMatchObject([{ clause: 'ERRORS-TOKEN-2', holds: false }]);
    expect(authInstances(sent('following', { id: "another account's", token: 'application' }, answer(200, [])))).toMatchObject([{ clause: 'RELATIONS-APPTOKEN-1', holds: true }]);
  });

  it('should name only clauses of the catalogue, and show every operation in the model', () => {
    const known = new Set(CLAUSES.map((c) => c.id));
    for (const clause of AUTH_CLAUSES) expect(known.has(clause), clause).toBe(true);
    const lines = authModelLines().join('\n');
    for (const op of AUTH_OPERATIONS) expect(lines).toContain(`${op.name} (${op.method} ${op.path})`);
    expect(describeAuthInput({ operation: 'token', row: { scope: 'unknown' }, drawn: { scope: 'conformanceabcd' } })).toBe('POST /oauth/token with scope unknown (conformanceabcd)');
  });

  // A refusal whose valid request got no token is blocked naming OAUTH-TOKEN-1 (block ends the running check: the runs show it).
  it('should fail a token granted beyond the set once, and say when no input reached a clause', () => {
    const granted = sent('token', { scope: 'beyond the registered set (read follow)' }, answer(200, { access_token: 't' }));
    const token = sent('token', {}, answer(200, { access_token: 'u' }));
    expect(() => judgeAuthExplored({ sent: [granted, token], smallest: new Map() }, 'OAUTH-SCOPE-1')).toThrow(/1 of 1 explored inputs broke it/);
    expect(judgeAuthExplored({ sent: [token], smallest: new Map() }, 'OAUTH-CODE-1')).toBe(false);
  });

  it("should take any valid grant that gave a token as the refusals' control, one valid class refused alone being OAUTH-TOKEN-1's", () => {
    const refusedAlone = sent('token', { scope: 'the registered set (read write)' }, answer(200, { token_type: 'Bearer' }));
    const beyond = sent('token', { scope: 'beyond the registered set (read follow)' }, answer(400, { error: 'invalid_scope' }));
    const token = sent('token', {}, answer(200, { access_token: 'u' }));
    expect(judgeAuthExplored({ sent: [refusedAlone, beyond, token], smallest: new Map() }, 'OAUTH-SCOPE-1')).toBe(true);
  });
});

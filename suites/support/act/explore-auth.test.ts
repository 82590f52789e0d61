import { describe, expect, it } from 'vitest';
import { exploreAnnouncement } from './explore-inputs.ts';
import { AUTH_DRAWS, AUTH_OPERATIONS, authCost, authCoverageLines, authCovering, choiceOf, drawAuthInputs, EXPLORED_SCOPES, registrationForm, tokenForm, variedOf } from './explore-auth.ts';

const APP = { client_id: 'id', client_secret: 'secret', name: 'conformance explored app' };

describe('the explored registration, OAuth and relations inputs', () => {
  it('should send every class of every parameter in the covering set, each class that is not valid alone on a valid request', () => {
    const covering = authCovering();
    for (const op of AUTH_OPERATIONS) {
      for (const p of op.parameters) {
        for (const choice of p.choices) expect(covering.some((c) => c.operation === op.name && choiceOf(op, p, c.row).name === choice.name), `${op.name} ${p.name} ${choice.name}`).toBe(true);
      }
    }
    for (const cell of covering) expect(variedOf(cell).length, JSON.stringify(cell)).toBeLessThanOrEqual(1);
    expect(authCoverageLines(drawAuthInputs(1)).every((line) => line.endsWith('every class of every parameter reached'))).toBe(true);
  });

  it('should combine the valid registrations pairwise, the first one the application the token inputs ask of', () => {
    const valid = authCovering().filter((c) => c.operation === 'register' && variedOf(c).length === 0);
    const redirects = new Set(valid.map((c) => c.row.redirect_uris));
    const scopes = new Set(valid.map((c) => c.row.scopes));
    expect(redirects.size).toBe(4);
    expect(scopes.size).toBe(4);
    expect(registrationForm({ row: valid[0]?.row ?? {}, drawn: {} })).toMatchObject({ redirect_uris: 'urn:ietf:wg:oauth:2.0:oob', scopes: EXPLORED_SCOPES });
  });

  it('should draw the same inputs for one seed and other values for another, the covering set first', () => {
    expect(drawAuthInputs(7)).toEqual(drawAuthInputs(7));
    expect(drawAuthInputs(7)).not.toEqual(drawAuthInputs(8));
    const inputs = drawAuthInputs(3);
    expect(inputs.filter((i) => i.drawnBy === 'random')).toHaveLength(AUTH_DRAWS);
    expect(inputs.findIndex((i) => i.drawnBy === 'random')).toBe(authCovering().length);
  });

  it('should leave out what a class leaves out, and send the code never issued with the code grant', () => {
    const missing = tokenForm({ row: { client_secret: 'missing', scope: 'missing', redirect_uri: 'missing' }, drawn: {} }, APP);
    expect(missing).toEqual({ client_id: 'id', grant_type: 'client_credentials', client_secret: undefined, scope: undefined, redirect_uri: undefined });
    const code = tokenForm({ row: { grant_type: 'authorization_code with a code never issued' }, drawn: { grant_type: 'conformance-code-abcd' } }, APP);
    expect(code).toMatchObject({ grant_type: 'authorization_code', code: 'conformance-code-abcd', client_secret: 'secret' });
  });

  it('should count each request in the bucket the suite counts it in, a granted token with its use, revocation and reads', () => {
    expect(authCost([])).toEqual({ api: 0, oauth: 0 });
    const token = { operation: 'token' as const, row: {}, drawn: {}, drawnBy: 'covering' as const };
    expect(authCost([token])).toEqual({ api: 4, oauth: 2 });
    expect(authCost([{ ...token, row: { scope: 'beyond the registered set (read follow)' } }])).toEqual({ api: 1, oauth: 1 });
  });

  // The windows it takes are counted from the run's plan, where its steps declare what they cost (run/cli.ts).
  it('should be announced by --explore N beside its N', () => {
    const auth = authCost(drawAuthInputs(1));
    const line = exploreAnnouncement(200, { fewest: 3, most: 3 }, 285, 5, auth);
    expect(line).toContain(`up to ${auth.api + auth.oauth} for the registration, OAuth and relations inputs (${auth.api} /api, ${auth.oauth} /oauth)`);
  });
});

// A token the server refuses is our mistake, whatever 4xx the server refuses it with (issue 52): a small C server
// answers a made-up token 422 on verify_credentials. The command stops after its preflight, with exit code 2 and one
// line naming the setting (never the token) and the status, before any request of the run: nothing is created.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../fixtures/reference-server/server.ts';
import { mistakeOf, runCli, serverEnv, STACK_FRAME } from './run-cli.ts';

/** The preflight's requests: HEAD / and verify_credentials with each token. */
const PREFLIGHT_REQUESTS = 3;

let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ variations: ['made-up-token-422'] });
});
afterAll(() => server.close());

describe('a refused token', () => {
  it('should stop the command after its preflight with exit code 2 where verify_credentials answers a made-up token 422', async () => {
    const madeUp = 'a-made-up-token-of-b';
    const before = server.requestsReceived();
    const writes = server.context.store.writes.length;
    const run = await runCli([], { ...serverEnv(server), CONFORMANCE_TOKEN_B: madeUp }, 60_000);
    expect(mistakeOf(run)).toBe(`social-api-conformance: CONFORMANCE_TOKEN_B was refused by ${server.url}: GET /api/v1/accounts/verify_credentials answered HTTP 422 Unprocessable: no such token\n`);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.results).toBeUndefined();
    expect(run.stderr).not.toMatch(STACK_FRAME);
    // No request beyond the preflight's, and so nothing made on the server.
    expect(server.requestsReceived() - before).toBe(PREFLIGHT_REQUESTS);
    expect(server.context.store.writes.length).toBe(writes);
  });
});

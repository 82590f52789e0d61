// A token the server refuses is our mistake, whatever 4xx the server refuses it with (issue 52): a small C server
// answers a made-up token 422 on verify_credentials. The command stops after its preflight, with exit code 2 and one
// line naming the setting (never the token) and the status, before any request of the run: nothing is created.
// Its time is bounded as our other mistakes' are (cli-mistakes.test.ts): by a start of the command timed beside it,
// which a busy machine slows as much (two starts and 3 s for the answers; an idle machine's start is about 1 s).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../fixtures/reference-server/server.ts';
import { commandStartMs, mistakeOf, runCli, serverEnv, STACK_FRAME } from './run-cli.ts';

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
    const [run, startMs] = await Promise.all([runCli([], { ...serverEnv(server), CONFORMANCE_TOKEN_B: madeUp }, 60_000), commandStartMs()]);
    console.log(`token refused with 422: exit ${run.code} after ${(run.ms / 1000).toFixed(1)} s (a start of the command beside it: ${(startMs / 1000).toFixed(1)} s)`);
    expect(run.ms).toBeLessThan(2 * startMs + 3000);
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

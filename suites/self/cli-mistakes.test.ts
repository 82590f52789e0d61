// Our mistakes, not the server's (issue 40): a selection that takes no check, an address where nothing listens, a
// token the server refuses, tokens of one account, a server that answers nothing. Each stops the command before any
// check with exit code 2 and one line. "Before any check" is shown by what the command did, never by a clock a busy
// machine moves: no progress on stdout, and no request beyond the preflight's (HEAD / and verify_credentials with
// each token), as the server counts them.
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../fixtures/reference-server/server.ts';
import { freePort, mistakeOf, runCli, serverEnv, STACK_FRAME } from './run-cli.ts';

/** The preflight's requests: HEAD / and verify_credentials with each token. */
const PREFLIGHT_REQUESTS = 3;

describe('our mistakes stop the command with exit code 2', () => {
  // Our mistakes, not the server's: read from the suites' source before anything starts.
  const selectionMistakes: [string, string[], RegExp][] = [
    ['an --only prefix no check takes', ['--only', 'NOSUCH-'], /^--only "NOSUCH-" matches no check; nearest ids: "[A-Z-]+"/],
    ['a misspelt --only prefix', ['--only', 'status-raed'], /^--only "STATUS-RAED" matches no check; nearest ids: "STATUS-READ"/],
    ['an --exclude prefix no check takes', ['--exclude', 'OAUTH-TOKN'], /^--exclude "OAUTH-TOKN" matches no check; nearest ids: "OAUTH-TOKEN"/],
    ['an unknown group', ['--group', 'statuss'], /^unknown group "statuss": no suites\/statuss\.test\.ts, and no group shows that name; nearest: "statuses"/],
    ['a selection that takes no check', ['--group', 'oauth', '--only', 'STATUS-READ'], /^the selection \(--group, --only, --exclude\) takes no check/],
  ];

  it.each(selectionMistakes)('should refuse %s as soon as the command starts, in one line naming the nearest, with exit code 2', async (_what, args, line) => {
    const run = await runCli(args, {}, 120_000);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr.replace(/^social-api-conformance: /, '')).toMatch(line);
    expect(run.stderr).not.toMatch(STACK_FRAME);
  });

  it('should stop at once with one clear line and exit code 2 when nothing listens at the base URL', async () => {
    const port = await freePort();
    const run = await runCli([], { CONFORMANCE_BASE_URL: `http://127.0.0.1:${port}`, CONFORMANCE_TOKEN_A: 'token-of-a', CONFORMANCE_TOKEN_B: 'token-of-b' }, 120_000);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    // One line, no "waiting for": a refused connection is an answer, never waited for as a silent server is.
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(mistakeOf(run).trim()).toMatch(/^social-api-conformance: cannot reach CONFORMANCE_BASE_URL http:\/\/127\.0\.0\.1:\d+: connection refused \(nothing listens there\)$/);
    expect(run.stdout + run.stderr).not.toMatch(STACK_FRAME);
  });

  // Our mistakes, not the server's: each stops the run before any check, with exit code 2 and one line that names the
  // setting and the server's answer (never the token), and no report.
  it('should stop at once with one line naming the setting when the server refuses token A, or tokens A and B are one account', async () => {
    const server = await startReferenceServer();
    try {
      const { appId } = server.context.store.tokens.get(server.users.a.token) ?? { appId: '' };
      const anotherTokenOfA = server.context.store.issueToken(appId, server.users.a.account.id, ['read', 'write', 'follow', 'push']).token;
      // One after the other: each run's requests are counted apart.
      const requestsOf = async (env: Record<string, string>) => {
        const before = server.requestsReceived();
        const run = await runCli([], { ...serverEnv(server), ...env }, 120_000);
        return { run, requests: server.requestsReceived() - before };
      };
      const { run: refused, requests: refusedRequests } = await requestsOf({ CONFORMANCE_TOKEN_A: 'a-token-the-server-never-issued' });
      const { run: sameAccount, requests: sameAccountRequests } = await requestsOf({ CONFORMANCE_TOKEN_B: anotherTokenOfA });
      expect(refusedRequests, 'requests of the run with a refused token').toBeLessThanOrEqual(PREFLIGHT_REQUESTS);
      expect(sameAccountRequests, 'requests of the run with tokens of one account').toBeLessThanOrEqual(PREFLIGHT_REQUESTS);
      expect(mistakeOf(refused)).toBe(`social-api-conformance: CONFORMANCE_TOKEN_A was refused by ${server.url}: GET /api/v1/accounts/verify_credentials answered HTTP 401 The access token is invalid\n`);
      expect(mistakeOf(sameAccount)).toBe(
        `social-api-conformance: CONFORMANCE_TOKEN_A and CONFORMANCE_TOKEN_B belong to the same account (id ${server.users.a.account.id} at ${server.url}): B must be another user's token\n`,
      );
      for (const run of [refused, sameAccount]) {
        expect(run.code).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.results).toBeUndefined();
        expect(run.stderr).not.toContain('a-token-the-server-never-issued');
        expect(run.stderr).not.toContain(anotherTokenOfA);
      }
    } finally {
      await server.close();
    }
  });

  it('should stop with exit code 2 after the timeout where the server takes connections and answers nothing, saying first what it waits for, and send nothing more', async () => {
    let connections = 0;
    const silent = createServer(() => {
      connections++;
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const run = await runCli([], { CONFORMANCE_BASE_URL: url, CONFORMANCE_TOKEN_A: 'token-of-a', CONFORMANCE_TOKEN_B: 'token-of-b', CONFORMANCE_TIMEOUT_MS: '2000' }, 120_000);
      expect(run.code).toBe(2);
      // A connection for each request of the preflight at most: nothing sent again, nothing of the run.
      expect(connections, 'connections to the silent server').toBeLessThanOrEqual(PREFLIGHT_REQUESTS);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd().split('\n')).toEqual([
        `… waiting for ${url} (HEAD / and GET /api/v1/accounts/verify_credentials), up to 2 s (CONFORMANCE_TIMEOUT_MS)`,
        `social-api-conformance: no answer from ${url} within 2 s (CONFORMANCE_TIMEOUT_MS) to HEAD / and GET /api/v1/accounts/verify_credentials`,
      ]);
      expect(run.results).toBeUndefined();
    } finally {
      silent.close();
    }
  });
});

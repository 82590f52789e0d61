// Our mistakes, not the server's (issue 40): a selection that takes no check, an address where nothing listens, a
// token the server refuses, tokens of one account, a server that answers nothing. Each stops the command before any
// check with exit code 2 and one line, about as soon as the command has started. The bound is measured in the same
// test: the command's own start (commandStartMs), timed beside it, which a busy machine slows as much as the command
// under test.
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../fixtures/reference-server/server.ts';
import { commandStartMs, freePort, mistakeOf, runCli, serverEnv, STACK_FRAME, type CliRun } from './run-cli.ts';

/**
 * Runs `mistake` beside the command's own start (the same process start and module loading), and returns
 * its run with the time a mistake found before any check may take: two starts, and 3 s for the answers of a server
 * on this machine. A run of the checks would take many starts more.
 */
async function besideAStart(mistake: () => Promise<CliRun>, extraMs = 0): Promise<{ run: CliRun; boundMs: number }> {
  const [run, startMs] = await Promise.all([mistake(), commandStartMs()]);
  return { run, boundMs: 2 * startMs + 3000 + extraMs };
}

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
    const { run, boundMs } = await besideAStart(() => runCli(args, {}, 120_000));
    expect(run.code).toBe(2);
    expect(run.ms).toBeLessThan(boundMs);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr.replace(/^social-api-conformance: /, '')).toMatch(line);
    expect(run.stderr).not.toMatch(STACK_FRAME);
  });

  it('should stop at once with one clear line and exit code 2 when nothing listens at the base URL', async () => {
    const port = await freePort();
    const { run, boundMs } = await besideAStart(() => runCli([], { CONFORMANCE_BASE_URL: `http://127.0.0.1:${port}`, CONFORMANCE_TOKEN_A: 'token-of-a', CONFORMANCE_TOKEN_B: 'token-of-b' }, 120_000));
    console.log(`nothing listening: exit ${run.code} after ${(run.ms / 1000).toFixed(1)} s (bound ${(boundMs / 1000).toFixed(1)} s)`);
    expect(run.code).toBe(2);
    expect(run.ms).toBeLessThan(boundMs);
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
      // One after the other: each is timed beside a start of the command, which takes most of it on a busy machine.
      const { run: refused, boundMs: refusedBoundMs } = await besideAStart(() => runCli([], { ...serverEnv(server), CONFORMANCE_TOKEN_A: 'a-token-the-server-never-issued' }, 120_000));
      const { run: sameAccount, boundMs: sameAccountBoundMs } = await besideAStart(() => runCli([], { ...serverEnv(server), CONFORMANCE_TOKEN_B: anotherTokenOfA }, 120_000));
      console.log(`refused token: exit ${refused.code} after ${(refused.ms / 1000).toFixed(1)} s; same account: exit ${sameAccount.code} after ${(sameAccount.ms / 1000).toFixed(1)} s`);
      expect(refused.ms).toBeLessThan(refusedBoundMs);
      expect(sameAccount.ms).toBeLessThan(sameAccountBoundMs);
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

  it('should stop with exit code 2 within the timeout of a start where the server takes connections and answers nothing, saying first what it waits for', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const { run, boundMs } = await besideAStart(() => runCli([], { CONFORMANCE_BASE_URL: url, CONFORMANCE_TOKEN_A: 'token-of-a', CONFORMANCE_TOKEN_B: 'token-of-b', CONFORMANCE_TIMEOUT_MS: '2000' }, 120_000), 2000);
      console.log(`silent server: exit ${run.code} after ${(run.ms / 1000).toFixed(1)} s (bound ${(boundMs / 1000).toFixed(1)} s)`);
      expect(run.code).toBe(2);
      expect(run.ms).toBeLessThan(boundMs);
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

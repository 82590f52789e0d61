// The command as a user meets it: usage errors, a server that is not there, and the walk from
// `npm run reference-server` to a passing run with the lines it prints.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../fixtures/reference-server/server.ts';
import { cleanEnv, ROOT, runCli, serverEnv, startStandaloneServer } from './run-cli.ts';

const STACK_FRAME = /^\s+at .*:\d+:\d+\)?$/m;

/** A loopback port where nothing listens: bound by the system, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `npm run reference-server -- --port N [--variation V ...]` and resolves with its KEY=VALUE lines once it prints READY. */
function startNpmServer(port: number, variations: readonly string[] = []): ReturnType<typeof startStandaloneServer> {
  return startStandaloneServer('npm', ['run', '--silent', 'reference-server', '--', '--port', String(port), ...variations.flatMap((v) => ['--variation', v])]);
}

describe('the command', () => {
  const usageErrors: [string, string[], Record<string, string>][] = [
    ['an unknown flag', ['--no-such-flag'], {}],
    ['a malformed URL', ['--base-url', 'not a url', '--token-a', 'token-of-a'], {}],
    ['token A equal to token B', ['--base-url', 'http://127.0.0.1:9', '--token-a', 'the-same-token', '--token-b', 'the-same-token'], {}],
    ['a base URL without a token', [], { CONFORMANCE_BASE_URL: 'http://127.0.0.1:9' }],
    ["the server's own release number as the API release", ['--server-version', '0.7.1'], {}],
  ];

  it.each(usageErrors)('should refuse %s with one line on stderr and exit code 2', async (_what, args, env) => {
    const run = await runCli(args, env, 30_000);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('should stop at once with one clear line and exit code 2 when nothing listens at the base URL', async () => {
    const port = await freePort();
    const run = await runCli([], { CONFORMANCE_BASE_URL: `http://127.0.0.1:${port}`, CONFORMANCE_TOKEN_A: 'token-of-a', CONFORMANCE_TOKEN_B: 'token-of-b' }, 60_000);
    console.log(`nothing listening: exit ${run.code} after ${(run.ms / 1000).toFixed(1)} s`);
    expect(run.code).toBe(2);
    expect(run.ms).toBeLessThan(30_000);
    expect(run.stderr.trim()).toMatch(/^social-api-conformance: cannot reach CONFORMANCE_BASE_URL http:\/\/127\.0\.0\.1:\d+: connection refused \(nothing listens there\)$/);
    expect(run.stdout + run.stderr).not.toMatch(STACK_FRAME);
  });

  // Our mistakes, not the server's: each stops the run before any check, with exit code 2 and one line that names the
  // setting and the server's answer (never the token), and no report.
  it('should stop at once with one line naming the setting when the server refuses token A, or tokens A and B are one account', async () => {
    const server = await startReferenceServer();
    try {
      const { appId } = server.context.store.tokens.get(server.users.a.token) ?? { appId: '' };
      const anotherTokenOfA = server.context.store.issueToken(appId, server.users.a.account.id, ['read', 'write', 'follow', 'push']).token;
      // One after the other: each is timed, and the command's own start takes most of it on a busy machine.
      const refused = await runCli([], { ...serverEnv(server), CONFORMANCE_TOKEN_A: 'a-token-the-server-never-issued' }, 30_000);
      const sameAccount = await runCli([], { ...serverEnv(server), CONFORMANCE_TOKEN_B: anotherTokenOfA }, 30_000);
      console.log(`refused token: exit ${refused.code} after ${(refused.ms / 1000).toFixed(1)} s; same account: exit ${sameAccount.code} after ${(sameAccount.ms / 1000).toFixed(1)} s`);
      expect(refused.stderr).toBe(`social-api-conformance: CONFORMANCE_TOKEN_A was refused by ${server.url}: GET /api/v1/accounts/verify_credentials answered HTTP 401 The access token is invalid\n`);
      expect(sameAccount.stderr).toBe(
        `social-api-conformance: CONFORMANCE_TOKEN_A and CONFORMANCE_TOKEN_B belong to the same account (id ${server.users.a.account.id} at ${server.url}): B must be another user's token\n`,
      );
      for (const run of [refused, sameAccount]) {
        expect(run.code).toBe(2);
        expect(run.ms).toBeLessThan(5000);
        expect(run.stdout).toBe('');
        expect(run.results).toBeUndefined();
        expect(run.stderr).not.toContain('a-token-the-server-never-issued');
        expect(run.stderr).not.toContain(anotherTokenOfA);
      }
    } finally {
      await server.close();
    }
  });

  it('should stop with exit code 2 within the timeout and 5 s where the server takes connections and answers nothing, saying first what it waits for', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const run = await runCli([], { CONFORMANCE_BASE_URL: url, CONFORMANCE_TOKEN_A: 'token-of-a', CONFORMANCE_TOKEN_B: 'token-of-b', CONFORMANCE_TIMEOUT_MS: '2000' }, 30_000);
      console.log(`silent server: exit ${run.code} after ${(run.ms / 1000).toFixed(1)} s`);
      expect(run.code).toBe(2);
      expect(run.ms).toBeLessThan(2000 + 5000);
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

  it('should run only the files --only takes a check of, and report the others as not selected, as when it ran them', async () => {
    const [one, none] = await Promise.all([runCli(['--only', 'RELATIONS-TOKEN'], {}, 60_000), runCli(['--only', 'NOSUCH'], {}, 60_000)]);
    expect(one.code, one.stdout.slice(-2000)).toBe(0);
    expect(none.code, none.stdout.slice(-2000)).toBe(0);
    // The same catalogue either way: every check of every group, each taken or not selected.
    expect(one.results?.checks.length).toBe(none.results?.checks.length);
    expect(one.results?.checks.filter((c) => c.status !== 'skipped').map((c) => c.clause)).toEqual(['RELATIONS-TOKEN-1']);
    expect(none.results?.checks.every((c) => c.skipReason === 'not selected (--only)')).toBe(true);
    // Only the file of the check ran: every other group is not run, and nothing selected starts nothing.
    expect(one.stdout.match(/\(not run\)$/gm)).toHaveLength((one.results?.groups.length ?? 0) - 1);
    expect(none.results?.counts.total).toBe(0);
    expect(none.stdout.match(/\(not run\)$/gm)).toHaveLength(none.results?.groups.length ?? -1);
  });

  // Started as real servers behave: no answer without a User-Agent, redirect_uri required on every token request,
  // and a web sign-in with a CSRF field and a session cookie before the authorization form.
  it('should pass against `npm run reference-server` (with the variations of real servers) with the KEY=VALUE lines it prints as the environment', async () => {
    const { lines, stop } = await startNpmServer(await freePort(), ['no-user-agent-teapot', 'redirect-uri-required', 'web-sign-in']);
    try {
      expect(Object.keys(lines)).toEqual(expect.arrayContaining(['CONFORMANCE_BASE_URL', 'CONFORMANCE_TOKEN_A', 'CONFORMANCE_TOKEN_B']));
      const run = await runCli([], lines);
      console.log(`standalone reference server: exit ${run.code}, ${run.results?.totals.passed} of ${run.results?.totals.checks} checks passed`);
      expect(run.code, run.stdout.slice(-3000)).toBe(0);
      // The scope checks ran: their tokens came from the password grant or the web sign-in.
      expect(run.results?.checks.filter((c) => c.clause.startsWith('ACCESS-') || c.clause === 'AUTH-FLOW-1').map((c) => `${c.clause} ${c.status}`)).not.toContainEqual(expect.stringMatching(/skipped$/));
    } finally {
      stop();
    }
  });

  it('should finish the run and its reports, without a stack trace, when its reader stops reading (| head)', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'conformance-'));
    const child = spawn(process.execPath, [join(ROOT, 'suites/support/run/bin.mjs'), '--group', 'client-registration'], {
      cwd: ROOT,
      env: cleanEnv({ CONFORMANCE_REPORT_DIR: reportDir }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader goes away at once: every line the command writes meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    try {
      expect(stderr).not.toMatch(STACK_FRAME);
      expect(code).toBe(0);
      expect(existsSync(join(reportDir, 'results.json'))).toBe(true);
    } finally {
      rmSync(reportDir, { recursive: true, force: true });
    }
  });
});

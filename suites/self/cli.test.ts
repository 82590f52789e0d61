// The command as a user meets it: usage errors, a server that is not there, and the walk from
// `npm run reference-server` to a passing run with the lines it prints.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

  // Our mistakes, not the server's: read from the suites' source before anything starts.
  const selectionMistakes: [string, string[], RegExp][] = [
    ['an --only prefix no check takes', ['--only', 'NOSUCH-'], /^--only "NOSUCH-" matches no check; nearest ids: "[A-Z-]+"/],
    ['a misspelt --only prefix', ['--only', 'status-raed'], /^--only "STATUS-RAED" matches no check; nearest ids: "STATUS-READ"/],
    ['an --exclude prefix no check takes', ['--exclude', 'OAUTH-TOKN'], /^--exclude "OAUTH-TOKN" matches no check; nearest ids: "OAUTH-TOKEN"/],
    ['an unknown group', ['--group', 'statuss'], /^unknown group "statuss": no suites\/statuss\.test\.ts; nearest: "statuses"/],
    ['a selection that takes no check', ['--group', 'oauth', '--only', 'STATUS-READ'], /^the selection \(--group, --only, --exclude\) takes no check/],
  ];

  it.each(selectionMistakes)('should refuse %s within 5 s, in one line naming the nearest, with exit code 2', async (_what, args, line) => {
    const run = await runCli(args, {}, 30_000);
    expect(run.code).toBe(2);
    expect(run.ms).toBeLessThan(5_000);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr.replace(/^social-api-conformance: /, '')).toMatch(line);
    expect(run.stderr).not.toMatch(STACK_FRAME);
  });

  it('should print its name and version with --version', async () => {
    const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
    const run = await runCli(['--version'], {}, 30_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${name} ${version}\n`);
  });

  it('should list the checks a selection takes, with clause id, group and needs, sending no request and writing no report', async () => {
    // A server that counts the connections made to it: --list makes none.
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const env = { CONFORMANCE_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, CONFORMANCE_TOKEN_A: 'token-of-a' };
      const run = await runCli(['--list', '--only', 'status-read', '--exclude', 'STATUS-READ-2'], env, 30_000);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^CLAUSE +GROUP +NEEDS +CHECK$/);
      expect(lines.slice(1, -1).map((l) => l.split(/ {2,}/).slice(0, 3))).toEqual([
        ['STATUS-READ-1', 'Statuses', 'release >= 2.7.0, not CONFORMANCE_WHITELIST_MODE'],
        ['STATUS-READ-3', 'Statuses', 'CONFORMANCE_TOKEN_B'],
        ['STATUS-READ-4', 'Statuses', 'not CONFORMANCE_WHITELIST_MODE, release >= 2.7.0'],
        ['STATUS-READ-5', 'Statuses', '-'],
      ]);
      expect(lines.at(-1)).toBe('4 checks in 1 group');
      expect(connections).toBe(0);
      expect(readdirSync(run.reportDir)).toEqual([]);
    } finally {
      server.close();
    }
  });

  it('should print only the verdict with -q, and each check as it is judged with -v', async () => {
    const [quiet, verbose] = await Promise.all([runCli(['--group', 'client-registration', '-q'], {}, 60_000), runCli(['--only', 'apps-verify', '-v'], {}, 60_000)]);
    expect(quiet.code, quiet.stdout).toBe(0);
    expect(quiet.stdout).toMatch(/^Conformance: PASS: \d+ checks, [^\n]+\n$/);
    expect(quiet.results?.verdict).toBe('PASS');
    expect(verbose.code, verbose.stdout).toBe(0);
    const lines = verbose.stdout.split('\n');
    const groupLine = lines.findIndex((l) => l.includes('Client registration:'));
    expect(lines.slice(0, groupLine).filter((l) => l.startsWith('  passed: APPS-VERIFY-'))).toHaveLength(2);
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

  it('should run only the files --only takes a check of (whatever the case of its ids), and report the others as not selected, as when it ran them', async () => {
    const [one, listed] = await Promise.all([runCli(['--only', 'relations-token'], {}, 60_000), runCli(['--list'], {}, 30_000)]);
    expect(one.code, one.stdout.slice(-2000)).toBe(0);
    // The whole catalogue: every check of every group, the one taken and the others not selected.
    expect(one.results?.checks.length).toBe(Number(/^(\d+) checks in/m.exec(listed.stdout)?.[1]));
    expect(one.results?.checks.filter((c) => c.status !== 'skipped').map((c) => c.clause)).toEqual(['RELATIONS-TOKEN-1']);
    expect(one.results?.checks.filter((c) => c.status === 'skipped').every((c) => c.skipReason === 'not selected (--only, --exclude)')).toBe(true);
    // Only the file of the check ran: every other group is not run.
    expect(one.stdout.match(/\(not run\)$/gm)).toHaveLength((one.results?.groups.length ?? 0) - 1);
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

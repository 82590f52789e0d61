// The command as a user meets it: usage errors, its options (--version, --list, -q, -v, --only), a reader that stops
// reading, and the walk from `npm run reference-server` to a passing run with the lines it prints. Our mistakes that
// stop it before any check, within a time bound, are cli-mistakes.test.ts.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, freePort, ROOT, runCli, STACK_FRAME, startStandaloneServer } from './run-cli.ts';

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
    ['a repeat count of 0', ['--repeat', '0'], {}],
    ['-x with --max-failures', ['-x', '--max-failures', '3'], {}],
    ['previous results that are no results.json', ['--previous', 'package.json'], {}],
  ];

  it.each(usageErrors)('should refuse %s with one line on stderr and exit code 2', async (_what, args, env) => {
    const run = await runCli(args, env, 30_000);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('should print its name and version with --version', async () => {
    const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
    const run = await runCli(['--version'], {}, 30_000);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${name} ${version}\n`);
  });

  it('should list the checks a selection takes, with clause id, group, needs, cost and steps, sending no request and writing no report', async () => {
    // A server that counts the connections made to it: --list makes none.
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const env = { CONFORMANCE_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, CONFORMANCE_TOKEN_A: 'token-of-a' };
      // The Statuses group's: the explored inputs judge some of these clauses too, and their listing adds the model.
      const run = await runCli(['--list', '--group', 'statuses', '--only', 'status-read', '--exclude', 'STATUS-READ-2'], env, 60_000);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^CLAUSE +GROUP +NEEDS +COST +CHECK$/);
      // A line per check, each followed by its steps in the order the plan runs them.
      expect(lines.slice(1, -2).filter((l) => !l.startsWith('    step: ')).map((l) => l.split(/ {2,}/).slice(0, 3))).toEqual([
        ['STATUS-READ-1', 'Statuses', 'release >= 2.7.0, not CONFORMANCE_WHITELIST_MODE'],
        ['STATUS-READ-3', 'Statuses', 'CONFORMANCE_TOKEN_B'],
        ['STATUS-READ-4', 'Statuses', 'release >= 2.7.0, not CONFORMANCE_WHITELIST_MODE'],
        ['STATUS-READ-5', 'Statuses', '-'],
      ]);
      expect(lines[2]).toMatch(/^ {4}step: A's public status.* \(as A; \d+ \/api; may add \d+\)$/);
      expect(lines.at(-2)).toMatch(/^\d+ steps, each run once: \d+ \/api; a deviating server may add at most \d+ calls$/);
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

  it('should run only the files --only takes a check of (whatever the case of its ids), and report the others as not selected, as when it ran them', async () => {
    // A clause one file checks: the exploration judges RELATIONS-TOKEN-1 too, under --explore N.
    const [one, listed] = await Promise.all([runCli(['--only', 'oauth-password'], {}, 60_000), runCli(['--list'], {}, 60_000)]);
    expect(one.code, one.stdout.slice(-2000)).toBe(0);
    // The whole catalogue: every check of every group, the one taken and the others not selected; no run-wide check,
    // whose own checks did not run, which --list of a whole run counts besides.
    expect(one.results?.checks.length).toBe(Number(/^\d+ checks in \d+ groups: (\d+) of the groups' own and \d+ run-wide/m.exec(listed.stdout)?.[1]));
    expect(one.results?.checks.filter((c) => c.status !== 'skipped').map((c) => c.clause)).toEqual(['OAUTH-PASSWORD-1']);
    expect(one.results?.checks.filter((c) => c.status === 'skipped').every((c) => c.skipReason === 'not selected (--only, --exclude)')).toBe(true);
    // Only the file of the check ran: every other group is not run.
    expect(one.stdout.match(/\(not run\)$/gm)).toHaveLength((one.results?.groups.length ?? 0) - 1);
  });

  // Started as real servers behave: no answer without a User-Agent, redirect_uri required on every token request,
  // and a web sign-in with a CSRF field and a session cookie before the authorization form.
  // Its server keeps the contract's 5-minute buckets: a run slowed by a busy machine (resent answers) may wait for one
  // reset, so the bound is a hang guard beyond it, not a measure of speed.
  it('should pass against `npm run reference-server` (with the variations of real servers) with the KEY=VALUE lines it prints as the environment', { timeout: 420_000 }, async () => {
    const { lines, stop } = await startNpmServer(await freePort(), ['no-user-agent-teapot', 'redirect-uri-required', 'web-sign-in']);
    try {
      expect(Object.keys(lines)).toEqual(expect.arrayContaining(['CONFORMANCE_BASE_URL', 'CONFORMANCE_TOKEN_A', 'CONFORMANCE_TOKEN_B']));
      const run = await runCli([], lines, 400_000);
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

// The package as a client author gets it, without a clone: packed, installed into a directory of its own, and its
// `serve` command started through npx; the installed suite then passes against that stand-in. The install is
// offline, from the npm cache that `npm ci` of this project filled: our tests send nothing beyond 127.0.0.1. An
// offline install cannot resolve version ranges (the cache holds the tarballs `npm ci` fetched, not the registry's
// lists of versions), so the directory gets a lock file: this project's, less its dev dependencies.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunResults } from '../support/results.ts';
import { ROOT, runCommand, startStandaloneServer } from './run-cli.ts';

/** npm's own flags that keep it quiet and off the network. */
const OFFLINE = ['--offline', '--no-audit', '--no-fund', '--no-update-notifier'];

interface LockEntry {
  dev?: boolean;
  [field: string]: unknown;
}

/** A project that depends on the tarball, and a lock file that pins what this project's lock pins. */
function writeConsumer(dir: string, tarball: string): void {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const { '': own, ...installed } = lock.packages;
  const spec = `file:../${tarball}`;
  const integrity = `sha512-${createHash('sha512').update(readFileSync(join(dir, '..', tarball))).digest('base64')}`;
  const { version, license, dependencies, bin, engines } = own as LockEntry;
  const manifest = { name: 'client-of-the-stand-in', version: '1.0.0', private: true, dependencies: { 'social-api-conformance': spec } };
  const packages: Record<string, unknown> = {
    '': { name: manifest.name, version: manifest.version, dependencies: manifest.dependencies },
    'node_modules/social-api-conformance': { version, resolved: spec, integrity, license, dependencies, bin, engines },
  };
  for (const [path, entry] of Object.entries(installed)) if (!entry.dev) packages[path] = entry;
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ ...manifest, lockfileVersion: 3, requires: true, packages }, null, 2));
}

describe('the package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-package-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should start the reference server with `npx social-api-conformance serve` from the installed tarball, and pass the installed suite run against it', { timeout: 400_000 }, async () => {
    const packed = await runCommand('npm', ['pack', '--silent', '--pack-destination', dir], {}, 60_000);
    expect(packed.code, packed.stderr).toBe(0);
    const tarball = packed.stdout.trim().split('\n').at(-1) as string;
    const app = join(dir, 'app');
    mkdirSync(app);
    writeConsumer(app, tarball);
    const install = await runCommand('npm', ['ci', ...OFFLINE], {}, 180_000, app);
    // ENOTCACHED: this project's `npm ci` has not run on this machine, or its cache was cleared.
    expect(install.code, `npm ci --offline failed: ${install.stderr.slice(-2000)}`).toBe(0);
    console.log(`${tarball}: packed in ${(packed.ms / 1000).toFixed(1)} s, installed offline in ${(install.ms / 1000).toFixed(1)} s`);

    const { lines, stop } = await startStandaloneServer('npx', ['--offline', 'social-api-conformance', 'serve', '--port', '0'], app);
    try {
      expect(Object.keys(lines)).toEqual(expect.arrayContaining(['CONFORMANCE_BASE_URL', 'CONFORMANCE_TOKEN_A', 'CONFORMANCE_TOKEN_B', 'CONFORMANCE_PASSWORD_A']));
      expect(lines.CONFORMANCE_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const reportDir = join(dir, 'reports');
      // Two groups keep it cheap; streaming also shows the stand-in's events as Mastodon sends them.
      const run = await runCommand('npx', ['--offline', 'social-api-conformance', '--group', 'client-registration', '--group', 'streaming'], { ...lines, CONFORMANCE_REPORT_DIR: reportDir }, 120_000, app);
      const resultsFile = join(reportDir, 'results.json');
      const results = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResults) : undefined;
      console.log(`installed suite against the installed stand-in: exit ${run.code}, ${results?.totals.passed} of ${results?.totals.checks} checks passed`);
      expect(run.code, run.stdout.slice(-3000) + run.stderr.slice(-1000)).toBe(0);
      expect(results?.totals).toMatchObject({ failed: 0, skipped: 0 });
      expect(results?.totals.passed).toBeGreaterThan(0);
    } finally {
      stop();
    }
  });
});

// The package as a client author gets it, without a clone: packed, installed into a directory of its own, and its
// `serve` command started through npx; the installed suite then passes against that stand-in, and megalodon, a client
// library, works with it as with Mastodon. The install is offline, from the npm cache that `npm ci` of this project
// filled: our tests send nothing beyond 127.0.0.1. An offline install cannot resolve version ranges (the cache holds
// the tarballs `npm ci` fetched, not the registry's lists of versions), so the directory gets a lock file: this
// project's, less its dev dependencies.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mastodon, type Entity, type WebSocketInterface } from 'megalodon';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MEDIA_FIXTURES } from '../../fixtures/media/index.ts';
import type { RunResults } from '../support/report/results.ts';
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

/** The longest wait for one thing the stand-in does in the background: a streamed event, media processing. */
const WAIT_MS = 10_000;

/** The first `event` on a megalodon stream that `matches`; an error on the stream, or nothing within WAIT_MS, fails it. */
function streamed<T>(stream: WebSocketInterface, event: string, matches: (value: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(() => reject(new Error(`no ${event} on the stream within ${WAIT_MS} ms`))), WAIT_MS);
    const listener = (value: T) => void (matches(value) && finish(() => resolve(value)));
    const failed = (error: unknown) => finish(() => reject(error));
    function finish(settle: () => void): void {
      clearTimeout(timer);
      stream.removeListener(event, listener);
      stream.removeListener('error', failed);
      settle();
    }
    stream.on(event, listener);
    stream.on('error', failed);
  });
}

describe('the package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-package-'));
  /** The stand-in, started once from the installed tarball: packing and installing cost seconds. */
  let standIn: Awaited<ReturnType<typeof startStandaloneServer>> | undefined;
  const lines = (): Record<string, string> => standIn?.lines ?? {};

  beforeAll(async () => {
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
    standIn = await startStandaloneServer('npx', ['--offline', 'social-api-conformance', 'serve', '--port', '0'], app);
  }, 300_000);
  afterAll(() => {
    standIn?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should start the reference server with `npx social-api-conformance serve` from the installed tarball, and pass the installed suite run against it', { timeout: 150_000 }, async () => {
    expect(Object.keys(lines())).toEqual(expect.arrayContaining(['CONFORMANCE_BASE_URL', 'CONFORMANCE_TOKEN_A', 'CONFORMANCE_TOKEN_B', 'CONFORMANCE_PASSWORD_A']));
    expect(lines().CONFORMANCE_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const reportDir = join(dir, 'reports');
    // Two groups keep it cheap; streaming also shows the stand-in's events as Mastodon sends them.
    const run = await runCommand('npx', ['--offline', 'social-api-conformance', '--group', 'client-registration', '--group', 'streaming'], { ...lines(), CONFORMANCE_REPORT_DIR: reportDir }, 120_000, join(dir, 'app'));
    const resultsFile = join(reportDir, 'results.json');
    const results = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResults) : undefined;
    console.log(`installed suite against the installed stand-in: exit ${run.code}, ${results?.totals.passed} of ${results?.totals.checks} checks passed`);
    expect(run.code, run.stdout.slice(-3000) + run.stderr.slice(-1000)).toBe(0);
    expect(results?.totals).toMatchObject({ failed: 0, skipped: 0 });
    expect(results?.totals.passed).toBeGreaterThan(0);
  });

  // megalodon, a second widely used client library (behind several desktop clients), as its users call it. Like most
  // Mastodon clients it reads GET /api/v1/instance before it streams, for urls.streaming_api; it sends JSON bodies,
  // uploads multipart to /api/v2/media, and opens one WebSocket per stream with the token in access_token.
  it('should serve megalodon: credentials, the instance, a status and every interaction, a v2 upload read until processed, and the status on the public WebSocket stream', { timeout: 60_000 }, async () => {
    const base = lines().CONFORMANCE_BASE_URL as string;
    const client = new Mastodon(base, lines().CONFORMANCE_TOKEN_A, 'megalodon-client-test');
    expect((await client.verifyAccountCredentials()).data.username).toBe(lines().CONFORMANCE_USERNAME_A);
    expect((await client.getInstance()).data).toMatchObject({ version: lines().CONFORMANCE_SERVER_VERSION, urls: { streaming_api: base.replace('http://', 'ws://') } });

    const stream = await client.publicStreaming();
    try {
      await streamed(stream, 'connect');
      // Listening before posting: the update may come before the answer to the post does.
      const arrival = streamed<Entity.Status>(stream, 'update', (update) => update.content.includes('megalodon streamed'));
      const status = (await client.postStatus('megalodon streamed', { visibility: 'public' })).data as Entity.Status;
      expect((await arrival).id).toBe(status.id);
    } finally {
      stream.stop();
    }

    const { data: status } = await client.postStatus('megalodon interactions', {});
    const { id } = status as Entity.Status;
    expect((await client.favouriteStatus(id)).data).toMatchObject({ favourited: true, favourites_count: 1 });
    expect((await client.unfavouriteStatus(id)).data).toMatchObject({ favourited: false, favourites_count: 0 });
    expect((await client.reblogStatus(id)).data).toMatchObject({ reblogged: true, reblog: { id, reblogged: true } });
    expect((await client.unreblogStatus(id)).data).toMatchObject({ id, reblogged: false });
    expect((await client.bookmarkStatus(id)).data).toMatchObject({ bookmarked: true });
    expect((await client.unbookmarkStatus(id)).data).toMatchObject({ bookmarked: false });
    expect((await client.muteStatus(id)).data).toMatchObject({ muted: true });
    expect((await client.unmuteStatus(id)).data).toMatchObject({ muted: false });
    expect((await client.pinStatus(id)).data).toMatchObject({ pinned: true });
    expect((await client.unpinStatus(id)).data).toMatchObject({ pinned: false });
    await client.deleteStatus(id);
    await expect(client.getStatus(id)).rejects.toMatchObject({ response: { status: 404, data: { error: 'Record not found' } } });

    const png = MEDIA_FIXTURES.png;
    const upload = await client.uploadMedia(createReadStream(png.path), { description: 'megalodon upload' });
    expect(upload.status).toBe(202);
    expect(upload.data).toMatchObject({ type: 'image', url: null, description: 'megalodon upload' });
    // Read as megalodon's users do, until processing has ended: 206 before, 200 with the file's url after.
    await vi.waitFor(async () => expect(await client.getMedia(upload.data.id)).toMatchObject({ status: 200, data: { url: expect.any(String), meta: { original: { width: png.width, height: png.height } } } }), { timeout: WAIT_MS, interval: 100 });
  });
});

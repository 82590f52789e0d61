// A run of the command against a reference server started here, as against a live instance: the server is seeded
// with what A and B own before the run, and afterwards its own state says what the run left behind, touched or
// leaked (suites/self/live-safety.test.ts), and whether a second run in a row gives the same verdicts
// (suites/self/timing.test.ts).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MEDIA_FIXTURES } from '../../fixtures/media/index.ts';
import type { Fault } from '../../fixtures/reference-server/faults.ts';
import { startReferenceServer, type ReferenceServer } from '../../fixtures/reference-server/server.ts';
import type { Store } from '../../fixtures/reference-server/store.ts';
import { backgroundWorkMs, type Variation } from '../../fixtures/reference-server/variations.ts';
import { runCli, serverEnv, type CliRun } from './run-cli.ts';

/** Sends one request as a client of the instance would; the seeds are made through the API, like anyone's posts. */
async function api(server: ReferenceServer, token: string, method: string, path: string, body?: Record<string, string> | FormData): Promise<{ id: string }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(body ? { body: body instanceof FormData ? body : new URLSearchParams(body) } : {}),
  });
  if (!response.ok) throw new Error(`seeding: ${method} ${path} answered ${response.status}`);
  return (await response.json()) as { id: string };
}

/** What A and B own before the run: statuses, a boost, every kind of flag, and an unattached attachment. */
async function seed(server: ReferenceServer): Promise<void> {
  const { a, b } = server.users;
  const post = (token: string, status: string) => api(server, token, 'POST', '/api/v1/statuses', { status, visibility: 'public' });
  const ofA = await post(a.token, 'a status of A from before the run');
  const pinnedOfA = await post(a.token, 'a pinned status of A from before the run');
  const ofB = await post(b.token, 'a status of B from before the run');
  await api(server, a.token, 'POST', `/api/v1/statuses/${pinnedOfA.id}/pin`);
  await api(server, a.token, 'POST', `/api/v1/statuses/${ofA.id}/bookmark`);
  await api(server, a.token, 'POST', `/api/v1/statuses/${ofA.id}/mute`);
  await api(server, a.token, 'POST', `/api/v1/statuses/${ofB.id}/favourite`);
  await api(server, b.token, 'POST', `/api/v1/statuses/${ofA.id}/favourite`);
  await api(server, b.token, 'POST', `/api/v1/statuses/${ofA.id}/reblog`);
  await api(server, b.token, 'POST', `/api/v1/statuses/${ofB.id}/bookmark`);
  const upload = new FormData();
  const png = MEDIA_FIXTURES.png;
  upload.append('file', new Blob([readFileSync(png.path)], { type: png.contentType }), png.file);
  await api(server, a.token, 'POST', '/api/v1/media', upload);
}

/** The objects a run may create, each as "kind id" (flags as "kind account status"), with its record as JSON. */
function objectsOf(store: Store): Map<string, string> {
  const objects = new Map<string, string>();
  // A boost as the ledger knows it: by the status it boosts, whose reblogged flag it is; one per booster (truth() drops
  // the booster, which the ledger's reports do not name: two accounts' boosts of one status are two entries there).
  for (const s of store.statuses.values()) objects.set(s.reblogOfId ? `boost ${s.reblogOfId} by ${s.accountId}` : `status ${s.id}`, JSON.stringify(s));
  // A reply the server hides once its parent is gone is still held.
  for (const s of store.hiddenReplies.values()) objects.set(`status ${s.id}`, JSON.stringify(s));
  for (const [id, { status }] of store.keptPolls) objects.set(`poll ${id}`, JSON.stringify(status.poll));
  for (const m of store.media.values()) objects.set(`attachment ${m.id}`, JSON.stringify(m));
  // A file an update wrote that the server still serves once its attachment is gone: the attachment is not gone.
  for (const file of store.keptFiles) {
    const id = file.split('/')[0] as string;
    if (!store.media.has(id)) objects.set(`attachment ${id}`, `its file ${file}`);
  }
  for (const s of store.scheduled.values()) objects.set(`scheduled status ${s.id}`, JSON.stringify(s));
  const flags = { favourite: store.favourites, bookmark: store.bookmarks, pin: store.pins, mute: store.mutes };
  for (const [kind, map] of Object.entries(flags)) {
    for (const [account, ids] of map) for (const id of ids) objects.set(`${kind} by ${account} of ${id}`, '');
  }
  return objects;
}

export interface Verdict {
  /** The run; with `twice`, the second, the ratchet's gate. */
  run: CliRun;
  /** With `twice`, the first run: the ratchet's baseline, which wrote `expectations`. */
  baseline?: CliRun;
  /** With `twice`, the expectations file the baseline wrote. */
  expectations?: string;
  /** What the run made that the server still holds or shows: statuses, flags, attachments ("kind id"). */
  leftBehind: string[];
  /** The applications the run registered that the server still holds (client ids): the contract has no operation to delete them. */
  applications: string[];
  /** How many applications the server registered for the run. */
  registered: number;
  /** The tokens the run obtained that the server still accepts. */
  tokensKept: number;
  touched: string[];
  leaked: string[];
  /** The variations the server asked about in the runs; one asked only where it changes an answer shows that it did. */
  variationsAsked: Variation[];
  /** The requests the server received during `run` (the last run), on every path: what a proxy in front of it counts. */
  received: number;
}

export interface Server {
  faults?: Fault[];
  variations?: Variation[];
  /** The groups to run; all when absent. */
  groups?: string[];
  /** Two runs in a row against the one server: the ratchet's baseline (--write-expectations), then its gate (--expectations). */
  twice?: boolean;
  /** CONFORMANCE_TIMEOUT_MS of the runs, where the server answers late on purpose. */
  timeoutMs?: number;
  /** More options of the command (-x). */
  options?: string[];
  /** Settings of the command's environment over the server's (an empty one unsets it). */
  env?: Record<string, string>;
}

/**
 * A run of the command is killed after this long, a guard against a hang only: a whole run took over 2 minutes (the
 * default guard of runCli) beside the rest of `npm test` at a load of 50 (2026-12-07), and left no results.
 */
const RUN_TIMEOUT_MS = 600_000;

/** Runs the command against a fresh server (with faults, for a run where checks fail) and judges what it did. */
export async function liveRun({ faults = [], variations = [], groups = [], twice = false, timeoutMs, options = [], env: settings = {} }: Server): Promise<Verdict> {
  // A period of 20 s for the access buckets: the seeds and the run together spend more than 300 calls, so pacing waits
  // for the reset (announced) as on a live instance, in seconds rather than minutes.
  const server = await startReferenceServer({ faults, variations, accessPeriodMs: 20_000 });
  try {
    await seed(server);
    const { store } = server.context;
    const before = objectsOf(store);
    const seededIds = new Set([...store.statuses.keys(), ...store.media.keys(), ...store.scheduled.keys()]);
    const writesBefore = store.writes.length;
    const appsBefore = new Set(store.apps.keys());
    const tokensBefore = new Set(store.tokens.keys());
    const { a, b } = server.users;
    const env = { ...serverEnv(server), ...(timeoutMs ? { CONFORMANCE_TIMEOUT_MS: String(timeoutMs) } : {}), ...settings };
    const args = [...groups.flatMap((group) => ['--group', group]), ...options];
    const file = twice ? join(mkdtempSync(join(tmpdir(), 'conformance-twice-')), 'expectations.json') : undefined;
    const baseline = file ? await runCli([...args, '--write-expectations', file], env, RUN_TIMEOUT_MS) : undefined;
    const receivedBefore = server.requestsReceived();
    const run = await runCli([...args, ...(file ? ['--expectations', file] : [])], env, RUN_TIMEOUT_MS);
    const received = server.requestsReceived() - receivedBefore;
    // What the server still does in the background after the run's last request (a boost coming back) is its truth too.
    await sleep(backgroundWorkMs(variations));
    const after = objectsOf(store);
    // A deleted status the server still shows (the STATUS-DELETE-2 fault) is left behind; a boost is known to the
    // ledger by the flag on the status it boosts, which its removal clears.
    const shownDeleted = faults.includes('STATUS-DELETE-2') ? [...store.deletedStatuses.values()].filter((s) => !s.reblogOfId && !seededIds.has(s.id)).map((s) => `status ${s.id}`) : [];
    const leftBehind = [...[...after.keys()].filter((key) => !before.has(key)), ...shownDeleted];
    const applications = [...store.apps.values()].filter((app) => !appsBefore.has(app.id)).map((app) => app.clientId);
    const registered = store.writes.slice(writesBefore).filter((w) => w.method === 'POST' && w.path === '/api/v1/apps').length;
    const tokensKept = [...store.tokens.values()].filter((t) => !tokensBefore.has(t.token) && !t.revoked).length;
    const touched = [
      ...[...before].filter(([key, record]) => after.get(key) !== record).map(([key]) => `${key} ${after.has(key) ? 'was changed' : 'is gone'}`),
      ...store.writes
        .slice(writesBefore)
        .filter((w) => w.objectIds.some((id) => seededIds.has(id)))
        .map((w) => `${w.method} ${w.path} by account ${w.accountId} wrote to an object from before the run`),
    ];
    // Every secret the run knew or obtained: the configured ones, the client secrets, tokens and authorization codes it was given.
    const secrets: [string, string][] = [
      ['CONFORMANCE_TOKEN_A', a.token],
      ['CONFORMANCE_TOKEN_B', b.token],
      ['CONFORMANCE_PASSWORD_A', a.password],
      ['CONFORMANCE_PASSWORD_B', b.password],
      ...[...store.apps.values()].filter((app) => !appsBefore.has(app.id)).map((app): [string, string] => [`the client secret of application ${app.id}`, app.clientSecret]),
      ...[...store.tokens.keys()].filter((token) => !tokensBefore.has(token)).map((token): [string, string] => ['a token the run obtained', token]),
      ...[...store.authCodes.keys()].map((code): [string, string] => ['an authorization code the run obtained', code]),
    ];
    const outputs = [baseline, run].flatMap((r) => (r ? Object.entries({ stdout: r.stdout, stderr: r.stderr, ...r.reports }) : []));
    const leaked = outputs.flatMap(([name, text]) => secrets.filter(([, value]) => text.includes(value)).map(([secret]) => `${secret} in ${name}`));
    return { run, baseline, expectations: file && existsSync(file) ? readFileSync(file, 'utf8') : undefined, leftBehind, applications, registered, tokensKept, touched, leaked, variationsAsked: server.context.variations.consulted(), received };
  } finally {
    await server.close();
  }
}

/**
 * The reports' list of objects left behind (with `twice`, both runs'), as "kind id" (tokens are never shown: "token";
 * a live authorization is its token).
 */
export function reported(verdict: Verdict): string[] {
  return [...(verdict.baseline?.results?.leftovers ?? []), ...(verdict.run.results?.leftovers ?? [])]
    .map((e) => (e.kind === 'token' || e.kind === 'authorization' ? 'token' : `${e.kind} ${e.id}`))
    .sort();
}

/** The server's truth in the same terms: what the run left, its applications, and a "token" per token still accepted. */
export function truth(verdict: Verdict): string[] {
  return [...verdict.leftBehind.map((key) => key.replace(/^(boost \S+) by \S+$/, '$1').replace(/^(favourite|bookmark|pin|mute) by \S+ of (\S+)$/, '$1 $2')), ...verdict.applications.map((id) => `application ${id}`), ...Array.from({ length: verdict.tokensKept }, () => 'token')].sort();
}


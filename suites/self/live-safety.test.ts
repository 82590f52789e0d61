// Safety on a live instance: the reference server is started here and the command runs against its URL with its
// tokens, as against a production server. Afterwards the server's own state must show that the run left nothing
// behind (but the applications it registered, which the contract cannot delete), touched nothing it did not create,
// and that no secret reached the output or the reports; in a run that passes and in one where checks fail. The
// report's list of objects left behind must be the server's truth: only those applications there; against a server
// without the cleanup's media delete, media read and token revocation, every attachment and token it kept as well;
// against one whose deleted statuses stay readable, those statuses; against one that deletes an application with
// its token, no application.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_FIXTURES } from '../../fixtures/media/index.ts';
import type { Fault } from '../../fixtures/reference-server/faults.ts';
import { startReferenceServer, type ReferenceServer } from '../../fixtures/reference-server/server.ts';
import type { Store } from '../../fixtures/reference-server/store.ts';
import type { Variation } from '../../fixtures/reference-server/variations.ts';
import { inParallel, runCli, serverEnv, type CliRun } from './run-cli.ts';

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
  for (const s of store.statuses.values()) objects.set(`${s.reblogOfId ? 'boost' : 'status'} ${s.id}`, JSON.stringify(s));
  for (const m of store.media.values()) objects.set(`attachment ${m.id}`, JSON.stringify(m));
  for (const s of store.scheduled.values()) objects.set(`scheduled status ${s.id}`, JSON.stringify(s));
  const flags = { favourite: store.favourites, bookmark: store.bookmarks, pin: store.pins, mute: store.mutes };
  for (const [kind, map] of Object.entries(flags)) {
    for (const [account, ids] of map) for (const id of ids) objects.set(`${kind} by ${account} of ${id}`, '');
  }
  return objects;
}

interface Verdict {
  run: CliRun;
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
}

interface Server {
  faults?: Fault[];
  variations?: Variation[];
  /** The groups to run; all when absent. */
  groups?: string[];
}

/** Runs the command against a fresh server (with faults, for a run where checks fail) and judges what it did. */
async function liveRun({ faults = [], variations = [], groups = [] }: Server): Promise<Verdict> {
  const server = await startReferenceServer({ faults, variations });
  try {
    await seed(server);
    const { store } = server.context;
    const before = objectsOf(store);
    const seededIds = new Set([...store.statuses.keys(), ...store.media.keys(), ...store.scheduled.keys()]);
    const writesBefore = store.writes.length;
    const appsBefore = new Set(store.apps.keys());
    const tokensBefore = new Set(store.tokens.keys());
    const { a, b } = server.users;
    const run = await runCli(groups.flatMap((group) => ['--group', group]), serverEnv(server));
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
    // Every secret the run knew or obtained: the configured ones, and the client secrets and tokens it was given.
    const secrets: [string, string][] = [
      ['CONFORMANCE_TOKEN_A', a.token],
      ['CONFORMANCE_TOKEN_B', b.token],
      ['CONFORMANCE_PASSWORD_A', a.password],
      ['CONFORMANCE_PASSWORD_B', b.password],
      ...[...store.apps.values()].filter((app) => !appsBefore.has(app.id)).map((app): [string, string] => [`the client secret of application ${app.id}`, app.clientSecret]),
      ...[...store.tokens.keys()].filter((token) => !tokensBefore.has(token)).map((token): [string, string] => ['a token the run obtained', token]),
      ...[...store.authCodes.keys()].map((code): [string, string] => ['an authorization code the run obtained', code]),
    ];
    const outputs = { stdout: run.stdout, stderr: run.stderr, ...run.reports };
    const leaked = Object.entries(outputs).flatMap(([file, text]) => secrets.filter(([, value]) => text.includes(value)).map(([name]) => `${name} in ${file}`));
    return { run, leftBehind, applications, registered, tokensKept, touched, leaked };
  } finally {
    await server.close();
  }
}

/** The report's list of objects left behind, as "kind id" (tokens are never shown: "token"; a live authorization is its token). */
function reported(verdict: Verdict): string[] {
  return (verdict.run.results?.leftovers ?? []).map((e) => (e.kind === 'token' || e.kind === 'authorization' ? 'token' : `${e.kind} ${e.id}`)).sort();
}

/** The server's truth in the same terms: what the run left, its applications, and a "token" per token still accepted. */
function truth(verdict: Verdict): string[] {
  return [...verdict.leftBehind, ...verdict.applications.map((id) => `application ${id}`), ...Array.from({ length: verdict.tokensKept }, () => 'token')].sort();
}

const PASSING = 'a passing run';
const FAILING = 'a failing run';
const LIMITED = 'a run against a server without media delete, media read and token revocation';
const READABLE = 'a run against a server whose deleted statuses stay readable';
const APPS_GO = 'a run against a server that deletes an application with its token';

describe('safety on a live instance', () => {
  const verdicts = new Map<string, Verdict>();
  // RESOURCE-STATUS-1 makes every created Status mismatch its schema: checks fail right after creating objects.
  const RUNS: Record<string, Server> = {
    [PASSING]: {},
    [FAILING]: { faults: ['RESOURCE-STATUS-1', 'STATUS-FAV-2'] },
    // The groups that upload, register applications and obtain tokens: a whole run's cleanup confirmations against
    // this server take the IP access bucket past its reserve, and pacing then waits minutes for the reset.
    [LIMITED]: { variations: ['no-media-delete', 'no-media-read', 'no-revoke'], groups: ['media', 'oauth', 'access', 'client-registration'] },
    // The groups that create and delete statuses, the media status among them; the boosts are the flags' checks'.
    [READABLE]: { faults: ['STATUS-DELETE-2'], groups: ['statuses', 'statuses-create', 'media'] },
    [APPS_GO]: { variations: ['app-deleted-with-token'], groups: ['access', 'client-registration'] },
  };

  beforeAll(async () => {
    const names = Object.keys(RUNS);
    const results = await inParallel(names, 3, (name) => liveRun(RUNS[name] ?? {}));
    names.forEach((name, i) => verdicts.set(name, results[i] as Verdict));
  }, 300_000);

  afterAll(() => {
    const all = [...verdicts.values()];
    console.log(`objects left behind: ${all.reduce((n, v) => n + v.leftBehind.length, 0)}, objects from before the run touched: ${all.reduce((n, v) => n + v.touched.length, 0)}, secrets leaked: ${all.reduce((n, v) => n + v.leaked.length, 0)}`);
    for (const [name, v] of verdicts) console.log(`${name}: ${v.run.results?.leftovers.length ?? '?'} objects listed as left behind, ${truth(v).length} in truth`);
  });

  for (const name of [PASSING, FAILING]) {
    it(`${name} should end as its checks say (exit 0 when all pass, 1 when some fail)`, () => {
      const { run } = verdicts.get(name) as Verdict;
      expect(run.code, run.stdout.slice(-2000) + run.stderr).toBe(name === PASSING ? 0 : 1);
    });

    it(`${name} should leave no status, boost, favourite, bookmark, pin, mute, attachment or token behind`, () => {
      const verdict = verdicts.get(name) as Verdict;
      expect(verdict.leftBehind).toEqual([]);
      expect(verdict.tokensKept, 'tokens the run obtained that the server still accepts').toBe(0);
    });

    it(`${name} should list as left behind the applications it registered, which the contract cannot delete, and nothing else`, () => {
      const verdict = verdicts.get(name) as Verdict;
      expect(verdict.applications.length).toBeGreaterThan(0);
      expect(reported(verdict)).toEqual(truth(verdict));
    });
  }

  it(`${LIMITED} should list every attachment, token and application it left behind, each with its owner and why, and count them right`, () => {
    const verdict = verdicts.get(LIMITED) as Verdict;
    const { results, reports, stdout } = verdict.run;
    // The variation keeps what the cleanup cannot remove: the run must have left some of each.
    expect(verdict.leftBehind.some((key) => key.startsWith('attachment ')), 'attachments kept by the server').toBe(true);
    expect(verdict.tokensKept, 'tokens kept by the server').toBeGreaterThan(0);
    // Every attachment the run made: the read answers 404 to everything, so it never showed one present.
    expect(reported(verdict)).toEqual(truth(verdict));
    const count = truth(verdict).length;
    const WHY: Record<string, RegExp> = {
      application: /no operation to delete an application/,
      attachment: /^(still there|not known to be gone): DELETE \/api\/v1\/media\/\S+ answered HTTP 404, and /,
      token: /^still there: POST \/oauth\/revoke answered HTTP 404, and after it a call with the token \(GET \S+\) answered HTTP 200$/,
      authorization: /^a live authorization of A, scope "read", application \S+, not revoked: still there: its code was exchanged at the end of the run, and POST \/oauth\/revoke answered HTTP 404, and after it a call with the token \(GET \S+\) answered HTTP 200$/,
    };
    for (const entry of results?.leftovers ?? []) {
      expect(entry.owner, `${entry.kind} ${entry.id}`).not.toBe('');
      expect(entry.why, `${entry.kind} ${entry.id}`).toMatch(WHY[entry.kind] ?? /^$/);
    }
    // The url of an attachment that had one was fetched, and the file was still served.
    expect(results?.leftovers.some((e) => e.kind === 'attachment' && / its url \S+ was served \(HTTP 200\)$/.test(e.why))).toBe(true);
    expect(reports['summary.md']).toContain(`## Objects left behind: ${count}`);
    expect(reports['report.html']).toContain(`Objects left behind (${count})`);
    expect(stdout).toContain(`Objects left behind: ${count}`);
  });

  it(`${READABLE} should list the statuses the server still shows after their delete answered 200, and nothing it removed`, () => {
    const verdict = verdicts.get(READABLE) as Verdict;
    expect(verdict.leftBehind.some((key) => key.startsWith('status ')), 'deleted statuses the server still shows').toBe(true);
    expect(reported(verdict)).toEqual(truth(verdict));
    for (const entry of verdict.run.results?.leftovers ?? []) {
      if (entry.kind === 'status') expect(entry.why, entry.id).toMatch(/^still there: DELETE \/api\/v1\/statuses\/\S+ (answered HTTP 200|was sent by its check), and after it GET \S+ answered HTTP 200$/);
    }
  });

  it(`${APPS_GO} should list none of the applications the server deleted with their tokens`, () => {
    const verdict = verdicts.get(APPS_GO) as Verdict;
    expect(verdict.tokensKept).toBe(0);
    expect(verdict.applications.length, 'applications the server deleted').toBeLessThan(verdict.registered);
    expect(reported(verdict)).toEqual(truth(verdict));
  });

  for (const name of [PASSING, FAILING, LIMITED, READABLE, APPS_GO]) {
    it(`${name} should not touch anything the run did not create`, () => {
      expect(verdicts.get(name)?.touched).toEqual([]);
    });

    it(`${name} should not show a token, password or client secret in its output or reports`, () => {
      expect(verdicts.get(name)?.leaked).toEqual([]);
    });
  }
});

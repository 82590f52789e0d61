// The suite's own budget: a full run, the destructive check aside, stays within one period of every bucket of
// the contract's Limits table, short of the calls pacing keeps in hand, so that pacing never has to wait and a server
// enforcing the limits never refuses it; its deletions and uploads leave room for a second run in the same period.
// All the run's calls come from one address, so the IP access bucket carries every group's calls.
import { describe, expect, it } from 'vitest';
import { LIMITS, reserveOf, type Bucket } from '../support/talk/pacing.ts';
import { ROOT } from '../support/run/docs.ts';
import { fullRunFigures } from '../support/run/figures.ts';
import type { RunResults } from '../support/report/results.ts';
import type { PathCost } from '../support/talk/counts.ts';
import type { Fault } from '../../fixtures/reference-server/faults.ts';
import { startReferenceServer } from '../../fixtures/reference-server/server.ts';
import { runCli, serverEnv, type CliRun } from './run-cli.ts';
import { EXPLORE_DELETIONS } from '../support/act/explore-inputs.ts';
import { EXPLORE_UPLOADS } from '../support/act/explore-media.ts';

const RUN_TIMEOUT_MS = 300_000;

/** The most calls a run may make in one period of the bucket before pacing waits for the reset. */
const budgetOf = (bucket: Bucket) => LIMITS[bucket].limit - reserveOf(bucket);

/**
 * The most requests a full run may make in all, on every path: the plan's (docs/figures.md). Its /api calls and
 * streams are the IP access line (285) wherever the exploration's default share is above 0, since that share is what
 * the other groups leave of it (run-plan.ts exploreShareOf): a request saved on /api is one more explored, a request
 * saved on /oauth or files one less in all.
 */
const mostRequests = async () => (await fullRunFigures(ROOT)).requests;
/**
 * The most deletions and unreblogs of one account a full run may make: two runs in a row fit the contract's Deletion
 * bucket (30 per 30 minutes) at 15 (slow-servers.test.ts runs two against `serve`).
 */
const MOST_DELETIONS = 15;
/** The most uploads of one account a full run may make: two runs in a row fit the Uploading bucket at 15. */
const MOST_UPLOADS = 12;

/** The IP access calls of a cost: its /api requests and its stream connections. */
const ipOf = (cost: PathCost) => cost.api + cost.streams;

/** Each group that planned its cost, with what its plan said and what the run counted, by path. */
/**
 * Each step's own proof of its declared cost (run/checks.ts `cost`), from its part (talk/counts.ts: its body's
 * requests, and the ledger's undo of what it made with the reads around it, made by the cleanup or by a step in the
 * ledger's place): every request of a group is some part's; where all goes well, each step that came to its value sent
 * its cost on every path, no more and no less, so that a cost wrong in one step and made up for in another shows;
 * where checks fail (and for a step that came to none), no step sent more than its cost and what a deviating server
 * may add (`mayAdd`), nor opened a stream it did not declare.
 */
function expectEachStepSent(results: RunResults, allGoesWell: boolean): void {
  const calls = ({ api, oauth, files }: PathCost) => api + oauth + files;
  const wrong: string[] = [];
  for (const { name, parts, outsideParts } of results.groups.filter((group) => group.parts)) {
    if (outsideParts && calls(outsideParts) + outsideParts.streams > 0) wrong.push(`${name}: sent outside any step ${JSON.stringify(outsideParts)}`);
    for (const { name: step, planned, sent, mayAdd = 0, outcome } of parts ?? []) {
      const exact = (Object.keys(planned) as (keyof PathCost)[]).every((kind) => planned[kind] === sent[kind]);
      const within = calls(sent) <= calls(planned) + mayAdd && sent.streams <= planned.streams;
      // Where all goes well, a step that came to no value is one the configuration leaves nothing to do (B's, without B).
      if (allGoesWell && outcome === 'made' ? !exact : !within) wrong.push(`${name}: "${step}" (${outcome ?? 'not run'}) declared ${JSON.stringify(planned)} with ${mayAdd} more at most, and sent ${JSON.stringify(sent)}`);
    }
  }
  expect(results.groups.some((group) => group.parts), 'groups that recorded what their steps sent').toBe(true);
  expect(wrong, allGoesWell ? 'steps that did not send their declared cost' : 'steps that sent more than their cost and what a deviating server may add').toEqual([]);
}

function plannedAndCounted(results: RunResults) {
  return results.groups.flatMap(({ name, planned, counts }) =>
    planned && counts ? [{ name, planned, counted: { api: counts.perPath.api ?? 0, oauth: counts.perPath.oauth ?? 0, files: counts.perPath.files ?? 0, streams: counts.streamConnections } }] : [],
  );
}

/**
 * The groups' requests as the `Plan:` line announced them ("Plan: 316 requests (267 /api, 41 /oauth, 8 files) and 18
 * stream connections"), which a run against a configured server prints before its first request; none for the
 * embedded server's, planned from the full run's figures.
 */
function announced(stdout: string) {
  const [, api, oauth, files, streams] = /^Plan: \d+ requests \((\d+) \/api, (\d+) \/oauth, (\d+) files\) and (\d+) stream connections/m.exec(stdout) ?? [];
  return api === undefined ? undefined : { api: Number(api), oauth: Number(oauth), files: Number(files), streams: Number(streams) };
}

/**
 * Judges a full run's spend: every bucket within its budget (the IP access line with the streams, 15 deletions and
 * 12 uploads of each account), no wait for a reset, no refusal, no more requests than a full run's figures, and each
 * group's plan, and the `Plan:` line that announced their sum, equal to what the group sent.
 */
async function expectWithinBudget(run: CliRun): Promise<void> {
  const results = run.results;
  expect(results, `the run left no results.json: ${run.stderr.slice(-2000)}`).toBeDefined();
  if (!results) return;
  const { counts } = results;
  console.log(`requests of a full run: ${JSON.stringify(counts)}`);
  // A group whose cleanup did not finish handed in no counts: the totals would be short.
  expect(results.groups.flatMap((g) => g.errors.map((e) => `${g.name}: ${e.split('\n')[0]}`)), 'groups that could not hand in their counts').toEqual([]);
  const over: string[] = [];
  // Event streams are /api/* calls too: the IP access bucket counts their connections.
  const ipCalls = (counts.perBucket['IP access'] ?? 0) + counts.streamConnections;
  if (ipCalls > budgetOf('IP access')) over.push(`IP access: ${ipCalls} calls, budget ${budgetOf('IP access')}`);
  for (const [key, calls] of Object.entries(counts.perBucket)) {
    // The destructive check spends App sign-up on purpose (no other check calls it); IP access is judged above.
    if (key === 'App sign-up' || key === 'IP access') continue;
    const bucket = key.replace(/ of .*$/, '') as Bucket;
    if (calls > budgetOf(bucket)) over.push(`${key}: ${calls} calls, budget ${budgetOf(bucket)} (limit ${LIMITS[bucket].limit})`);
  }
  for (const [key, calls] of Object.entries(counts.perBucket)) {
    if (key.startsWith('Deletion of ') && calls > MOST_DELETIONS) over.push(`${key}: ${calls} deletions and unreblogs, at most ${MOST_DELETIONS}`);
    if (key.startsWith('Uploading of ') && calls > MOST_UPLOADS) over.push(`${key}: ${calls} uploads, at most ${MOST_UPLOADS}`);
  }
  expect(over).toEqual([]);
  expect(counts.pacedMs, 'time pacing waited for a reset').toBe(0);
  // A section declared in the one shape knows its cost before its first request: the plan and the count agree.
  const planned = plannedAndCounted(results);
  expect(planned.length, 'groups that planned their cost').toBeGreaterThan(0);
  for (const { name, planned: cost, counted } of planned) expect(counted, `${name}: the requests its plan said it would make`).toEqual(cost);
  // Each group's parts (its steps) add up to its plan, and what they sent, the ledger's calls for what they made
  // included, to no more than the group sent: results.json says where a plan's requests went.
  const total = (costs: readonly PathCost[]) => costs.reduce((sum, c) => ({ api: sum.api + c.api, oauth: sum.oauth + c.oauth, files: sum.files + c.files, streams: sum.streams + c.streams }), { api: 0, oauth: 0, files: 0, streams: 0 });
  for (const group of results.groups.filter((g) => g.planned)) {
    expect(total((group.parts ?? []).map((p) => p.planned)), `${group.name}: its parts' plans`).toEqual(group.planned);
    expect(ipOf(total((group.parts ?? []).map((p) => p.sent))), `${group.name}: its parts' requests`).toBeLessThanOrEqual((group.counts?.perPath.api ?? 0) + (group.counts?.streamConnections ?? 0));
  }
  const sent = planned.reduce((sum, { counted }) => ({ api: sum.api + counted.api, oauth: sum.oauth + counted.oauth, files: sum.files + counted.files, streams: sum.streams + counted.streams }), { api: 0, oauth: 0, files: 0, streams: 0 });
  // The groups' requests: against a configured server the command's own calls come besides (run-plan.ts commandCallsOf, the preflight).
  expect(sent.api + sent.oauth + sent.files, `the groups' requests, on every path (${JSON.stringify(counts.perPath)} in all)`).toBeLessThanOrEqual(await mostRequests());
  const line = announced(run.stdout);
  if (line) expect(line, "the Plan: line, against the groups' requests").toEqual(sent);
  expect(counts.refusals, 'calls refused (429) outside the destructive check').toBe(0);
  expectEachStepSent(results, true);
}

/**
 * A server that makes what the contract tells it to refuse and takes boosts it must not: a creation of neither text
 * nor media, a poll without poll[expires_in], a poll beside an attachment id that names nothing, another account's
 * attachment attached, boosts of statuses the caller cannot see; and an effect lost (spoiler_text beside a poll), a
 * finding that shrinking sends more creations for. Each thing made is deleted by the ledger: a deletion of its account.
 */
const MAKES_WHAT_IT_SHOULD_REFUSE: readonly Fault[] = ['STATUS-PARAMS-1', 'STATUS-POLL-5', 'STATUS-POLL-6:unknown-media', 'MEDIA-ATTACH-3', 'STATUS-REBLOG-6', 'STATUS-CREATE-2:polls'];
/** The parts of EXPLORE_DELETIONS and EXPLORE_UPLOADS the explore group spends (the sequences are the interactions group's). */
const exploreGroupShare = (parts: Record<string, number>) => Object.entries(parts).reduce((sum, [part, n]) => sum + (part === 'sequences' ? 0 : n), 0);

describe('the budget of a full run', () => {
  it('should stay within every bucket of the Limits table, never wait for a reset and receive no refusal', { timeout: RUN_TIMEOUT_MS + 30_000 }, async () => {
    await expectWithinBudget(await runCli([], {}, RUN_TIMEOUT_MS));
  });

  // Without B, the steps declared as B that fall back to A would spend A's share of the Deletion bucket on top of A's
  // own: the checks whose deletions are B's are skipped instead (run/checks.ts deletesForB). A served reference server
  // with its contract's periods: a deletion past A's 30 would wait for the reset, half an hour.
  it('should stay within every bucket without CONFORMANCE_TOKEN_B: A spends its own share of the Deletion bucket, not B\'s too', { timeout: RUN_TIMEOUT_MS + 30_000 }, async () => {
    const server = await startReferenceServer();
    try {
      const onlyA = Object.fromEntries(Object.entries(serverEnv(server)).filter(([name]) => !name.endsWith('_B')));
      const run = await runCli([], onlyA, RUN_TIMEOUT_MS);
      await expectWithinBudget(run);
      expect(run.results?.checks.filter((c) => c.status !== 'passed' && c.status !== 'skipped').map((c) => `${c.status}: ${c.title}`), 'checks that neither passed nor were skipped').toEqual([]);
    } finally {
      await server.close();
    }
  });

  // Explore plans its deletions and uploads before its first request: whatever the server answers (what it should
  // refuse made, boosts it should refuse taken, findings shrunk), each account spends no more than the parts announced.
  it("should keep the exploration's deletions and uploads within what --explore N announced, against a server that makes what it should refuse", { timeout: RUN_TIMEOUT_MS + 30_000 }, async () => {
    // The access buckets reset every 5 s (fault-runs.ts): --explore 320 takes two windows of them, and waits seconds.
    const run = await runCli(['--group', 'explore', '--explore', '320', '--fault', MAKES_WHAT_IT_SHOULD_REFUSE.join(',')], { CONFORMANCE_ACCESS_PERIOD_MS: '5000' }, RUN_TIMEOUT_MS);
    const results = run.results;
    expect(results, `the run left no results.json: ${run.stderr.slice(-2000)}`).toBeDefined();
    if (!results) return;
    const spent = results.counts.perBucket;
    console.log(`the exploration against a server that makes what it should refuse: ${JSON.stringify(spent)}`);
    // The server did make them: the bound is met because explore held back, not because nothing deviated.
    expect(results.checks.filter((c) => c.status === 'failed').map((c) => c.failedClause ?? c.clause)).toEqual(expect.arrayContaining(['STATUS-PARAMS-1', 'STATUS-REBLOG-6', 'STATUS-CREATE-2']));
    for (const who of ['A', 'B'] as const) {
      expect(spent[`Deletion of ${who}`] ?? 0, `${who}'s deletions and unreblogs`).toBeLessThanOrEqual(exploreGroupShare(EXPLORE_DELETIONS[who]));
      expect(spent[`Uploading of ${who}`] ?? 0, `${who}'s uploads`).toBeLessThanOrEqual(exploreGroupShare(EXPLORE_UPLOADS[who]));
    }
    expect(results.counts.refusals, 'calls refused (429)').toBe(0);
  });

  // Judges only judge: a check that fails sends nothing its plan did not say. Under these faults the direct stream
  // carries no direct message (A's read of it tells whether it could) and the delete events name their status
  // wrongly (the read after the DELETE tells whether it is gone): both reads are steps of the plan, sent by every run.
  it('should send what its plan said when checks fail: the streams with two faults', { timeout: RUN_TIMEOUT_MS + 30_000 }, async () => {
    const run = await runCli(['--group', 'streaming', '--fault', 'STREAM-DIRECT-1,EVENTS-DELETE-1'], {}, RUN_TIMEOUT_MS);
    const results = run.results;
    expect(results, `the run left no results.json: ${run.stderr.slice(-2000)}`).toBeDefined();
    if (!results) return;
    expect(results.checks.filter((c) => c.status === 'failed').map((c) => c.clause).sort()).toEqual(['EVENTS-DELETE-1', 'EVENTS-DELETE-1', 'STREAM-DIRECT-1', 'STREAM-DIRECT-1']);
    const [streaming] = plannedAndCounted(results);
    expect(streaming?.counted, 'the requests of the streaming plan').toEqual(streaming?.planned);
    expectEachStepSent(results, false);
  });

  // The positive controls a check needs only on a failing server (A's token where an application token's reads were
  // refused) are steps that send nothing where all goes well, and hold room for their calls (mayAdd): under these
  // faults each group sends its plan and, where its control fired, exactly that control's calls, and no check sends one.
  it('should send what its plan said and the controls its steps declared when checks fail: the application tokens refused', { timeout: RUN_TIMEOUT_MS + 30_000 }, async () => {
    const run = await runCli(['--fault', 'RELATIONS-APPTOKEN-1,APPS-VERIFY-1'], {}, RUN_TIMEOUT_MS);
    const results = run.results;
    expect(results, `the run left no results.json: ${run.stderr.slice(-2000)}`).toBeDefined();
    if (!results) return;
    expect(results.checks.filter((c) => c.status === 'failed').map((c) => c.clause).sort()).toEqual(['APPS-VERIFY-1', 'RELATIONS-APPTOKEN-1']);
    /** The /api calls of the controls these faults make fire, by group: A's reads of both relations, A's verify_credentials, the following read with the read token (OAUTH-CLIENTCRED-1's). */
    const controls: Record<string, number> = { 'Account relations': 2, 'Client registration': 1, OAuth: 1 };
    // Each group's calls beyond its plan, by path: the controls' /api calls, and nothing else.
    const beyondPlan = Object.fromEntries(
      plannedAndCounted(results)
        .map(({ name, planned, counted }) => [name, { api: counted.api - planned.api, oauth: counted.oauth - planned.oauth, files: counted.files - planned.files, streams: counted.streams - planned.streams }] as const)
        .filter(([, beyond]) => Object.values(beyond).some((calls) => calls !== 0)),
    );
    expect(beyondPlan).toEqual(Object.fromEntries(Object.entries(controls).map(([name, api]) => [name, { api, oauth: 0, files: 0, streams: 0 }])));
    expectEachStepSent(results, false);
  });
});

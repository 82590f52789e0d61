// Robustness: against a hostile server the suite must still finish, within a bound that follows from
// CONFORMANCE_TIMEOUT_MS, with a complete report, failed checks that say why, exit code 1, and no stack trace
// or unhandled error. Each server of hostile-servers.ts gets one full run of the command. A server that answers
// nothing at all (it takes connections and stays silent, or closes each at once) is a wrong address, not a server
// to judge: the command stops before any check, within the timeout and 5 s, with exit code 2 and one line.
import { describe, expect, it } from 'vitest';
import { HOSTILE_SERVERS, SLOW_ANSWER_MS, startHostileServer, type HostileKind } from './hostile-servers.ts';
import { commandStartMs, inParallel, runCli, type CliRun } from './run-cli.ts';

const TIMEOUT_MS = 1000;
/**
 * The longest a run may take. Every wait of the suite is bounded by the timeout: a request, a stream event, a
 * handshake. A group whose preparation fails stops there, so a run against a server whose answers never end makes
 * a few dozen waits in sequence; 90 of them, plus the command's own start, leave room without hiding a hang.
 */
const BOUND_MS = 20_000 + 90 * TIMEOUT_MS;
/** How much longer the command takes to start with two more starting beside it on the shared cores. */
const SHARED_START_MS = 5000;
/** The command's start (commandStartMs) on an idle machine, with room: the bounds below are an idle machine's, scaled by how much longer a start takes in this test. */
const IDLE_START_MS = 2000;
/** A run still going at this many times its bound is killed: a hang, however busy the machine. */
const KILL_AFTER_BOUNDS = 3;
/**
 * The server whose answers trickle a byte a second makes every wait last its whole timeout, and runs with the timeout of
 * a slow live audit: a group's preparation must then still end by the circuit breaker of http.ts, not by vitest's hook
 * timeout (the server that never answers, with the same timeout, now stops before the run). The
 * server that answers every request within the timeout, but seconds late, must be waited for: the Limits group's
 * preparation alone takes longer than vitest's default hook timeout there, and must still end on its own.
 */
const SLOW: Partial<Record<HostileKind, { timeoutMs: number; boundMs: number; maxInFlight?: number }>> = {
  // Stopped before the run (STOPPED_BEFORE_THE_RUN): within the timeout and 5 s (cli.test.ts holds that alone), and
  // the command's start beside two others on the shared cores (up to 7 s measured, where alone it takes 3).
  'never-answers': { timeoutMs: 3000, boundMs: 3000 + 5000 + SHARED_START_MS },
  'closes-connections': { timeoutMs: TIMEOUT_MS, boundMs: TIMEOUT_MS + 5000 + SHARED_START_MS },
  'one-byte-a-second': { timeoutMs: 3000, boundMs: 90_000 },
  // The longest groups make 30 to 40 requests in a row since their preparation blocks rather than stops (issue 13):
  // about 80 s for the run at 2 s an answer. The bound is what the latest requests in a row allow, not a tight fit.
  // Taken 4 at a time (CONFORMANCE_MAX_IN_FLIGHT's default), its 300 late answers are a run of minutes: the limit's
  // cost against a slow server, which docs/live-safety.md states. What this run proves is that a slow server is
  // waited for and the run ends, so it takes them as a large server's audit would, 16 at a time.
  'slow-answers': { timeoutMs: SLOW_ANSWER_MS + 1500, boundMs: 240_000, maxInFlight: 16 },
};
/** The servers that answer nothing at all, and the one line (after the line of what it waits for) that stops the command. */
const STOPPED_BEFORE_THE_RUN: Partial<Record<HostileKind, RegExp>> = {
  'never-answers': /^social-api-conformance: no answer from http:\/\/127\.0\.0\.1:\d+ within 3 s \(CONFORMANCE_TIMEOUT_MS\) to HEAD \/ and GET \/api\/v1\/accounts\/verify_credentials$/,
  'closes-connections': /^social-api-conformance: no answer from http:\/\/127\.0\.0\.1:\d+: the server closed every connection before answering \(\w+\) to HEAD \/ and GET \/api\/v1\/accounts\/verify_credentials$/,
};
const REPORT_FILES = ['report.html', 'results.json', 'junit.xml', 'summary.md'];
/** A frame of a JavaScript stack trace: "    at fn (file:line:col)". */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;
/** vitest's words when a hook or a check outlived its timeout. */
const VITEST_TIMEOUT = /(Hook|Test) timed out/;

function problemsOf(kind: HostileKind, run: CliRun, boundMs: number): string[] {
  const problems: string[] = [];
  const stopLine = STOPPED_BEFORE_THE_RUN[kind];
  const expectedCode = stopLine ? 2 : 1;
  if (run.code === null) problems.push(`no end: the run was killed, still going at ${KILL_AFTER_BOUNDS} times its bound`);
  else if (run.code !== expectedCode) problems.push(`exit code ${run.code}, expected ${expectedCode}`);
  if (run.ms > boundMs) problems.push(`took ${run.ms} ms, more than ${boundMs} ms`);
  if (stopLine && !stopLine.test(run.stderr.trimEnd().split('\n').pop() ?? '')) problems.push(`stderr does not end with the line that stops the run: ${run.stderr.slice(-500)}`);
  if (stopLine && run.results) problems.push('a report of a run that should not have started');
  for (const name of stopLine ? [] : REPORT_FILES) if (!run.reports[name]) problems.push(`no ${name} in the report directory`);
  const results = run.results;
  if (results) {
    if (results.totals.failed === 0) problems.push('no check failed');
    if (results.errors.length) problems.push(`unhandled errors: ${results.errors.join('; ')}`);
    const unexplained = results.checks.filter((c) => c.status === 'failed' && !c.message?.trim());
    if (unexplained.length) problems.push(`failed without a reason: ${unexplained.map((c) => c.title).join('; ')}`);
  }
  for (const [name, text] of [['stdout', run.stdout], ['stderr', run.stderr], ...Object.entries(run.reports)] as const) {
    const frame = STACK_FRAME.exec(text);
    if (frame) problems.push(`a stack trace in ${name}: ${text.slice(Math.max(0, frame.index - 300), frame.index + 200)}`);
    const timedOut = VITEST_TIMEOUT.exec(text);
    if (timedOut) problems.push(`a vitest timeout in ${name}: ${text.slice(Math.max(0, timedOut.index - 300), timedOut.index + 200)}`);
  }
  return problems;
}

describe('hostile servers', () => {
  it(`should end every run with four reports, failed checks and exit code 1, within ${BOUND_MS} ms (${SLOW['one-byte-a-second']?.boundMs} ms with a timeout of ${SLOW['one-byte-a-second']?.timeoutMs} ms), and stop a server that answers nothing with exit code 2`, async () => {
    const kinds = Object.keys(HOSTILE_SERVERS) as HostileKind[];
    // A busy machine slows every run alike: measured here, by a start of the command, never assumed. The load may grow
    // while a run goes on, so each run's bound is scaled by the larger of that and a start measured once it ended.
    const slowdownOf = async () => Math.max(1, (await commandStartMs()) / IDLE_START_MS);
    const slowdown = await slowdownOf();
    console.log(`the command's start took ${slowdown.toFixed(1)} times as long as on an idle machine: the bounds are scaled by it`);
    // Three at a time: the first two mostly wait, so a third run keeps the cores busy.
    const outcomes = await inParallel(kinds, 3, async (kind) => {
      const server = await startHostileServer(kind);
      const { timeoutMs, boundMs: idleBoundMs, maxInFlight } = SLOW[kind] ?? { timeoutMs: TIMEOUT_MS, boundMs: BOUND_MS };
      const boundMs = Math.round(idleBoundMs * slowdown);
      try {
        // Killed only well past the bound: a run that ends late on a machine grown busier is judged against the bound
        // measured after it, a hang never ends.
        const run = await runCli([], {
          CONFORMANCE_BASE_URL: server.url,
          CONFORMANCE_TOKEN_A: 'hostile-test-token-a',
          CONFORMANCE_TOKEN_B: 'hostile-test-token-b',
          CONFORMANCE_TIMEOUT_MS: String(timeoutMs),
          ...(maxInFlight ? { CONFORMANCE_MAX_IN_FLIGHT: String(maxInFlight) } : {}),
        }, KILL_AFTER_BOUNDS * boundMs);
        const boundAfterMs = Math.round(idleBoundMs * Math.max(slowdown, await slowdownOf()));
        return { kind, run, problems: problemsOf(kind, run, boundAfterMs) };
      } finally {
        await server.close();
      }
    });
    for (const { kind, run } of outcomes) {
      console.log(`${kind} (timeout ${SLOW[kind]?.timeoutMs ?? TIMEOUT_MS} ms): exit ${run.code}, ${run.results?.totals.failed ?? '?'} of ${run.results?.totals.checks ?? '?'} checks failed, ${(run.ms / 1000).toFixed(1)} s`);
    }
    const survived = outcomes.filter((o) => o.problems.length === 0).length;
    console.log(`hostile servers survived ${survived}/${kinds.length}`);
    expect(outcomes.flatMap((o) => o.problems.map((p) => `${o.kind} (${HOSTILE_SERVERS[o.kind]}): ${p}`))).toEqual([]);
  }, KILL_AFTER_BOUNDS * 4 * (4 * BOUND_MS + 2 * 90_000 + 240_000));
});

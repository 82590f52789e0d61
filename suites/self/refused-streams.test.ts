// A stream the server refused ends its checks at once: against a server without streaming (every event stream and
// WebSocket upgrade answered 404 at once, the no-streaming limitation), the Streaming group posts nothing for its
// streams to carry and waits for no event. Each transport's own clause fails, every check that listens is blocked by
// it, and the group waits for no event: the timeout is set long enough that one wait would show, against the same
// group run beside it with a short timeout, which a busy machine slows as much.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from './run-cli.ts';

/** One event wait on a stream lasts this long: a group that waited for any event would take at least that. */
const EVENT_WAIT_MS = 60_000;
/** The twin run's timeout: a wait there would last this long, far less than one of the run above. */
const SHORT_WAIT_MS = 10_000;

const streamingGroup = (run: CliRun) => run.results?.groups.find((g) => g.file === 'suites/streaming.test.ts');

describe('a refused stream', () => {
  let run: CliRun;
  let twin: CliRun;

  beforeAll(async () => {
    const refusedWith = (timeoutMs: number) => runCli(['--group', 'streaming'], { CONFORMANCE_VARIATIONS: 'no-streaming', CONFORMANCE_TIMEOUT_MS: String(timeoutMs) }, 3 * EVENT_WAIT_MS);
    [run, twin] = await Promise.all([refusedWith(EVENT_WAIT_MS), refusedWith(SHORT_WAIT_MS)]);
  }, 4 * EVENT_WAIT_MS);

  it('should fail each transport by its own clause and block every check that listens by it', () => {
    const checks = run.results?.checks ?? [];
    const failed = checks.filter((c) => c.status === 'failed').map((c) => c.clause);
    expect(failed.sort()).toEqual(['STREAM-SSE-1', 'STREAM-WS-1']);
    const blockedBy = new Set(checks.filter((c) => c.status === 'blocked').map((c) => c.blockedBy?.clause));
    expect([...blockedBy].sort()).toEqual(['STREAM-SSE-1', 'STREAM-WS-1']);
  });

  it('should end its stream checks without waiting for events: nothing posted, the group no longer for a longer timeout', () => {
    const group = streamingGroup(run);
    expect(group?.counts?.streamConnections).toBeGreaterThan(0);
    // The health check is the group's one request: no status is posted for streams that are not there.
    expect(group?.counts?.total).toBe(1);
    // One event wait would make the run take at least EVENT_WAIT_MS less SHORT_WAIT_MS more than its twin: half of that
    // is the bound, measured against the twin beside it, not a guess at a busy machine's speed.
    const twinMs = streamingGroup(twin)?.durationMs;
    expect(twinMs, `the twin run with a timeout of ${SHORT_WAIT_MS} ms: ${twin.stdout.slice(-1500)}${twin.stderr}`).toBeDefined();
    if (twinMs === undefined) return;
    console.log(`the Streaming group against a server without streams: ${group?.durationMs} ms with a timeout of ${EVENT_WAIT_MS} ms, ${twinMs} ms with ${SHORT_WAIT_MS} ms`);
    expect(group?.durationMs).toBeLessThan(twinMs + (EVENT_WAIT_MS - SHORT_WAIT_MS) / 2);
  });
});

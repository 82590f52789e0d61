// A stream the server refused ends its checks at once: against a server without streaming (every event stream and
// WebSocket upgrade answered 404 at once, the no-streaming limitation), the Streaming group posts nothing for its
// streams to carry and waits for no event. Each transport's own clause fails, every check that listens is blocked by
// it, and the group ends far inside a single event wait: the timeout is set long enough that one wait would show.
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from './run-cli.ts';

/** One event wait on a stream lasts this long: a group that waited for any event would take at least that. */
const EVENT_WAIT_MS = 60_000;

describe('a refused stream', () => {
  let run: CliRun;

  beforeAll(async () => {
    run = await runCli(['--group', 'streaming'], { CONFORMANCE_VARIATIONS: 'no-streaming', CONFORMANCE_TIMEOUT_MS: String(EVENT_WAIT_MS) }, 3 * EVENT_WAIT_MS);
  }, 4 * EVENT_WAIT_MS);

  it('should fail each transport by its own clause and block every check that listens by it', () => {
    const checks = run.results?.checks ?? [];
    const failed = checks.filter((c) => c.status === 'failed').map((c) => c.clause);
    expect(failed.sort()).toEqual(['STREAM-SSE-1', 'STREAM-WS-1']);
    const blockedBy = new Set(checks.filter((c) => c.status === 'blocked').map((c) => c.blockedBy?.clause));
    expect([...blockedBy].sort()).toEqual(['STREAM-SSE-1', 'STREAM-WS-1']);
  });

  it('should end its stream checks without waiting for events: nothing posted, the group done within one wait', () => {
    const group = run.results?.groups.find((g) => g.file === 'suites/streaming.test.ts');
    expect(group?.counts?.streamConnections).toBeGreaterThan(0);
    // The health check is the group's one request: no status is posted for streams that are not there.
    expect(group?.counts?.total).toBe(1);
    // One event wait alone would last EVENT_WAIT_MS: the bound is the wait's own, not a guess at a busy machine's speed.
    expect(group?.durationMs).toBeLessThan(EVENT_WAIT_MS);
  });
});

// Connections as browsers handle them (talk/connections.ts): against a small server that serves one request per
// connection, closes it 20 ms after the answer without `Connection: close`, and resets a connection on which a request
// comes after its answer (the one-request-per-connection variation), a full run passes every check, and two runs in a
// row give the same verdicts. Without the rule, runs against it blocked 60 to 96 checks, each run others.
import { describe, expect, it } from 'vitest';
import { runCli, type CliRun } from './run-cli.ts';

const verdicts = (run: CliRun) => Object.fromEntries((run.results?.checks ?? []).map((c) => [c.title, c.status]));

describe('a server that closes every connection after one answer', () => {
  it('should pass every check, twice in a row with the same verdicts, and say once that no connection was reused', async () => {
    const env = { CONFORMANCE_VARIATIONS: 'one-request-per-connection' };
    const first = await runCli([], env);
    const second = await runCli([], env);
    for (const run of [first, second]) {
      const unjudged = (run.results?.checks ?? []).filter((c) => c.status !== 'passed' && c.status !== 'skipped');
      expect(unjudged.map((c) => `${c.title}: ${c.status} ${c.blockedBy?.summary ?? c.message?.split('\n')[0] ?? ''}`)).toEqual([]);
      expect(run.code, run.stdout.slice(-2000)).toBe(0);
      expect(run.results?.counts.connectionsClosed).toBe(true);
      expect(run.stdout.split('\n').filter((line) => line.includes('closed connections right after its answers'))).toHaveLength(1);
    }
    console.log(`one request per connection: ${first.results?.counts.total} and ${second.results?.counts.total} requests, ${first.results?.counts.resent} and ${second.results?.counts.resent} sent again on a new connection`);
    expect(verdicts(second)).toEqual(verdicts(first));
  });
});

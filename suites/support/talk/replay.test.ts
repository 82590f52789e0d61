// A failure's replay, pasted into sh against a reference server: it creates its own objects, then shows the answer
// the failing request got, with nothing of the run's objects left to depend on.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_FIXTURES, uploadOf } from '../../../fixtures/media/index.ts';
import { startReferenceServer, type ReferenceServer } from '../../../fixtures/reference-server/server.ts';
import { createdObject, describeExchange, HttpClient } from './http.ts';
import { registerSecret } from './redact.ts';
import { kindOf, replayOf, reproductionOf, type ReplayStep } from './replay.ts';

let server: ReferenceServer;
let a: HttpClient;
let b: HttpClient;

beforeAll(async () => {
  server = await startReferenceServer();
  registerSecret(server.users.a.token, 'CONFORMANCE_TOKEN_A');
  registerSecret(server.users.b.token, 'CONFORMANCE_TOKEN_B');
  // The default timeout: an upload the server decodes in this busy process may take seconds.
  a = new HttpClient(server.url, 'A', server.users.a.token, 30_000);
  b = new HttpClient(server.url, 'B', server.users.b.token, 30_000);
});
afterAll(() => server.close());

const idOf = (body: Record<string, unknown> | undefined) => String(body?.id);

/** Runs the steps as one sh script, with the variables a reader would have set. */
async function pasted(steps: readonly ReplayStep[], variables: Record<string, string> = {}): Promise<string> {
  const env = { PATH: process.env.PATH ?? '', CONFORMANCE_BASE_URL: server.url, CONFORMANCE_TOKEN_A: server.users.a.token, CONFORMANCE_TOKEN_B: server.users.b.token, ...variables };
  const { stdout } = await promisify(execFile)('sh', ['-c', `set -e\n${steps.map((s) => s.curl).join('\n')}`], { env });
  return stdout;
}

describe('replay', () => {
  it('should create the status a failing request names, then send that request with the new id', async () => {
    const status = idOf(createdObject(await a.send('POST', '/api/v1/statuses', { form: { status: 'replay probe' }, headers: { 'idempotency-key': 'replay-test-key' } })));
    await a.send('DELETE', `/api/v1/statuses/${status}`);
    const steps = replayOf(await b.send('DELETE', `/api/v1/statuses/${status}`));
    // The status was deleted before the failing request: the replay deletes it again, as its owner, before sending it.
    expect(steps.map((s) => s.captures)).toEqual(['STATUS_1', undefined, undefined]);
    expect(steps[0]?.curl).not.toMatch(/idempotency-key|Bearer (?!\$)/i);
    expect(steps[1]?.curl).toMatch(/-X DELETE .*"\/api\/v1\/statuses\/\$STATUS_1".*CONFORMANCE_TOKEN_A/);
    expect(steps[2]?.curl).toContain(`"/api/v1/statuses/$STATUS_1"`);
    const shown = await pasted(steps);
    // The deletion answers first; the failing request's answer is the last.
    expect(shown.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 404']);
    expect(shown).toContain('Record not found');
  });

  it('should create in order what a creation names in turn: the attachment, then the status that carries it', async () => {
    const media = idOf(createdObject(await a.send('POST', '/api/v1/media', { uploads: [uploadOf(MEDIA_FIXTURES.png)] })));
    const status = idOf(createdObject(await a.send('POST', '/api/v1/statuses', { form: { status: 'with media', media_ids: [media] } })));
    const steps = replayOf(await b.send('GET', `/api/v1/statuses/${status}`));
    expect(steps.map((s) => s.captures)).toEqual(['MEDIA_1', 'STATUS_1', undefined]);
    expect(steps[0]?.curl).toContain(`file=@${MEDIA_FIXTURES.png.path};type=image/png`);
    expect(steps[1]?.curl).toContain('media_ids%5B%5D=$MEDIA_1');
    const shown = await pasted(steps);
    expect(shown).toMatch(/^HTTP\/1\.1 200 /);
    expect(shown).toContain('"type":"image"');
    expect(shown).not.toContain(`"id":"${status}"`);
  });

  it("should give the replay as a failure's reproduce lines, a short token written by its variable, so that pasted it works", async () => {
    // A token of B's too short to be replaced wherever it appears: where a credential stands, its variable's name.
    const shortToken = 'b5tok';
    server.context.store.issueToken(server.context.store.tokens.get(server.users.b.token)?.appId ?? '', server.users.b.account.id, ['read', 'write'], shortToken);
    registerSecret(shortToken, 'SHORT_TOKEN_B');
    // A read of a status the run made (and did not delete: a replay deletes again what the run had deleted before).
    const status = idOf(createdObject(await a.send('POST', '/api/v1/statuses', { form: { status: 'replayed with a short token' } })));
    const failing = await new HttpClient(server.url, 'B', shortToken, 5000).send('GET', `/api/v1/statuses/${status}`);
    const reproduce = reproductionOf(failing);
    const lines = reproduce.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"authorization: Bearer $SHORT_TOKEN_B"');
    expect(describeExchange(failing, reproduce)).toContain(`  reproduce: ${lines[0]}\n             ${lines[1]}`);
    // The status the replay made reads 200 with B's short token: the token went as it is, and the status is there.
    const shown = await pasted(lines.map((curl) => ({ curl })), { SHORT_TOKEN_B: shortToken });
    expect(shown).toMatch(/^HTTP\/1\.1 200 /);
    expect(shown).toContain('replayed with a short token');
  });

  it('should reproduce a request that names nothing the run created by its curl line alone', async () => {
    const exchange = await a.send('GET', '/api/v1/accounts/verify_credentials');
    expect(reproductionOf(exchange).split('\n')).toHaveLength(1);
  });

  it('should need no steps for a request that names nothing the run created', async () => {
    expect(replayOf(await a.send('GET', '/api/v1/accounts/verify_credentials'))).toEqual([]);
  });

  it('should name a variable by the kind of object its creation makes', () => {
    expect(['/api/v1/statuses', '/api/v2/media', '/api/v1/statuses/12/reblog', '/api/v1/apps'].map(kindOf)).toEqual(['STATUS', 'MEDIA', 'REBLOG', 'APP']);
  });
});

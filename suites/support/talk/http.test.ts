// The HTTP client as a server sees it: who it says it is, what it accepts, and a curl line that sends the same.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_USER_AGENT } from './config.ts';
import { countsSnapshot } from './counts.ts';
import { startFile } from './file-state.ts';
import { curlOf, describeExchange, HttpClient } from './http.ts';
import { registerSecret } from './redact.ts';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A server that answers every request with these Set-Cookie lines and remembers the request headers. */
async function serve(setCookies: string[] = []): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': setCookies }).end('{}');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('the HTTP client', () => {
  it('should send its User-Agent and Accept: application/json on every request, and no Accept when told', async () => {
    const { url, seen } = await serve();
    const client = new HttpClient(url, 'A', 'token-of-a', 2000);
    await client.send('GET', '/api/v1/statuses/1');
    await client.send('GET', '/api/v1/statuses/1', { accept: null });
    expect(seen.map((h) => h['user-agent'])).toEqual([DEFAULT_USER_AGENT, DEFAULT_USER_AGENT]);
    expect(seen.map((h) => h.accept)).toEqual(['application/json', undefined]);
  });

  it('should give a curl line that sends the same User-Agent and Accept header (or none)', async () => {
    const { url } = await serve();
    const client = new HttpClient(url, 'A', undefined, 2000, 'conformance-test/1.0');
    expect(curlOf(await client.send('GET', '/api/v1/statuses/1'))).toBe(
      `curl -sS -i -X GET "$CONFORMANCE_BASE_URL"'/api/v1/statuses/1' -H 'accept: application/json' -A 'conformance-test/1.0'`,
    );
    expect(curlOf(await client.send('GET', '/api/v1/statuses/1', { accept: null }))).toBe(
      `curl -sS -i -X GET "$CONFORMANCE_BASE_URL"'/api/v1/statuses/1' -H 'accept:' -A 'conformance-test/1.0'`,
    );
  });

  it('should name the values the run obtained in the curl line, and say below it what each is and how to get one', async () => {
    const { url } = await serve();
    registerSecret('configured-token-of-a', 'CONFORMANCE_TOKEN_A');
    registerSecret('obtained-user-token', 'USER_TOKEN_A', 'a user token of A with scope "read", which the run revoked: POST /oauth/token grant_type=password');
    registerSecret('obtained-client-secret', 'CLIENT_SECRET', 'the client_secret of application 7, which the run never exported: register one');
    const client = new HttpClient(url, 'A', 'obtained-user-token', 2000, 'conformance-test/1.0');
    const revoke = await client.send('POST', '/oauth/revoke', { form: { client_id: '7', client_secret: 'obtained-client-secret', token: 'configured-token-of-a' } });
    const described = describeExchange(revoke).split('\n');
    const reproduce = described.findIndex((line) => line.startsWith('  reproduce: '));
    expect(described[reproduce]).toBe(
      `  reproduce: curl -sS -i -X POST "$CONFORMANCE_BASE_URL"'/oauth/revoke' -H 'accept: application/json' -A 'conformance-test/1.0' -H "authorization: Bearer $USER_TOKEN_A" -H 'content-type: application/x-www-form-urlencoded' --data-raw "client_id=7&client_secret=$CLIENT_SECRET&token=$CONFORMANCE_TOKEN_A"`,
    );
    // The configured token is the user's own: it needs no word. The others come in the order the line names them.
    expect(described.slice(reproduce + 1)).toEqual([
      '  where:     $USER_TOKEN_A is a user token of A with scope "read", which the run revoked: POST /oauth/token grant_type=password',
      '  where:     $CLIENT_SECRET is the client_secret of application 7, which the run never exported: register one',
    ]);
  });

  // The Limits table's per-account buckets count a call for the account of its token: one without a token has none.
  it("should count a request without a token in no account's bucket, and one with a token (header, query or form) in its actor's", async () => {
    startFile();
    const { url } = await serve();
    const anonymous = new HttpClient(url, 'anonymous', undefined, 2000);
    await anonymous.send('DELETE', '/api/v1/statuses/1');
    await anonymous.send('DELETE', '/api/v1/statuses/2', { token: 'an-application-token' });
    await anonymous.send('POST', '/api/v1/statuses/3/unreblog', { query: { access_token: 'an-application-token' } });
    await anonymous.send('POST', '/api/v1/statuses/4/unreblog', { form: { access_token: 'an-application-token' } });
    expect(countsSnapshot().perBucket).toEqual({ 'IP access': 4, 'Account access of anonymous': 3, 'Deletion of anonymous': 3 });
  });

  it('should keep each Set-Cookie line whole, also when a cookie date holds a comma', async () => {
    const cookies = ['a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/', 'b=2; Path=/; HttpOnly'];
    const { url } = await serve(cookies);
    const exchange = await new HttpClient(url, 'anonymous', undefined, 2000).send('GET', '/oauth/authorize');
    expect(exchange.setCookies).toEqual(cookies);
  });
});

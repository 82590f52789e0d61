// The command's first requests tell our mistakes from the server's: each case is a small loopback server.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PREFLIGHT_TIMEOUT_MS } from '../talk/config.ts';
import { preflight, WAIT_NOTICE_MS, type PreflightSettings } from './preflight.ts';

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((server) => new Promise((closed) => server.close(closed))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server whose verify_credentials answers each token as `accounts` says: an account's JSON, or a status and body. */
function accountsServer(accounts: Record<string, { status: number; body: unknown }>): Promise<string> {
  return listen(
    createHttpServer((req: IncomingMessage, res: ServerResponse) => {
      const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      const answer = req.url === '/api/v1/accounts/verify_credentials' ? (accounts[token] ?? { status: 401, body: { error: 'The access token is invalid' } }) : { status: 404, body: { error: 'Not found' } };
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    }) as unknown as Server,
  );
}

const settings = (baseUrl: string, more: Partial<PreflightSettings> = {}): PreflightSettings => ({ baseUrl, tokenA: 'token-of-a', tokenB: 'token-of-b', timeoutMs: 2000, userAgent: 'preflight-test', ...more });
const ACCOUNT_A = { status: 200, body: { id: '1', username: 'alice' } };
const ACCOUNT_B = { status: 200, body: { id: '2', username: 'bob' } };

describe('the preflight of a configured server', () => {
  it('should let a server that knows both tokens, as two accounts, be run', async () => {
    const url = await accountsServer({ 'token-of-a': ACCOUNT_A, 'token-of-b': ACCOUNT_B });
    expect(await preflight(settings(url), () => undefined)).toMatchObject({ ok: true });
  });

  it('should name the setting of a refused token and the answer, never the token', async () => {
    const url = await accountsServer({ 'token-of-a': ACCOUNT_A, 'token-of-b': { status: 403, body: { error: 'token-of-b is suspended' } } });
    const refusedA = await preflight(settings(url, { tokenA: 'a-wrong-token' }), () => undefined);
    expect(refusedA).toEqual({ ok: false, problem: `CONFORMANCE_TOKEN_A was refused by ${url}: GET /api/v1/accounts/verify_credentials answered HTTP 401 The access token is invalid` });
    const refusedB = await preflight(settings(url), () => undefined);
    expect(refusedB).toEqual({ ok: false, problem: `CONFORMANCE_TOKEN_B was refused by ${url}: GET /api/v1/accounts/verify_credentials answered HTTP 403 $CONFORMANCE_TOKEN_B is suspended` });
  });

  it('should take any 4xx but 429 to a token read for a refusal, and a 404 only where the other token was answered', async () => {
    const url = await accountsServer({ 'token-of-a': ACCOUNT_A, 'token-of-b': { status: 422, body: { error: 'no such token' } }, 'missing-b': { status: 404, body: { error: 'Not found' } }, 'busy-b': { status: 429, body: { error: 'Too many requests' } } });
    expect(await preflight(settings(url), () => undefined)).toEqual({ ok: false, problem: `CONFORMANCE_TOKEN_B was refused by ${url}: GET /api/v1/accounts/verify_credentials answered HTTP 422 no such token` });
    expect(await preflight(settings(url, { tokenB: 'missing-b' }), () => undefined)).toEqual({ ok: false, problem: `CONFORMANCE_TOKEN_B was refused by ${url}: GET /api/v1/accounts/verify_credentials answered HTTP 404 Not found` });
    // The rate limit's answer is the budget's, never evidence against the token.
    expect(await preflight(settings(url, { tokenB: 'busy-b' }), () => undefined)).toMatchObject({ ok: true });
  });

  it('should stop tokens A and B of one account, and leave a server without verify_credentials or accounts to the run', async () => {
    const same = await accountsServer({ 'token-of-a': ACCOUNT_A, 'token-of-b': ACCOUNT_A });
    expect(await preflight(settings(same), () => undefined)).toEqual({
      ok: false,
      problem: `CONFORMANCE_TOKEN_A and CONFORMANCE_TOKEN_B belong to the same account (id 1 at ${same}): B must be another user's token`,
    });
    // A body that is no Account (no username) tells nothing of whose token it is.
    const noAccounts = await accountsServer({ 'token-of-a': { status: 200, body: { id: '1' } }, 'token-of-b': { status: 200, body: { id: '1' } } });
    expect(await preflight(settings(noAccounts), () => undefined)).toMatchObject({ ok: true });
    const withoutPath = await listen(createHttpServer((_req, res) => res.writeHead(404).end()) as unknown as Server);
    expect(await preflight(settings(withoutPath), () => undefined)).toMatchObject({ ok: true });
  });

  it('should send HEAD / only once the token reads answered, and hand over their rate-limit headers', async () => {
    // What each request found when it arrived: how many answers had been written.
    const arrivals: string[] = [];
    let answered = 0;
    const url = await listen(
      createHttpServer((req, res) => {
        arrivals.push(`${req.method} ${req.url} after ${answered}`);
        const token = req.headers.authorization?.replace(/^Bearer /, '');
        const rateLimit = req.url === '/' ? {} : { 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': String(299 - answered), 'x-ratelimit-reset': '2026-12-07T07:00:00.000Z' };
        answered += 1;
        res.writeHead(200, { 'content-type': 'application/json', ...rateLimit }).end(JSON.stringify(token === 'token-of-a' ? ACCOUNT_A.body : token === 'token-of-b' ? ACCOUNT_B.body : {}));
      }) as unknown as Server,
    );
    const checked = await preflight(settings(url), () => undefined);
    expect(arrivals.at(-1)).toBe('HEAD / after 2');
    expect(checked.ok && checked.readingsBeforeHead.map((headers) => headers['x-ratelimit-remaining']).sort()).toEqual(['298', '299']);
  });

  it('should stop a server that takes connections and answers nothing, saying within a second what it waits for', async () => {
    const url = await listen(createServer(() => undefined));
    const lines: string[] = [];
    const started = performance.now();
    const checked = await preflight(settings(url, { timeoutMs: WAIT_NOTICE_MS + 500 }), (line) => lines.push(`${Math.round(performance.now() - started)} ${line}`));
    expect(checked).toEqual({ ok: false, problem: `no answer from ${url} within 1.5 s (CONFORMANCE_TIMEOUT_MS) to HEAD / and GET /api/v1/accounts/verify_credentials` });
    // The notice comes once its delay has passed, before the preflight gives up: a busy machine may delay it, never advance it.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^\\d+ … waiting for ${url} \\(HEAD / and GET /api/v1/accounts/verify_credentials\\), up to 1.5 s`));
    expect(Number(lines[0]?.split(' ')[0])).toBeGreaterThanOrEqual(WAIT_NOTICE_MS - 1);
  });

  it("should wait for the first answers within its own bound where the run's timeout is longer, and let a slow server be run", async () => {
    const slow = await listen(
      createHttpServer((req, res) => {
        setTimeout(() => res.writeHead(req.method === 'HEAD' ? 200 : 404).end(), WAIT_NOTICE_MS + 300);
      }) as unknown as Server,
    );
    const lines: string[] = [];
    expect(await preflight(settings(slow, { timeoutMs: 60_000 }), (line) => lines.push(line))).toMatchObject({ ok: true });
    expect(lines).toEqual([`… waiting for ${slow} (HEAD / and GET /api/v1/accounts/verify_credentials), up to ${PREFLIGHT_TIMEOUT_MS / 1000} s (the first requests' own bound)`]);
  });

  it('should stop a server that closes every connection, and one where nothing listens', async () => {
    const closing = await listen(createServer((socket) => socket.destroy()));
    expect(await preflight(settings(closing), () => undefined)).toMatchObject({ ok: false, problem: expect.stringMatching(new RegExp(`^no answer from ${closing}: the server closed every connection before answering \\(\\w+\\)`)) });
    const server = createServer();
    const nothing = await listen(server);
    await new Promise((closed) => server.close(closed));
    servers.splice(servers.indexOf(server), 1);
    expect(await preflight(settings(nothing), () => undefined)).toEqual({ ok: false, problem: `cannot reach CONFORMANCE_BASE_URL ${nothing}: connection refused (nothing listens there)` });
  });
});

// The authorization code flow as a person drives it: against the reference server's plain form and its web
// sign-in (sign-in page, CSRF field, session cookie, Doorkeeper's out-of-band page), and against servers the
// suite must not follow or cannot sign in to. No password, cookie or code ever shows in an exchange's description.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../../fixtures/reference-server/server.ts';
import { EMAIL_DOMAIN } from '../../../fixtures/reference-server/store.ts';
import type { Variation } from '../../../fixtures/reference-server/variations.ts';
import { Actor } from './actors.ts';
import { OOB, registerApp, requestToken, type Application } from './applications.ts';
import { configFromEnv } from '../talk/config.ts';
import { describeExchange, onExchange, type Exchange } from '../talk/http.ts';
import { authorizationCode, WebSignIn } from './sign-in.ts';

const CALLBACK = 'https://conformance.invalid/callback';
let server: ReferenceServer | undefined;
let other: Server | undefined;
afterEach(async () => {
  await server?.close();
  other?.close();
  server = other = undefined;
});

const seen: Exchange[] = [];
onExchange((exchange) => seen.push(exchange));

function anonymousAt(url: string, password: string, username = 'alice'): Actor {
  const config = configFromEnv({ CONFORMANCE_BASE_URL: url, CONFORMANCE_TOKEN_A: 'token-of-a', CONFORMANCE_USERNAME_A: username, CONFORMANCE_PASSWORD_A: password });
  return new Actor('anonymous', config);
}

async function serve(variations: Variation[]): Promise<{ anon: Actor; app: Application }> {
  server = await startReferenceServer({ variations });
  const anon = anonymousAt(server.url, server.users.a.password);
  const registered = await registerApp(anon, { redirect_uris: `${OOB}\n${CALLBACK}` });
  if (!registered.ok) throw new Error(`the reference server did not register the application: ${registered.cause.summary}`);
  return { anon, app: registered.value };
}

describe('the web sign-in', () => {
  it.each<[string, Variation[]]>([
    ['the plain authorization form', []],
    ['a sign-in page with a CSRF field and a session cookie before the authorization form', ['web-sign-in']],
    ['a sign-in, an account chooser and one approval form whose first button denies', ['web-sign-in-chooser']],
    ['authorization pages that list the scopes in <code> elements', ['scopes-in-code']],
    ['a sign-in before an approval page that lists the scopes in <code> elements', ['web-sign-in', 'scopes-in-code']],
    ['an out-of-band page that shows the code in a <pre>', ['code-in-pre']],
    ['an out-of-band page that is the code alone, as text/plain', ['code-as-body']],
    ['a sign-in page before an out-of-band page that is the code alone', ['web-sign-in', 'code-as-body']],
    ["an authorization page's sign-in form posting to a path of its own, which answers the code alone", ['own-sign-in-path']],
  ])('should get a code through %s, out of band and by redirect, and a token with the chosen scope', async (_what, variations) => {
    const { anon, app } = await serve(variations);
    const oob = await authorizationCode(anon, app, 'read write:statuses');
    expect(oob.reason).toBe('');
    expect(oob.approval?.status).toBe(200);
    const { token, exchange } = await requestToken(anon, app, { grant_type: 'authorization_code', code: oob.code, scope: 'read write:statuses' });
    expect(JSON.parse(exchange.text)).toMatchObject({ scope: 'read write:statuses' });
    expect(token).toBeDefined();
    const redirected = await authorizationCode(anon, app, 'read', CALLBACK);
    expect(redirected.approval?.headers.location).toMatch(/^https:\/\/conformance\.invalid\/callback\?code=/);
    if (variations.some((v) => v.startsWith('web-sign-in'))) expect(oob.form?.headers.location).toBe('/auth/sign_in');
  });

  it("should read the code from the answer of a sign-in form that posts to a path of its own, the one request it sends", async () => {
    const { anon, app } = await serve(['own-sign-in-path']);
    seen.length = 0;
    const result = await authorizationCode(anon, app, 'read');
    expect(result.code).toBe([...(server as ReferenceServer).context.store.authCodes.keys()][0]);
    expect(result.approval?.headers['content-type']).toMatch(/^text\/plain/);
    expect(seen.map((e) => `${e.method} ${e.path.split('?')[0]}`)).toEqual(['GET /oauth/authorize', 'POST /oauth/login']);
  });

  it('should sign in once for all the codes of one browser, and approve as the account whose login was given', async () => {
    seen.length = 0;
    const { anon, app } = await serve(['web-sign-in-chooser']);
    const signIn = new WebSignIn(anon);
    const codes = await Promise.all([signIn.code(app, 'read'), signIn.code(app, 'read write:statuses')]);
    expect(codes.map((c) => c.reason)).toEqual(['', '']);
    expect(seen.filter((e) => e.method === 'POST' && e.path === '/auth/sign_in')).toHaveLength(1);
    const { exchange } = await requestToken(anon, app, { grant_type: 'authorization_code', code: codes[1]?.code, scope: 'read write:statuses' });
    const token = (server as ReferenceServer).context.store.tokens.get(JSON.parse(exchange.text).access_token);
    expect(token?.accountId).toBe((server as ReferenceServer).users.a.account.id);
  });

  it('should pick account A by its username where A signs in by e-mail address, and say so where a chooser does not offer A', async () => {
    server = await startReferenceServer({ variations: ['web-sign-in-chooser'] });
    const { a } = server.users;
    const byEmail = (login: string, token: string) => {
      const config = configFromEnv({ CONFORMANCE_BASE_URL: (server as ReferenceServer).url, CONFORMANCE_TOKEN_A: token, CONFORMANCE_USERNAME_A: login, CONFORMANCE_PASSWORD_A: a.password });
      return new Actor('anonymous', config);
    };
    const anon = byEmail(`alice${EMAIL_DOMAIN}`, a.token);
    const registered = await registerApp(anon);
    if (!registered.ok) throw new Error(registered.cause.summary);
    const picked = await authorizationCode(anon, registered.value, 'read');
    expect(picked.reason).toBe('');
    // Where A's username cannot be had (a token the server does not hold), nothing offered names A: the flow says what was.
    const unnamed = await authorizationCode(byEmail(`alice${EMAIL_DOMAIN}`, 'token-the-server-does-not-hold'), registered.value, 'read');
    expect(unnamed.code).toBeUndefined();
    expect(unnamed.reason).toBe('the account chooser at /oauth/authorize does not offer account A ("alice@conformance.invalid"): it offers @bob, @alice');
  });

  it('should say that signing in was refused, once per browser, and show no password, session cookie or code in any exchange', async () => {
    seen.length = 0;
    const { app } = await serve(['web-sign-in']);
    const password = 'not-the-password-of-alice';
    const wrongPassword = new WebSignIn(anonymousAt((server as ReferenceServer).url, password));
    const refused = await wrongPassword.code(app, 'read');
    expect(refused.reason).toMatch(/^signing in as CONFORMANCE_USERNAME_A was refused: the sign-in form came back \(HTTP 401\)$/);
    // The browser does not send the refused password again: its next flow ends so at once.
    const sent = seen.length;
    expect((await wrongPassword.code(app, 'read write:statuses')).reason).toBe(refused.reason);
    expect(seen).toHaveLength(sent);
    const { anon } = { anon: anonymousAt((server as ReferenceServer).url, (server as ReferenceServer).users.a.password) };
    const granted = await authorizationCode(anon, app, 'read');
    const described = seen.map((exchange) => describeExchange(exchange)).join('\n');
    expect(described).toMatch(/cookie: _reference_session=\$SESSION_COOKIE/);
    expect(described).toMatch(/user%5Bpassword%5D=\$CONFORMANCE_PASSWORD_A/);
    for (const secret of [password, (server as ReferenceServer).users.a.password, granted.code as string]) expect(described).not.toContain(secret);
    for (const session of (server as ReferenceServer).context.store.sessions.keys()) expect(described).not.toContain(session);
  });

  it('should not follow a redirect to another host, and say where the sign-in went', async () => {
    const requests: string[] = [];
    other = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(302, { location: 'https://login.conformance.invalid/sso?next=/oauth/authorize' }).end();
    });
    await new Promise<void>((resolve) => other?.listen(0, '127.0.0.1', resolve));
    const anon = anonymousAt(`http://127.0.0.1:${(other.address() as AddressInfo).port}`, 'a-password-of-alice');
    const app = { client_id: 'id', client_secret: 'secret', name: 'n' };
    const result = await authorizationCode(anon, app, 'read');
    expect(result.reason).toBe('the server sent the browser to https://login.conformance.invalid/sso; the suite follows redirects within http://127.0.0.1:' + (other.address() as AddressInfo).port + ' only');
    expect(requests).toHaveLength(1);
  });

  it('should name what is missing when no username and password are configured', async () => {
    const config = configFromEnv({ CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_TOKEN_A: 'token-of-a' });
    const result = await authorizationCode(new Actor('anonymous', config), { client_id: 'id', client_secret: 's', name: 'n' }, 'read');
    expect(result.reason).toBe('needs CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A to sign in and approve the authorization form');
  });

  /** A small server's authorization page, as a C server renders it: a relative action under a `<base href>`, no session. */
  const SMALL_SERVER_PAGE = (action: string) => `<html><head><base href="/cgi-bin/"><title>Sign in</title></head><body>
<form method="post" action="${action}"><input type="hidden" name="client_id" value="id">
<p>User <input name="user"></p><p>Password <input type="password" name="pass"></p><input type="submit" value="Sign in"></form></body></html>`;
  const SMALL_CODE = '9f86d081884c7d65';

  interface Answer {
    status?: number;
    type?: string;
    location?: string;
    body?: string;
  }

  /** A server of recorded answers: the page at GET /oauth/authorize, `answer` to the post at /cgi-bin/login (whose bodies it keeps). */
  async function smallServer(page: string, answer: Answer): Promise<{ anon: Actor; posted: string[] }> {
    const posted: string[] = [];
    other = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method === 'GET' && req.url?.startsWith('/oauth/authorize?')) return void res.writeHead(200, { 'content-type': 'text/html' }).end(page);
        if (req.method !== 'POST' || req.url !== '/cgi-bin/login') return void res.writeHead(404).end();
        posted.push(body);
        res.writeHead(answer.status ?? 200, { ...(answer.type ? { 'content-type': answer.type } : {}), ...(answer.location ? { location: answer.location } : {}) }).end(answer.body ?? '');
      });
    });
    await new Promise<void>((resolve) => other?.listen(0, '127.0.0.1', resolve));
    return { anon: anonymousAt(`http://127.0.0.1:${(other.address() as AddressInfo).port}`, 'a-password-of-alice'), posted };
  }

  it.each<[string, Answer, string?]>([
    ['the whole text/plain body', { type: 'text/plain', body: `${SMALL_CODE}\n` }],
    ['a body that names no type', { body: SMALL_CODE }],
    ['an HTML body of nothing else', { type: 'text/html', body: `<html><body>${SMALL_CODE}</body></html>` }],
    ['a <pre>', { type: 'text/html', body: `<h1>Signed in</h1><pre>${SMALL_CODE}</pre>` }],
    ['a <code> after the scopes in <code>', { type: 'text/html', body: `<p>Granted <code>read</code>:</p><code>${SMALL_CODE}</code>` }],
    ['a read-only input', { type: 'text/html', body: `<p>Copy it:</p><input type="text" readonly value="${SMALL_CODE}">` }],
    ['the out-of-band page of Mastodon', { type: 'text/html', body: `<input type="text" readonly value="${SMALL_CODE}" class="oauth-code">` }],
    ["the reference server's #authorization-code", { type: 'text/html', body: `<p>Your code is <span id="authorization-code">${SMALL_CODE}</span>.</p>` }],
    ['the redirect to redirect_uri', { status: 302, location: `${CALLBACK}?code=${SMALL_CODE}` }, CALLBACK],
  ])('should read the code of a sign-in that posts to a path of its own from %s', async (_where, answer, redirectUri = OOB) => {
    seen.length = 0;
    const { anon, posted } = await smallServer(SMALL_SERVER_PAGE('login'), answer);
    const result = await authorizationCode(anon, { client_id: 'id', client_secret: 'secret', name: 'n' }, 'read', redirectUri);
    expect(result.reason).toBe('');
    expect(result.code).toBe(SMALL_CODE);
    // Sent as a browser sends it: the hidden field, the login and password in their fields, the unnamed button not at all.
    expect(posted).toEqual(['client_id=id&user=alice&pass=a-password-of-alice']);
    expect(seen.map((e) => `${e.method} ${e.path.split('?')[0]}`)).toEqual(['GET /oauth/authorize', 'POST /cgi-bin/login']);
    const described = seen.map((exchange) => describeExchange(exchange)).join('\n');
    for (const secret of ['a-password-of-alice', SMALL_CODE]) expect(described).not.toContain(secret);
  });

  it('should read no code from a page that asks for more after the sign-in (a second factor), and say what it asks', async () => {
    const otp = `<form method="post" action="/cgi-bin/otp"><p>Enter the <code>${SMALL_CODE}</code> of your authenticator</p><input name="otp"><button>Verify</button></form>`;
    const { anon } = await smallServer(SMALL_SERVER_PAGE('login'), { type: 'text/html', body: otp });
    const result = await authorizationCode(anon, { client_id: 'id', client_secret: 'secret', name: 'n' }, 'read');
    expect(result.code).toBeUndefined();
    expect(result.reason).toMatch(/asks for more than a username and password/);
  });

  it('should never submit a sign-in form that posts to another host, and say where it posts', async () => {
    seen.length = 0;
    const { anon, posted } = await smallServer(SMALL_SERVER_PAGE('https://login.conformance.invalid/login'), {});
    const result = await authorizationCode(anon, { client_id: 'id', client_secret: 'secret', name: 'n' }, 'read');
    expect(result.code).toBeUndefined();
    expect(result.reason).toMatch(/its forms post to https:\/\/login\.conformance\.invalid\/login, and the suite submits forms within http:\/\/127\.0\.0\.1:\d+ only$/);
    expect(posted).toEqual([]);
    expect(seen).toHaveLength(1);
  });
});

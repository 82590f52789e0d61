// The contract's "Client registration" section: POST /api/v1/apps and GET /api/v1/apps/verify_credentials.
// The preparation never judges: a registration or token that failed blocks the checks that need it. Every other
// group registers the plainest form (one redirect URI); several are exercised here only (APPS-REDIRECTS-1).
import { beforeAll, describe, it } from 'vitest';
import { actors } from './support/act/actors.ts';
import { createdObject, type Exchange } from './support/talk/http.ts';
import { OOB, registerApp, requestToken, type Application } from './support/act/applications.ts';
import { answeredWithToken, block, need } from './support/judge/preconditions.ts';
import { causeOf, failed, type Step } from './support/act/steps.ts';
import { expectNoMismatch } from './support/judge/run-wide.ts';
import { check, expectEqual, expectOk, fail, observeErrorBody, statusLine } from './support/judge/verify.ts';

const { a, anon } = actors();
const TOKEN_INVALID = 'The access token is invalid';
const CALLBACK = 'https://conformance.invalid/callback';
/** The redirect URIs of the application that registers several, one per line. */
const SEVERAL = [OOB, CALLBACK];

describe('Client registration', () => {
  const name = 'conformance registration';
  const website = 'https://conformance.invalid/registration';
  let registered: Step<Application>;
  let appToken: Step<string>;
  // The application registered with several redirect URIs, and a token asked for naming each of them.
  let several: Step<Application>;
  let severalTokens: Exchange[] = [];
  // verify_credentials with the application token (APPS-VERIFY-1), and without a token (APPS-VERIFY-2).
  let withToken: Exchange | undefined;
  let withoutToken: Exchange;

  beforeAll(async () => {
    [registered, several] = await Promise.all([
      registerApp(anon, { client_name: name, website }),
      registerApp(anon, { client_name: 'conformance redirect uris', redirect_uris: SEVERAL.join('\n') }),
    ]);
    const tokenFor = (app: Application, redirectUri: string) => requestToken(anon, app, { grant_type: 'client_credentials', redirect_uri: redirectUri, scope: 'read' });
    const severalApp = several.ok ? several.value : undefined;
    [appToken, ...severalTokens] = await Promise.all([
      registered.ok ? tokenFor(registered.value, OOB).then((run) => run.step) : failed<string>(registered.cause),
      ...(severalApp ? SEVERAL.map(async (uri) => (await tokenFor(severalApp, uri)).exchange) : []),
    ]);
    const verify = (token?: string) => anon.get('/api/v1/apps/verify_credentials', { token });
    [withToken, withoutToken] = await Promise.all([appToken.ok ? verify(appToken.value) : undefined, verify()]);
  });

  it('APPS-REGISTER-1 registration returns an Application with client_id and client_secret', () => {
    const registration = registered.exchange as Exchange;
    const body = expectOk(registration, 'Application');
    for (const field of ['client_id', 'client_secret']) {
      if (typeof body[field] !== 'string' || body[field] === '') fail(`${field}: a non-empty string`, `${field}: ${JSON.stringify(body[field])}`, registration);
    }
  });

  it('APPS-REGISTER-2 the Application carries the client name and website given at registration', () => {
    // Judged on whatever the registration answered, also without the client credentials APPS-REGISTER-1 requires.
    const registration = registered.exchange as Exchange;
    const app = createdObject(registration);
    if (!app) block(registered.ok ? causeOf(undefined, 'no registration answer') : registered.cause);
    // A name that is not a string is the Application's schema (RESOURCE-APPLICATION-1), not what was given.
    if (typeof app.name !== 'string') block(causeOf('RESOURCE-APPLICATION-1', `the registration answered name ${JSON.stringify(app.name)}, not a string`, registration));
    expectEqual(app.name, name, 'name', registration);
    expectEqual(app.website, website, 'website', registration);
  });

  it('APPS-REDIRECTS-1 an application registered with two redirect URIs, one per line, gets a token naming either as redirect_uri', () => {
    // The controls: an application with one redirect URI is registered and gets a token.
    need(registered);
    need(appToken);
    const registration = several.exchange as Exchange;
    check(several.ok, 'HTTP 200 with an Application with client_id and client_secret', statusLine(registration), registration);
    SEVERAL.forEach((uri, i) => {
      const token = severalTokens[i] as Exchange;
      const given = token.status === 200 ? createdObject(token)?.access_token : undefined;
      check(typeof given === 'string' && given !== '', `HTTP 200 with a Token for redirect_uri ${uri}`, statusLine(token), token);
    });
  });

  it('APPS-VERIFY-1 verify_credentials with the application token returns the Application', () => {
    need(appToken);
    const exchange = withToken as Exchange;
    const body = expectOk(exchange, 'Application');
    expectEqual(body.name, name, 'name', exchange);
  });

  it('APPS-VERIFY-2 verify_credentials without a token answers 401 "The access token is invalid"', async () => {
    // The positive control: verify_credentials answered a token (the application token; else A's, its application's).
    await answeredWithToken(withToken ? [withToken] : [], appToken, 'APPS-VERIFY-1', async () => [await a.get('/api/v1/apps/verify_credentials')]);
    const exchange = withoutToken;
    const refused = exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500;
    check(refused, `a refusal: HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange);
    // Which code a missing Authorization header answers is the Errors row's (ERRORS-TOKEN-1).
    check(exchange.status === 401, `HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange, 'ERRORS-TOKEN-1');
    observeErrorBody(exchange, TOKEN_INVALID);
  });

  // After every check that reads an Application: the run-wide clause judges them all.
  it('RESOURCE-APPLICATION-1 the registration answer has the Application fields and types of the contract', () => {
    expectNoMismatch('RESOURCE-APPLICATION-1', registered.ok ? undefined : registered.cause);
  });
});

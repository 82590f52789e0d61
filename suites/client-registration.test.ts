// The contract's "Client registration" section: POST /api/v1/apps and GET /api/v1/apps/verify_credentials.
// The preparation never judges: a registration or token that failed blocks the checks that need it. Every other
// group registers the plainest form (one redirect URI); several are exercised here only (APPS-REDIRECTS-1).
// Its 14 requests are its floor with these checks (issue 39): two applications (the plain one the registration,
// verify_credentials and APPS-REDIRECTS-1's control judge, and the one with two redirect URIs, which would make a
// server that mishandles several fail the plain checks too), three tokens (the plain one, and one per redirect URI
// of the other), each granted, revoked and read refused, the two calls of verify_credentials, and the ledger's one
// read of an application.
import type { Actor } from './support/act/actors.ts';
import { OOB, registerApp, requestToken, type Application } from './support/act/applications.ts';
import { causeOf } from './support/act/steps.ts';
import { answeredWithToken, block, userTokenControlNeeded } from './support/judge/preconditions.ts';
import { check, expectEqual, expectOk, fail, observeErrorBody, statusLine } from './support/judge/verify.ts';
import { it, made, section, step } from './support/run/checks.ts';
import { createdObject, type Exchange } from './support/talk/http.ts';

const TOKEN_INVALID = 'The access token is invalid';
const CALLBACK = 'https://conformance.invalid/callback';
/** The redirect URIs of the application that registers several, one per line. */
const SEVERAL = [OOB, CALLBACK];
const NAME = 'conformance registration';
const WEBSITE = 'https://conformance.invalid/registration';

const tokenFor = (actor: Actor, app: Application, redirectUri: string) => requestToken(actor, app, { grant_type: 'client_credentials', redirect_uri: redirectUri, scope: 'read' });
const verify = (actor: Actor, token?: string) => actor.get('/api/v1/apps/verify_credentials', { token });

// An application is never deleted: the ledger lists it as left behind, here on the evidence of verify_credentials.
// The ledger reads it once more at the end, with an authorization code that does not exist: the first declared of the
// group's applications (run/cleanup.ts readApplications).
const registered = step('an application registered with a client name and website', { as: 'anonymous', cost: { api: 1, oauth: 1 } }, (_, { actor }) =>
  registerApp(actor, { client_name: NAME, website: WEBSITE }),
);

// A token is revoked by the ledger, and read refused.
const appToken = step('its application token (client credentials, scope read)', { as: 'anonymous', needs: { registered }, cost: { api: 1, oauth: 2 } }, async ({ registered }, { actor }) =>
  (await tokenFor(actor, registered, OOB)).step,
);

const withToken = step('verify_credentials with the application token', { as: 'application', needs: { appToken }, cost: { api: 1 } }, async ({ appToken }, { actor }) =>
  made(await verify(actor, appToken)),
);

// APPS-VERIFY-2's positive control where the application token's verify_credentials was not answered: the same call
// with A's token (its application's), sent only then (a conforming server costs no request for it).
const withUserToken = step(
  "verify_credentials with A's token, where the application token's was not answered",
  { as: 'A', uses: { withToken, appToken }, cost: {}, mayAdd: 1 },
  async ({ withToken, appToken }, { actor }) =>
    made(userTokenControlNeeded(withToken.ok ? [withToken.value] : [], appToken) ? [await actor.get('/api/v1/apps/verify_credentials')] : undefined),
);

const withoutToken = step('verify_credentials without a token', { as: 'anonymous', cost: { api: 1 } }, async (_, { actor }) => made(await verify(actor)));

const several = step('an application registered with two redirect URIs, one per line', { as: 'anonymous', cost: { api: 1 } }, (_, { actor }) =>
  registerApp(actor, { client_name: 'conformance redirect uris', redirect_uris: SEVERAL.join('\n') }),
);

// Each token answered is revoked by the ledger, and read refused.
const severalTokens = step('a token asked for naming each of its redirect URIs', { as: 'anonymous', needs: { several }, cost: { api: 2, oauth: 4 } }, async ({ several }, { actor }) =>
  made(await Promise.all(SEVERAL.map(async (uri) => (await tokenFor(actor, several, uri)).exchange))),
);

section('Client registration', () => {
  it('APPS-REGISTER-1 registration returns an Application with client_id and client_secret', { uses: { registered } }, ({ registered }) => {
    const registration = registered.exchange as Exchange;
    const body = expectOk(registration, 'Application');
    for (const field of ['client_id', 'client_secret']) {
      if (typeof body[field] !== 'string' || body[field] === '') fail(`${field}: a non-empty string`, `${field}: ${JSON.stringify(body[field])}`, registration);
    }
  });

  it('APPS-REGISTER-2 the Application carries the client name and website given at registration', { uses: { registered } }, ({ registered }) => {
    // Judged on whatever the registration answered, also without the client credentials APPS-REGISTER-1 requires.
    const registration = registered.exchange as Exchange;
    const app = createdObject(registration);
    if (!app) block(registered.ok ? causeOf(undefined, 'no registration answer') : registered.cause);
    // A name that is not a string is the Application's schema (RESOURCE-APPLICATION-1), not what was given.
    if (typeof app.name !== 'string') block(causeOf('RESOURCE-APPLICATION-1', `the registration answered name ${JSON.stringify(app.name)}, not a string`, registration));
    expectEqual(app.name, NAME, 'name', registration);
    expectEqual(app.website, WEBSITE, 'website', registration);
  });

  it(
    'APPS-REDIRECTS-1 an application registered with two redirect URIs, one per line, gets a token naming either as redirect_uri',
    // The controls: an application with one redirect URI is registered and gets a token.
    { needs: { registered, appToken }, uses: { several, severalTokens } },
    ({ several, severalTokens }) => {
      const registration = several.exchange as Exchange;
      check(several.ok, 'HTTP 200 with an Application with client_id and client_secret', statusLine(registration), registration);
      const tokens = severalTokens.ok ? severalTokens.value : [];
      SEVERAL.forEach((uri, i) => {
        const token = tokens[i];
        const given = token?.status === 200 ? createdObject(token)?.access_token : undefined;
        check(typeof given === 'string' && given !== '', `HTTP 200 with a Token for redirect_uri ${uri}`, token ? statusLine(token) : 'no token asked for', token ?? registration);
      });
    },
  );

  it('APPS-VERIFY-1 verify_credentials with the application token returns the Application', { needs: { withToken } }, ({ withToken }) => {
    const body = expectOk(withToken, 'Application');
    expectEqual(body.name, NAME, 'name', withToken);
  });

  it(
    'APPS-VERIFY-2 verify_credentials without a token answers 401 "The access token is invalid"',
    { needs: { withoutToken, withUserToken }, uses: { withToken, appToken } },
    ({ withoutToken: exchange, withUserToken, withToken, appToken }) => {
      // The positive control: verify_credentials answered a token (the application token; else A's, its application's).
      answeredWithToken(withToken.ok ? [withToken.value] : [], appToken, 'APPS-VERIFY-1', withUserToken);
      const refused = exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500;
      check(refused, `a refusal: HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange);
      // Which code a missing Authorization header answers is the Errors row's (ERRORS-TOKEN-1).
      check(exchange.status === 401, `HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange, 'ERRORS-TOKEN-1');
      observeErrorBody(exchange, TOKEN_INVALID);
    },
  );

  // After every check that reads an Application: the run-wide clause judges them all.
  it.runWide('RESOURCE-APPLICATION-1', { uses: { registered } }, ({ registered }) => (registered.ok ? undefined : registered.cause));
});

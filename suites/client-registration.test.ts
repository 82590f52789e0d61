// The contract's "Client registration" section: POST /api/v1/apps and GET /api/v1/apps/verify_credentials.
// The preparation never judges: a registration or token that failed blocks the checks that need it.
import { beforeAll, describe, it } from 'vitest';
import { actors, createdObject, registerApp, requestToken, type Application } from './support/actors.ts';
import type { Exchange } from './support/http.ts';
import { block, causeOf, failed, need, type Step } from './support/preconditions.ts';
import { expectNoMismatch } from './support/run-wide.ts';
import { check, expectEqual, expectOk, fail, observeErrorBody, statusLine } from './support/verify.ts';

const { anon } = actors();
const TOKEN_INVALID = 'The access token is invalid';

describe('Client registration', () => {
  const name = 'conformance registration';
  const website = 'https://conformance.invalid/registration';
  let registered: Step<Application>;
  let appToken: Step<string>;

  beforeAll(async () => {
    registered = await registerApp(anon, { client_name: name, website });
    appToken = registered.ok ? (await requestToken(anon, registered.value, { grant_type: 'client_credentials', redirect_uri: 'urn:ietf:wg:oauth:2.0:oob', scope: 'read' })).step : failed(registered.cause);
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

  it('APPS-VERIFY-1 verify_credentials with the application token returns the Application', async () => {
    const exchange = await anon.get('/api/v1/apps/verify_credentials', { token: need(appToken) });
    const body = expectOk(exchange, 'Application');
    expectEqual(body.name, name, 'name', exchange);
  });

  it('APPS-VERIFY-2 verify_credentials without a token answers 401 "The access token is invalid"', async () => {
    const exchange = await anon.get('/api/v1/apps/verify_credentials');
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

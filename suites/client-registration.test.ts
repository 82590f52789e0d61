// The contract's "Client registration" section: POST /api/v1/apps and GET /api/v1/apps/verify_credentials.
import { beforeAll, describe, it } from 'vitest';
import { actors, registerApp, requestToken, type Application } from './support/actors.ts';
import type { Exchange } from './support/http.ts';
import { expectEqual, expectError, expectOk, fail } from './support/verify.ts';

const { anon } = actors();

describe('Client registration', () => {
  const website = 'https://conformance.invalid/registration';
  let app: Application;
  let registration: Exchange;
  let appToken: string | undefined;

  beforeAll(async () => {
    ({ app, exchange: registration } = await registerApp(anon, { client_name: 'conformance registration', website }));
    ({ token: appToken } = await requestToken(anon, app, { grant_type: 'client_credentials', redirect_uri: 'urn:ietf:wg:oauth:2.0:oob', scope: 'read' }));
  });

  it('APPS-REGISTER-1 registration returns an Application with client_id and client_secret', () => {
    const body = expectOk(registration, 'Application');
    for (const field of ['client_id', 'client_secret']) {
      if (typeof body[field] !== 'string' || body[field] === '') fail(`${field}: a non-empty string`, `${field}: ${JSON.stringify(body[field])}`, registration);
    }
  });

  it('RESOURCE-APPLICATION-1 the registration answer has the Application fields and types of the contract', () => {
    expectOk(registration, 'Application');
  });

  it('APPS-REGISTER-2 the Application carries the client name and website given at registration', () => {
    expectEqual(app.name, 'conformance registration', 'name', registration);
    expectEqual(app.website, website, 'website', registration);
  });

  it('APPS-VERIFY-1 verify_credentials with the application token returns the Application', async () => {
    if (!appToken) fail('an application token from POST /oauth/token', 'none was issued');
    const exchange = await anon.get('/api/v1/apps/verify_credentials', { token: appToken });
    const body = expectOk(exchange, 'Application');
    expectEqual(body.name, 'conformance registration', 'name', exchange);
  });

  it('APPS-VERIFY-2 verify_credentials without a token answers 401 "The access token is invalid"', async () => {
    const exchange = await anon.get('/api/v1/apps/verify_credentials');
    expectError(exchange, 401, 'The access token is invalid');
  });
});

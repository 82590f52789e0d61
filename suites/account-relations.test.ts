// The contract's "Account relations" section: following and followers need a token, and an application token suffices.
import { beforeAll, describe, it } from 'vitest';
import { accountIdOf, actors, registerApp, requestToken } from './support/actors.ts';
import { expectError, expectJson, fail } from './support/verify.ts';

const { a, anon } = actors();
const RELATIONS = ['following', 'followers'];

describe('Account relations', () => {
  let accountId: string;
  let appToken: string | undefined;

  beforeAll(async () => {
    accountId = await accountIdOf(a);
    const { app } = await registerApp(anon, { client_name: 'conformance relations', scopes: 'read' });
    ({ token: appToken } = await requestToken(anon, app, { grant_type: 'client_credentials', scope: 'read' }));
  });

  it('RELATIONS-APPTOKEN-1 following and followers answer an application token', async () => {
    if (!appToken) fail('an application token from POST /oauth/token', 'none was issued');
    for (const relation of RELATIONS) expectJson(await anon.get(`/api/v1/accounts/${accountId}/${relation}`, { token: appToken }), 200);
  });

  it('RELATIONS-TOKEN-1 following and followers without a token answer 401 "The access token is invalid"', async () => {
    for (const relation of RELATIONS) expectError(await anon.get(`/api/v1/accounts/${accountId}/${relation}`), 401, 'The access token is invalid');
  });
});

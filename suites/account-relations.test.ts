// The contract's "Account relations" section: following and followers need a token, and an application token suffices.
// The preparation never judges: an account id, application or token that could not be had blocks the checks that need it.
import { beforeAll, describe, it } from 'vitest';
import { accountIdOf, actors } from './support/judge/actors.ts';
import { registerApp, requestToken } from './support/judge/applications.ts';
import { failed, need, type Step } from './support/judge/preconditions.ts';
import { check, expectJson, observeErrorBody, statusLine } from './support/judge/verify.ts';

const { a, anon } = actors();
const RELATIONS = ['following', 'followers'];
const TOKEN_INVALID = 'The access token is invalid';

describe('Account relations', () => {
  let accountId: Step<string>;
  let appToken: Step<string>;

  /** An application token (client credentials, scope read); had beside the account id, which it does not need. */
  async function applicationToken(): Promise<Step<string>> {
    const app = await registerApp(anon, { client_name: 'conformance relations', scopes: 'read' });
    return app.ok ? (await requestToken(anon, app.value, { grant_type: 'client_credentials', scope: 'read' })).step : failed(app.cause);
  }

  beforeAll(async () => {
    [accountId, appToken] = await Promise.all([accountIdOf(a), applicationToken()]);
  });

  /** Both relations of the account, read side by side, with the token given or none. */
  const readRelations = (id: string, token?: string) => Promise.all(RELATIONS.map((relation) => anon.get(`/api/v1/accounts/${id}/${relation}`, { token })));

  it('RELATIONS-APPTOKEN-1 following and followers answer an application token', async () => {
    const [id, token] = [need(accountId), need(appToken)];
    for (const exchange of await readRelations(id, token)) expectJson(exchange, 200);
  });

  it('RELATIONS-TOKEN-1 following and followers without a token answer 401 "The access token is invalid"', async () => {
    for (const exchange of await readRelations(need(accountId))) {
      const refused = exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500;
      check(refused, `a refusal: HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange);
      // Which code a missing Authorization header answers is the Errors row's (ERRORS-TOKEN-1).
      check(exchange.status === 401, `HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange, 'ERRORS-TOKEN-1');
      observeErrorBody(exchange, TOKEN_INVALID);
    }
  });
});

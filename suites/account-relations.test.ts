// The contract's "Account relations" section: following and followers need a token, and an application token suffices.
// The preparation never judges: an account id, application or token that could not be had blocks the checks that need it.
import { beforeAll, describe, it } from 'vitest';
import { accountIdOf, actors } from './support/act/actors.ts';
import { registerApp, requestToken } from './support/act/applications.ts';
import { answeredWithToken, need } from './support/judge/preconditions.ts';
import { failed, type Step } from './support/act/steps.ts';
import { check, expectJson, observeErrorBody, statusLine } from './support/judge/verify.ts';
import type { Exchange } from './support/talk/http.ts';

const { a, anon } = actors();
const RELATIONS = ['following', 'followers'];
const TOKEN_INVALID = 'The access token is invalid';

describe('Account relations', () => {
  let accountId: Step<string>;
  let appToken: Step<string>;
  // Both relations read with the application token (RELATIONS-APPTOKEN-1), and without a token (RELATIONS-TOKEN-1).
  let withAppToken: Exchange[] = [];
  let withoutToken: Exchange[] = [];

  /** An application token (client credentials, scope read); had beside the account id, which it does not need. */
  async function applicationToken(): Promise<Step<string>> {
    const app = await registerApp(anon, { client_name: 'conformance relations', scopes: 'read' });
    return app.ok ? (await requestToken(anon, app.value, { grant_type: 'client_credentials', scope: 'read' })).step : failed(app.cause);
  }

  /** Both relations of the account, read side by side, by `reader` with the token given (its own where none is). */
  const readRelations = (id: string, token?: string, reader = anon) => Promise.all(RELATIONS.map((relation) => reader.get(`/api/v1/accounts/${id}/${relation}`, { token })));

  beforeAll(async () => {
    [accountId, appToken] = await Promise.all([accountIdOf(a), applicationToken()]);
    if (!accountId.ok) return;
    const id = accountId.value;
    [withAppToken, withoutToken] = await Promise.all([appToken.ok ? readRelations(id, appToken.value) : [], readRelations(id)]);
  });

  it('RELATIONS-APPTOKEN-1 following and followers answer an application token', () => {
    need(accountId);
    need(appToken);
    for (const exchange of withAppToken) expectJson(exchange, 200);
  });

  it('RELATIONS-TOKEN-1 following and followers without a token answer 401 "The access token is invalid"', async () => {
    // The positive control: the same reads with a token were answered (the application token's; else A's).
    const id = need(accountId);
    await answeredWithToken(withAppToken, appToken, 'RELATIONS-APPTOKEN-1', () => readRelations(id, undefined, a));
    for (const exchange of withoutToken) {
      const refused = exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500;
      check(refused, `a refusal: HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange);
      // Which code a missing Authorization header answers is the Errors row's (ERRORS-TOKEN-1).
      check(exchange.status === 401, `HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange, 'ERRORS-TOKEN-1');
      observeErrorBody(exchange, TOKEN_INVALID);
    }
  });
});

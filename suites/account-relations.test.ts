// The contract's "Account relations" section: following and followers need a token, and an application token suffices.
// The preparation never judges: an account id, application or token that could not be had blocks the checks that need it.
import { beforeAll, describe, it } from 'vitest';
import { accountIdOf, actors } from './support/judge/actors.ts';
import { registerApp, requestToken } from './support/judge/applications.ts';
import { block, causeOf, controlled, failed, need, succeeded, type Step } from './support/judge/preconditions.ts';
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

  /**
   * The positive control of the refusal: the same reads with a token answered 200. The application token's reads
   * serve where they did; else (a server without client_credentials, or one that refuses application tokens there)
   * A's user token reads, only then: the refusal is judged wherever some token is answered. Where the application or
   * its token got no answer, it is blocked by that: a server that does not answer is not asked once more.
   */
  async function readWithToken(): Promise<void> {
    const id = need(accountId);
    if (withAppToken.length > 0 && withAppToken.every((exchange) => exchange.status === 200)) return;
    if (!appToken.ok && (appToken.exchange?.status === undefined || appToken.exchange.error !== undefined)) block(appToken.cause);
    for (const exchange of await readRelations(id, undefined, a)) {
      if (exchange.status === 200) continue;
      const refusedToo = withAppToken.find((read) => read.status !== 200);
      if (refusedToo) controlled(succeeded(refusedToo, refusedToo), 'RELATIONS-APPTOKEN-1', `${refusedToo.path} with an application token`);
      block(causeOf(undefined, `${exchange.path} answered ${statusLine(exchange)} to A's user token (the positive control): no read to refuse`, exchange));
    }
  }

  it('RELATIONS-APPTOKEN-1 following and followers answer an application token', () => {
    need(accountId);
    need(appToken);
    for (const exchange of withAppToken) expectJson(exchange, 200);
  });

  it('RELATIONS-TOKEN-1 following and followers without a token answer 401 "The access token is invalid"', async () => {
    await readWithToken();
    for (const exchange of withoutToken) {
      const refused = exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500;
      check(refused, `a refusal: HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange);
      // Which code a missing Authorization header answers is the Errors row's (ERRORS-TOKEN-1).
      check(exchange.status === 401, `HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange, 'ERRORS-TOKEN-1');
      observeErrorBody(exchange, TOKEN_INVALID);
    }
  });
});

// The contract's "Account relations" section: following and followers need a token, and an application token suffices.
// The preparation never judges: an account id, application or token that could not be had blocks the checks that need it.
import { accountIdOf, actors, type Actor } from './support/act/actors.ts';
import { registerApp, requestToken } from './support/act/applications.ts';
import { answeredWithToken, userTokenControlNeeded } from './support/judge/preconditions.ts';
import { check, expectJson, observeErrorBody, statusLine } from './support/judge/verify.ts';
import { it, made, notMade, section, step } from './support/run/checks.ts';

const { config } = actors();
const RELATIONS = ['following', 'followers'];
const TOKEN_INVALID = 'The access token is invalid';

/** Both relations of the account, read side by side, by `reader` with the token given (its own where none is). */
const readRelations = (reader: Actor, id: string, token?: string) => Promise.all(RELATIONS.map((relation) => reader.get(`/api/v1/accounts/${id}/${relation}`, { token })));

// Known before the groups where the command's preflight read it (or the embedded server made A); else a hint outside
// the contract answers it, and a server without it costs a status created and deleted more.
const accountId = step("A's account id", { as: 'A', cost: { api: config.accountIdA ? 0 : 1 } }, (_, { actor }) => accountIdOf(actor));

// Registered, granted, and at the end revoked by the ledger and read refused.
const appToken = step('an application token (client credentials, scope read)', { as: 'anonymous', cost: { api: 2, oauth: 3 } }, async (_, { actor }) => {
  const app = await registerApp(actor, { client_name: 'conformance relations', scopes: 'read' });
  return app.ok ? (await requestToken(actor, app.value, { grant_type: 'client_credentials', scope: 'read' })).step : notMade(app.cause);
});

const withAppToken = step('both relations read with the application token', { as: 'application', needs: { accountId, appToken }, cost: { api: 2 } }, async ({ accountId, appToken }, { actor }) =>
  made(await readRelations(actor, accountId, appToken)),
);

const withoutToken = step('both relations read without a token', { as: 'anonymous', needs: { accountId }, cost: { api: 2 } }, async ({ accountId }, { actor }) => made(await readRelations(actor, accountId)));

// RELATIONS-TOKEN-1's positive control where the application token's reads were not all answered: the same reads with
// A's token, sent only then (a conforming server costs no request for them).
const withUserToken = step(
  "both relations read with A's token, where the application token's were not answered",
  { as: 'A', needs: { accountId }, uses: { withAppToken, appToken }, cost: {}, mayAdd: 2 },
  async ({ accountId, withAppToken, appToken }, { actor }) =>
    made(userTokenControlNeeded(withAppToken.ok ? withAppToken.value : [], appToken) ? await readRelations(actor, accountId) : undefined),
);

section('Account relations', () => {
  it('RELATIONS-APPTOKEN-1 following and followers answer an application token', { needs: { withAppToken } }, ({ withAppToken }) => {
    for (const exchange of withAppToken) expectJson(exchange, 200);
  });

  it(
    'RELATIONS-TOKEN-1 following and followers without a token answer 401 "The access token is invalid"',
    { needs: { withoutToken, withUserToken }, uses: { withAppToken, appToken } },
    ({ withoutToken, withUserToken, withAppToken, appToken }) => {
      // The positive control: the same reads with a token were answered (the application token's; else A's).
      answeredWithToken(withAppToken.ok ? withAppToken.value : [], appToken, 'RELATIONS-APPTOKEN-1', withUserToken);
      for (const exchange of withoutToken) {
        const refused = exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500;
        check(refused, `a refusal: HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange);
        // Which code a missing Authorization header answers is the Errors row's (ERRORS-TOKEN-1).
        check(exchange.status === 401, `HTTP 401 {"error": "${TOKEN_INVALID}"}`, statusLine(exchange), exchange, 'ERRORS-TOKEN-1');
        observeErrorBody(exchange, TOKEN_INVALID);
      }
    },
  );
});

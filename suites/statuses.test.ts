// The contract's "Statuses" section: create, read, delete, context and the accounts that acted, with the
// Errors rows these operations answer. One thread of A's statuses serves every check here:
// top (public, with spoiler, sensitive, language) <- reply <- reply2, and one private status.
import { beforeAll, describe, it } from 'vitest';
import { actors, type Status } from './support/actors.ts';
import { releaseAtLeast } from './support/config.ts';
import type { Exchange } from './support/http.ts';
import { needs, since } from './support/preconditions.ts';
import { check, expectEqual, expectError, expectErrorBody, expectList, expectOk, expectResource } from './support/verify.ts';

const { config, a, b, anon } = actors();
// An id no server has given out: far above any snowflake of this century.
const MISSING_ID = '999999999999999999';

describe('Statuses', () => {
  let top: Status;
  let topExchange: Exchange;
  let reply: Status;
  let reply2: Status;
  let secret: Status;
  let missingRead: Exchange;

  beforeAll(async () => {
    ({ status: top, exchange: topExchange } = await a.createStatus({
      status: 'conformance probe: a public status #conformance',
      spoiler_text: 'conformance spoiler',
      sensitive: true,
      language: 'en',
      visibility: 'public',
    }));
    ({ status: reply } = await a.createStatus({ status: 'conformance probe: a reply', in_reply_to_id: top.id, visibility: 'unlisted' }));
    ({ status: reply2 } = await a.createStatus({ status: 'conformance probe: a reply to the reply', in_reply_to_id: reply.id, visibility: 'unlisted' }));
    ({ status: secret } = await a.createStatus({ status: 'conformance probe: a private status', visibility: 'private' }));
    missingRead = await a.get(`/api/v1/statuses/${MISSING_ID}`);
  });

  it('STATUS-CREATE-1 creating a status answers 200 and a Status', () => {
    expectOk(topExchange, 'Status', 200);
  });

  it('RESOURCE-STATUS-1 a Status has the fields and types of the contract', () => {
    expectResource('Status', top, topExchange);
  });

  it('RESOURCE-ACCOUNT-1 the author of a Status is an Account with the fields and types of the contract', () => {
    expectResource('Account', top.account, topExchange);
  });

  it('STATUS-CREATE-2 spoiler_text is reflected in the created status', () => {
    expectEqual(top.spoiler_text, 'conformance spoiler', 'spoiler_text', topExchange);
  });

  it('STATUS-CREATE-3 sensitive is reflected in the created status', () => {
    expectEqual(top.sensitive, true, 'sensitive', topExchange);
  });

  it('STATUS-CREATE-4 visibility is reflected in the created status', () => {
    expectEqual(top.visibility, 'public', 'visibility of the public status', topExchange);
    expectEqual(secret.visibility, 'private', 'visibility of the private status');
    expectEqual(reply.visibility, 'unlisted', 'visibility of the unlisted reply');
  });

  it('STATUS-CREATE-5 language is reflected in the created status', () => {
    expectEqual(top.language, 'en', 'language', topExchange);
  });

  it('STATUS-CREATE-6 a reply carries in_reply_to_id and in_reply_to_account_id', () => {
    expectEqual(reply.in_reply_to_id, top.id, 'in_reply_to_id');
    expectEqual(reply.in_reply_to_account_id, top.account.id, 'in_reply_to_account_id');
  });

  it('STATUS-READ-1 a public status is readable without a token', async (context) => {
    since(context, config, '2.7.0');
    needs(context, !config.whitelistMode, 'the instance runs in whitelist mode (CONFORMANCE_WHITELIST_MODE)');
    const exchange = await anon.get(`/api/v1/statuses/${top.id}`);
    expectEqual(expectOk(exchange, 'Status').id, top.id, 'id', exchange);
  });

  it('STATUS-READ-2 the owner reads their private status', async () => {
    const exchange = await a.get(`/api/v1/statuses/${secret.id}`);
    expectEqual(expectOk(exchange, 'Status').id, secret.id, 'id', exchange);
  });

  it('STATUS-READ-3 another user reading a private status gets 404 "Record not found"', async (context) => {
    needs(context, b, 'needs CONFORMANCE_TOKEN_B');
    expectError(await (b as NonNullable<typeof b>).get(`/api/v1/statuses/${secret.id}`), 404, 'Record not found');
  });

  it('STATUS-READ-4 reading a private status without a token gets 404 "Record not found"', async (context) => {
    needs(context, !config.whitelistMode, 'the instance runs in whitelist mode: tokenless reads answer 401 there');
    expectError(await anon.get(`/api/v1/statuses/${secret.id}`), 404, 'Record not found');
  });

  it('STATUS-READ-5 reading a status that does not exist gets 404 "Record not found"', () => {
    expectError(missingRead, 404, 'Record not found');
  });

  it('ERRORS-BODY-1 an error answer carries a JSON body {error: string}', () => {
    expectErrorBody(missingRead);
  });

  it('STATUS-WHITELIST-1 in whitelist mode a tokenless read answers 401 "This API requires an authenticated user"', async (context) => {
    needs(context, config.whitelistMode, 'needs CONFORMANCE_WHITELIST_MODE (an instance in whitelist mode)');
    expectError(await anon.get(`/api/v1/statuses/${top.id}`), 401, 'This API requires an authenticated user');
  });

  it('ERRORS-TOKEN-1 creating a status without an Authorization header answers 401 "The access token is invalid"', async () => {
    expectError(await anon.post('/api/v1/statuses', { status: 'conformance probe: must be refused' }), 401, 'The access token is invalid');
  });

  it('ERRORS-TOKEN-2 creating a status with an invalid token answers 401 "The access token is invalid"', async () => {
    const exchange = await anon.post('/api/v1/statuses', { status: 'conformance probe: must be refused' }, { token: 'conformance-invalid-token' });
    expectError(exchange, 401, 'The access token is invalid');
  });

  it('STATUS-CONTEXT-1 context lists the thread above the status in ancestors', async () => {
    const exchange = await a.get(`/api/v1/statuses/${reply.id}/context`);
    const context = expectOk<{ ancestors: Status[] }>(exchange, 'Context');
    check(context.ancestors.some((s) => s.id === top.id), `ancestors include ${top.id}`, `ancestors ${JSON.stringify(context.ancestors.map((s) => s.id))}`, exchange);
  });

  it('STATUS-CONTEXT-2 context lists the thread below the status in descendants', async () => {
    const exchange = await a.get(`/api/v1/statuses/${top.id}/context`);
    const context = expectOk<{ descendants: Status[] }>(exchange, 'Context');
    const ids = context.descendants.map((s) => s.id);
    check(ids.includes(reply.id) && ids.includes(reply2.id), `descendants include ${reply.id} and ${reply2.id}`, `descendants ${JSON.stringify(ids)}`, exchange);
  });

  it('RESOURCE-CONTEXT-1 a Context has ancestors and descendants, arrays of Status', async () => {
    const exchange = await a.get(`/api/v1/statuses/${reply.id}/context`);
    expectOk(exchange, 'Context');
  });

  it('STATUS-REBLOGGEDBY-1 reblogged_by answers an array of Account', async () => {
    expectList(await anon.get(`/api/v1/statuses/${top.id}/reblogged_by`), 'Account');
  });

  it('STATUS-FAVOURITEDBY-1 favourited_by answers an array of Account', async () => {
    expectList(await anon.get(`/api/v1/statuses/${top.id}/favourited_by`), 'Account');
  });

  describe('delete', () => {
    let deleted: Status;
    let deletion: Exchange;
    const text = 'conformance probe: delete me #conformance';

    beforeAll(async () => {
      const withPoll = { status: text, poll: { options: ['yes', 'no'], expires_in: 3600, multiple: true } };
      const { status, settle } = await a.createStatus(releaseAtLeast(config.serverVersion, '2.8.0') ? withPoll : { status: text });
      deletion = await a.delete(`/api/v1/statuses/${status.id}`);
      if (deletion.status === 200) settle();
      deleted = status;
    });

    it('STATUS-DELETE-1 delete answers the Status with its source text and its media or poll', (context) => {
      since(context, config, '2.9.0');
      const body = expectOk<Status & { poll: { options: { title: string }[] } | null }>(deletion, 'Status');
      expectEqual(body.text, text, 'text', deletion);
      check(Array.isArray(body.media_attachments), 'media_attachments: an array', `media_attachments: ${JSON.stringify(body.media_attachments)}`, deletion);
      if (deleted.poll) expectEqual(body.poll?.options.map((o) => o.title), ['yes', 'no'], 'poll options', deletion);
    });

    it('STATUS-DELETE-2 a deleted status reads as 404 "Record not found"', async () => {
      expectError(await a.get(`/api/v1/statuses/${deleted.id}`), 404, 'Record not found');
    });

    it('STATUS-DELETE-4 deleting an already deleted status answers 404 "Record not found"', async () => {
      expectError(await a.delete(`/api/v1/statuses/${deleted.id}`), 404, 'Record not found');
    });

    it("STATUS-DELETE-3 deleting another user's status answers 404 \"Record not found\"", async (context) => {
      needs(context, b, 'needs CONFORMANCE_TOKEN_B');
      expectError(await (b as NonNullable<typeof b>).delete(`/api/v1/statuses/${top.id}`), 404, 'Record not found');
    });
  });
});

// The contract's "Statuses" section: create, read, delete, context, the accounts that acted and the removed
// card operation, with the Errors rows these operations answer. One thread of A's serves every check here, and
// its statuses are one per visibility, so every visibility check judges the same four:
// top (public; spoiler, sensitive, language) <- reply (unlisted) <- hidden (private), and a direct status
// with a poll, which the delete checks delete last, once every other check has judged it.
import { beforeAll, describe, it } from 'vitest';
import { actors, type Actor, type Status } from './support/actors.ts';
import { releaseAtLeast } from './support/config.ts';
import type { Exchange } from './support/http.ts';
import { before, needs, since } from './support/preconditions.ts';
import { expectNoViolation } from './support/registered-checks.ts';
import {
  check,
  expectEqual,
  expectError,
  expectErrorBody,
  expectJson,
  expectList,
  expectOk,
  expectRefusal,
  expectResource,
} from './support/verify.ts';

const { config, a, b, anon } = actors();
const DIRECT_TEXT = 'conformance probe: a direct status that mentions nobody #conformance';
const DIRECT_POLL = { options: ['yes', 'no'], expires_in: 3600, multiple: true };
// An id no server has given out: far above any snowflake of this century.
const MISSING_ID = '999999999999999999';
const WHITELIST = 'the instance runs in whitelist mode: tokenless reads answer 401 there (CONFORMANCE_WHITELIST_MODE)';
// Before 2.7.0 every read of a status needed a token: what a tokenless read answered then is not shown.
const TOKENLESS_READS = '2.7.0';
// The public operations are read without a token, except where whitelist mode refuses tokenless reads.
const publicReader = config.whitelistMode ? a : anon;

/** Each GET is made once, by the first check that needs it, and judged by every check that needs it. */
const gets = new Map<string, Promise<Exchange>>();
function getOnce(actor: Actor, path: string): Promise<Exchange> {
  const key = `${actor.name} ${path}`;
  let exchange = gets.get(key);
  if (!exchange) gets.set(key, (exchange = actor.get(path)));
  return exchange;
}
const readOf = (actor: Actor, status: Status) => getOnce(actor, `/api/v1/statuses/${status.id}`);
const contextOf = (actor: Actor, status: Status) => getOnce(actor, `/api/v1/statuses/${status.id}/context`);

/** The answer is the status itself. */
function expectStatus(exchange: Exchange, status: Status): void {
  expectEqual(expectOk<Status>(exchange, 'Status').id, status.id, 'id', exchange);
}

/** The answer is a Context: the caller may see the status. */
function expectContext(exchange: Exchange): void {
  expectOk(exchange, 'Context');
}

describe('Statuses', () => {
  let top: Status;
  let topExchange: Exchange;
  let reply: Status;
  let hidden: Status;
  let direct: Status;
  let settleDirect: () => void;
  let missingRead: Exchange;

  beforeAll(async () => {
    ({ status: top, exchange: topExchange } = await a.createStatus({
      status: 'conformance probe: a public status #conformance',
      spoiler_text: 'conformance spoiler',
      sensitive: true,
      language: 'en',
      visibility: 'public',
    }));
    ({ status: reply } = await a.createStatus({ status: 'conformance probe: an unlisted reply', in_reply_to_id: top.id, visibility: 'unlisted' }));
    ({ status: hidden } = await a.createStatus({ status: 'conformance probe: a private reply to the reply', in_reply_to_id: reply.id, visibility: 'private' }));
    const withPoll = releaseAtLeast(config.serverVersion, '2.8.0') ? { poll: DIRECT_POLL } : {};
    ({ status: direct, settle: settleDirect } = await a.createStatus({ status: DIRECT_TEXT, visibility: 'direct', ...withPoll }));
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

  it('STATUS-CREATE-4 visibility (public, unlisted, private, direct) is reflected in the created status', () => {
    expectEqual(top.visibility, 'public', 'visibility of the public status', topExchange);
    expectEqual(reply.visibility, 'unlisted', 'visibility of the unlisted status');
    expectEqual(hidden.visibility, 'private', 'visibility of the private status');
    expectEqual(direct.visibility, 'direct', 'visibility of the direct status');
  });

  it('STATUS-CREATE-5 language is reflected in the created status', () => {
    expectEqual(top.language, 'en', 'language', topExchange);
  });

  it('STATUS-CREATE-6 a reply carries in_reply_to_id and in_reply_to_account_id', () => {
    expectEqual(reply.in_reply_to_id, top.id, 'in_reply_to_id');
    expectEqual(reply.in_reply_to_account_id, top.account.id, 'in_reply_to_account_id');
  });

  it('STATUS-READ-1 a public status is readable without a token', async (context) => {
    since(context, config, TOKENLESS_READS);
    needs(context, !config.whitelistMode, WHITELIST);
    expectStatus(await readOf(anon, top), top);
  });

  it('STATUS-READ-2 the owner reads their private status', async () => {
    expectStatus(await readOf(a, hidden), hidden);
  });

  it('STATUS-READ-3 another user reading a private status gets 404 "Record not found"', async (context) => {
    needs(context, b, 'needs CONFORMANCE_TOKEN_B');
    expectError(await readOf(b as Actor, hidden), 404, 'Record not found');
  });

  it('STATUS-READ-4 reading a private status without a token gets 404 "Record not found"', async (context) => {
    since(context, config, TOKENLESS_READS);
    needs(context, !config.whitelistMode, WHITELIST);
    expectError(await readOf(anon, hidden), 404, 'Record not found');
  });

  it('STATUS-READ-5 reading a status that does not exist gets 404 "Record not found"', () => {
    expectError(missingRead, 404, 'Record not found');
  });

  it('RESOURCE-STATUS-2 spoiler_text is the empty string when a status has none', () => {
    expectEqual(reply.spoiler_text, '', 'spoiler_text of a status without one');
  });

  it('WIRE-FORM-1 form parameters with [] and bracket names (poll[options][]) are understood', (context) => {
    since(context, config, '2.8.0');
    const poll = direct.poll as { options?: { title: string }[] } | null;
    expectEqual(poll?.options?.map((o) => o.title), DIRECT_POLL.options, 'poll options sent as poll[options][]');
  });

  it('WIRE-JSON-1 every /api/* answer of this group is JSON', () => {
    expectNoViolation('WIRE-JSON-1');
  });

  it('ERRORS-BODY-1 an error answer carries a JSON body {error: string}', () => {
    expectErrorBody(missingRead);
  });

  it('WIRE-JSON-2 an error answer is JSON {error: string} also for a client that sends Accept: */* (as curl does) or no Accept header', async () => {
    for (const accept of ['*/*', null]) {
      const exchange = await a.get(`/api/v1/statuses/${MISSING_ID}`, { accept });
      expectRefusal(exchange);
      expectErrorBody(exchange, 'WIRE-JSON-2');
    }
  });

  it('STATUS-WHITELIST-1 in whitelist mode a tokenless read answers 401 "This API requires an authenticated user"', async (context) => {
    needs(context, config.whitelistMode, 'needs CONFORMANCE_WHITELIST_MODE (an instance in whitelist mode)');
    expectError(await readOf(anon, top), 401, 'This API requires an authenticated user');
  });

  it('ERRORS-TOKEN-1 creating a status without an Authorization header answers 401 "The access token is invalid"', async () => {
    expectError(await anon.post('/api/v1/statuses', { status: 'conformance probe: must be refused' }), 401, 'The access token is invalid');
  });

  it('ERRORS-TOKEN-2 creating a status with an invalid token answers 401 "The access token is invalid"', async () => {
    const exchange = await anon.post('/api/v1/statuses', { status: 'conformance probe: must be refused' }, { token: 'conformance-invalid-token' });
    expectError(exchange, 401, 'The access token is invalid');
  });

  it('STATUS-CONTEXT-1 context lists the thread above the status in ancestors', async () => {
    const exchange = await contextOf(a, reply);
    const context = expectOk<{ ancestors: Status[] }>(exchange, 'Context');
    check(context.ancestors.some((s) => s.id === top.id), `ancestors include ${top.id}`, `ancestors ${JSON.stringify(context.ancestors.map((s) => s.id))}`, exchange);
  });

  it('STATUS-CONTEXT-2 context lists the thread below the status in descendants', async () => {
    const exchange = await contextOf(a, top);
    const context = expectOk<{ descendants: Status[] }>(exchange, 'Context');
    const ids = context.descendants.map((s) => s.id);
    check(ids.includes(reply.id) && ids.includes(hidden.id), `descendants include ${reply.id} and ${hidden.id}`, `descendants ${JSON.stringify(ids)}`, exchange);
  });

  it('RESOURCE-CONTEXT-1 a Context has ancestors and descendants, arrays of Status', async () => {
    expectOk(await contextOf(a, reply), 'Context');
  });

  it('STATUS-REBLOGGEDBY-1 reblogged_by answers an array of Account', async () => {
    expectList(await publicReader.get(`/api/v1/statuses/${top.id}/reblogged_by`), 'Account');
  });

  it('STATUS-FAVOURITEDBY-1 favourited_by answers an array of Account', async () => {
    expectList(await publicReader.get(`/api/v1/statuses/${top.id}/favourited_by`), 'Account');
  });

  // The Errors table hides a status that "is private, or is not visible to the caller" (direct statuses reach only
  // their author and the accounts they mention); an unlisted status is neither, so it is read like a public one.
  describe('visibility', () => {
    it('STATUS-VIS-1 public and unlisted statuses are visible to another user: read and context answer them', async (context) => {
      needs(context, b, 'needs CONFORMANCE_TOKEN_B');
      for (const status of [top, reply]) {
        expectStatus(await readOf(b as Actor, status), status);
        expectContext(await contextOf(b as Actor, status));
      }
    });

    it('STATUS-VIS-2 context of public and unlisted statuses answers without a token', async (context) => {
      needs(context, !config.whitelistMode, WHITELIST);
      for (const status of [top, reply]) expectContext(await contextOf(anon, status));
    });

    it('STATUS-VIS-3 an unlisted status is readable without a token', async (context) => {
      since(context, config, TOKENLESS_READS);
      needs(context, !config.whitelistMode, WHITELIST);
      expectStatus(await readOf(anon, reply), reply);
    });

    it('STATUS-VIS-4 the owner gets the context of their private status', async () => {
      expectContext(await contextOf(a, hidden));
    });

    it('STATUS-VIS-5 the context of a private status answers 404 "Record not found" to another user and without a token', async (context) => {
      const viewers = [b, config.whitelistMode ? undefined : anon].filter((v): v is Actor => v !== undefined);
      needs(context, viewers.length, 'needs CONFORMANCE_TOKEN_B, or an instance not in whitelist mode');
      for (const viewer of viewers) expectError(await contextOf(viewer, hidden), 404, 'Record not found');
    });

    it('STATUS-VIS-6 a direct status is visible to its owner: read and context answer it', async () => {
      expectStatus(await readOf(a, direct), direct);
      expectContext(await contextOf(a, direct));
    });

    it('STATUS-VIS-7 a direct status read by another user or without a token: read and context answer 404 "Record not found"', async (context) => {
      const viewers = [b, config.whitelistMode ? undefined : anon].filter((v): v is Actor => v !== undefined);
      needs(context, viewers.length, 'needs CONFORMANCE_TOKEN_B, or an instance not in whitelist mode');
      for (const viewer of viewers) {
        if (viewer !== anon || releaseAtLeast(config.serverVersion, TOKENLESS_READS)) expectError(await readOf(viewer, direct), 404, 'Record not found');
        expectError(await contextOf(viewer, direct), 404, 'Record not found');
      }
    });
  });

  describe('card', () => {
    // A token is optional on this public operation; A sends one so that whitelist mode does not matter here.
    const card = () => getOnce(a, `/api/v1/statuses/${top.id}/card`);

    it('STATUS-CARD-1 GET .../card answers a Card (before its removal in 3.0.0)', async (context) => {
      before(context, config, '3.0.0');
      const exchange = await card();
      const body = expectJson(exchange);
      check(typeof body === 'object' && body !== null && !Array.isArray(body), 'a Card object', exchange.text, exchange);
    });

    it('RESOURCE-CARD-1 a Card has the fields and types of the contract', async (context) => {
      before(context, config, '3.0.0');
      const exchange = await card();
      expectResource('Card', expectJson(exchange), exchange);
    });

    it('STATUS-CARD-2 GET .../card is removed from 3.0.0 on: it answers 404', async (context) => {
      since(context, config, '3.0.0');
      const exchange = await card();
      // The contract gives no body for a removed operation: only the status code is judged.
      check(exchange.status === 404, 'HTTP 404', `HTTP ${exchange.status ?? `none (${exchange.error})`}`, exchange);
    });
  });

  // Vitest runs a file's checks in order: this group comes last, when nothing else needs the direct status.
  describe('delete', () => {
    let deletion: Exchange;

    beforeAll(async () => {
      deletion = await a.delete(`/api/v1/statuses/${direct.id}`);
      if (deletion.status === 200) settleDirect();
    });

    it('STATUS-DELETE-1 delete answers the Status with its source text and its media or poll', (context) => {
      since(context, config, '2.9.0');
      const body = expectOk<Status & { poll: { options: { title: string }[] } | null }>(deletion, 'Status');
      expectEqual(body.text, DIRECT_TEXT, 'text', deletion);
      check(Array.isArray(body.media_attachments), 'media_attachments: an array', `media_attachments: ${JSON.stringify(body.media_attachments)}`, deletion);
      if (direct.poll) expectEqual(body.poll?.options.map((o) => o.title), DIRECT_POLL.options, 'poll options', deletion);
    });

    it('STATUS-DELETE-2 a deleted status reads as 404 "Record not found"', async () => {
      expectError(await a.get(`/api/v1/statuses/${direct.id}`), 404, 'Record not found');
    });

    it('STATUS-DELETE-4 deleting an already deleted status answers 404 "Record not found"', async () => {
      expectError(await a.delete(`/api/v1/statuses/${direct.id}`), 404, 'Record not found');
    });

    it("STATUS-DELETE-3 deleting another user's status answers 404 \"Record not found\"", async (context) => {
      needs(context, b, 'needs CONFORMANCE_TOKEN_B');
      expectError(await (b as Actor).delete(`/api/v1/statuses/${top.id}`), 404, 'Record not found');
    });
  });
});

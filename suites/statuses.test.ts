// The contract's "Statuses" section: create, read, delete, context, the accounts that acted and the removed
// card operation, with the Errors rows these operations answer. One thread of A's serves every check here, and
// its statuses are one per visibility, so every visibility check judges the same four:
// top (public; spoiler, sensitive, language) <- reply (unlisted; sensitive without a spoiler) <- hidden (private),
// and a plain direct status,
// which the delete checks delete last, once every other check has judged it. Each carries only the parameters its
// checks need, so that a server that misreads one parameter blocks nothing else; a direct status with a poll, the
// unusual form, is STATUS-CREATE-4's alone.
// The preparation never judges: a status that could not be made blocks the checks that need it, with its cause. A
// status made without the visibility or reply it asked for still serves every check that does not need that one:
// the refusal and owner checks need the visibility, the context checks the reply. The delete checks need only the
// direct status made: its visibility keeps a probe from followers on a live instance, and it is deleted anyway.
// A refusal (404) counts only where A's own read, context or delete of a status answered 2xx (`controlled`); the
// accounts lists of the hidden statuses (STATUS-VIS-8's two cells) where the same caller's list of the public one did.
// It also sends every read the checks judge, all at once, so that the group waits for few answers in a row.
import { beforeAll, describe, it } from 'vitest';
import { actors, formNotUnderstood, type Actor } from './support/act/actors.ts';
import { createdObject, type Exchange } from './support/talk/http.ts';
import { madeStep, type PreparedStatus, type Status } from './support/act/created.ts';
import { releaseAtLeast } from './support/talk/config.ts';
import type { FormParams } from './support/talk/form.ts';
import { before, block, controlled, countJudged, madeWith, need, needs, since } from './support/judge/preconditions.ts';
import { answerOf, causeOf, failed, succeeded, type Step } from './support/act/steps.ts';
import { expectNoMismatch, hasMismatch } from './support/judge/run-wide.ts';
import { noteLate, now, observeLate, settle } from './support/act/settle.ts';
import { check, expectEqual, expectError, expectJson, expectList, expectOk, fail, observeErrorBody, statusLine as statusLineOf } from './support/judge/verify.ts';
import { expectEveryCell } from './support/judge/access-cells.ts';

const { config, a, b, anon } = actors();
const DIRECT_TEXT = 'conformance probe: a direct status that mentions nobody #conformance';
// An id no server has given out: far above any snowflake of this century.
const MISSING_ID = '999999999999999999';
const TOKEN_INVALID = 'The access token is invalid';
const REFUSED = { status: 'conformance probe: must be refused' };
const DIRECT_POLL = { status: 'conformance probe: a direct status with a poll', visibility: 'direct', poll: { options: ['yes', 'no'], expires_in: 3600 } };
const POLLS = '2.8.0';
const WHITELIST = 'the instance runs in whitelist mode: tokenless reads answer 401 there (CONFORMANCE_WHITELIST_MODE)';
// Before 2.7.0 every read of a status needed a token: what a tokenless read answered then is not shown.
const TOKENLESS_READS = '2.7.0';
// The public operations are read without a token, except where whitelist mode refuses tokenless reads.
const publicReader = config.whitelistMode ? a : anon;
// Who reads the statuses without a token: everyone since 2.7.0, except in whitelist mode, where only its own check reads the public one.
const tokenlessReads = !config.whitelistMode && releaseAtLeast(config.serverVersion, TOKENLESS_READS);

/** Each GET is made once, by the first check that needs it, and judged by every check that needs it. */
const gets = new Map<string, Promise<Exchange>>();
function getOnce(actor: Actor, path: string): Promise<Exchange> {
  const key = `${actor.name} ${path}`;
  let exchange = gets.get(key);
  if (!exchange) gets.set(key, (exchange = actor.get(path)));
  return exchange;
}
type AccountsList = 'reblogged_by' | 'favourited_by';
const readOf = (actor: Actor, status: Status) => getOnce(actor, `/api/v1/statuses/${status.id}`);
const contextOf = (actor: Actor, status: Status) => getOnce(actor, `/api/v1/statuses/${status.id}/context`);
const listOf = (actor: Actor, status: Status, acted: AccountsList) => getOnce(actor, `/api/v1/statuses/${status.id}/${acted}`);
const accountsOf = (status: Status, acted: AccountsList) => listOf(publicReader, status, acted);
// A token is optional on this public operation; A sends one so that whitelist mode does not matter here.
const cardOf = (status: Status) => getOnce(a, `/api/v1/statuses/${status.id}/card`);

/** A cell of STATUS-VIS-8: an accounts list of a status that hides it from the caller who asks. */
interface HiddenList {
  caller: Actor;
  hidden: 'private' | 'direct';
  list: AccountsList;
}

/**
 * The cells of STATUS-VIS-8, each a request of the run's budget and its control another: each list once, asked once
 * by another user and once without a token, about the private status once and the direct one once (B reads who
 * boosted the private status, no token who favourited the direct one). A list that keeps no visibility guard, for any
 * caller or visibility, shows it in its cell. In whitelist mode, where a tokenless read is refused whatever it reads,
 * B asks both.
 */
function hiddenLists(): HiddenList[] {
  const tokenless = config.whitelistMode ? b : anon;
  const cells: (HiddenList | undefined)[] = [
    b && { caller: b, hidden: 'private', list: 'reblogged_by' },
    tokenless && { caller: tokenless, hidden: 'direct', list: 'favourited_by' },
  ];
  return cells.filter((cell): cell is HiddenList => cell !== undefined);
}

/**
 * Every GET the checks below judge, sent at once: the context of each status to each viewer; the reads of each
 * status to B and without a token, and to its owner where a check judges that (the private and the direct one);
 * the accounts that acted on the public status and its card; STATUS-VIS-8's cells (of the hidden statuses made with
 * the visibility asked for), and each cell's list of the public status to the same caller, its control. Which check judges what stays with the check: a read left out here
 * is only sent later, by the check, one after another.
 */
function readsJudged(statuses: { top?: Status; reply?: Status; hidden?: Status; direct?: Status }, hiddenAsAsked: { private?: Status; direct?: Status }): Promise<Exchange>[] {
  const all = Object.values(statuses).filter((s): s is Status => s !== undefined);
  const viewers = [a, b, config.whitelistMode ? undefined : anon].filter((v): v is Actor => v !== undefined);
  const readers = [b, tokenlessReads ? anon : undefined].filter((v): v is Actor => v !== undefined);
  const { top, hidden, direct } = statuses;
  return [
    ...viewers.flatMap((viewer) => all.map((status) => contextOf(viewer, status))),
    ...readers.flatMap((reader) => all.map((status) => readOf(reader, status))),
    ...[hidden, direct].flatMap((status) => (status ? [readOf(a, status)] : [])),
    ...(top ? [accountsOf(top, 'reblogged_by'), accountsOf(top, 'favourited_by'), cardOf(top)] : []),
    ...hiddenLists().flatMap((cell) => {
      const status = hiddenAsAsked[cell.hidden];
      return status && top ? [listOf(cell.caller, status, cell.list), listOf(cell.caller, top, cell.list)] : [];
    }),
    ...(top && config.whitelistMode ? [readOf(anon, top)] : []),
  ];
}

/** The answer is the status itself. */
function expectStatus(exchange: Exchange, status: Status): void {
  expectEqual(expectOk<Status>(exchange, 'Status').id, status.id, 'id', exchange);
}

/**
 * The Errors row's status code, for a probe sent as a client that does not ask for JSON: whether its body is JSON
 * is WIRE-JSON-2's to judge first, which then observes it for ERRORS-BODY-1 and ERRORS-TEXT-1.
 */
function expectErrorStatus(exchange: Exchange, status: number, text: string): void {
  check(exchange.status === status, `HTTP ${status} {"error": "${text}"}`, statusLineOf(exchange), exchange);
}

/** The answer is a Context: the caller may see the status. */
function expectContext(exchange: Exchange): void {
  expectOk(exchange, 'Context');
}

/**
 * The status a creation answered, also when it is not what was asked (the checks of the create parameters judge
 * exactly that); a creation that answered none blocks the check.
 */
function answered(created: Step<Status>): Status {
  const body = created.exchange ? createdObject(created.exchange) : undefined;
  if (!body && !created.ok) return block(created.cause);
  return body as Status;
}

/**
 * Whether anyone may read a public status without a token here: that an unlisted status reads without one means
 * something only where a public one does (STATUS-READ-1). A refusal (404 for a hidden status) needs only its request.
 */
async function expectTokenlessReads(top: Status): Promise<void> {
  const exchange = await readOf(anon, top);
  if (exchange.status !== 200) block(causeOf('STATUS-READ-1', `a tokenless read of a public status answered ${answerOf(exchange)}`, exchange));
}

/**
 * Whether A's token is taken on the public-capable reads at all (AUTH-BEARER-1), the precondition of every check of
 * what the owner sees: where neither the read nor the context of A's private status answers A, the token was not
 * taken (as the Authentication group reads it); where only one fails, that one's own clause is broken.
 */
async function expectOwnerTokenTaken(hidden: PreparedStatus): Promise<void> {
  const made = madeStep(hidden);
  if (!made.ok) return;
  const [read, thread] = await Promise.all([readOf(a, made.value), contextOf(a, made.value)]);
  if (read.status === 200 || thread.status === 200) return;
  block(causeOf('AUTH-BEARER-1', `neither the read nor the context of A's private status answered A (${answerOf(read)}, ${answerOf(thread)}): A's token is not taken on reads`, read));
}

/**
 * The status is hidden from the caller, as its visibility says: where the caller's read and context both answered it
 * (the context alone where a tokenless read is not asked), what shows it is the visibility of the status itself, the
 * clause of that read's check, not a list's own guard.
 */
async function expectHiddenFrom(caller: Actor, status: Status, visibility: 'private' | 'direct'): Promise<void> {
  const readAsked = caller !== anon || tokenlessReads;
  const shown = await Promise.all([contextOf(caller, status), ...(readAsked ? [readOf(caller, status)] : [])]);
  if (!shown.every((exchange) => exchange.status === 200)) return;
  const clause = visibility === 'direct' ? 'STATUS-VIS-7' : !readAsked ? 'STATUS-VIS-5' : caller === anon ? 'STATUS-READ-4' : 'STATUS-READ-3';
  const exchange = shown.at(-1) as Exchange;
  block(causeOf(clause, `the ${visibility} status answered ${caller === anon ? 'a caller without a token' : caller.name} its ${readAsked ? 'read and context' : 'context'}`, exchange));
}

/** A reply made when what it replies to was made, however it came back; otherwise it fails with the same cause. */
async function replyTo(parent: PreparedStatus, params: FormParams): Promise<PreparedStatus> {
  const made = madeStep(parent);
  if (!made.ok) return { ...failed<Status>(made.cause), settle: () => undefined, unkept: [] };
  return a.createStatus({ ...params, in_reply_to_id: made.value.id });
}

/**
 * The positive control of a 404 for what the caller may not see: A's own `what` answered 2xx. A's token not taken
 * on reads is AUTH-BEARER-1's; otherwise `clause`, whose check judges that answer, blocks.
 */
async function ownAnswered(hidden: PreparedStatus, exchange: Exchange, clause: string, what: string): Promise<void> {
  await expectOwnerTokenTaken(hidden);
  controlled(succeeded(exchange, exchange), clause, what);
}

describe('Statuses', () => {
  let top: PreparedStatus;
  let reply: PreparedStatus;
  let hidden: PreparedStatus;
  let direct: PreparedStatus;
  let directPoll: PreparedStatus | undefined;
  // Two probes are sent as clients that do not ask for JSON, so that WIRE-JSON-2 judges their answers too:
  // the read of a missing status as curl sends it (Accept: */*), the creation without a token with no Accept header.
  let missingRead: Exchange;
  let withoutToken: Exchange;
  let invalidToken: Exchange;

  beforeAll(async () => {
    // A reply needs its parent's id: the thread is made one status after another, the rest alongside it.
    async function thread(): Promise<void> {
      top = await a.createStatus({
        status: 'conformance probe: a public status #conformance',
        spoiler_text: 'conformance spoiler',
        sensitive: true,
        language: 'en',
        visibility: 'public',
      });
      // Sensitive without a spoiler_text, which some servers drop (STATUS-CREATE-7): no check of the reply needs it kept.
      reply = await replyTo(top, { status: 'conformance probe: an unlisted reply', visibility: 'unlisted', sensitive: true });
      hidden = await replyTo(reply, { status: 'conformance probe: a private reply to the reply', visibility: 'private' });
    }
    [, direct, directPoll, missingRead, withoutToken, invalidToken] = await Promise.all([
      thread(),
      a.createStatus({ status: DIRECT_TEXT, visibility: 'direct' }),
      releaseAtLeast(config.serverVersion, POLLS) ? a.createStatus(DIRECT_POLL) : undefined,
      a.get(`/api/v1/statuses/${MISSING_ID}`, { accept: '*/*' }),
      anon.post('/api/v1/statuses', REFUSED, { accept: null }),
      anon.post('/api/v1/statuses', REFUSED, { token: 'conformance-invalid-token' }),
    ]);
    const made = (step: PreparedStatus) => {
      const status = madeStep(step);
      return status.ok ? status.value : undefined;
    };
    // STATUS-VIS-8's cells need the visibility asked for: a status that came back with another one blocks the check unasked.
    const asAsked = (step: PreparedStatus) => (step.unkept.some((u) => u.param === 'visibility') ? undefined : made(step));
    await Promise.all(readsJudged({ top: made(top), reply: made(reply), hidden: made(hidden), direct: made(direct) }, { private: asAsked(hidden), direct: asAsked(direct) }));
  });

  it('STATUS-CREATE-1 creating a status answers 200 and a Status', () => {
    // A's token holds the broad write scope: a refusal for its scope is ACCESS-BROAD-1's, not the creation's.
    if (!top.ok && top.cause.clause === 'ACCESS-BROAD-1') block(top.cause);
    expectOk(top.exchange as Exchange, 'Status', 200);
  });

  it('STATUS-CREATE-2 spoiler_text is reflected in the created status', () => {
    expectEqual(answered(top).spoiler_text, 'conformance spoiler', 'spoiler_text', top.exchange);
  });

  it('STATUS-CREATE-3 sensitive is reflected in the created status', () => {
    expectEqual(answered(top).sensitive, true, 'sensitive', top.exchange);
  });

  it('STATUS-CREATE-7 sensitive without spoiler_text is reflected in the created status', () => {
    const { sensitive } = answered(reply);
    // Where sensitive is kept on no status, beside a spoiler_text either, that is STATUS-CREATE-3's deviation.
    if (sensitive !== true && answered(top).sensitive !== true) block(causeOf('STATUS-CREATE-3', `a status created with sensitive and spoiler_text answered sensitive = ${JSON.stringify(answered(top).sensitive)}`, top.exchange));
    expectEqual(sensitive, true, 'sensitive of a status created without spoiler_text', reply.exchange);
  });

  it('STATUS-CREATE-4 visibility (public, unlisted, private, direct) is reflected in the created status', () => {
    const withPoll = directPoll ? [[directPoll, 'direct', 'direct status with a poll']] as const : [];
    for (const [created, visibility, what] of [[top, 'public', 'public status'], [reply, 'unlisted', 'unlisted status'], [hidden, 'private', 'private status'], [direct, 'direct', 'direct status'], ...withPoll] as const) {
      expectEqual(answered(created).visibility, visibility, `visibility of the ${what}`, created.exchange);
    }
  });

  it('STATUS-CREATE-5 language is reflected in the created status', () => {
    expectEqual(answered(top).language, 'en', 'language', top.exchange);
  });

  it('STATUS-CREATE-6 a reply carries in_reply_to_id and in_reply_to_account_id', () => {
    const parent = madeWith(top, []);
    const status = answered(reply);
    expectEqual(status.in_reply_to_id, parent.id, 'in_reply_to_id', reply.exchange);
    expectEqual(status.in_reply_to_account_id, parent.account.id, 'in_reply_to_account_id', reply.exchange);
  });

  it('STATUS-READ-1 a public status is readable without a token', async (context) => {
    since(context, config, TOKENLESS_READS);
    needs(context, !config.whitelistMode, WHITELIST);
    const status = need(top);
    expectStatus(await readOf(anon, status), status);
  });

  it('STATUS-READ-2 the owner reads their private status', async () => {
    const status = madeWith(hidden, ['visibility']);
    await expectOwnerTokenTaken(hidden);
    expectStatus(await readOf(a, status), status);
  });

  it('STATUS-READ-3 another user reading a private status gets 404 "Record not found"', async (context) => {
    needs(context, b, 'needs CONFORMANCE_TOKEN_B');
    const status = madeWith(hidden, ['visibility']);
    await ownAnswered(hidden, await readOf(a, status), 'STATUS-READ-2', "A's read of its own private status");
    expectError(await readOf(b as Actor, status), 404, 'Record not found');
  });

  it('STATUS-READ-4 reading a private status without a token gets 404 "Record not found"', async (context) => {
    since(context, config, TOKENLESS_READS);
    needs(context, !config.whitelistMode, WHITELIST);
    const status = madeWith(hidden, ['visibility']);
    await ownAnswered(hidden, await readOf(a, status), 'STATUS-READ-2', "A's read of its own private status");
    expectError(await readOf(anon, status), 404, 'Record not found');
  });

  it('STATUS-READ-5 reading a status that does not exist gets 404 "Record not found"', async () => {
    // The positive control: A's read of a status of its own answered it (a server without the read answers 404 to all).
    const own = [hidden, direct].map(madeStep).filter((made) => made.ok).map((made) => readOf(a, need(made)));
    const reads = await Promise.all(own);
    const answeredOne = reads.find((read) => read.status === 200);
    if (!answeredOne) await ownAnswered(hidden, await readOf(a, need(madeStep(hidden))), 'STATUS-READ-2', "A's read of its own private status");
    expectErrorStatus(missingRead, 404, 'Record not found');
  });

  it('RESOURCE-STATUS-2 spoiler_text is the empty string when a status has none', () => {
    expectEqual(madeWith(reply, []).spoiler_text, '', 'spoiler_text of a status without one', reply.exchange);
  });

  it('WIRE-FORM-2 request parameters are sent as form data: a form-encoded creation is understood', () => {
    const notUnderstood = formNotUnderstood();
    if (notUnderstood?.clause === 'WIRE-FORM-2') {
      fail('the form-encoded creation understood as its JSON equivalent was', statusLineOf(notUnderstood.exchange), notUnderstood.exchange);
    }
    need(top);
    // The form-encoded creation of `top`, understood.
    countJudged();
  });

  it('WIRE-JSON-1 every /api/* answer of this group is JSON', () => {
    expectNoMismatch('WIRE-JSON-1');
  });

  it('WIRE-JSON-2 an error answer is JSON {error: string} also for a client that sends Accept: */* (as curl does) or no Accept header', () => {
    const probes = [
      { exchange: missingRead, status: 404, text: 'Record not found', owner: 'STATUS-READ-5' },
      { exchange: withoutToken, status: 401, text: TOKEN_INVALID, owner: 'ERRORS-TOKEN-1' },
    ];
    const refused = (exchange: Exchange) => exchange.status !== undefined && exchange.status >= 400;
    for (const { exchange, status, text } of probes.filter((p) => refused(p.exchange))) {
      // That the body is JSON is this clause; that it is {error: string}, ERRORS-BODY-1's; its text is its row's
      // only where the answer is that row's (another code is the probe's own check's failure).
      expectJson(exchange, exchange.status as number);
      observeErrorBody(exchange, exchange.status === status ? text : undefined);
    }
    const answered = probes.find((p) => !refused(p.exchange));
    if (answered) block(causeOf(answered.owner, `the probe answered ${answerOf(answered.exchange)}: no error answer to judge`, answered.exchange));
  });

  it('STATUS-WHITELIST-1 in whitelist mode a tokenless read answers 401 "This API requires an authenticated user"', async (context) => {
    needs(context, config.whitelistMode, 'needs CONFORMANCE_WHITELIST_MODE (an instance in whitelist mode)');
    expectError(await readOf(anon, need(top)), 401, 'This API requires an authenticated user');
  });

  it('ERRORS-TOKEN-1 creating a status without an Authorization header answers 401 "The access token is invalid"', () => {
    expectErrorStatus(withoutToken, 401, TOKEN_INVALID);
  });

  it('ERRORS-TOKEN-2 creating a status with an invalid token answers 401 "The access token is invalid"', () => {
    expectError(invalidToken, 401, TOKEN_INVALID);
  });

  it('STATUS-CONTEXT-1 context lists the thread above the status in ancestors', async () => {
    const [above, status] = [madeWith(top, []), madeWith(reply, ['in_reply_to_id'])];
    const exchange = await contextOf(a, status);
    const context = expectOk<{ ancestors?: Status[] }>(exchange, 'Context');
    const ids = Array.isArray(context.ancestors) ? context.ancestors.map((s) => s.id) : context.ancestors;
    check(Array.isArray(ids) && ids.includes(above.id), `ancestors include ${above.id}`, `ancestors ${JSON.stringify(ids)}`, exchange);
  });

  it('STATUS-CONTEXT-2 context lists the thread below the status in descendants', async () => {
    const [status, below, belowThat] = [madeWith(top, []), madeWith(reply, ['in_reply_to_id']), madeWith(hidden, ['in_reply_to_id'])];
    await expectOwnerTokenTaken(hidden);
    const exchange = await contextOf(a, status);
    const context = expectOk<{ descendants?: Status[] }>(exchange, 'Context');
    const ids = Array.isArray(context.descendants) ? context.descendants.map((s) => s.id) : context.descendants;
    check(Array.isArray(ids) && ids.includes(below.id) && ids.includes(belowThat.id), `descendants include ${below.id} and ${belowThat.id}`, `descendants ${JSON.stringify(ids)}`, exchange);
  });

  it('STATUS-REBLOGGEDBY-1 reblogged_by answers an array of Account', async () => {
    expectList(await accountsOf(need(top), 'reblogged_by'), 'Account');
  });

  it('STATUS-FAVOURITEDBY-1 favourited_by answers an array of Account', async () => {
    expectList(await accountsOf(need(top), 'favourited_by'), 'Account');
  });

  // The Errors table hides a status that "is private, or is not visible to the caller" (direct statuses reach only
  // their author and the accounts they mention); an unlisted status is neither, so it is read like a public one.
  describe('visibility', () => {
    it('STATUS-VIS-1 public and unlisted statuses are visible to another user: read and context answer them', async (context) => {
      needs(context, b, 'needs CONFORMANCE_TOKEN_B');
      for (const status of [need(top), madeWith(reply, ['visibility'])]) {
        expectStatus(await readOf(b as Actor, status), status);
        expectContext(await contextOf(b as Actor, status));
      }
    });

    it('STATUS-VIS-2 context of public and unlisted statuses answers without a token', async (context) => {
      needs(context, !config.whitelistMode, WHITELIST);
      for (const status of [need(top), madeWith(reply, ['visibility'])]) expectContext(await contextOf(anon, status));
    });

    it('STATUS-VIS-3 an unlisted status is readable without a token', async (context) => {
      since(context, config, TOKENLESS_READS);
      needs(context, !config.whitelistMode, WHITELIST);
      const status = madeWith(reply, ['visibility']);
      await expectTokenlessReads(need(top));
      expectStatus(await readOf(anon, status), status);
    });

    it('STATUS-VIS-4 the owner gets the context of their private status', async () => {
      const status = madeWith(hidden, ['visibility']);
      await expectOwnerTokenTaken(hidden);
      expectContext(await contextOf(a, status));
    });

    it('STATUS-VIS-5 the context of a private status answers 404 "Record not found" to another user and without a token', async (context) => {
      const viewers = [b, config.whitelistMode ? undefined : anon].filter((v): v is Actor => v !== undefined);
      needs(context, viewers.length, 'needs CONFORMANCE_TOKEN_B, or an instance not in whitelist mode');
      const status = madeWith(hidden, ['visibility']);
      await ownAnswered(hidden, await contextOf(a, status), 'STATUS-VIS-4', "A's context of its own private status");
      for (const viewer of viewers) expectError(await contextOf(viewer, status), 404, 'Record not found');
    });

    it('STATUS-VIS-6 a direct status is visible to its owner: read and context answer it', async () => {
      const status = madeWith(direct, ['visibility']);
      await expectOwnerTokenTaken(hidden);
      expectStatus(await readOf(a, status), status);
      expectContext(await contextOf(a, status));
    });

    it('STATUS-VIS-7 a direct status read by another user or without a token: read and context answer 404 "Record not found"', async (context) => {
      const viewers = [b, config.whitelistMode ? undefined : anon].filter((v): v is Actor => v !== undefined);
      needs(context, viewers.length, 'needs CONFORMANCE_TOKEN_B, or an instance not in whitelist mode');
      const status = madeWith(direct, ['visibility']);
      await ownAnswered(hidden, await readOf(a, status), 'STATUS-VIS-6', "A's read of its own direct status");
      await ownAnswered(hidden, await contextOf(a, status), 'STATUS-VIS-6', "A's context of its own direct status");
      for (const viewer of viewers) {
        if (viewer !== anon || releaseAtLeast(config.serverVersion, TOKENLESS_READS)) expectError(await readOf(viewer, status), 404, 'Record not found');
        expectError(await contextOf(viewer, status), 404, 'Record not found');
      }
    });

    it('STATUS-VIS-8 reblogged_by and favourited_by of a private or direct status answer 404 "Record not found" to another user and without a token', async (context) => {
      const cells = hiddenLists();
      needs(context, cells.length, 'needs CONFORMANCE_TOKEN_B, or an instance not in whitelist mode');
      const statuses = { private: madeWith(hidden, ['visibility']), direct: madeWith(direct, ['visibility']) };
      const open = need(top);
      const asked = await Promise.all(cells.map(async ({ caller, hidden: visibility, list }) => {
        const who = caller === anon ? 'no token' : caller.name;
        // The positive control, with the cell's own credentials: the same list of the public status answered 2xx.
        const control = await listOf(caller, open, list);
        controlled(succeeded(control, control), list === 'reblogged_by' ? 'STATUS-REBLOGGEDBY-1' : 'STATUS-FAVOURITEDBY-1', `${list} of the public status (${who})`);
        const status = statuses[visibility];
        await expectHiddenFrom(caller, status, visibility);
        return { caller: who, status: visibility, operation: list, exchange: await listOf(caller, status, list) };
      }));
      expectEveryCell(asked, 404, 'Record not found');
    });
  });

  describe('card', () => {
    const card = () => cardOf(need(top));

    it('STATUS-CARD-1 GET .../card answers a Card (before its removal in 3.0.0)', async (context) => {
      before(context, config, '3.0.0');
      const exchange = await card();
      const body = expectJson(exchange);
      check(typeof body === 'object' && body !== null && !Array.isArray(body), 'a Card object', exchange.text, exchange);
    });

    it('RESOURCE-CARD-1 a Card has the fields and types of the contract', async (context) => {
      before(context, config, '3.0.0');
      const exchange = await card();
      if (exchange.status !== 200) block(causeOf('STATUS-CARD-1', `GET .../card answered ${answerOf(exchange)}`, exchange));
      expectOk(exchange, 'Card');
      expectNoMismatch('RESOURCE-CARD-1');
    });

    it('STATUS-CARD-2 GET .../card is removed from 3.0.0 on: it answers 404', async (context) => {
      since(context, config, '3.0.0');
      const exchange = await card();
      // The contract gives no body for a removed operation: only the status code is judged.
      check(exchange.status === 404, 'HTTP 404', `HTTP ${exchange.status ?? `none (${exchange.error})`}`, exchange);
    });
  });

  // Vitest runs a file's checks in order: this group comes last, when no other check reads a status any more.
  describe('delete', () => {
    let deletion: Exchange | undefined;
    let foreignDeletion: Exchange | undefined;
    let deletedRead: Exchange | undefined;
    let secondDeletion: Exchange | undefined;
    /** The operations on the deleted status other than its read (STATUS-DELETE-6), each by its owner, who saw it. */
    let deletedOperations: Exchange[] = [];

    /** A's delete of its own status; one that answers 200 is off the ledger. */
    async function deleteOwn(created: PreparedStatus): Promise<Exchange | undefined> {
      const made = madeStep(created);
      if (!made.ok) return undefined;
      const exchange = await a.delete(`/api/v1/statuses/${made.value.id}`);
      if (exchange.status === 200) created.settle();
      return exchange;
    }

    beforeAll(async () => {
      // B tries A's public status while A deletes the direct one; then, alongside the reads and deletes of the
      // deleted status, A deletes the thread and the direct poll, which the ledger would otherwise delete one after
      // another.
      const foreign = b && top.ok ? b.delete(`/api/v1/statuses/${top.value.id}`) : undefined;
      [deletion, foreignDeletion] = await Promise.all([deleteOwn(direct), foreign]);
      const deletedAt = now();
      const directMade = madeStep(direct);
      const gone = directMade.ok && deletion?.status === 200 ? `/api/v1/statuses/${directMade.value.id}` : undefined;
      // A server may delete in the background: the read waits for the 404 within the settle window.
      const readGone = async (path: string) => {
        const settled = await settle(() => a.get(path), (read) => read.status === 404, deletedAt);
        noteLate('STATUS-DELETE-2', `HTTP 404 for the deleted status`, settled);
        return settled.exchange;
      };
      // The operations are read once the read shows the status gone: before, it may still exist (STATUS-DELETE-2's).
      const goneRead = gone ? readGone(gone) : undefined;
      const operations = goneRead ? goneRead.then(() => Promise.all(['context', 'reblogged_by', 'favourited_by'].map((operation) => a.get(`${gone}/${operation}`)))) : [];
      // The second DELETE once the read shows the status gone, as the operations: a server that deletes in the
      // background may still delete it again before.
      [deletedRead, secondDeletion] = await Promise.all([
        goneRead,
        goneRead ? goneRead.then(() => a.delete(gone as string)) : undefined,
        ...[top, reply, hidden, ...(directPoll ? [directPoll] : [])].map(deleteOwn),
      ]);
      deletedOperations = await operations;
    });

    /** The direct status, deleted: the checks after the delete need it gone. */
    function deleted(): Status {
      const status = madeWith(direct, []);
      const answer = deletion as Exchange;
      if (answer.status !== 200) block(causeOf('STATUS-DELETE-1', `DELETE of the caller's own status answered ${answerOf(answer)}`, answer));
      return status;
    }

    // A status with media and one with a poll are deleted by the redraft property (POST /api/v1/statuses parameters).
    it('STATUS-DELETE-1 delete answers the Status with its source text and its media or poll', (context) => {
      since(context, config, '2.9.0');
      madeWith(direct, []);
      const answer = deletion as Exchange;
      const body = expectOk<Status>(answer, 'Status');
      expectEqual(body.text, DIRECT_TEXT, 'text', answer);
      check(Array.isArray(body.media_attachments), 'media_attachments: an array', `media_attachments: ${JSON.stringify(body.media_attachments)}`, answer);
    });

    it('STATUS-DELETE-2 a deleted status reads as 404 "Record not found"', async (context) => {
      const status = deleted();
      await observeLate(context, 'STATUS-DELETE-2');
      // The positive control: the same read answered the status before its delete.
      await ownAnswered(hidden, await readOf(a, status), 'STATUS-VIS-6', "A's read of its direct status before the delete");
      expectError(deletedRead as Exchange, 404, 'Record not found');
    });

    it('STATUS-DELETE-4 deleting an already deleted status answers 404 "Record not found"', () => {
      deleted();
      expectError(secondDeletion as Exchange, 404, 'Record not found');
    });

    // The id of a status the run deleted is of the server's own shape: a server that refuses a malformed id before
    // any lookup still has to look this one up.
    it('STATUS-DELETE-6 a deleted status does not exist for any operation: its context, reblogged_by and favourited_by answer 404 "Record not found"', async () => {
      const status = deleted();
      const read = deletedRead as Exchange;
      // A status that still reads after its delete exists: what its operations answer then is STATUS-DELETE-2's failure.
      if (read.status !== 404) block(causeOf('STATUS-DELETE-2', `after DELETE answered 200 the status read as ${answerOf(read)}`, read));
      // The positive controls: each operation answered 2xx for a status that exists.
      await ownAnswered(hidden, await contextOf(a, status), 'STATUS-VIS-6', "A's context of its direct status before the delete");
      for (const [operation, clause] of [['reblogged_by', 'STATUS-REBLOGGEDBY-1'], ['favourited_by', 'STATUS-FAVOURITEDBY-1']] as const) {
        const control = await accountsOf(need(top), operation);
        controlled(succeeded(control, control), clause, `${operation} of the public status`);
      }
      for (const exchange of deletedOperations) expectError(exchange, 404, 'Record not found');
    });

    it("STATUS-DELETE-3 deleting another user's status answers 404 \"Record not found\"", (context) => {
      needs(context, b, 'needs CONFORMANCE_TOKEN_B');
      need(top);
      madeWith(direct, []);
      controlled(succeeded(deletion as Exchange, deletion as Exchange), 'STATUS-DELETE-1', "A's delete of its own status");
      expectError(foreignDeletion as Exchange, 404, 'Record not found');
    });
  });

  // The run-wide clauses this group owns judge everything it met, so they come last.
  describe('every answer of the group', () => {
    it('RESOURCE-STATUS-1 a Status has the fields and types of the contract', () => {
      expectNoMismatch('RESOURCE-STATUS-1', top.ok ? undefined : top.cause);
    });

    it('RESOURCE-ACCOUNT-1 the author of a Status is an Account with the fields and types of the contract', () => {
      expectNoMismatch('RESOURCE-ACCOUNT-1', top.ok ? undefined : top.cause);
    });

    it('RESOURCE-CONTEXT-1 a Context has ancestors and descendants, arrays of Status', async () => {
      const exchange = await contextOf(a, madeWith(reply, []));
      if (exchange.status !== 200) block(causeOf('STATUS-CONTEXT-1', `the context of the caller's own status answered ${answerOf(exchange)}`, exchange));
      expectOk(exchange, 'Context');
      expectNoMismatch('RESOURCE-CONTEXT-1');
    });

    it('ERRORS-BODY-1 an error answer carries a JSON body {error: string}', () => {
      expectNoMismatch('ERRORS-BODY-1');
    });

    it('ERRORS-TEXT-1 an error answer carries the text of its row of the Errors table', () => {
      // A text is read from {error: string}: where no error answer had that shape, ERRORS-BODY-1 left nothing to read.
      const noBody = hasMismatch('ERRORS-BODY-1') ? { clause: 'ERRORS-BODY-1', summary: 'no error answer carried {"error": string} to read a text from' } : undefined;
      expectNoMismatch('ERRORS-TEXT-1', noBody);
    });
  });
});

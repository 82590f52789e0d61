// The contract's "Statuses" section: create, read, delete, context, the accounts that acted and the removed
// card operation, with the Errors rows these operations answer. One thread of A's serves every check here, and
// its statuses are one per visibility, so every visibility check judges the same four:
// top (public; spoiler, sensitive, language) <- reply (unlisted; sensitive without a spoiler) <- hidden (private),
// and a plain direct status,
// which the delete step deletes once every read the checks judge has been answered. Each carries only the parameters
// its checks need, so that a server that misreads one parameter blocks nothing else. A status with a poll, the unusual
// form, is judged by STATUS-CREATE-4's check of POST /api/v1/statuses parameters, on the poll that group makes anyway.
// The steps never judge. A creation step comes to the creation as it went, and each check takes from it what it
// needs: a status that could not be made blocks the checks that need it, with its cause; a status made without the
// visibility or reply it asked for still serves every check that does not need that one (madeWith): the refusal and
// owner checks need the visibility, the context checks the reply. The delete checks need only the direct status
// made: its visibility keeps a probe from followers on a live instance, and it is deleted anyway.
// A refusal (404) counts only where A's own read, context or delete of a status answered 2xx (`controlled`).
// Every read the checks judge is a step of its reader (A, B, no token), which sends its reads all at once once the
// thread is made, so that the group waits for few answers in a row; the checks only judge the answers.
import { actors, formNotUnderstood, type Actor } from './support/act/actors.ts';
import { inLedgersPlace } from './support/act/ledger.ts';
import { createdObject, type Exchange } from './support/talk/http.ts';
import { madeStep, type PreparedStatus, type Status } from './support/act/created.ts';
import type { FormParams } from './support/talk/form.ts';
import { block, controlled, countJudged, madeWith, need } from './support/judge/preconditions.ts';
import { answerOf, causeOf, failed, succeeded, type Step, type StepOutcome } from './support/act/steps.ts';
import { hasMismatch } from './support/judge/run-wide.ts';
import { expectNoMismatch } from './support/judge/run-wide-owner.ts';
import { noteLate, now, observeLate, settle, SETTLE_REREADS } from './support/act/settle.ts';
import { check, expectEqual, expectError, expectJson, expectList, expectOk, fail, observeErrorBody, statusLine as statusLineOf } from './support/judge/verify.ts';
import { absent, it, made, notMade, requirement, section, step, type Account } from './support/run/checks.ts';
import { expectEveryCell } from './support/judge/access-cells.ts';
import { releaseHas } from './support/judge/clauses.ts';

const { config, b } = actors();
const DIRECT_TEXT = 'conformance probe: a direct status that mentions nobody #conformance';
// An id no server has given out: far above any snowflake of this century.
const MISSING_ID = '999999999999999999';
const TOKEN_INVALID = 'The access token is invalid';
const REFUSED = { status: 'conformance probe: must be refused' };
const WHITELIST = 'the instance runs in whitelist mode: tokenless reads answer 401 there (CONFORMANCE_WHITELIST_MODE)';
// Before tokenless reads came (STATUS-READ-1's release) every read of a status needed a token: what a tokenless read
// answered then is not shown.
const tokenlessReadsExist = releaseHas(config.serverVersion, 'STATUS-READ-1');
// The public operations are read without a token, except where whitelist mode refuses tokenless reads.
const publicReader: Account = config.whitelistMode ? 'A' : 'anonymous';
// Who reads the statuses without a token: everyone since tokenless reads came, except in whitelist mode, where only its own check reads the public one.
const tokenlessReads = !config.whitelistMode && tokenlessReadsExist;

/** What one reader's GETs answered, by path. */
type Answers = ReadonlyMap<string, Exchange>;

const pathOf = (status: Status) => `/api/v1/statuses/${status.id}`;

/** The answer to a GET of a read step; one its step did not send is a mistake of this file, not the server's. */
function answerTo(answers: Answers, path: string): Exchange {
  const exchange = answers.get(path);
  if (!exchange) throw new Error(`GET ${path} was not sent: a check judges a read its step does not make`);
  return exchange;
}
const readOf = (answers: Answers, status: Status) => answerTo(answers, pathOf(status));
const contextOf = (answers: Answers, status: Status) => answerTo(answers, `${pathOf(status)}/context`);
const ACCOUNTS_LISTS = ['reblogged_by', 'favourited_by'] as const;
type AccountsList = (typeof ACCOUNTS_LISTS)[number];
const accountsOf = (answers: Answers, status: Status, acted: AccountsList) => answerTo(answers, `${pathOf(status)}/${acted}`);
const cardOf = (answers: Answers, status: Status) => answerTo(answers, `${pathOf(status)}/card`);

/** GETs of `paths` by `reader`, all at once: their answers by path. */
async function readAll(reader: Actor, paths: readonly string[]): Promise<StepOutcome<Answers>> {
  const answers = await Promise.all(paths.map((path) => reader.get(path)));
  return made(new Map(paths.map((path, i) => [path, answers[i] as Exchange])));
}

/** The statuses the creations made, also those made without something they asked for. */
const madeOf = (...created: PreparedStatus[]): Status[] => created.map((c) => madeStep(c)).flatMap((status) => (status.ok ? [status.value] : []));

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

/** A later read of the public status that showed it, with who read it. */
interface LaterRead {
  exchange: Exchange;
  shown: Status;
  who: string;
}

/**
 * The later reads of the public status that show it: its owner's is the thread above the reply (A reads no public
 * status of its own alone), the other's B's read, else the tokenless one. A read that does not show it is its own
 * clause's; where none does, the first one's clause blocks the check.
 */
function laterReads(top: PreparedStatus, reply: PreparedStatus, byOwner: Answers, byB: Answers, tokenless: Answers): LaterRead[] {
  const status = need(top);
  const ancestorIn = (exchange: Exchange) => {
    const ancestors = exchange.status === 200 ? (createdObject(exchange) as { ancestors?: unknown } | undefined)?.ancestors : undefined;
    return Array.isArray(ancestors) ? (ancestors as Status[]).find((s) => s?.id === status.id) : undefined;
  };
  const readBody = (exchange: Exchange) => (exchange.status === 200 ? (createdObject(exchange) as Status | undefined) : undefined);
  // Each read with the clause that judges whether it shows the status.
  const reads = [
    ...madeOf(reply).map((parent) => ({ exchange: contextOf(byOwner, parent), shown: ancestorIn(contextOf(byOwner, parent)), who: 'its owner (the context of the reply)', clause: 'STATUS-CONTEXT-1' })),
    ...(b ? [{ exchange: readOf(byB, status), who: 'another account', clause: 'STATUS-VIS-1' }] : tokenlessReads ? [{ exchange: readOf(tokenless, status), who: 'a caller without a token', clause: 'STATUS-READ-1' }] : []).map((read) => ({ ...read, shown: readBody(read.exchange) })),
  ];
  const judged = reads.flatMap(({ exchange, shown, who }) => (shown ? [{ exchange, shown, who }] : []));
  const [first] = reads;
  if (judged.length === 0 && first) block(causeOf(first.clause, `a later read of the public status did not show it: ${answerOf(first.exchange)}`, first.exchange));
  return judged;
}

/** The text of HTML content: its tags taken out, its character references decoded, its white space collapsed. */
function textOfHtml(html: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return html
    .replace(/<br\s*\/?>|<\/p>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) =>
      ref.startsWith('#x') || ref.startsWith('#X') ? String.fromCodePoint(parseInt(ref.slice(2), 16)) : ref.startsWith('#') ? String.fromCodePoint(Number(ref.slice(1))) : (named[ref.toLowerCase()] ?? whole),
    )
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Whether anyone may read a public status without a token here: that an unlisted status reads without one means
 * something only where a public one does (STATUS-READ-1). A refusal (404 for a hidden status) needs only its request.
 */
function expectTokenlessReads(tokenless: Answers, top: Status): void {
  const exchange = readOf(tokenless, top);
  if (exchange.status !== 200) block(causeOf('STATUS-READ-1', `a tokenless read of a public status answered ${answerOf(exchange)}`, exchange));
}

/**
 * Whether A's token is taken on the public-capable reads at all (AUTH-BEARER-1), the precondition of every check of
 * what the owner sees: where neither the read nor the context of A's private status answers A, the token was not
 * taken (as the Authentication group reads it); where only one fails, that one's own clause is broken.
 */
function expectOwnerTokenTaken(hidden: PreparedStatus, byOwner: Answers): void {
  const made = madeStep(hidden);
  if (!made.ok) return;
  const [read, thread] = [readOf(byOwner, made.value), contextOf(byOwner, made.value)];
  if (read.status === 200 || thread.status === 200) return;
  block(causeOf('AUTH-BEARER-1', `neither the read nor the context of A's private status answered A (${answerOf(read)}, ${answerOf(thread)}): A's token is not taken on reads`, read));
}

/** A reply made when what it replies to was made, however it came back; otherwise it fails with the same cause. */
async function replyTo(a: Actor, parent: PreparedStatus, params: FormParams): Promise<PreparedStatus> {
  const made = madeStep(parent);
  if (!made.ok) return { ...failed<Status>(made.cause), settle: () => undefined, unkept: [] };
  return a.createStatus({ ...params, in_reply_to_id: made.value.id });
}

/**
 * The positive control of a 404 for what the caller may not see: A's own `what` answered 2xx. A's token not taken
 * on reads is AUTH-BEARER-1's; otherwise `clause`, whose check judges that answer, blocks.
 */
function ownAnswered(hidden: PreparedStatus, byOwner: Answers, exchange: Exchange, clause: string, what: string): void {
  expectOwnerTokenTaken(hidden, byOwner);
  controlled(succeeded(exchange, exchange), clause, what);
}

/** The answers of the readers who may not see A's private and direct statuses: B's, and without a token's except in whitelist mode. */
const othersOf = (byB: Answers, tokenless: Answers): Answers[] => [...(b ? [byB] : []), ...(config.whitelistMode ? [] : [tokenless])];

/** A's delete of its own status; one that answers 200 is off the ledger. */
async function deleteOwn(a: Actor, created: PreparedStatus): Promise<Exchange | undefined> {
  const made = madeStep(created);
  if (!made.ok) return undefined;
  // The ledger's undo, made in its place.
  const exchange = await inLedgersPlace(created.exchange, () => a.delete(pathOf(made.value)));
  if (exchange.status === 200) created.settle();
  return exchange;
}

/** What became of the direct status: its DELETE and, once a read showed it gone, that read, a second DELETE and its other operations. */
interface Deleted {
  deletion: Exchange | undefined;
  deletedRead: Exchange | undefined;
  secondDeletion: Exchange | undefined;
  /** The operations on the deleted status other than its read (STATUS-DELETE-6), each by its owner, who saw it. */
  operations: Exchange[];
}

/** The direct status, deleted: the checks after the delete need it gone. */
function deleted(direct: PreparedStatus, { deletion }: Deleted): Status {
  const status = madeWith(direct, []);
  const answer = deletion as Exchange;
  if (answer.status !== 200) block(causeOf('STATUS-DELETE-1', `DELETE of the caller's own status answered ${answerOf(answer)}`, answer));
  return status;
}

// A status costs three requests: its creation, its DELETE and a read that shows it gone, sent by the deletion step
// below where it runs, else by the ledger at the end (which first reads it present where no read of the run has: a
// selection whose checks read none of these statuses costs one request more each).
const STATUS_COST = { api: 3 };

/** A creation as a step: it comes to the creation as it went, which the checks judge and take their status from. */
const creation = (created: PreparedStatus) => made(created, created.exchange);

// Its content is HTML: the hashtag a link, the text the same once tags are taken out (STATUS-EFFECT-5).
const TOP_TEXT = 'conformance probe: a public status #conformance';
const top = step("A's public status, with spoiler_text, sensitive and language", { as: 'A', cost: STATUS_COST }, async (_, { actor }) =>
  creation(
    await actor.createStatus({
      status: TOP_TEXT,
      spoiler_text: 'conformance spoiler',
      sensitive: true,
      language: 'en',
      visibility: 'public',
    }),
  ),
);

// A reply needs its parent's id: the thread is made one status after another, the other statuses alongside it.
// Sensitive without a spoiler_text, which some servers drop (STATUS-CREATE-7): no check of the reply needs it kept.
const reply = step("A's unlisted reply to it, sensitive without a spoiler_text", { as: 'A', needs: { top }, cost: STATUS_COST }, async ({ top }, { actor }) =>
  creation(await replyTo(actor, top, { status: 'conformance probe: an unlisted reply', visibility: 'unlisted', sensitive: true })),
);

const hidden = step("A's private reply to the reply", { as: 'A', needs: { reply }, cost: STATUS_COST }, async ({ reply }, { actor }) =>
  creation(await replyTo(actor, reply, { status: 'conformance probe: a private reply to the reply', visibility: 'private' })),
);

const direct = step("A's direct status, which mentions nobody", { as: 'A', cost: STATUS_COST }, async (_, { actor }) => creation(await actor.createStatus({ status: DIRECT_TEXT, visibility: 'direct' })));

// Two probes are sent as clients that do not ask for JSON, so that WIRE-JSON-2 judges their answers too:
// the read of a missing status as curl sends it (Accept: */*), the creation without a token with no Accept header.
const missingRead = step('a read of a status that does not exist, as curl sends it (Accept: */*)', { as: 'A', cost: { api: 1 } }, async (_, { actor }) =>
  made(await actor.get(`/api/v1/statuses/${MISSING_ID}`, { accept: '*/*' })),
);

const withoutToken = step('a creation without an Authorization header, with no Accept header', { as: 'anonymous', cost: { api: 1 } }, async (_, { actor }) =>
  made(await actor.post('/api/v1/statuses', REFUSED, { accept: null })),
);

const invalidToken = step('a creation with an invalid token', { as: 'anonymous', cost: { api: 1 } }, async (_, { actor }) =>
  made(await actor.post('/api/v1/statuses', REFUSED, { token: 'conformance-invalid-token' })),
);

/** The statuses each reader reads once they are all made: the context of one shows the others. */
const THREAD = { top, reply, hidden, direct };
const contextsOf = (statuses: readonly Status[]) => statuses.map((status) => `${pathOf(status)}/context`);

// The context of the reply, in the middle of the thread, shows the thread above it and below it: the public status
// in its ancestors (STATUS-CONTEXT-1), the private reply in its descendants (STATUS-CONTEXT-2). A's context of the
// public status would show nothing more.
const byOwner = step("A's reads: the context of each status but the public one, and its private and direct statuses", { as: 'A', needs: { reply, hidden, direct }, cost: { api: 5 } }, ({ reply, hidden, direct }, { actor }) =>
  readAll(actor, [...contextsOf(madeOf(reply, hidden, direct)), ...madeOf(hidden, direct).map(pathOf)]),
);

// The deletions wait for every read, so this step is planned without B too: then it reads nothing.
const byB = step(
  "B's reads: each status and its context",
  { as: 'B', needs: THREAD, cost: { api: b ? 8 : 0 } },
  async ({ top, reply, hidden, direct }, { actor }) => {
    const all = madeOf(top, reply, hidden, direct);
    return readAll(actor, [...contextsOf(all), ...all.map(pathOf)]);
  },
  (): StepOutcome<Answers> => made(new Map()),
);

// In whitelist mode only STATUS-WHITELIST-1's read of the public status is sent without a token; before 2.7.0 only the contexts.
const tokenless = step(
  'the reads without a token: the context of each status, and each status',
  { as: 'anonymous', needs: THREAD, cost: { api: config.whitelistMode ? 1 : tokenlessReads ? 8 : 4 } },
  ({ top, reply, hidden, direct }, { actor }) => {
    const all = madeOf(top, reply, hidden, direct);
    return readAll(actor, config.whitelistMode ? madeOf(top).map(pathOf) : [...contextsOf(all), ...(tokenlessReads ? all.map(pathOf) : [])]);
  },
);

const acted = step('the accounts that reblogged and favourited the public status', { as: publicReader, needs: { top }, cost: { api: 2 } }, ({ top }, { actor }) =>
  readAll(actor, madeOf(top).flatMap((status) => [`${pathOf(status)}/reblogged_by`, `${pathOf(status)}/favourited_by`])),
);

// A token is optional on this public operation; A sends one so that whitelist mode does not matter here.
const cardRead = step('the card of the public status', { as: 'A', needs: { top }, cost: { api: 1 } }, ({ top }, { actor }) => readAll(actor, madeOf(top).map((status) => `${pathOf(status)}/card`)));

/** A cell of STATUS-VIS-8: an accounts list of a status that hides it from the caller who asks. */
interface HiddenList {
  caller: 'B' | 'anonymous';
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
const tokenlessCaller = config.whitelistMode ? (b ? 'B' : undefined) : 'anonymous';
const HIDDEN_LISTS: HiddenList[] = [
  ...(b ? [{ caller: 'B', hidden: 'private', list: 'reblogged_by' } as const] : []),
  ...(tokenlessCaller ? [{ caller: tokenlessCaller, hidden: 'direct', list: 'favourited_by' } as const] : []),
];

/** A cell's answer, and its control: the same caller's same list of the public status. */
interface CellRead extends HiddenList {
  answer: Exchange;
  control: Exchange;
}

/** A hidden status made with the visibility asked for: a cell of one that came back with another is not asked. */
const asAsked = (created: PreparedStatus) => (created.unkept.some((u) => u.param === 'visibility') ? [] : madeOf(created));

// Each cell's list, and its control, but where the caller is the public reader: `acted` read that list already. B
// asks its cell, and no token the other.
const hiddenListReads = step(
  "the accounts lists of A's private and direct statuses to another user and without a token, and each caller's of the public status",
  // As no token, with B's cell where B is configured: without B the tokenless cell is still asked.
  { as: 'anonymous', alsoAs: ['B'], needs: { top, hidden, direct, acted }, cost: { api: HIDDEN_LISTS.length + HIDDEN_LISTS.filter((cell) => cell.caller !== publicReader).length } },
  async ({ top, hidden, direct, acted }, { actor, also }) => {
    const callers = { B: also.B as Actor, anonymous: actor };
    const statuses = { private: asAsked(hidden), direct: asAsked(direct) };
    const cells = HIDDEN_LISTS.flatMap((cell) => madeOf(top).flatMap((open) => statuses[cell.hidden].map((status) => ({ cell, open, status }))));
    const reads = await Promise.all(
      cells.map(async ({ cell, open, status }): Promise<CellRead> => {
        const [answer, control] = await Promise.all([
          callers[cell.caller].get(`${pathOf(status)}/${cell.list}`),
          cell.caller === publicReader ? accountsOf(acted, open, cell.list) : callers[cell.caller].get(`${pathOf(open)}/${cell.list}`),
        ]);
        return { ...cell, answer, control };
      }),
    );
    return made(reads);
  },
);

/**
 * The status is hidden from the caller, as its visibility says: where the caller's read and context both answered it
 * (the context alone where a tokenless read is not asked), what shows it is the visibility of the status itself, the
 * clause of that read's check, not a list's own guard.
 */
function expectHiddenFrom(answers: Answers, tokenlessCaller: boolean, status: Status, visibility: 'private' | 'direct'): void {
  const readAsked = !tokenlessCaller || tokenlessReads;
  const shown = [contextOf(answers, status), ...(readAsked ? [readOf(answers, status)] : [])];
  if (!shown.every((exchange) => exchange.status === 200)) return;
  const clause = visibility === 'direct' ? 'STATUS-VIS-7' : !readAsked ? 'STATUS-VIS-5' : tokenlessCaller ? 'STATUS-READ-4' : 'STATUS-READ-3';
  const exchange = shown.at(-1) as Exchange;
  block(causeOf(clause, `the ${visibility} status answered ${tokenlessCaller ? 'a caller without a token' : 'B'} its ${readAsked ? 'read and context' : 'context'}`, exchange));
}

/**
 * The positive controls of the accounts lists that A reads of the deleted status (STATUS-DELETE-6), made as its own
 * requests go: the tokenless reads of the public status where they answered 2xx (the public operation exists for every
 * caller); where they were refused, A reads the list with its token, so that a server refusing tokenless reads does
 * not block a check that sends none. A conforming server costs no request more.
 */
const listControls = step("the public status's accounts lists as A's own requests go", { as: 'A', needs: { top, acted }, cost: {} }, async ({ top, acted }, { actor }) => {
  const controls = new Map<AccountsList, Exchange>();
  for (const status of madeOf(top)) {
    for (const list of ACCOUNTS_LISTS) {
      const tokenless = accountsOf(acted, status, list);
      const answered = tokenless.status !== undefined && tokenless.status >= 200 && tokenless.status < 300;
      controls.set(list, answered ? tokenless : await actor.get(`${pathOf(status)}/${list}`));
    }
  }
  return made(controls);
});

/** Every read the checks judge: the deletions wait for them all, so that no read meets a status deleted. */
const READS = { byOwner, byB, tokenless, acted, cardRead, listControls, hiddenListReads };

// Planned only for STATUS-DELETE-3, which requires B.
const foreignDeletion = step("B's DELETE of A's public status", { as: 'B', needs: { top }, uses: READS, changes: [top], cost: { api: 1 } }, async ({ top }, { actor }) =>
  top.ok ? made(await actor.delete(pathOf(top.value))) : notMade(top.cause, top.exchange),
);

// A deletes the direct status; then, alongside the reads and deletes of the deleted status, the thread, which the
// ledger would otherwise delete one after another: each reply before what it replies to, since a server may hide a
// reply whose parent is gone and keep it (a 404 to its author, read and delete alike). Its cost is the second DELETE
// and the three operations: each status's DELETE and read gone are in that status's cost.
const deletions = step(
  "A's direct status deleted, read gone, its other operations read and deleted once more; the thread deleted alongside",
  {
    as: 'A',
    needs: { direct, top, reply, hidden },
    uses: READS,
    changes: [direct, top, reply, hidden],
    cost: { api: 4 },
    // Its hold covers every call it may make, those it makes in the ledger's place too (counted with the statuses,
    // whose steps have ended and hold nothing when this one runs): the four DELETEs, the direct status's read gone and,
    // on a server that deletes in the background, that read again (settle.ts). The derived bound (5 in all) fell short
    // of the 11 calls it made against windows.test's deviating server.
    mayAdd: 4 + 1 + SETTLE_REREADS,
  },
  async ({ direct, top, reply, hidden }, { actor: a }): Promise<StepOutcome<Deleted>> => {
    const deletion = await deleteOwn(a, direct);
    const deletedAt = now();
    const directMade = madeStep(direct);
    const gone = directMade.ok && deletion?.status === 200 ? pathOf(directMade.value) : undefined;
    // A server may delete in the background: the read waits for the 404 within the settle window.
    const readGone = async (path: string) => {
      const settled = await settle(() => a.get(path), (read) => read.status === 404, deletedAt);
      noteLate('STATUS-DELETE-2', `HTTP 404 for the deleted status`, settled);
      return settled.exchange;
    };
    // The operations are read once the read shows the status gone: before, it may still exist (STATUS-DELETE-2's).
    // The read gone is the ledger's, made in its place (and read sooner, for the operations after it).
    const goneRead = gone ? inLedgersPlace(direct.exchange, () => readGone(gone)) : undefined;
    const operations = goneRead ? goneRead.then(() => Promise.all(['context', 'reblogged_by', 'favourited_by'].map((operation) => a.get(`${gone}/${operation}`)))) : [];
    // The second DELETE once the read shows the status gone, as the operations: a server that deletes in the
    // background may still delete it again before.
    const [deletedRead, secondDeletion] = await Promise.all([
      goneRead,
      goneRead ? goneRead.then(() => a.delete(gone as string)) : undefined,
      (async () => {
        for (const status of [hidden, reply, top]) await deleteOwn(a, status);
      })(),
    ]);
    return made({ deletion, deletedRead, secondDeletion, operations: await operations });
  },
);

// The run-wide clauses judge every answer of the group: every step but B's DELETE, which only STATUS-DELETE-3 plans.
const EVERY_ANSWER = { uses: { deletions, missingRead, withoutToken, invalidToken } };

section('Statuses', () => {
  it('STATUS-CREATE-1 creating a status answers 200 and a Status', { needs: { top } }, ({ top }) => {
    // A's token holds the broad write scope: a refusal for its scope is ACCESS-BROAD-1's, not the creation's.
    if (!top.ok && top.cause.clause === 'ACCESS-BROAD-1') block(top.cause);
    expectOk(top.exchange as Exchange, 'Status', 200);
  });

  it('STATUS-CREATE-2 spoiler_text is reflected in the created status', { needs: { top } }, ({ top }) => {
    expectEqual(answered(top).spoiler_text, 'conformance spoiler', 'spoiler_text', top.exchange);
  });

  it('STATUS-CREATE-3 sensitive is reflected in the created status', { needs: { top } }, ({ top }) => {
    expectEqual(answered(top).sensitive, true, 'sensitive', top.exchange);
  });

  it('STATUS-CREATE-7 sensitive without spoiler_text is reflected in the created status', { needs: { top, reply } }, ({ top, reply }) => {
    const { sensitive } = answered(reply);
    // Where sensitive is kept on no status, beside a spoiler_text either, that is STATUS-CREATE-3's deviation.
    if (sensitive !== true && answered(top).sensitive !== true) block(causeOf('STATUS-CREATE-3', `a status created with sensitive and spoiler_text answered sensitive = ${JSON.stringify(answered(top).sensitive)}`, top.exchange));
    expectEqual(sensitive, true, 'sensitive of a status created without spoiler_text', reply.exchange);
  });

  it(
    'STATUS-CREATE-4 visibility (public, unlisted, private, direct) is reflected in the created status',
    { needs: { top, reply, hidden, direct } },
    ({ top, reply, hidden, direct }) => {
      for (const [created, visibility, what] of [[top, 'public', 'public status'], [reply, 'unlisted', 'unlisted status'], [hidden, 'private', 'private status'], [direct, 'direct', 'direct status']] as const) {
        expectEqual(answered(created).visibility, visibility, `visibility of the ${what}`, created.exchange);
      }
    },
  );

  it('STATUS-CREATE-5 language is reflected in the created status', { needs: { top } }, ({ top }) => {
    expectEqual(answered(top).language, 'en', 'language', top.exchange);
  });

  it(
    'STATUS-EFFECT-2 spoiler_text, sensitive and language show on later reads of the status, by its owner and by another account',
    { needs: { top, reply, byOwner, byB, tokenless } },
    ({ top, reply, byOwner, byB, tokenless }) => {
      const asCreated = answered(top);
      for (const { exchange, shown, who } of laterReads(top, reply, byOwner, byB, tokenless)) {
        for (const field of ['spoiler_text', 'sensitive', 'language'] as const) expectEqual(shown[field], asCreated[field], `${field} of the status read by ${who}, as its creation answered`, exchange);
      }
    },
  );

  it(
    "STATUS-EFFECT-7 visibility is the status's: its owner's later reads of its private and direct statuses show the visibility they were created with",
    { needs: { hidden, direct, byOwner } },
    ({ hidden, direct, byOwner }) => {
      for (const [created, visibility, readClause] of [[hidden, 'private', 'STATUS-READ-2'], [direct, 'direct', 'STATUS-VIS-6']] as const) {
        const read = readOf(byOwner, madeWith(created, ['visibility']));
        ownAnswered(hidden, byOwner, read, readClause, `A's read of its own ${visibility} status`);
        expectEqual(expectOk<Status>(read, 'Status').visibility, visibility, `visibility of the ${visibility} status read by its owner, as created`, read);
      }
    },
  );

  it(
    "STATUS-EFFECT-5 the status parameter is the content: the creation's answer and later reads by its owner and by another account carry its text",
    { needs: { top, reply, byOwner, byB, tokenless } },
    ({ top, reply, byOwner, byB, tokenless }) => {
      const answers = [{ exchange: top.exchange as Exchange, shown: answered(top), who: 'the creation' }, ...laterReads(top, reply, byOwner, byB, tokenless).map((read) => ({ ...read, who: `a read by ${read.who}` }))];
      for (const { exchange, shown, who } of answers) {
        const text = typeof shown.content === 'string' ? textOfHtml(shown.content) : undefined;
        check(text?.includes(TOP_TEXT) === true, `content carrying "${TOP_TEXT}" (its HTML as text)`, `content ${JSON.stringify(shown.content)} in ${who}`, exchange);
      }
    },
  );

  it('STATUS-CREATE-6 a reply carries in_reply_to_id and in_reply_to_account_id', { needs: { top, reply } }, ({ top, reply }) => {
    const parent = madeWith(top, []);
    const status = answered(reply);
    expectEqual(status.in_reply_to_id, parent.id, 'in_reply_to_id', reply.exchange);
    expectEqual(status.in_reply_to_account_id, parent.account.id, 'in_reply_to_account_id', reply.exchange);
  });

  it(
    "STATUS-EFFECT-6 in_reply_to_id is the reply's: another account's later read of the reply shows the in_reply_to_id and in_reply_to_account_id its creation answered",
    { requires: [requirement(b, 'needs CONFORMANCE_TOKEN_B')], needs: { reply, byB } },
    ({ reply, byB }) => {
      // A reply made unlisted and to the status it names, as asked: else STATUS-CREATE-4's or STATUS-CREATE-6's.
      const status = madeWith(reply, ['visibility', 'in_reply_to_id']);
      const asCreated = answered(reply);
      const read = readOf(byB, status);
      if (read.status !== 200) block(causeOf('STATUS-VIS-1', `another account's read of an unlisted status answered ${answerOf(read)}`, read));
      const shown = expectOk<Status>(read, 'Status');
      for (const field of ['in_reply_to_id', 'in_reply_to_account_id'] as const) expectEqual(shown[field], asCreated[field], `${field} of the reply read by another account, as its creation answered`, read);
    },
  );

  it('STATUS-READ-1 a public status is readable without a token', { requires: [absent(config.whitelistMode, WHITELIST)], needs: { top, tokenless } }, ({ top, tokenless }) => {
    const status = need(top);
    expectStatus(readOf(tokenless, status), status);
  });

  it('STATUS-READ-2 the owner reads their private status', { needs: { hidden, byOwner } }, ({ hidden, byOwner }) => {
    const status = madeWith(hidden, ['visibility']);
    expectOwnerTokenTaken(hidden, byOwner);
    expectStatus(readOf(byOwner, status), status);
  });

  it(
    'STATUS-READ-3 another user reading a private status gets 404 "Record not found"',
    { requires: [requirement(b, 'needs CONFORMANCE_TOKEN_B')], needs: { hidden, byOwner, byB } },
    ({ hidden, byOwner, byB }) => {
      const status = madeWith(hidden, ['visibility']);
      ownAnswered(hidden, byOwner, readOf(byOwner, status), 'STATUS-READ-2', "A's read of its own private status");
      expectError(readOf(byB, status), 404, 'Record not found');
    },
  );

  it(
    'STATUS-READ-4 reading a private status without a token gets 404 "Record not found"',
    { requires: [absent(config.whitelistMode, WHITELIST)], needs: { hidden, byOwner, tokenless } },
    ({ hidden, byOwner, tokenless }) => {
      const status = madeWith(hidden, ['visibility']);
      ownAnswered(hidden, byOwner, readOf(byOwner, status), 'STATUS-READ-2', "A's read of its own private status");
      expectError(readOf(tokenless, status), 404, 'Record not found');
    },
  );

  it(
    'STATUS-READ-5 reading a status that does not exist gets 404 "Record not found"',
    { needs: { hidden, direct, byOwner, missingRead } },
    ({ hidden, direct, byOwner, missingRead }) => {
      // The positive control: A's read of a status of its own answered it (a server without the read answers 404 to all).
      const reads = madeOf(hidden, direct).map((status) => readOf(byOwner, status));
      const answeredOne = reads.find((read) => read.status === 200);
      if (!answeredOne) ownAnswered(hidden, byOwner, readOf(byOwner, need(madeStep(hidden))), 'STATUS-READ-2', "A's read of its own private status");
      expectErrorStatus(missingRead, 404, 'Record not found');
    },
  );

  it('RESOURCE-STATUS-2 spoiler_text is the empty string when a status has none', { needs: { reply } }, ({ reply }) => {
    expectEqual(madeWith(reply, []).spoiler_text, '', 'spoiler_text of a status without one', reply.exchange);
  });

  it('WIRE-FORM-2 request parameters are sent as form data: a form-encoded creation is understood', { needs: { top } }, ({ top }) => {
    const notUnderstood = formNotUnderstood();
    if (notUnderstood?.clause === 'WIRE-FORM-2') {
      fail('the form-encoded creation understood as its JSON equivalent was', statusLineOf(notUnderstood.exchange), notUnderstood.exchange);
    }
    need(top);
    // The form-encoded creation of `top`, understood.
    countJudged();
  });

  it.runWide('WIRE-JSON-1', EVERY_ANSWER);

  it(
    'WIRE-JSON-2 an error answer is JSON {error: string} also for a client that sends Accept: */* (as curl does) or no Accept header',
    { needs: { missingRead, withoutToken } },
    ({ missingRead, withoutToken }) => {
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
    },
  );

  it(
    'STATUS-WHITELIST-1 in whitelist mode a tokenless read answers 401 "This API requires an authenticated user"',
    { requires: [requirement(config.whitelistMode, 'needs CONFORMANCE_WHITELIST_MODE (an instance in whitelist mode)')], needs: { top, tokenless } },
    ({ top, tokenless }) => {
      expectError(readOf(tokenless, need(top)), 401, 'This API requires an authenticated user');
    },
  );

  it('ERRORS-TOKEN-1 creating a status without an Authorization header answers 401 "The access token is invalid"', { needs: { withoutToken } }, ({ withoutToken }) => {
    expectErrorStatus(withoutToken, 401, TOKEN_INVALID);
  });

  it('ERRORS-TOKEN-2 creating a status with an invalid token answers 401 "The access token is invalid"', { needs: { invalidToken } }, ({ invalidToken }) => {
    expectError(invalidToken, 401, TOKEN_INVALID);
  });

  it('STATUS-CONTEXT-1 context lists the thread above the status in ancestors', { needs: { top, reply, byOwner } }, ({ top, reply, byOwner }) => {
    const [above, status] = [madeWith(top, []), madeWith(reply, ['in_reply_to_id'])];
    const exchange = contextOf(byOwner, status);
    const context = expectOk<{ ancestors?: Status[] }>(exchange, 'Context');
    const ids = Array.isArray(context.ancestors) ? context.ancestors.map((s) => s.id) : context.ancestors;
    check(Array.isArray(ids) && ids.includes(above.id), `ancestors include ${above.id}`, `ancestors ${JSON.stringify(ids)}`, exchange);
  });

  it('STATUS-CONTEXT-2 context lists the thread below the status in descendants', { needs: { reply, hidden, byOwner } }, ({ reply, hidden, byOwner }) => {
    // The reply's own in_reply_to_id is STATUS-CONTEXT-1's: below it, only the private reply's is needed.
    const [status, below] = [madeWith(reply, []), madeWith(hidden, ['in_reply_to_id'])];
    expectOwnerTokenTaken(hidden, byOwner);
    const exchange = contextOf(byOwner, status);
    const context = expectOk<{ descendants?: Status[] }>(exchange, 'Context');
    const ids = Array.isArray(context.descendants) ? context.descendants.map((s) => s.id) : context.descendants;
    check(Array.isArray(ids) && ids.includes(below.id), `descendants include ${below.id}`, `descendants ${JSON.stringify(ids)}`, exchange);
  });

  it('STATUS-REBLOGGEDBY-1 reblogged_by answers an array of Account', { needs: { top, acted } }, ({ top, acted }) => {
    expectList(accountsOf(acted, need(top), 'reblogged_by'), 'Account');
  });

  it('STATUS-FAVOURITEDBY-1 favourited_by answers an array of Account', { needs: { top, acted } }, ({ top, acted }) => {
    expectList(accountsOf(acted, need(top), 'favourited_by'), 'Account');
  });

  // The Errors table hides a status that "is private, or is not visible to the caller" (direct statuses reach only
  // their author and the accounts they mention); an unlisted status is neither, so it is read like a public one.
  section('visibility', () => {
    it(
      'STATUS-VIS-1 public and unlisted statuses are visible to another user: read and context answer them',
      { requires: [requirement(b, 'needs CONFORMANCE_TOKEN_B')], needs: { top, reply, byB } },
      ({ top, reply, byB }) => {
        for (const status of [need(top), madeWith(reply, ['visibility'])]) {
          expectStatus(readOf(byB, status), status);
          expectContext(contextOf(byB, status));
        }
      },
    );

    it(
      'STATUS-VIS-2 context of public and unlisted statuses answers without a token',
      { requires: [absent(config.whitelistMode, WHITELIST)], needs: { top, reply, tokenless } },
      ({ top, reply, tokenless }) => {
        for (const status of [need(top), madeWith(reply, ['visibility'])]) expectContext(contextOf(tokenless, status));
      },
    );

    it(
      'STATUS-VIS-3 an unlisted status is readable without a token',
      { requires: [absent(config.whitelistMode, WHITELIST)], needs: { top, reply, tokenless } },
      ({ top, reply, tokenless }) => {
        const status = madeWith(reply, ['visibility']);
        expectTokenlessReads(tokenless, need(top));
        expectStatus(readOf(tokenless, status), status);
      },
    );

    it('STATUS-VIS-4 the owner gets the context of their private status', { needs: { hidden, byOwner } }, ({ hidden, byOwner }) => {
      const status = madeWith(hidden, ['visibility']);
      expectOwnerTokenTaken(hidden, byOwner);
      expectContext(contextOf(byOwner, status));
    });

    it(
      'STATUS-VIS-5 the context of a private status answers 404 "Record not found" to another user and without a token',
      { requires: [requirement(b || !config.whitelistMode, 'needs CONFORMANCE_TOKEN_B, or an instance not in whitelist mode')], needs: { hidden, byOwner, byB, tokenless } },
      ({ hidden, byOwner, byB, tokenless }) => {
        const viewers = othersOf(byB, tokenless);
        const status = madeWith(hidden, ['visibility']);
        ownAnswered(hidden, byOwner, contextOf(byOwner, status), 'STATUS-VIS-4', "A's context of its own private status");
        for (const viewer of viewers) expectError(contextOf(viewer, status), 404, 'Record not found');
      },
    );

    it('STATUS-VIS-6 a direct status is visible to its owner: read and context answer it', { needs: { direct, hidden, byOwner } }, ({ direct, hidden, byOwner }) => {
      const status = madeWith(direct, ['visibility']);
      expectOwnerTokenTaken(hidden, byOwner);
      expectStatus(readOf(byOwner, status), status);
      expectContext(contextOf(byOwner, status));
    });

    it(
      'STATUS-VIS-7 a direct status read by another user or without a token: read and context answer 404 "Record not found"',
      { requires: [requirement(b || !config.whitelistMode, 'needs CONFORMANCE_TOKEN_B, or an instance not in whitelist mode')], needs: { direct, hidden, byOwner, byB, tokenless } },
      ({ direct, hidden, byOwner, byB, tokenless }) => {
        const viewers = othersOf(byB, tokenless);
        const status = madeWith(direct, ['visibility']);
        ownAnswered(hidden, byOwner, readOf(byOwner, status), 'STATUS-VIS-6', "A's read of its own direct status");
        ownAnswered(hidden, byOwner, contextOf(byOwner, status), 'STATUS-VIS-6', "A's context of its own direct status");
        for (const viewer of viewers) {
          // Tokenless reads gate one read of this check, not the check, so the gating stays here.
          if (viewer !== tokenless || tokenlessReadsExist) expectError(readOf(viewer, status), 404, 'Record not found');
          expectError(contextOf(viewer, status), 404, 'Record not found');
        }
      },
    );

    it(
      'STATUS-VIS-8 reblogged_by and favourited_by of a private or direct status answer 404 "Record not found" to another user and without a token',
      { requires: [requirement(HIDDEN_LISTS.length, 'needs CONFORMANCE_TOKEN_B, or an instance not in whitelist mode')], needs: { top, hidden, direct, byB, tokenless, hiddenListReads } },
      async ({ top, hidden, direct, byB, tokenless, hiddenListReads }, context) => {
        // STATUS-VIS-8's cells need the visibility asked for: a status that came back with another one blocks the check.
        const statuses = { private: madeWith(hidden, ['visibility']), direct: madeWith(direct, ['visibility']) };
        need(top);
        const who = (caller: HiddenList['caller']) => (caller === 'anonymous' ? 'no token' : caller);
        // A cell counts only where its positive control, with the cell's own credentials, answered 2xx: the same list of
        // the public status. A cell without it is left out (that list's own check reports why); the check is blocked
        // only where no cell has its control.
        const answeredControl = (cell: CellRead) => cell.control.status !== undefined && cell.control.status >= 200 && cell.control.status < 300;
        const judged = hiddenListReads.filter(answeredControl);
        for (const { caller, hidden: visibility, list, control } of hiddenListReads.filter((cell) => !answeredControl(cell))) {
          if (judged.length === 0) controlled(succeeded(control, control), list === 'reblogged_by' ? 'STATUS-REBLOGGEDBY-1' : 'STATUS-FAVOURITEDBY-1', `${list} of the public status (${who(caller)})`);
          await context.annotate(`not judged: ${list} of the ${visibility} status asked by ${who(caller)}, whose control (${list} of the public status) answered ${answerOf(control)}`, 'observation');
        }
        const asked = judged.map(({ caller, hidden: visibility, list, answer }) => {
          expectHiddenFrom(caller === 'anonymous' ? tokenless : byB, caller === 'anonymous', statuses[visibility], visibility);
          return { caller: who(caller), status: visibility, operation: list, exchange: answer };
        });
        expectEveryCell(asked, 404, 'Record not found');
      },
    );
  });

  // The catalogue gives the release a clause came with, not the one that removed its operation: those checks name it
  // (on such a release STATUS-CARD-2 needs the same read).
  section('card', () => {
    it('STATUS-CARD-1 GET .../card answers a Card (before its removal in 3.0.0)', { removedBy: 'STATUS-CARD-2', needs: { top, cardRead } }, ({ top, cardRead }) => {
      const exchange = cardOf(cardRead, need(top));
      const body = expectJson(exchange);
      check(typeof body === 'object' && body !== null && !Array.isArray(body), 'a Card object', exchange.text, exchange);
    });

    it('RESOURCE-CARD-1 a Card has the fields and types of the contract', { removedBy: 'STATUS-CARD-2', needs: { top, cardRead } }, ({ top, cardRead }) => {
      const exchange = cardOf(cardRead, need(top));
      if (exchange.status !== 200) block(causeOf('STATUS-CARD-1', `GET .../card answered ${answerOf(exchange)}`, exchange));
      expectOk(exchange, 'Card');
      expectNoMismatch('RESOURCE-CARD-1');
    });

    it('STATUS-CARD-2 GET .../card is removed from 3.0.0 on: it answers 404', { needs: { top, cardRead } }, ({ top, cardRead }) => {
      const exchange = cardOf(cardRead, need(top));
      // The contract gives no body for a removed operation: only the status code is judged.
      check(exchange.status === 404, 'HTTP 404', `HTTP ${exchange.status ?? `none (${exchange.error})`}`, exchange);
    });
  });

  // The deletions come after every read the checks judge (their step waits for them all).
  section('delete', () => {
    // A status with media and one with a poll are deleted by the redraft property (POST /api/v1/statuses parameters).
    it('STATUS-DELETE-1 delete answers the Status with its source text and its media or poll', { needs: { direct, deletions } }, ({ direct, deletions }) => {
      madeWith(direct, []);
      const answer = deletions.deletion as Exchange;
      const body = expectOk<Status>(answer, 'Status');
      expectEqual(body.text, DIRECT_TEXT, 'text', answer);
      check(Array.isArray(body.media_attachments), 'media_attachments: an array', `media_attachments: ${JSON.stringify(body.media_attachments)}`, answer);
    });

    it(
      'STATUS-DELETE-2 a deleted status reads as 404 "Record not found"',
      { needs: { direct, hidden, byOwner, deletions } },
      async ({ direct, hidden, byOwner, deletions }, context) => {
        const status = deleted(direct, deletions);
        await observeLate(context, 'STATUS-DELETE-2');
        // The positive control: the same read answered the status before its delete.
        ownAnswered(hidden, byOwner, readOf(byOwner, status), 'STATUS-VIS-6', "A's read of its direct status before the delete");
        expectError(deletions.deletedRead as Exchange, 404, 'Record not found');
      },
    );

    it('STATUS-DELETE-4 deleting an already deleted status answers 404 "Record not found"', { needs: { direct, deletions } }, ({ direct, deletions }) => {
      deleted(direct, deletions);
      expectError(deletions.secondDeletion as Exchange, 404, 'Record not found');
    });

    // The id of a status the run deleted is of the server's own shape: a server that refuses a malformed id before
    // any lookup still has to look this one up.
    it(
      'STATUS-DELETE-6 a deleted status does not exist for any operation: its context, reblogged_by and favourited_by answer 404 "Record not found"',
      { needs: { top, direct, hidden, byOwner, listControls, deletions } },
      ({ top, direct, hidden, byOwner, listControls, deletions }) => {
        const status = deleted(direct, deletions);
        const read = deletions.deletedRead as Exchange;
        // A status that still reads after its delete exists: what its operations answer then is STATUS-DELETE-2's failure.
        if (read.status !== 404) block(causeOf('STATUS-DELETE-2', `after DELETE answered 200 the status read as ${answerOf(read)}`, read));
        // The positive controls: each operation answered 2xx for a status that exists, to A as A's requests here go.
        ownAnswered(hidden, byOwner, contextOf(byOwner, status), 'STATUS-VIS-6', "A's context of its direct status before the delete");
        need(top);
        for (const [list, clause] of [['reblogged_by', 'STATUS-REBLOGGEDBY-1'], ['favourited_by', 'STATUS-FAVOURITEDBY-1']] as const) {
          const control = listControls.get(list) as Exchange;
          controlled(succeeded(control, control), clause, `${list} of the public status`);
        }
        for (const exchange of deletions.operations) expectError(exchange, 404, 'Record not found');
      },
    );

    it(
      "STATUS-DELETE-3 deleting another user's status answers 404 \"Record not found\"",
      { requires: [requirement(b, 'needs CONFORMANCE_TOKEN_B')], needs: { top, direct, deletions, foreignDeletion } },
      ({ top, direct, deletions: { deletion }, foreignDeletion }) => {
        need(top);
        madeWith(direct, []);
        controlled(succeeded(deletion as Exchange, deletion as Exchange), 'STATUS-DELETE-1', "A's delete of its own status");
        expectError(foreignDeletion, 404, 'Record not found');
      },
    );
  });

  // The run-wide clauses this group owns judge everything it met, what its checks observed included, so they come last.
  section('every answer of the group', () => {
    it.runWide('RESOURCE-STATUS-1', { needs: { top }, ...EVERY_ANSWER }, ({ top }) => (top.ok ? undefined : top.cause));
    it.runWide('RESOURCE-ACCOUNT-1', { needs: { top }, ...EVERY_ANSWER }, ({ top }) => (top.ok ? undefined : top.cause));

    it('RESOURCE-CONTEXT-1 a Context has ancestors and descendants, arrays of Status', { needs: { reply, byOwner }, ...EVERY_ANSWER }, ({ reply, byOwner }) => {
      const exchange = contextOf(byOwner, madeWith(reply, []));
      if (exchange.status !== 200) block(causeOf('STATUS-CONTEXT-1', `the context of the caller's own status answered ${answerOf(exchange)}`, exchange));
      expectOk(exchange, 'Context');
      expectNoMismatch('RESOURCE-CONTEXT-1');
    });

    it.runWide('ERRORS-BODY-1', EVERY_ANSWER);
    // A text is read from {error: string}: where no error answer had that shape, ERRORS-BODY-1 left nothing to read.
    it.runWide('ERRORS-TEXT-1', EVERY_ANSWER, () => (hasMismatch('ERRORS-BODY-1') ? { clause: 'ERRORS-BODY-1', summary: 'no error answer carried {"error": string} to read a text from' } : undefined));
  });
});

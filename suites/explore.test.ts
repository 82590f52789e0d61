// Generated inputs (docs/exploring.md): the contract's operations on one id, the Statuses table's status operations
// and the Media table's read and update, sent with ids of every class (the caller's own object, another account's
// visible one, one the caller cannot see, a deleted one, one that never existed, a malformed one), each answer judged
// by the contract: the documented success (the resource, then the move's flag) or the Errors table's row. The inputs
// are drawn from CONFORMANCE_SEED (act/explore-inputs.ts), the covering set first; the oracle is judge/explore-oracle.ts.
// A check per clause an input may break: one deviation, one failure in its own clause, whichever operation showed it.
// The default run's share sends ids that name nothing on the operations that delete nothing: no object, no deletion;
// --explore N makes the objects of the other classes first (on the ledger, beside N) and gives N requests to the access
// matrix's cells first (act/explore-matrix.ts: caller x visibility of A's statuses, the cells the default run does not
// ask), each judged by the check of its clause beside the inputs on ids, with the table of the clause's cells.
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'vitest';
import { MEDIA_FIXTURES } from '../fixtures/media/index.ts';
import { accountIdOf, actors, type Actor } from './support/act/actors.ts';
import { AUTH_SHRINK_BOUND, authCost, drawAuthInputs, sendAuthInputs, shrinkAuth, type AuthSent } from './support/act/explore-auth.ts';
import { createdId, madeStep } from './support/act/created.ts';
import { atOnceCost, atOnceSequences, sendAtOnce, type SentAtOnce } from './support/act/explore-at-once.ts';
import { BOOST_REQUESTS, creationCost, sendBoosts, sendCreations, shrinkCreation, type CreationsSent, type SentBoost, type SentCreation } from './support/act/explore-create.ts';
import { CALLER_WORDS, cellCost, drawWithMatrix, MATRIX_OBJECT_REQUESTS, MATRIX_STATUSES, sendCells, type Caller, type Cell, type MatrixStatuses, type SentCell } from './support/act/explore-matrix.ts';
import { DeletionShare } from './support/act/deletion-share.ts';
import { costOf, deletionsSpent, EXPLORE_DELETIONS, exploreSettingsOf, scopeOf, sendInputs, shrink, SHRINK_BOUND, type Held, type Sent } from './support/act/explore-inputs.ts';
import { drawMediaAndStreams, EXPLORE_UPLOADS, MEDIA_SHRINK_BOUND, mediaFiles, mediaRequests, sendUpdateRow, sendUploadRow, shrinkUpdate, shrinkUpload, UploadShare, type SentUpdate, type SentUpload } from './support/act/explore-media.ts';
import { openExplored, streamCost, withToken, type SentStream } from './support/act/explore-streams.ts';
import { CLAUSE_ID, releaseHas } from './support/judge/clauses.ts';
import type { ExplorePart } from './support/talk/config.ts';
import { brokenAuth, judgeAuthExplored, judgedAuth, type AuthExplored } from './support/judge/explore-auth-oracle.ts';
import { judgeAtOnce } from './support/judge/explore-at-once-oracle.ts';
import { concernsOf, createInstances } from './support/judge/explore-create-oracle.ts';
import { cellExpectation } from './support/judge/explore-matrix-oracle.ts';
import { fiveHundredClauseOf, observeOpenStreams, updateInstances, uploadInstances, type MediaInstance } from './support/judge/explore-media-oracle.ts';
import { expectationOf, judgeExplored, verdictOf, type Explored } from './support/judge/explore-oracle.ts';
import { showsModel } from './support/judge/state-machine.ts';
import { it, made, section, step, type DeclaredStep } from './support/run/checks.ts';
import { exploreShareOf } from './support/run/run-plan.ts';
import { openSse } from './support/talk/sse.ts';
import { openWebSocket } from './support/talk/websocket.ts';

const { config, b } = actors();
// The default share is what the run's plan of the other groups leaves of the IP access line: their checks come first.
const share = await exploreShareOf(fileURLToPath(new URL('..', import.meta.url)), config);
const settings = { ...exploreSettingsOf(config, share, (clause) => releaseHas(config.serverVersion, clause)), withB: b !== undefined };
const scope = scopeOf(settings);
/** Whether the run sends this part of the exploration: every part, but in our own fault runs (config.ts exploreParts). */
const sends = (part: ExplorePart) => config.exploreParts?.includes(part) ?? true;
// The access matrix's cells first (issue 50's decision): --explore N with N at least their cost completes the matrix.
const drawn = drawWithMatrix(scope, settings, config.seed);
const inputs = sends('ids') ? drawn.inputs : [];
const creations = sends('creations') ? drawn.creations : [];
const matrix = { ...drawn.matrix, cells: sends('matrix') ? drawn.matrix.cells : [] };
// The media uploads and updates and the streams: --explore N's alone, within A's uploads and the streams' bound.
const released = (clause: string) => releaseHas(config.serverVersion, clause);
const drawnMedia = drawMediaAndStreams(config.explore, released, config.listId !== undefined, config.seed);
const mediaPart = { uploads: sends('media') ? drawnMedia.uploads : [], updates: sends('media') ? drawnMedia.updates : [], streams: sends('streams') ? drawnMedia.streams : [] };
/** Where an error row covers an input, its check judges a 5xx; where the contract leaves the answer open, ERRORS-5XX-1 does. */
const judgedHere = (input: Sent['input']) => expectationOf(input.operation, input.idClass).kind !== 'open';

/** A status of `actor`'s for the explored inputs to name, on the ledger; `deleted`: deleted at once by its owner. */
async function statusOf(actor: Actor, visibility: string, deleted = false): Promise<string | undefined> {
  const created = await actor.createStatus({ status: `conformance probe: a ${visibility} status to explore on`, visibility });
  const status = madeStep(created);
  if (!status.ok) return undefined;
  if (!deleted) return status.value.id;
  const deletion = await actor.delete(`/api/v1/statuses/${status.value.id}`);
  if (deletion.status !== 200) return undefined;
  created.settle();
  return status.value.id;
}

/** An attachment of `actor`'s, on the ledger; `deleted`: deleted at once (Mastodon's DELETE /api/v1/media/:id). */
async function attachmentOf(actor: Actor, deleted = false): Promise<string | undefined> {
  const upload = await actor.sendUpload(MEDIA_FIXTURES.png);
  const id = createdId(upload);
  if (!id || !deleted) return id;
  const deletion = await actor.deleteUpload(upload);
  return deletion?.status !== undefined && deletion.status >= 200 && deletion.status < 300 ? id : undefined;
}

// Each object costs its creation, its undo by the ledger (or its deletion here) and the read that shows it gone.
const heldByA = step("A's objects the explored ids name: its public status, a status it deleted, its attachment, an attachment it deleted", { as: 'A', cost: { api: 12, files: 2 } }, async (_, { actor }) => {
  // The first creation settles how the server reads bodies (actors.ts createStatus): the statuses go one after another.
  const own = await statusOf(actor, 'public');
  const deleted = await statusOf(actor, 'public', true);
  const [ownMedia, deletedMedia] = await Promise.all([attachmentOf(actor), attachmentOf(actor, true)]);
  const held: Held = { status: { own, deleted }, attachment: { own: ownMedia, deleted: deletedMedia } };
  return made(held);
});
const heldByB = step("B's objects the explored ids name: its public status, its private status, its attachment", { as: 'B', after: [heldByA], cost: { api: 9, files: 1 } }, async (_, { actor: other }) => {
  const visible = await statusOf(other, 'public');
  const hidden = await statusOf(other, 'private');
  const media = await attachmentOf(other);
  const held: Held = { status: { visible, hidden }, attachment: { visible: media } };
  return made(held);
});
const objects = scope.objects ? { heldByA, ...(b ? { heldByB } : {}) } : {};

/**
 * B's part of the Deletion bucket that its creations declare (EXPLORE_DELETIONS.B.creations), kept while the run sends:
 * the boosts' unreblogs first, then every creation (a refused row too: a deviating server may make it), then the
 * access matrix's boosts by B (a deviating server takes one of a status B cannot see: its unreblog), then shrinking.
 * What a deviating server spends is thus taken from what B would have sent later, never beyond what was announced.
 */
const deletionsOfB = new DeletionShare(EXPLORE_DELETIONS.B.creations);
/** A's part for its cells of the access matrix beside its statuses' (none today: its planned cells spend none). */
const matrixDeletionsOfA = new DeletionShare(EXPLORE_DELETIONS.A.matrix - MATRIX_STATUSES.length);

const plannedRequests = inputs.reduce((sum, input) => sum + costOf(input).requests, 0);

/** The inputs sent, one after another, as A: each answer and, where a move took, its undo. */
const sent = step('the explored inputs, sent as A', { as: 'A', needs: objects, cost: { api: plannedRequests } }, async (values, { actor }) => {
  const held: Held = {};
  for (const part of Object.values(values) as Held[]) {
    for (const [resource, ids] of Object.entries(part) as [keyof Held, Held[keyof Held]][]) held[resource] = { ...held[resource], ...ids };
  }
  return made(await sendInputs(actor, inputs, held, judgedHere));
});

/**
 * The explored creations, sent as B (B's deletions are their budget; A's carry the run's and the id inputs'), each
 * status made read by B and by A. They name A's attachment as another account's.
 */
const created = step(
  "the explored creations of POST /api/v1/statuses, and boosts of A's public status with the reblog's visibility parameter, sent as B",
  { as: 'B', alsoAs: ['A'], needs: { heldByA }, cost: { api: creations.reduce((sum, c) => sum + creationCost(c.row).requests, 0) + BOOST_REQUESTS } },
  async ({ heldByA }, { actor, also: { A } }) => {
    const own = heldByA.status?.own;
    const boosts = own === undefined ? [] : await sendBoosts(actor, A as Actor, own, deletionsOfB);
    return made({ creations: await sendCreations(actor, A as Actor, creations, heldByA.attachment?.own, deletionsOfB), boosts });
  },
);

// The access matrix (act/explore-matrix.ts): A's statuses of each visibility, and the cells the default run does not
// ask, each caller's in a step of its own, after the inputs and the creations so that each meets the statuses as made.
// No token's last: a server that takes its DELETE takes a status the other cells name.
const matrixStatuses = step("A's unlisted, private and direct statuses the access matrix names", { as: 'A', after: [heldByA], cost: { api: MATRIX_OBJECT_REQUESTS } }, async (_, { actor }) => {
  const statuses: MatrixStatuses = {};
  for (const visibility of MATRIX_STATUSES) {
    const id = await statusOf(actor, visibility);
    if (id !== undefined) statuses[visibility] = id;
  }
  return made(statuses);
});
/** Where a row covers a cell, its check judges a 5xx; where the contract leaves it open, ERRORS-5XX-1 does. */
const cellJudgedHere = (cell: Cell) => cellExpectation(cell).kind !== 'open';
const ACCOUNT_OF: Record<Caller, 'A' | 'B' | 'anonymous'> = { owner: 'A', other: 'B', none: 'anonymous' };
const matrixSteps: Partial<Record<Caller, ReturnType<typeof cellsOf>>> = {};
function cellsOf(caller: Caller, before: readonly DeclaredStep<unknown>[]) {
  const cells = matrix.cells.filter((cell) => cell.caller === caller);
  return step(
    `the access matrix's cells of ${CALLER_WORDS[caller]} on A's statuses`,
    { as: ACCOUNT_OF[caller], needs: { heldByA, matrixStatuses }, after: before, cost: { api: cells.reduce((sum, cell) => sum + cellCost(cell).requests, 0) } },
    async ({ heldByA, matrixStatuses }, { actor }) => made(await sendCells(actor, caller, cells, { ...matrixStatuses, public: heldByA.status?.own }, cellJudgedHere, caller === 'other' ? deletionsOfB : matrixDeletionsOfA)),
  );
}
for (const caller of ['owner', 'other'] as const) {
  if (!matrix.cells.some((cell) => cell.caller === caller) || (caller === 'other' && !b)) continue;
  matrixSteps[caller] = cellsOf(caller, [sent, created, ...Object.values(matrixSteps)]);
}

// Requests at the same moment (act/explore-at-once.ts), --explore N's alone: the moves whose row promises one outcome
// however often they are asked, each twice at once on A's public status, once the moves with a token on it are done.
const atOnce = sends('at-once') ? atOnceSequences(config.explore, released, b !== undefined) : [];
const atOnceSent = step(
  "moves asked twice at the same moment on A's public status (unfavourite, bookmark and unbookmark, mute and unmute, pin and unpin), with the undo or the reads that show what the pair left",
  { as: 'A', alsoAs: ['B'], needs: { heldByA }, after: [sent, created, ...Object.values(matrixSteps)], cost: atOnceCost(atOnce) },
  async ({ heldByA }, { actor, also: { B } }) => {
    const own = heldByA.status?.own;
    return made(own === undefined ? [] : await sendAtOnce({ A: actor, ...(B ? { B: B as Actor } : {}) }, own, atOnce, showsModel));
  },
);
const atOnceStep: Partial<Record<'atOnceSent', typeof atOnceSent>> = atOnce.length > 0 ? { atOnceSent } : {};

// No token's last: a server that takes its DELETE takes the status the other cells and the moves at once name.
if (matrix.cells.some((cell) => cell.caller === 'none')) matrixSteps.none = cellsOf('none', [sent, created, ...Object.values(matrixSteps), ...Object.values(atOnceStep)]);

/** A's explored uploads, counted against its share of the Uploading bucket before each is sent (shrinking's too). */
const uploadShare = new UploadShare(EXPLORE_UPLOADS.A.inputs);
const judgedHereMedia = (row: Parameters<typeof fiveHundredClauseOf>[0]) => fiveHundredClauseOf(row) !== undefined;

/** The explored uploads (each on the ledger) and the updates of A's own attachment, one after another as A. */
const mediaSent = step(
  'the explored uploads of POST /api/v1/media and /api/v2/media, and updates of its own attachment, sent as A',
  { as: 'A', needs: mediaPart.updates.length ? { heldByA } : {}, cost: { api: mediaRequests(mediaPart), files: mediaFiles(mediaPart) } },
  async (values, { actor }) => {
    const uploads: SentUpload[] = [];
    for (const input of mediaPart.uploads) {
      const sent = await sendUploadRow(actor, input, uploadShare, judgedHereMedia(input.row));
      if (sent) uploads.push(sent);
    }
    const own = 'heldByA' in values ? (values.heldByA as Held).attachment?.own : undefined;
    const updates: SentUpdate[] = [];
    if (own !== undefined) for (const input of mediaPart.updates) updates.push(await sendUpdateRow(actor, input, own, judgedHereMedia(input.row)));
    return made({ uploads, updates });
  },
);

/** The explored streams, each opened and closed once its opening answered: A's with its token, then the tokenless ones and the health endpoint. */
const streamsOf = (inputs: typeof mediaPart.streams) => async (_: unknown, { actor }: { actor: Actor }) => {
  const sent = await openExplored(inputs, actor, config, { sse: openSse, websocket: openWebSocket });
  observeOpenStreams(sent);
  return made(sent);
};
const tokenStreams = mediaPart.streams.filter(withToken);
const anonymousStreams = mediaPart.streams.filter((input) => !withToken(input));
const streamsSent = step("the explored streams with A's token, each opened and closed at once", { as: 'A', cost: streamCost(tokenStreams) }, streamsOf(tokenStreams));
const streamsAnonymous = step('the explored streams without a token, and the health endpoint', { as: 'anonymous', cost: streamCost(anonymousStreams) }, streamsOf(anonymousStreams));

/** Each input that broke its clause, shrunk to its smallest (a bounded number of requests; none against a conforming server). */
const withMedia = mediaPart.uploads.length + mediaPart.updates.length + mediaPart.streams.length > 0;
const explored = step('the explored inputs that broke their clause, each shrunk to its smallest', { as: 'A', alsoAs: ['B'], needs: { sent, ...(scope.creation && b ? { created } : {}), ...(withMedia ? { mediaSent, streamsSent, streamsAnonymous } : {}) }, uses: { ...matrixSteps, ...atOnceStep }, cost: {} }, async (values, { actor, also: { B } }) => {
  const { sent } = values;
  const smallest = new Map<Sent, Sent>();
  const broken = (s: Sent) => (exchange: Sent['exchange']) => !verdictOf(expectationOf(s.input.operation, s.input.idClass), exchange, s.id).holds;
  // Shrinking a DELETE, an unreblog or a reply spends A's deletions too: within what the inputs left of theirs.
  const inputDeletions = new DeletionShare(Math.max(0, scope.deletions - deletionsSpent(sent)));
  for (const finding of sent.filter((s) => broken(s)(s.exchange)).slice(0, SHRINK_BOUND.findings)) {
    smallest.set(finding, await shrink(actor, finding, broken(finding), judgedHere(finding.input), inputDeletions));
  }
  const none: CreationsSent & { boosts: SentBoost[] } = { sent: [], notSent: [], boosts: [] };
  const { creations: createdSent, boosts } = ('created' in values ? values.created : undefined) ?? { creations: none, boosts: none.boosts };
  const smallestCreations = new Map<SentCreation, SentCreation>();
  const brokenClauses = (s: SentCreation) => new Set(createInstances(s).filter((i) => !i.holds).map((i) => i.breaks));
  // Shrinking makes statuses too: within what the creations and the matrix left of B's deletions.
  for (const finding of createdSent.sent.filter((s) => brokenClauses(s).size > 0).slice(0, SHRINK_BOUND.findings)) {
    const keep = concernsOf(createInstances(finding));
    smallestCreations.set(finding, await shrinkCreation(B as Actor, actor, finding, keep, (s) => [...brokenClauses(finding)].some((c) => brokenClauses(s).has(c)), deletionsOfB));
  }
  // The matrix's cells of each caller whose step came to them (a step that did not blocks none of the other inputs).
  const atOnceOutcome = (values as Record<string, unknown>).atOnceSent as { ok: boolean; value?: SentAtOnce[] } | undefined;
  const cells = Object.keys(matrixSteps).flatMap((caller) => {
    const outcome = (values as Record<string, unknown>)[caller] as { ok: boolean; value?: SentCell[] } | undefined;
    return outcome?.ok ? (outcome.value ?? []) : [];
  });
  const { mediaSent, streamsSent, streamsAnonymous } = values as { mediaSent?: { uploads: SentUpload[]; updates: SentUpdate[] }; streamsSent?: SentStream[]; streamsAnonymous?: SentStream[] };
  const media = mediaSent ?? { uploads: [], updates: [] };
  const smallestMedia = await shrinkMedia(actor, media);
  const result: Explored = { sent, smallest, created: createdSent.sent, smallestCreations, boosts, matrix: cells, ...media, smallestMedia, streams: [...(streamsSent ?? []), ...(streamsAnonymous ?? [])], atOnce: atOnceOutcome?.ok ? (atOnceOutcome.value ?? []) : [] };
  return made(result);
});

// Client registration, OAuth and Account relations (act/explore-auth.ts): under --explore N only, their covering set and
// seeded draws, each input sent once, every application on the ledger, every token granted revoked at once.
const authInputs = scope.objects && sends('auth') ? drawAuthInputs(config.seed) : [];
const authExplored = step(
  'the explored inputs of Client registration, OAuth and Account relations, each finding shrunk to its smallest',
  { as: 'anonymous', alsoAs: ['A', 'B'], cost: authCost(authInputs) },
  async (_, { actor, also: { A, B } }) => {
    if (authInputs.length === 0) return made<AuthExplored>({ sent: [], smallest: new Map() });
    const user = A as Actor;
    const own = await accountIdOf(user);
    const another = B ? await accountIdOf(B as Actor) : undefined;
    const held = { anon: actor, user, accounts: { ...(own.ok ? { own: own.value } : {}), ...(another?.ok ? { another: another.value } : {}) } };
    const sent = await sendAuthInputs(authInputs, held, judgedAuth);
    const smallest = new Map<AuthSent, AuthSent>();
    for (const finding of sent.filter((s) => brokenAuth(s) && Object.keys(s.input.drawn).length > 0).slice(0, AUTH_SHRINK_BOUND.findings)) {
      smallest.set(finding, await shrinkAuth(finding, held, brokenAuth));
    }
    const result: AuthExplored = { sent, smallest };
    return made(result);
  },
);

const AUTH_LEFT_OUT = `no explored input of its clause in this run: registration, OAuth and relations are explored under --explore N only${config.explore === 0 ? ' (the exploration is off: --explore 0)' : ''}`;

/** A check of the clause its title names, over every explored answer of registration, OAuth and relations. */
function judgeAuth({ authExplored }: { authExplored: AuthExplored }, context: TestContext): void {
  const clauseId = CLAUSE_ID.exec(context.task.name)?.[0] ?? '';
  if (!judgeAuthExplored(authExplored, clauseId)) context.skip(authInputs.length === 0 ? AUTH_LEFT_OUT : LEFT_OUT);
}

/** The clauses an explored row broke, and the parameters each concerns: what shrinking keeps. */
const brokenOf = (instances: readonly MediaInstance[]) => instances.filter((i) => !i.holds && !i.exchange.unanswered && !i.exchange.rateLimited);

/** Each explored upload and update that broke a clause, shrunk to the parameters that clause concerns (a bounded number of rows, uploads within A's share). */
async function shrinkMedia(actor: Actor, media: { uploads: readonly SentUpload[]; updates: readonly SentUpdate[] }): Promise<Map<SentUpload | SentUpdate, SentUpload | SentUpdate>> {
  const smallest = new Map<SentUpload | SentUpdate, SentUpload | SentUpdate>();
  const still = (clauses: Set<string>) => (instances: MediaInstance[]) => brokenOf(instances).some((i) => clauses.has(i.clause));
  for (const finding of media.uploads.filter((s) => brokenOf(uploadInstances(s)).length > 0).slice(0, MEDIA_SHRINK_BOUND.findings)) {
    const [first] = brokenOf(uploadInstances(finding)) as [MediaInstance];
    const clauses = new Set([first.clause]);
    smallest.set(finding, await shrinkUpload(actor, finding, first.concerns, (s) => still(clauses)(uploadInstances(s)), uploadShare, judgedHereMedia));
  }
  for (const finding of media.updates.filter((s) => brokenOf(updateInstances(s)).length > 0).slice(0, MEDIA_SHRINK_BOUND.findings)) {
    const [first] = brokenOf(updateInstances(finding)) as [MediaInstance];
    const clauses = new Set([first.clause]);
    smallest.set(finding, await shrinkUpdate(actor, finding, first.concerns, (s) => still(clauses)(updateInstances(s)), judgedHereMedia));
  }
  return smallest;
}

/** Why a check met no input of its clause: what this run's scope explores (--list shows what each operation got). */
const LEFT_OUT = `no explored input of its clause in this run: ${
  config.explore === 0
    ? 'the exploration is off (--explore 0)'
    : config.explore === undefined
      ? "the default run's share explores ids that name nothing on the operations that delete nothing; --explore N explores every class, the creations with B, the media uploads and updates and the streams"
      : `--explore ${config.explore} did not reach it`
}`;

/** A check of the clause its title names, over every explored answer of that clause. */
function judge({ explored }: { explored: Explored }, context: TestContext): void {
  const clauseId = CLAUSE_ID.exec(context.task.name)?.[0] ?? '';
  const judgedOnIds = judgeExplored(explored, clauseId);
  if (judgeAtOnce(explored.atOnce ?? [], clauseId) === 0 && !judgedOnIds) context.skip(LEFT_OUT);
}

section('Explored inputs', () => {
  section('Statuses', () => {
    it('STATUS-READ-1 explored inputs: a read of a public status answers the Status', { needs: { explored } }, judge);
    it('STATUS-READ-3 explored inputs: a read of a private status the caller cannot see answers 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-READ-5 explored inputs: the reads of an id that names no status (never existed, malformed) answer 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-VIS-1 explored inputs: the context of a visible status answers the Context', { needs: { explored } }, judge);
    it('STATUS-VIS-5 explored inputs: the context of a private status the caller cannot see answers 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-VIS-8 explored inputs: reblogged_by and favourited_by of a status the caller cannot see answer 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-REBLOGGEDBY-1 explored inputs: reblogged_by of a visible status answers an array of Account', { needs: { explored } }, judge);
    it('STATUS-FAVOURITEDBY-1 explored inputs: favourited_by of a visible status answers an array of Account', { needs: { explored } }, judge);
    it('STATUS-CREATE-6 explored inputs: a reply (in_reply_to_id) to a visible status, the caller\'s own or another\'s, answers the Status with that in_reply_to_id', { needs: { explored } }, judge);
    it('STATUS-DELETE-2 explored inputs: a read of a deleted status answers 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-DELETE-3 explored inputs: DELETE of a status the caller does not own (another\'s, never existed, malformed) answers 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-DELETE-4 explored inputs: DELETE of a deleted status answers 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-READ-2 explored inputs: its owner\'s read of a private status it created answers the Status', { needs: { explored } }, judge);
    it('STATUS-VIS-6 explored inputs: its owner\'s read of a direct status it created answers the Status', { needs: { explored } }, judge);
    it('STATUS-VIS-7 explored inputs: another account\'s read of a direct status answers 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-DELETE-6 explored inputs: the context, reblogged_by and favourited_by of a deleted status answer 404 "Record not found"', { needs: { explored } }, judge);
  });
  section('POST /api/v1/statuses parameters', () => {
    it('STATUS-CREATE-1 explored inputs: a creation of valid parameters answers 200 and the Status', { needs: { explored } }, judge);
    it('STATUS-CREATE-2 explored inputs: spoiler_text sent (a warning, the empty string) is the answer\'s spoiler_text', { needs: { explored } }, judge);
    it('STATUS-CREATE-3 explored inputs: sensitive true with a spoiler_text marks the status sensitive', { needs: { explored } }, judge);
    it('STATUS-CREATE-4 explored inputs: visibility sent (public, unlisted, private, direct) is the answer\'s visibility', { needs: { explored } }, judge);
    it('STATUS-CREATE-5 explored inputs: language sent is the answer\'s language', { needs: { explored } }, judge);
    it('STATUS-CREATE-7 explored inputs: sensitive true without a spoiler_text marks the status sensitive', { needs: { explored } }, judge);
    it('STATUS-PARAMS-1 explored inputs: a creation with neither status nor media_ids is refused (any 4xx)', { needs: { explored } }, judge);
    it('STATUS-POLL-1 explored inputs: poll[options][] are the options of the answer\'s Poll, in order', { needs: { explored } }, judge);
    it('STATUS-POLL-2 explored inputs: poll[expires_in] is the seconds from created_at to the Poll\'s expires_at', { needs: { explored } }, judge);
    it('STATUS-POLL-3 explored inputs: poll[multiple] sent is the Poll\'s multiple', { needs: { explored } }, judge);
    it('STATUS-POLL-4 explored inputs: a poll with poll[hide_totals] is created with its Poll', { needs: { explored } }, judge);
    it('STATUS-POLL-5 explored inputs: a poll without poll[expires_in] is refused (any 4xx)', { needs: { explored } }, judge);
    it('STATUS-POLL-6 explored inputs: a poll with media_ids is refused (any 4xx)', { needs: { explored } }, judge);
    it('STATUS-SCHEDULED-1 explored inputs: scheduled_at 10 minutes ahead answers a ScheduledStatus for that time', { needs: { explored } }, judge);
    it('STATUS-SCHEDULED-2 explored inputs: a ScheduledStatus\'s params echo the text and visibility sent', { needs: { explored } }, judge);
    it('STATUS-SCHEDULED-3 explored inputs: scheduled_at 2 minutes ahead is refused (any 4xx)', { needs: { explored } }, judge);
    it('MEDIA-ATTACH-3 explored inputs: another account\'s attachment in media_ids[] is refused (any 4xx)', { needs: { explored } }, judge);
    it('STATUS-EFFECT-1 explored inputs: another account\'s read of an open poll made with poll[hide_totals] shows no votes_count', { needs: { explored } }, judge);
    it('STATUS-EFFECT-2 explored inputs: the reads by the owner and by another account show spoiler_text, sensitive and language as created', { needs: { explored } }, judge);
    it('STATUS-EFFECT-3 explored inputs: another account\'s read shows the poll\'s options and multiple as created', { needs: { explored } }, judge);
    it('STATUS-EFFECT-7 explored inputs: its owner\'s later read shows the visibility sent', { needs: { explored } }, judge);
    it('STATUS-REBLOG-2 explored inputs: a boost made with visibility unlisted or private shows it on its answer and on the later reads by its booster and by another account', { needs: { explored } }, judge);
  });
  section('States and transitions', () => {
    it('STATUS-FAV-1 explored inputs: favourite of a visible status answers the Status with favourited = true', { needs: { explored } }, judge);
    it('STATUS-FAV-3 explored inputs: the unfavourite after a favourite answers the Status with favourited = false', { needs: { explored } }, judge);
    it('STATUS-FAV-4 explored inputs: unfavourite of a visible status not favourited answers the Status with favourited = false', { needs: { explored } }, judge);
    it('STATUS-FAV-5 explored inputs: favourite and unfavourite of an id the caller cannot see (private, deleted, never existed, malformed) answer 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-REBLOG-1 explored inputs: reblog of a visible status answers the boost, reblogged = true', { needs: { explored } }, judge);
    it('STATUS-REBLOG-4 explored inputs: the unreblog after a reblog answers the Status with reblogged = false', { needs: { explored } }, judge);
    it('STATUS-REBLOG-5 explored inputs: unreblog of a visible status the caller has not boosted answers 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-REBLOG-6 explored inputs: reblog and unreblog of an id the caller cannot see (private, deleted, never existed, malformed) answer 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-BOOKMARK-1 explored inputs: bookmark of a visible status answers the Status with bookmarked = true', { needs: { explored } }, judge);
    it('STATUS-BOOKMARK-2 explored inputs: the unbookmark after a bookmark answers the Status with bookmarked = false', { needs: { explored } }, judge);
    it('STATUS-BOOKMARK-3 explored inputs: unbookmark of a visible status not bookmarked answers 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-BOOKMARK-4 explored inputs: bookmark and unbookmark of an id the caller cannot see (private, deleted, never existed, malformed) answer 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-MUTE-1 explored inputs: mute of the caller\'s own thread answers the Status with muted = true', { needs: { explored } }, judge);
    it('STATUS-MUTE-2 explored inputs: a mute of the caller\'s own thread asked twice at the same moment answers 200 both times, muted = true', { needs: { explored } }, judge);
    it('STATUS-MUTE-3 explored inputs: the unmute after a mute answers the Status with muted = false', { needs: { explored } }, judge);
    it('STATUS-MUTE-4 explored inputs: unmute of a visible status not muted answers the Status with muted = false', { needs: { explored } }, judge);
    it('STATUS-MUTE-5 explored inputs: mute and unmute of an id the caller cannot see (private, deleted, never existed, malformed) answer 404 "Record not found"', { needs: { explored } }, judge);
    it('STATUS-PIN-1 explored inputs: pin of the caller\'s own public status answers the Status with pinned = true', { needs: { explored } }, judge);
    it('STATUS-PIN-2 explored inputs: pin of another account\'s visible status answers 422 "Validation failed: Someone else\'s toot cannot be pinned"', { needs: { explored } }, judge);
    it('STATUS-PIN-5 explored inputs: the unpin after a pin answers the Status with pinned = false', { needs: { explored } }, judge);
    it('STATUS-PIN-6 explored inputs: unpin of a visible status not pinned answers the Status with pinned = false', { needs: { explored } }, judge);
    it('STATUS-PIN-3 explored inputs: the owner\'s pin of its unlisted and direct statuses (the access matrix) answers 422 "Validation failed: Non-public toot cannot be pinned"', { needs: { explored } }, judge);
    it('ERRORS-TOKEN-1 explored inputs: every move, undo and DELETE of the access matrix sent without a token, on A\'s statuses of each visibility, answers 401 "The access token is invalid"', { needs: { explored } }, judge);
    it('STATUS-PIN-7 explored inputs: pin and unpin of an id the caller cannot see (private, deleted, never existed, malformed) answer 404 "Record not found" (pin may give the 422 of a status not owned)', { needs: { explored } }, judge);
  });
  section('Client registration, OAuth and Account relations', () => {
    const needs = { authExplored };
    it('APPS-REGISTER-1 explored inputs: a registration of valid parameters (redirect URIs: out-of-band, one, several by a space or a line; scopes read, read write, all four) answers the Application with client_id and client_secret', { needs }, judgeAuth);
    it('APPS-REGISTER-2 explored inputs: the Application of a valid registration carries the client name and website sent', { needs }, judgeAuth);
    it('APPS-REDIRECTS-1 explored inputs: an application registered with several redirect URIs is granted a token for the last one listed', { needs }, judgeAuth);
    it('APPS-VERIFY-1 explored inputs: verify_credentials with a user token, and with each token granted to a valid request, answers the Application (the explored one for its tokens)', { needs }, judgeAuth);
    it('APPS-VERIFY-2 explored inputs: verify_credentials without a token (no header, or the Bearer scheme alone) answers 401 "The access token is invalid"', { needs }, judgeAuth);
    it('ERRORS-TOKEN-2 explored inputs: a token no server issued (verify_credentials, following, followers) and a revoked token answer 401 "The access token is invalid"', { needs }, judgeAuth);
    it('OAUTH-TOKEN-1 explored inputs: client_credentials with a scope within the registered set, or none, answers a Token with access_token', { needs }, judgeAuth);
    it('OAUTH-SCOPE-1 explored inputs: a scope beyond the registered set (read follow, an unknown scope) is refused, and a Token\'s granted scope lies within the registered set', { needs }, judgeAuth);
    it('OAUTH-CLIENTCRED-1 explored inputs: client_credentials without a scope is granted the read scope', { needs }, judgeAuth);
    it('OAUTH-REDIRECT-2 explored inputs: client_credentials with a redirect_uri that was not registered (another, or the registered one extended) is refused', { needs }, judgeAuth);
    it('OAUTH-CODE-1 explored inputs: authorization_code with a code never issued, or without a code, is refused', { needs }, judgeAuth);
    it('OAUTH-REVOKE-1 explored inputs: each token granted, revoked by its own client, is refused afterwards', { needs }, judgeAuth);
    it('OAUTH-AUTHORIZE-1 explored inputs: GET /oauth/authorize for the registered client, with state or without, shows the form (or sends the user to sign in)', { needs }, judgeAuth);
    it('RELATIONS-APPTOKEN-1 explored inputs: following and followers of an existing account answer 200 to a user token and to an application token', { needs }, judgeAuth);
    it('RELATIONS-TOKEN-1 explored inputs: following and followers without a token (no header, or the Bearer scheme alone) answer 401', { needs }, judgeAuth);
  });
  section('Media uploads and updates', () => {
    it('MEDIA-UPLOAD-1 explored inputs: a v1 upload of valid parameters answers 200 and an Attachment', { needs: { explored } }, judge);
    it('MEDIA-V2-1 explored inputs: a v2 upload of valid parameters answers 202 and an Attachment with url null', { needs: { explored } }, judge);
    it('MEDIA-UPLOAD-4 explored inputs: the description sent with an upload is the Attachment\'s description', { needs: { explored } }, judge);
    it('MEDIA-UPLOAD-5 explored inputs: a file that is no image is uploaded as type unknown with blurhash null', { needs: { explored } }, judge);
    it('MEDIA-UPLOAD-6 explored inputs: an upload with an invalid file or thumbnail answers 422 "Validation failed: File content type is invalid, File is invalid"', { needs: { explored } }, judge);
    it('MEDIA-FOCUS-1 explored inputs: focus sent with an upload of an image, inside -1..1 or at its edge, is meta.focus', { needs: { explored } }, judge);
    it('MEDIA-FOCUS-2 explored inputs: focus inside -1..1 or at its edge round-trips through an update, and no focus value (past the edge, malformed) answers 5xx', { needs: { explored } }, judge);
    it('MEDIA-UPDATE-3 explored inputs: an update with a thumbnail that is not an image answers 422', { needs: { explored } }, judge);
  });
  section('Streams', () => {
    it('STREAM-HEALTH-1 explored inputs: GET /api/v1/streaming/health answers OK', { needs: { explored } }, judge);
    it('STREAM-SSE-1 explored inputs: every event stream path with A\'s token, and the tag or list it needs, answers 200 text/event-stream', { needs: { explored } }, judge);
    it('STREAM-WS-1 explored inputs: every allowed stream value with A\'s token, and the tag or list it needs, opens a WebSocket stream', { needs: { explored } }, judge);
  });
  section('Media', () => {
    it('MEDIA-READ-1 explored inputs: a read of the caller\'s own attachment answers the Attachment (200, or 206 while processing)', { needs: { explored } }, judge);
    it('MEDIA-READ-4 explored inputs: a read of another account\'s attachment answers 404 "Record not found"', { needs: { explored } }, judge);
    it('MEDIA-READ-5 explored inputs: a read of an attachment id that names nothing (deleted, never existed, malformed) answers 404 "Record not found"', { needs: { explored } }, judge);
    it('MEDIA-UPDATE-1 explored inputs: an update of the caller\'s own attachment answers the Attachment, with the description sent', { needs: { explored } }, judge);
    it('MEDIA-UPDATE-2 explored inputs: an update of another account\'s attachment answers 404 "Record not found"', { needs: { explored } }, judge);
    it('MEDIA-UPDATE-4 explored inputs: an update of an attachment id that names nothing (deleted, never existed, malformed) answers 404 "Record not found"', { needs: { explored } }, judge);
  });
});

// What our fault tests share: the settings some faults need, the suite files, and the judgement of a run under one
// or several faults: the failed clauses must be exactly theirs, and every blocked check must name one of them.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ALSO_FAILS, BLOCKS, CONTROLLED, faultClause, type Fault } from '../../fixtures/reference-server/faults.ts';
import type { Variation } from '../../fixtures/reference-server/variations.ts';
import { ROOT } from './run-cli.ts';
import { heldCauses } from '../support/report/blocks.ts';
import { declaredChecks } from '../support/report/declared-checks.ts';
import { clauseOfTitle } from '../support/report/results.ts';
import { EXPLORED_FAULTS } from './explored-faults.ts';
import { EMBEDDED_SETTLE_MS } from '../support/talk/config.ts';
import type { RunCheck, SuiteOutcome } from './suite-runner.ts';

/** The exploration that reaches past the access matrix's cells, which --explore N sends first: the covering sets of the inputs on ids and of the creations whole. */
const PAST_THE_MATRIX = { CONFORMANCE_EXPLORE: '320' };

/** Faults whose clause is only checked under a setting; their runs switch it on. */
export const FAULT_SETTINGS: Partial<Record<Fault, Record<string, string>>> = {
  'STATUS-WHITELIST-1': { CONFORMANCE_WHITELIST_MODE: '1' },
  // The card operation answers a Card only before its removal in 3.0.0.
  'STATUS-CARD-1': { CONFORMANCE_SERVER_VERSION: '2.9.0' },
  'RESOURCE-CARD-1': { CONFORMANCE_SERVER_VERSION: '2.9.0' },
  // The default run's share of the exploration is what the checks leave of one IP access window (1 request today):
  // these faults are found under --explore N, as the issue's acceptance runs them. The access matrix's cells take the
  // first 126 requests of N (act/explore-matrix.ts): the inputs on ids and the creations' covering sets are whole from 320.
  'STATUS-FAV-5:deleted': PAST_THE_MATRIX,
  'STATUS-BOOKMARK-4:malformed': PAST_THE_MATRIX,
  // A's update of B's attachment (the default run asks B's of A's), which the inputs on ids reach past --explore 200.
  'MEDIA-UPDATE-2:first-account': PAST_THE_MATRIX,
  'STATUS-REBLOG-6:missing': PAST_THE_MATRIX,
  // Rows of POST /api/v1/statuses's parameters no other check sends: a poll of one option, a spoiler_text with a
  // poll, poll[multiple] false.
  'ERRORS-5XX-1:one-option': PAST_THE_MATRIX,
  'STATUS-CREATE-2:polls': PAST_THE_MATRIX,
  'STATUS-POLL-3:false': PAST_THE_MATRIX,
  // scheduled_at 2 minutes ahead (the default run's too-soon time is 1 minute ahead).
  'STATUS-SCHEDULED-3:minutes': PAST_THE_MATRIX,
  // A poll beside an attachment id that names nothing (the default run's check sends an upload of its own).
  'STATUS-POLL-6:unknown-media': PAST_THE_MATRIX,
  // Inputs of registration and OAuth no other check sends: redirect URIs separated by a space, a scope no server
  // knows, an application token's revocation (the OAuth group revokes a user token), a grant no server knows.
  ...Object.fromEntries((['APPS-REDIRECTS-1:space', 'OAUTH-SCOPE-1:unknown', 'OAUTH-REVOKE-1:application-token', 'ERRORS-5XX-1:unknown-grant'] as const).map((fault) => [fault, { CONFORMANCE_EXPLORE: '200' }])),
  // Media uploads and streams no other check sends: a focal point at the edge or past it at upload, a description
  // beside a thumbnail, an unknown WebSocket stream value, a tag with digits.
  ...Object.fromEntries((['MEDIA-FOCUS-1:edge', 'MEDIA-FOCUS-2:upload', 'MEDIA-UPLOAD-4:with-thumbnail', 'ERRORS-5XX-1:unknown-stream', 'STREAM-WS-1:tag-digits'] as const).map((fault) => [fault, { CONFORMANCE_EXPLORE: '200' }])),
  // Explored inputs of registration, media and the health endpoint that the default run's checks of the same clause do
  // not send (issue 49: a fault per explored check): redirect URIs separated by a space (no client_secret, no website),
  // an application token holding every registered scope, the relations of another account with an application token
  // and with a token no server issued, a GIF by v1, a file that is no image by v2 (kept at once, kept
  // as an image), a thumbnail that is not an image at upload and alone on an update, A's read of B's attachment (the
  // default run asks B's of A's), the health endpoint with Accept */*.
  ...Object.fromEntries(
    (['APPS-REGISTER-1:space', 'APPS-REGISTER-2:space', 'APPS-VERIFY-1:registered-set', 'RELATIONS-APPTOKEN-1:another', 'ERRORS-TOKEN-2:relations', 'MEDIA-UPLOAD-1:gif', 'MEDIA-V2-1:unknown', 'MEDIA-UPLOAD-5:v2', 'MEDIA-UPLOAD-6:thumbnail', 'MEDIA-UPDATE-3:alone', 'MEDIA-READ-4:first-account', 'STREAM-HEALTH-1:any-accept'] as const).map((fault) => [fault, { CONFORMANCE_EXPLORE: '200' }]),
  ),
  // The reblog visibility parameter's effect on the boost's later reads, which only the exploration reads.
  'STATUS-REBLOG-2:read': PAST_THE_MATRIX,
  // The STATUS-* explored checks' own faults (issue 49): B's creations (with a poll, public, unlisted, an empty body,
  // scheduled 10 minutes ahead) and their reads, B's reads of its own private and direct statuses and A's of B's direct
  // one, A's DELETE of B's status, the lists of A's deleted public status, A's reply without a visibility, the context
  // of a status with no thread, A's undo of its boost of its own status and its unpin after it.
  ...Object.fromEntries(
    (
      [
        'STATUS-READ-2:another',
        'STATUS-VIS-6:another',
        'STATUS-VIS-7:first-account',
        'STATUS-DELETE-3:first-account',
        'STATUS-DELETE-6:public',
        'STATUS-CREATE-3:polls',
        'STATUS-CREATE-4:private-poll',
        'STATUS-CREATE-5:public-poll',
        'STATUS-EFFECT-2:polls',
        'STATUS-CREATE-7:polls',
        'STATUS-EFFECT-7:polls',
        'STATUS-PARAMS-1:empty-body',
        'STATUS-POLL-5:public',
        'STATUS-SCHEDULED-1:clamped',
        'STATUS-SCHEDULED-2:unlisted',
        'STATUS-EFFECT-1:public',
        'STATUS-EFFECT-3:single',
        'STATUS-READ-1:hidden-totals',
        'STATUS-VIS-1:threadless',
        'STATUS-CREATE-1:polls',
        'STATUS-CREATE-6:no-visibility',
        'STATUS-POLL-1:sorted',
        'STATUS-POLL-2:single',
        'STATUS-REBLOG-4:own',
        'STATUS-PIN-5:self-boosted',
      ] as const
    ).map((fault) => [fault, PAST_THE_MATRIX]),
  ),
  // Cells of the access matrix the default run does not ask (issue 50's decision), sent first under --explore N: a
  // tokenless bookmark of an unlisted status, another account's favourite of a direct one and favourited_by of a
  // private one.
  ...Object.fromEntries((['ERRORS-TOKEN-1:unlisted-bookmark', 'STATUS-FAV-5:direct', 'STATUS-VIS-8:signed-in'] as const).map((fault) => [fault, { CONFORMANCE_EXPLORE: '200' }])),
  // More of those cells, one per explored check of the matrix's clauses (issue 49): the moves, undos and lists of an
  // unlisted status, another account's mute and unpin of a direct one, the pins of unlisted statuses; and of the inputs
  // on ids, A's read and context of B's private status (the default run asks B's of A's).
  ...Object.fromEntries(
    (
      [
        'STATUS-REBLOGGEDBY-1:unlisted',
        'STATUS-FAVOURITEDBY-1:unlisted',
        'STATUS-FAV-1:unlisted',
        'STATUS-FAV-3:unlisted',
        'STATUS-BOOKMARK-2:unlisted',
        'STATUS-MUTE-3:unlisted',
        'STATUS-MUTE-5:direct',
        'STATUS-PIN-2:unlisted',
        'STATUS-PIN-3:unlisted',
        'STATUS-PIN-7:direct',
        'STATUS-READ-3:first-account',
        'STATUS-VIS-5:first-account',
      ] as const
    ).map((fault) => [fault, { CONFORMANCE_EXPLORE: '200' }]),
  ),
  // The explored inputs of moves, media and OAuth that the default run's checks of the same clause do not send (issue 49:
  // a fault per explored check): another account's status unfavourited and unpinned, a self-boost, an unlisted status
  // bookmarked, A's unlisted thread muted, a description beside a thumbnail on an update, an update of a malformed
  // attachment id, a client_credentials token asked for the whole registered set; and past the access matrix, a read
  // of a malformed attachment id, another account's attachment on a public status (the default run's is private).
  ...Object.fromEntries(
    (['STATUS-FAV-4:another', 'STATUS-REBLOG-1:own', 'STATUS-BOOKMARK-1:unlisted', 'STATUS-MUTE-1:unlisted', 'STATUS-PIN-6:another', 'MEDIA-UPDATE-1:with-thumbnail', 'MEDIA-UPDATE-4:malformed', 'OAUTH-TOKEN-1:registered-set'] as const).map((fault) => [fault, { CONFORMANCE_EXPLORE: '200' }]),
  ),
  'MEDIA-READ-5:malformed': PAST_THE_MATRIX,
  'MEDIA-ATTACH-3:public': PAST_THE_MATRIX,
  // An undo again after the undo of its move, and the mute again: the state machine's covering sequences reach each
  // whatever the seed draws, and the explored inputs send the unreblog and the unbookmark again too (those faults'
  // explored checks fail). The default run sends none of them: the unreblog would be a call of A's Deletion bucket,
  // the others 1 to 3 calls each past its request line (285; the unmute again is its row's; the mute again would
  // need its unmute before the delete, since a thread's mute outlives its status).
  ...Object.fromEntries(
    (['STATUS-FAV-4:undone-again', 'STATUS-REBLOG-5:undone-again', 'STATUS-BOOKMARK-3:undone-again', 'STATUS-MUTE-1:redone', 'STATUS-PIN-6:undone-again'] as const).map((fault) => [fault, { CONFORMANCE_EXPLORE: '200' }]),
  ),
  // Input classes only the exploration sends (issue 49 items 3 and 6): an authorization request with state, the code
  // grant without a code, a redirect_uri that extends the registered one, the Bearer scheme with no token, a
  // client_credentials grant without a scope on an application registered 'write read', a hashtag stream's tag with
  // capitals on server-sent events.
  ...Object.fromEntries((['OAUTH-AUTHORIZE-1:state', 'OAUTH-CODE-1:missing', 'OAUTH-REDIRECT-2:prefix', 'APPS-VERIFY-2:empty-bearer', 'RELATIONS-TOKEN-1:empty-bearer', 'OAUTH-CLIENTCRED-1:first-registered', 'STREAM-SSE-1:capitals'] as const).map((fault) => [fault, { CONFORMANCE_EXPLORE: '200' }])),
  // Only the exploration sends these moves twice at the same moment (act/explore-at-once.ts): the default run's sequence
  // sends the bookmark so, not these (2 or 3 calls each past its request line).
  ...Object.fromEntries(
    (['STATUS-FAV-4:at-once', 'STATUS-BOOKMARK-3:at-once', 'STATUS-MUTE-2:at-once', 'STATUS-MUTE-4:at-once', 'STATUS-PIN-5:at-once', 'STATUS-PIN-6:at-once'] as const).map((fault) => [fault, { CONFORMANCE_EXPLORE: '200' }]),
  ),
};

/**
 * A fault that silences a stream makes its check wait for the whole timeout. The embedded server answers in
 * milliseconds, so a short wait still tells a missing event from a late one, and the stream faults stay cheap.
 */
export const RUN_TIMEOUT_MS = '3000';

/**
 * The fault runner's runs (fault-exactness.test.ts): every run's server answers on the runner's one thread, beside
 * its workers, and on a busy machine (a load of 20) an answer came after 3 s; a request waits as long as it must
 * (a slow answer is no deviation, nor a slow stream opening), while a stream's window for its events stays RUN_TIMEOUT_MS.
 */
export const RUNNER_TIMEOUTS = { CONFORMANCE_TIMEOUT_MS: '15000', CONFORMANCE_STREAM_WINDOW_MS: RUN_TIMEOUT_MS };

const ALL_SUITE_FILES = readdirSync(join(ROOT, 'suites')).filter((f) => f.endsWith('.test.ts')).map((f) => `suites/${f}`);

/**
 * SELF_GROUPS=media,statuses narrows our fault tests to those groups' files, for work on a few groups: the faults
 * no selected file checks or reaches are left out instead of reported. Unset, every group runs.
 */
const selected = process.env.SELF_GROUPS?.split(',').map((g) => `suites/${g.trim().replace(/\.test\.ts$/, '')}.test.ts`);
for (const file of selected ?? []) if (!ALL_SUITE_FILES.includes(file)) throw new Error(`SELF_GROUPS: no ${file}`);
export const NARROWED = selected !== undefined;
export const SUITE_FILES = selected ?? ALL_SUITE_FILES;

let checkingFiles: Map<string, string[]> | undefined;
/**
 * The suite files declaring a check of each clause, the explored inputs' file aside (`catchable` asks for it where a
 * fault needs the exploration). Narrowed, a fault is caught only where all of them run: a clause may be checked in
 * several files, and the check that meets a fault's deviation (STATUS-CREATE-4's poll, in statuses-create.test.ts)
 * is not always the one a selected file holds.
 */
function filesCheckingClause(): Map<string, string[]> {
  if (checkingFiles) return checkingFiles;
  checkingFiles = new Map();
  for (const { file, checks } of declaredChecks(ROOT)) {
    if (file === EXPLORING_FILES[0]) continue;
    for (const { title } of checks) {
      const files = checkingFiles.get(clauseOfTitle(title)) ?? [];
      if (!files.includes(file)) checkingFiles.set(clauseOfTitle(title), [...files, file]);
    }
  }
  return checkingFiles;
}

/** The files the exploration runs in: the explored inputs, and the state machine's sequences. */
const EXPLORING_FILES = ['suites/explore.test.ts', 'suites/statuses-interactions.test.ts'];
/**
 * Whether the files a fault's deviation may be met in are all selected. A fault that needs the exploration deviates
 * only at an explored input, which a default check of its clause in a selected file does not send (that is why it
 * has a fault of its own): narrowed without the exploration's files, that check passes and proves nothing. An
 * explored check's own fault is met by the explored inputs; another fault that explores, by the sequences too.
 */
export function catchable(fault: Fault): boolean {
  if (!NARROWED) return true;
  // A clause no group file declares a check of (one the explored inputs alone check, a run-wide one) asks nothing here.
  const checking = filesCheckingClause().get(faultClause(fault)) ?? [];
  if (!checking.every((file) => SUITE_FILES.includes(file))) return false;
  if (!FAULT_SETTINGS[fault]?.CONFORMANCE_EXPLORE) return true;
  const needed = EXPLORED_FAULTS[faultClause(fault)] === fault ? EXPLORING_FILES.slice(0, 1) : EXPLORING_FILES;
  return needed.every((file) => SUITE_FILES.includes(file));
}

/**
 * The access buckets' period on the servers of the fault runs. A server that accepts what it must refuse makes the
 * suite undo it, and a compound profile of such deviations spends more than a run's budget of the IP access bucket:
 * pacing then waits for the reset, as it should on a live server. Here it waits seconds, within the runner's check
 * timeout; the budget of a plain run is judged at the contract's 5 minutes (budget.test.ts).
 */
const ACCESS_PERIOD_MS = '30000';
/**
 * The access buckets' period on the servers of the runs that explore (CONFORMANCE_EXPLORE): the exploration's inputs
 * of registration, OAuth, media and streams come beside N, so such a run takes more than one window and waits for a
 * reset, at 30 s about 30 s a file run (those runs were most of the fault runs' time). The embedded server answers a
 * window's 300 calls in seconds; the checks that read the buckets' counts judge only within one period (limits.test.ts).
 */
const EXPLORED_ACCESS_PERIOD_MS = '5000';

/** The settings of a run under a fault's settings (FAULT_SETTINGS): a run that explores gets the short access windows. */
export function settingsEnv(settings: Record<string, string>): Record<string, string> {
  return { ...settings, ...(settings.CONFORMANCE_EXPLORE ? { CONFORMANCE_ACCESS_PERIOD_MS: EXPLORED_ACCESS_PERIOD_MS } : {}) };
}

/**
 * The settle window of the fault runs, the embedded server's own also under a compound profile's variations: a fault
 * whose move never takes makes its reads wait the whole window, and a run of the interactions waits it once to
 * confirm its undos. The reference server applies every move at once; its one late state, the favourite of
 * STATUS-FAV-3:returns, comes back within this.
 */
const SETTLE_MS = String(EMBEDDED_SETTLE_MS);

/** The settings of a run of these faults, on a server with these harmless variations (a compound profile's). */
export function faultEnv(faults: readonly Fault[], variations: readonly Variation[] = []): Record<string, string> {
  return {
    CONFORMANCE_TIMEOUT_MS: RUN_TIMEOUT_MS,
    CONFORMANCE_ACCESS_PERIOD_MS: ACCESS_PERIOD_MS,
    CONFORMANCE_SETTLE_MS: SETTLE_MS,
    CONFORMANCE_FAULTS: faults.join(','),
    ...(variations.length ? { CONFORMANCE_VARIATIONS: variations.join(',') } : {}),
    ...settingsEnv(Object.assign({}, ...faults.map((f) => FAULT_SETTINGS[f] ?? {}))),
  };
}

export const failedClauses = (outcome: SuiteOutcome) => new Set(outcome.checks.filter((c) => c.status === 'failed').map((c) => c.failedClause ?? c.clause));

export const describeCheck = (c: RunCheck) =>
  `${c.title}: ${c.status}${c.blockedBy ? ` by ${c.blockedBy.clause ?? 'outside the contract'} (${c.blockedBy.summary})` : ''}${c.status === 'failed' ? ` [${(c.message ?? '').split('\n')[0]}]` : ''}`;

/**
 * A pass judged at least one instance, and a check that met nothing to judge names the cause: a passed check that
 * judged nothing, or one not judged (whose absence no fault of the run explains), is a defect of the suite. Against
 * the plain server every check judges something; under a fault, what it takes away blocks, naming its clause.
 */
function unjudgedProblems(outcome: SuiteOutcome): string[] {
  return outcome.checks.flatMap((c) => {
    if (c.status === 'passed' && !c.judged) return [`passed judging nothing: ${describeCheck(c)}`];
    if (c.status === 'not-judged') return [`not judged: ${describeCheck(c)} (${c.notJudged ?? ''})`];
    return [];
  });
}

/** Refusal checks that passed though a fault of the run took their positive control away (faults.ts CONTROLLED). */
function uncontrolledProblems(outcome: SuiteOutcome, faults: readonly Fault[]): string[] {
  const clauses = new Set(faults.flatMap((f) => CONTROLLED[f]?.clauses ?? []));
  return outcome.checks.filter((c) => c.status === 'passed' && clauses.has(c.clause)).map((c) => `passed without its positive control: ${describeCheck(c)}`);
}

/** The explored check of a clause: the explore group's check of it (suites/explore.test.ts, one per clause). */
const isExplored = (c: RunCheck, clause: string) => c.file === 'suites/explore.test.ts' && c.clause === clause;
/** A fault that is an explored check's own (explored-faults.ts) must fail that check, not only the default run's of its clause. */
function unprovenExplored(outcome: SuiteOutcome, faults: readonly Fault[]): string[] {
  const own = faults.filter((f) => EXPLORED_FAULTS[faultClause(f)] === f);
  return own.flatMap((f) => outcome.checks.filter((c) => isExplored(c, faultClause(f)) && c.status !== 'failed').map((c) => `${f} did not fail its explored check: ${describeCheck(c)}`));
}

/** Checks of `clauses` blocked in the run: a profile's `judged` (faults.ts PROFILES), which its faults must not hide. */
export function hiddenProblems(outcome: SuiteOutcome | undefined, clauses: readonly string[]): string[] {
  return (outcome?.checks ?? []).filter((c) => c.status === 'blocked' && clauses.includes(c.clause)).map((c) => `hidden behind a block: ${describeCheck(c)}`);
}

/**
 * What is wrong with a run of `faults`: their clauses not failed, failed clauses other than theirs (and those
 * ALSO_FAILS declares), checks blocked by something else than them (or what BLOCKS declares), checks blocked by a
 * clause that neither failed nor was blocked in the run (the reporter's invariant, blocks.ts unheldBlocks), checks
 * that passed judging nothing or were not judged, errors outside checks.
 */
export function exactnessProblems(outcome: SuiteOutcome | undefined, faults: readonly Fault[]): string[] {
  // Narrowed to a few groups (SELF_GROUPS), a fault whose clause none of them checks cannot be caught there, nor one
  // whose check there the run's settings skip (an explored check where the profile's run explores no more than the
  // default), nor one met only in the exploration's files where they are left out (catchable).
  const judged = (f: Fault) => !NARROWED || (catchable(f) && outcome?.checks.some((c) => c.clause === faultClause(f) && c.status !== 'skipped'));
  if (!outcome) return ['the runner did not report on this run'];
  const failed = failedClauses(outcome);
  const expected = new Set<string>([...faults.map(faultClause), ...faults.flatMap((f) => ALSO_FAILS[f]?.clauses ?? [])]);
  const allowedCauses = new Set<string>([...faults.map(faultClause), ...faults.flatMap((f) => BLOCKS[f]?.clauses ?? [])]);
  const held = heldCauses(outcome.checks);
  // Narrowed, the cause's own check may sit in a group left out: only a cause with a check in the run can be held to it.
  const inRun = (clause: string) => !NARROWED || outcome.checks.some((c) => c.clause === clause);
  return [
    ...outcome.errors.map((e) => `error outside checks: ${e}`),
    ...faults.filter((f) => !failed.has(faultClause(f)) && judged(f)).map((f) => `${f} not caught: ${outcome.checks.filter((c) => c.clause === faultClause(f)).map(describeCheck).join('; ') || 'no check of it ran'}`),
    ...outcome.checks.filter((c) => c.status === 'failed' && !expected.has(c.failedClause ?? c.clause)).map((c) => `also failed: ${describeCheck(c)}`),
    ...outcome.checks.filter((c) => c.status === 'blocked' && !(c.blockedBy?.clause && allowedCauses.has(c.blockedBy.clause))).map((c) => `blocked by another cause: ${describeCheck(c)}`),
    ...outcome.checks
      .filter((c) => c.status === 'blocked' && c.blockedBy?.clause && !held.has(c.blockedBy.clause) && inRun(c.blockedBy.clause))
      .map((c) => `blocked by a cause that neither failed nor was blocked in this run: ${describeCheck(c)}`),
    ...unjudgedProblems(outcome),
    ...uncontrolledProblems(outcome, faults),
    ...unprovenExplored(outcome, faults),
  ];
}

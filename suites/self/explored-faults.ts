// Rule 2 for the explored inputs (issue 49): each check that judges explored inputs (suites/explore.test.ts, `CLAUSE
// explored inputs: ...`) is proven able to fail by a fault of its own, one that an explored input of its clause reaches
// and the default run's checks do not. Its run explores (fault-runs.ts FAULT_SETTINGS: CONFORMANCE_EXPLORE), and
// fault-exactness-settings.test.ts holds that it fails its clause alone, the explored check among the failed
// (exactnessProblems).
// A fault of the clause run without exploring proves the default run's check alone: the explored check is skipped there.
import type { Fault } from '../../fixtures/reference-server/faults.ts';

/** The fault that makes each explored check fail, by the check's clause (one explored check per clause). */
export const EXPLORED_FAULTS: Readonly<Partial<Record<string, Fault>>> = {
  // Inputs on ids and the access matrix's cells.
  'STATUS-READ-3': 'STATUS-READ-3:first-account',
  'STATUS-VIS-5': 'STATUS-VIS-5:first-account',
  'STATUS-VIS-8': 'STATUS-VIS-8:signed-in',
  'STATUS-REBLOGGEDBY-1': 'STATUS-REBLOGGEDBY-1:unlisted',
  'STATUS-FAVOURITEDBY-1': 'STATUS-FAVOURITEDBY-1:unlisted',
  'STATUS-FAV-1': 'STATUS-FAV-1:unlisted',
  'STATUS-FAV-3': 'STATUS-FAV-3:unlisted',
  'STATUS-FAV-5': 'STATUS-FAV-5:deleted',
  'STATUS-REBLOG-6': 'STATUS-REBLOG-6:missing',
  'STATUS-BOOKMARK-2': 'STATUS-BOOKMARK-2:unlisted',
  'STATUS-BOOKMARK-4': 'STATUS-BOOKMARK-4:malformed',
  'STATUS-MUTE-3': 'STATUS-MUTE-3:unlisted',
  'STATUS-MUTE-5': 'STATUS-MUTE-5:direct',
  'STATUS-PIN-2': 'STATUS-PIN-2:unlisted',
  'STATUS-PIN-3': 'STATUS-PIN-3:unlisted',
  'STATUS-PIN-7': 'STATUS-PIN-7:direct',
  'ERRORS-TOKEN-1': 'ERRORS-TOKEN-1:unlisted-bookmark',
  // The creations and the reblog's visibility.
  'STATUS-CREATE-2': 'STATUS-CREATE-2:polls',
  'STATUS-POLL-3': 'STATUS-POLL-3:false',
  'STATUS-SCHEDULED-3': 'STATUS-SCHEDULED-3:minutes',
  'STATUS-POLL-6': 'STATUS-POLL-6:unknown-media',
  'STATUS-REBLOG-2': 'STATUS-REBLOG-2:read',
  // The STATUS-* clauses' own: B's creations and reads of them, A's reach over B's objects, A's deleted public status.
  'STATUS-READ-2': 'STATUS-READ-2:another',
  'STATUS-VIS-6': 'STATUS-VIS-6:another',
  'STATUS-VIS-7': 'STATUS-VIS-7:first-account',
  'STATUS-DELETE-3': 'STATUS-DELETE-3:first-account',
  'STATUS-DELETE-6': 'STATUS-DELETE-6:public',
  'STATUS-CREATE-3': 'STATUS-CREATE-3:polls',
  'STATUS-CREATE-4': 'STATUS-CREATE-4:private-poll',
  'STATUS-CREATE-5': 'STATUS-CREATE-5:public-poll',
  'STATUS-EFFECT-2': 'STATUS-EFFECT-2:polls',
  'STATUS-CREATE-7': 'STATUS-CREATE-7:polls',
  'STATUS-EFFECT-7': 'STATUS-EFFECT-7:polls',
  'STATUS-PARAMS-1': 'STATUS-PARAMS-1:empty-body',
  'STATUS-POLL-5': 'STATUS-POLL-5:public',
  'STATUS-SCHEDULED-1': 'STATUS-SCHEDULED-1:clamped',
  'STATUS-SCHEDULED-2': 'STATUS-SCHEDULED-2:unlisted',
  'STATUS-EFFECT-1': 'STATUS-EFFECT-1:public',
  'STATUS-EFFECT-3': 'STATUS-EFFECT-3:single',
  'STATUS-READ-1': 'STATUS-READ-1:hidden-totals',
  'STATUS-VIS-1': 'STATUS-VIS-1:threadless',
  'STATUS-CREATE-1': 'STATUS-CREATE-1:polls',
  'STATUS-CREATE-6': 'STATUS-CREATE-6:no-visibility',
  'STATUS-POLL-1': 'STATUS-POLL-1:sorted',
  'STATUS-POLL-2': 'STATUS-POLL-2:single',
  'STATUS-REBLOG-4': 'STATUS-REBLOG-4:own',
  'STATUS-PIN-5': 'STATUS-PIN-5:self-boosted',
  // Client registration, OAuth and Account relations.
  'APPS-REGISTER-1': 'APPS-REGISTER-1:space',
  'APPS-REGISTER-2': 'APPS-REGISTER-2:space',
  'APPS-REDIRECTS-1': 'APPS-REDIRECTS-1:space',
  'APPS-VERIFY-1': 'APPS-VERIFY-1:registered-set',
  'OAUTH-SCOPE-1': 'OAUTH-SCOPE-1:unknown',
  'OAUTH-REVOKE-1': 'OAUTH-REVOKE-1:application-token',
  'RELATIONS-APPTOKEN-1': 'RELATIONS-APPTOKEN-1:another',
  'ERRORS-TOKEN-2': 'ERRORS-TOKEN-2:relations',
  // Media uploads and updates, and the streams.
  'MEDIA-UPLOAD-1': 'MEDIA-UPLOAD-1:gif',
  'MEDIA-V2-1': 'MEDIA-V2-1:unknown',
  'MEDIA-UPLOAD-4': 'MEDIA-UPLOAD-4:with-thumbnail',
  'MEDIA-UPLOAD-5': 'MEDIA-UPLOAD-5:v2',
  'MEDIA-UPLOAD-6': 'MEDIA-UPLOAD-6:thumbnail',
  'MEDIA-FOCUS-1': 'MEDIA-FOCUS-1:edge',
  'MEDIA-FOCUS-2': 'MEDIA-FOCUS-2:upload',
  'MEDIA-UPDATE-3': 'MEDIA-UPDATE-3:alone',
  'MEDIA-READ-4': 'MEDIA-READ-4:first-account',
  'MEDIA-UPDATE-2': 'MEDIA-UPDATE-2:first-account',
  'STREAM-HEALTH-1': 'STREAM-HEALTH-1:any-accept',
  'STREAM-WS-1': 'STREAM-WS-1:tag-digits',
  // The moves the state machine judges in sequences too, each by an input the default run does not send: the undo sent
  // again on a status whose move the inputs undid at once (the inputs on ids, the access matrix's cells), another
  // account's status, an unlisted one, a self-boost, an unmute asked twice at the same moment (the unmute again after
  // its undo is the default run's row's). Then the media and OAuth inputs the default run's checks do not send.
  'STATUS-FAV-4': 'STATUS-FAV-4:another',
  'STATUS-REBLOG-1': 'STATUS-REBLOG-1:own',
  'STATUS-REBLOG-5': 'STATUS-REBLOG-5:undone-again',
  'STATUS-BOOKMARK-1': 'STATUS-BOOKMARK-1:unlisted',
  'STATUS-BOOKMARK-3': 'STATUS-BOOKMARK-3:undone-again',
  'STATUS-MUTE-1': 'STATUS-MUTE-1:unlisted',
  'STATUS-MUTE-4': 'STATUS-MUTE-4:at-once',
  'STATUS-PIN-6': 'STATUS-PIN-6:another',
  'MEDIA-ATTACH-3': 'MEDIA-ATTACH-3:public',
  'MEDIA-READ-5': 'MEDIA-READ-5:malformed',
  'MEDIA-UPDATE-1': 'MEDIA-UPDATE-1:with-thumbnail',
  'MEDIA-UPDATE-4': 'MEDIA-UPDATE-4:malformed',
  'OAUTH-TOKEN-1': 'OAUTH-TOKEN-1:registered-set',
  // Input classes the default run never sends (issue 49 items 3 and 6): an authorization request with state, the code
  // grant without a code, a redirect_uri that extends the registered one, the Bearer scheme with no token, a
  // client_credentials grant without a scope on an application registered 'write read', a hashtag stream's tag with capitals.
  'OAUTH-AUTHORIZE-1': 'OAUTH-AUTHORIZE-1:state',
  'OAUTH-CODE-1': 'OAUTH-CODE-1:missing',
  'OAUTH-REDIRECT-2': 'OAUTH-REDIRECT-2:prefix',
  'APPS-VERIFY-2': 'APPS-VERIFY-2:empty-bearer',
  'RELATIONS-TOKEN-1': 'RELATIONS-TOKEN-1:empty-bearer',
  'OAUTH-CLIENTCRED-1': 'OAUTH-CLIENTCRED-1:first-registered',
  'STREAM-SSE-1': 'STREAM-SSE-1:capitals',
  // A move asked twice at the same moment (act/explore-at-once.ts): the second mute of a pair refused (the other
  // moves' at-once faults fail their explored checks too; those keep the faults above).
  'STATUS-MUTE-2': 'STATUS-MUTE-2:at-once',
};

/** Explored checks without a fault of their own, by clause, each with why. A check leaves this list when its fault comes. */
export const WITHOUT_EXPLORED_FAULT: Readonly<Record<string, string>> = {
  'STATUS-READ-5': "judged in the default run too (its share sends ids that name nothing): the STATUS-READ-5 fault's default run fails it",
  'STATUS-PIN-1':
    "its explored input is the default run's own request of the clause (A's pin of its own public status, the one pin the contract answers with pinned = true; the access matrix's other pins are refusals): no fault tells the two apart. A pin made again after its unpin (STATUS-PIN-1:redone) is the state machine's sequences', which fail under it",
  'MEDIA-READ-1':
    "its explored input (A's read of its own PNG, uploaded with v1) is the read ACCESS-SCOPE-MEDIA-1's control makes, by a token of A's holding write:media: a fault on it blocks that check in the default run, and no other class of the read answers the Attachment",
  'STATUS-DELETE-2':
    "its explored input, the owner's read of its public status deleted, is the read each deletion of the run is followed by (the ledger's read gone, the States and transitions group's control beside STATUS-DELETE-7): a deleted status still read fails those too",
  'STATUS-DELETE-4':
    "no --explore N sends a DELETE of a deleted status (its check is skipped): the delete operation's inputs past the visible class lie beyond the explored inputs' deletions (6 of A's, whatever N), and the default run's check of the clause sends one (A's second DELETE of its direct status)",
  'STATUS-POLL-4':
    "its one effect, the creation's answer carrying its Poll, is judged beside STATUS-POLL-1's options on that answer: a poll left out fails both, and a refusal is reported under the row's first parameter (the poll: STATUS-POLL-1)",
};

// The contract, row by row: for every table row and every numbered rule of docs/contract/social-api.md, the clauses
// of the catalogue that check it, or why none does. Declared here once, as data; run/contract-map.ts reads the rows
// from the contract file itself and writes docs/contract-map.md, and docs.test.ts fails on a row this leaves unmapped
// (a row the contract gains) and on a mapping whose row or clause is gone.
//
// Keys are the contract's headings, then the row's key: its first cell, or as many first cells as tell it from the
// other rows of its table, joined by " · "; a numbered rule is "rule N".

/** The clause ids that check a row, or why no clause does (not shown, client-side, outside a black-box suite). */
export type RowMapping = readonly string[] | { none: string };

/** A row no clause checks, with why (Array.isArray does not narrow a readonly array). */
export const isReason = (mapping: RowMapping): mapping is { none: string } => !Array.isArray(mapping);

/** Rows of one resource table that its schema clause judges, each with the clauses that judge its meaning too. */
function fields(schemaClause: string, rows: Record<string, readonly string[]>): Record<string, readonly string[]> {
  return Object.fromEntries(Object.entries(rows).map(([field, clauses]) => [field, [schemaClause, ...clauses]]));
}

/** Every row of the Errors table: its text is ERRORS-TEXT-1's, its body ERRORS-BODY-1's, besides the rows' own clauses. */
function errorRows(rows: Record<string, readonly string[]>): Record<string, readonly string[]> {
  return Object.fromEntries(Object.entries(rows).map(([row, clauses]) => [row, [...clauses, 'ERRORS-TEXT-1', 'ERRORS-BODY-1']]));
}

export const CONTRACT_ROWS: Readonly<Record<string, Readonly<Record<string, RowMapping>>>> = {
  Status: fields('RESOURCE-STATUS-1', {
    id: [],
    created_at: ['STATUS-POLL-2'],
    in_reply_to_id: ['STATUS-CREATE-6', 'STATUS-EFFECT-6'],
    in_reply_to_account_id: ['STATUS-CREATE-6', 'STATUS-EFFECT-6'],
    sensitive: ['STATUS-CREATE-3', 'STATUS-CREATE-7', 'MEDIA-ATTACH-2', 'STATUS-EFFECT-2'],
    spoiler_text: ['RESOURCE-STATUS-2', 'STATUS-CREATE-2', 'STATUS-EFFECT-2'],
    visibility: ['STATUS-CREATE-4', 'STATUS-EFFECT-7', 'STATUS-REBLOG-2'],
    language: ['STATUS-CREATE-5', 'STATUS-EFFECT-2'],
    uri: [],
    url: [],
    replies_count: [],
    reblogs_count: ['STATUS-SEQUENCE-1'],
    favourites_count: ['STATUS-SEQUENCE-1'],
    favourited: ['STATUS-FAV-1', 'STATUS-FAV-2', 'STATUS-FAV-3', 'STATUS-FAV-4'],
    reblogged: ['STATUS-REBLOG-1', 'STATUS-REBLOG-4'],
    muted: ['STATUS-MUTE-1', 'STATUS-MUTE-2', 'STATUS-MUTE-3', 'STATUS-MUTE-4'],
    bookmarked: ['STATUS-BOOKMARK-1', 'STATUS-BOOKMARK-2'],
    pinned: ['STATUS-PIN-1', 'STATUS-PIN-4', 'STATUS-PIN-5', 'STATUS-PIN-6'],
    content: ['STATUS-REDRAFT-1', 'STATUS-EFFECT-5'],
    text: ['STATUS-DELETE-1', 'STATUS-DELETE-5'],
    reblog: ['STATUS-REBLOG-1'],
    application: ['APPS-SHOWN-1'],
    account: ['RESOURCE-ACCOUNT-1'],
    media_attachments: ['MEDIA-ATTACH-1', 'RESOURCE-ATTACHMENT-1', 'MEDIA-EFFECT-2'],
    mentions: ['RESOURCE-ELEMENTS-1'],
    tags: ['RESOURCE-ELEMENTS-1'],
    emojis: ['RESOURCE-ELEMENTS-1'],
    card: ['RESOURCE-CARD-1'],
    poll: ['RESOURCE-POLL-1'],
  }),
  Account: fields('RESOURCE-ACCOUNT-1', {
    id: [],
    username: [],
    acct: [],
    display_name: [],
    locked: [],
    bot: [],
    created_at: [],
    note: [],
    url: [],
    'avatar, avatar_static, header, header_static': [],
    'followers_count, following_count, statuses_count': [],
    last_status_at: [],
    emojis: [],
    fields: [],
  }),
  Attachment: fields('RESOURCE-ATTACHMENT-1', {
    id: [],
    type: ['MEDIA-UPLOAD-5', 'RESOURCE-ATTACHMENT-2'],
    url: ['MEDIA-V2-1', 'MEDIA-READ-2'],
    preview_url: ['MEDIA-V2-2'],
    remote_url: [],
    text_url: [],
    meta: ['MEDIA-UPLOAD-2', 'MEDIA-UPLOAD-3', 'MEDIA-FOCUS-1', 'MEDIA-FOCUS-2', 'MEDIA-EFFECT-1', 'MEDIA-EFFECT-3'],
    description: ['MEDIA-UPLOAD-4', 'MEDIA-UPDATE-1', 'MEDIA-EFFECT-1', 'MEDIA-EFFECT-3'],
    blurhash: ['MEDIA-UPLOAD-5'],
  }),
  Poll: fields('RESOURCE-POLL-1', {
    id: [],
    expires_at: ['STATUS-POLL-2', 'STATUS-EFFECT-4'],
    expired: [],
    multiple: ['STATUS-POLL-3', 'STATUS-EFFECT-3'],
    votes_count: [],
    voters_count: [],
    voted: [],
    own_votes: [],
    options: ['STATUS-POLL-1', 'STATUS-EFFECT-1', 'STATUS-EFFECT-3'],
    emojis: [],
  }),
  ScheduledStatus: fields('RESOURCE-SCHEDULED-1', {
    id: [],
    scheduled_at: ['STATUS-SCHEDULED-1'],
    params: ['STATUS-SCHEDULED-2'],
    media_attachments: [],
  }),
  'States and transitions': {
    'status · POST .../favourite': ['STATUS-FAV-1', 'STATUS-FAV-2', 'STATUS-FAV-5', 'STATUS-FAV-6', 'STATUS-SEQUENCE-1'],
    'status · POST .../unfavourite': ['STATUS-FAV-3', 'STATUS-FAV-4', 'STATUS-FAV-5', 'STATUS-FAV-6', 'STATUS-SEQUENCE-1'],
    'status · POST .../reblog': ['STATUS-REBLOG-1', 'STATUS-REBLOG-6', 'STATUS-REBLOG-7', 'STATUS-REPEAT-1', 'STATUS-SEQUENCE-1'],
    'status · POST .../unreblog': ['STATUS-REBLOG-4', 'STATUS-REBLOG-5', 'STATUS-REBLOG-6', 'STATUS-REBLOG-7', 'STATUS-SEQUENCE-1'],
    'status · POST .../bookmark': ['STATUS-BOOKMARK-1', 'STATUS-BOOKMARK-4', 'STATUS-REPEAT-1', 'STATUS-SEQUENCE-1'],
    'status · POST .../unbookmark': ['STATUS-BOOKMARK-2', 'STATUS-BOOKMARK-3', 'STATUS-BOOKMARK-4', 'STATUS-SEQUENCE-1'],
    'status · POST .../mute': ['STATUS-MUTE-1', 'STATUS-MUTE-2', 'STATUS-MUTE-5', 'STREAM-USER-3', 'STATUS-SEQUENCE-1'],
    'status · POST .../unmute': ['STATUS-MUTE-3', 'STATUS-MUTE-4', 'STATUS-MUTE-5', 'STREAM-USER-4', 'STATUS-SEQUENCE-1'],
    'status · POST .../pin': ['STATUS-PIN-1', 'STATUS-PIN-2', 'STATUS-PIN-3', 'STATUS-PIN-4', 'STATUS-PIN-7', 'STATUS-REPEAT-1', 'STATUS-SEQUENCE-1'],
    'status · POST .../unpin': ['STATUS-PIN-5', 'STATUS-PIN-6', 'STATUS-PIN-7', 'STATUS-SEQUENCE-1'],
    'status · DELETE /api/v1/statuses/:id': ['STATUS-DELETE-1', 'STATUS-DELETE-2', 'STATUS-DELETE-3', 'STATUS-DELETE-5', 'STATUS-DELETE-7', 'STATUS-DELETE-8', 'STATUS-SEQUENCE-1'],
    'attachment · upload (POST /api/v1/media or /api/v2/media)': ['MEDIA-UPLOAD-1', 'MEDIA-UPLOAD-5', 'MEDIA-V2-1'],
    'attachment · read (GET) · processing unfinished': ['MEDIA-READ-2'],
    'attachment · read (GET) · processing finished': ['MEDIA-READ-1'],
    'attachment · POST /api/v1/statuses with media_ids': ['MEDIA-ATTACH-1', 'MEDIA-ATTACH-3', 'MEDIA-EFFECT-1', 'MEDIA-EFFECT-2'],
  },
  'Client registration': {
    POST: ['APPS-REGISTER-1', 'APPS-REGISTER-2', 'APPS-REDIRECTS-1', 'RESOURCE-APPLICATION-1', 'APPS-REQUIRED-1'],
    GET: ['APPS-VERIFY-1', 'APPS-VERIFY-2'],
  },
  OAuth: {
    GET: ['OAUTH-AUTHORIZE-1', 'OAUTH-AUTHORIZE-2', 'OAUTH-AUTHORIZE-3', 'OAUTH-PARAMS-1'],
    'POST · /oauth/token': ['OAUTH-TOKEN-1', 'OAUTH-CODE-1', 'OAUTH-CODE-2', 'RESOURCE-TOKEN-1'],
    'POST · /oauth/revoke': ['OAUTH-REVOKE-1', 'OAUTH-PARAMS-1'],
    'rule 1': ['OAUTH-SCOPE-1'],
    'rule 2': ['OAUTH-REDIRECT-1', 'OAUTH-REDIRECT-2'],
    'rule 3': ['OAUTH-CLIENTCRED-1'],
  },
  'Account relations': {
    'GET · /api/v1/accounts/:id/following': ['RELATIONS-APPTOKEN-1', 'RELATIONS-TOKEN-1', 'RELATIONS-SHAPE-1'],
    'GET · /api/v1/accounts/:id/followers': ['RELATIONS-APPTOKEN-1', 'RELATIONS-TOKEN-1', 'RELATIONS-SHAPE-1'],
  },
  Statuses: {
    'POST · /api/v1/statuses': ['STATUS-CREATE-1', 'STATUS-SCHEDULED-1', 'ACCESS-SCOPE-STATUSES-1', 'ACCESS-APPTOKEN-1', 'ACCESS-BROAD-1'],
    'GET · /api/v1/statuses/:id': ['STATUS-READ-1', 'STATUS-READ-2', 'STATUS-READ-3', 'STATUS-READ-4', 'STATUS-READ-5', 'STATUS-VIS-1', 'STATUS-VIS-3', 'STATUS-VIS-6', 'STATUS-VIS-7', 'ACCESS-READ-1'],
    DELETE: ['STATUS-DELETE-1', 'STATUS-DELETE-3', 'STATUS-DELETE-5', 'ACCESS-SCOPE-STATUSES-1'],
    'GET · /api/v1/statuses/:id/context': ['STATUS-CONTEXT-1', 'STATUS-CONTEXT-2', 'STATUS-VIS-2', 'STATUS-VIS-4', 'STATUS-VIS-5', 'RESOURCE-CONTEXT-1'],
    'GET · /api/v1/statuses/:id/reblogged_by': ['STATUS-REBLOGGEDBY-1', 'STATUS-REBLOG-7', 'STATUS-VIS-8'],
    'GET · /api/v1/statuses/:id/favourited_by': ['STATUS-FAVOURITEDBY-1', 'STATUS-FAV-6', 'STATUS-VIS-8'],
    'POST · /api/v1/statuses/:id/favourite': ['STATUS-FAV-1', 'ACCESS-SCOPE-FAVOURITES-1'],
    'POST · /api/v1/statuses/:id/unfavourite': ['STATUS-FAV-3', 'ACCESS-SCOPE-FAVOURITES-1'],
    'POST · /api/v1/statuses/:id/reblog': ['STATUS-REBLOG-1', 'ACCESS-SCOPE-STATUSES-1'],
    'POST · /api/v1/statuses/:id/unreblog': ['STATUS-REBLOG-4', 'ACCESS-SCOPE-STATUSES-1'],
    'POST · /api/v1/statuses/:id/bookmark': ['STATUS-BOOKMARK-1', 'ACCESS-SCOPE-BOOKMARKS-1', 'ACCESS-BROAD-1'],
    'POST · /api/v1/statuses/:id/unbookmark': ['STATUS-BOOKMARK-2', 'ACCESS-SCOPE-BOOKMARKS-1'],
    'POST · /api/v1/statuses/:id/mute': ['STATUS-MUTE-1', 'ACCESS-SCOPE-MUTES-1'],
    'POST · /api/v1/statuses/:id/unmute': ['STATUS-MUTE-3', 'ACCESS-SCOPE-MUTES-1'],
    'POST · /api/v1/statuses/:id/pin': ['STATUS-PIN-1', 'ACCESS-SCOPE-ACCOUNTS-1'],
    'POST · /api/v1/statuses/:id/unpin': ['STATUS-PIN-5', 'ACCESS-SCOPE-ACCOUNTS-1'],
    'GET · /api/v1/statuses/:id/card': ['STATUS-CARD-1', 'STATUS-CARD-2', 'RESOURCE-CARD-1'],
  },
  'POST /api/v1/statuses parameters': {
    // "keys are kept up to 1 hour": a run holds a key for minutes, so that bound stays unjudged.
    'Idempotency-Key (header)': ['STATUS-IDEMPOTENCY-1', 'STATUS-IDEMPOTENCY-2'],
    status: ['STATUS-PARAMS-1', 'STATUS-CREATE-1', 'STATUS-EFFECT-5'],
    'media_ids[]': ['STATUS-PARAMS-2', 'STATUS-POLL-6', 'MEDIA-ATTACH-1', 'MEDIA-EFFECT-2'],
    'poll[options][]': ['STATUS-POLL-1', 'STATUS-POLL-5', 'STATUS-POLL-6', 'WIRE-FORM-1', 'STATUS-EFFECT-3'],
    'poll[expires_in]': ['STATUS-POLL-2', 'STATUS-POLL-5', 'STATUS-EFFECT-4'],
    'poll[multiple]': ['STATUS-POLL-3', 'STATUS-EFFECT-3'],
    'poll[hide_totals]': ['STATUS-POLL-4', 'STATUS-EFFECT-1'],
    in_reply_to_id: ['STATUS-CREATE-6', 'STATUS-CONTEXT-1', 'STATUS-CONTEXT-2', 'STATUS-EFFECT-6'],
    sensitive: ['STATUS-CREATE-3', 'STATUS-CREATE-7', 'MEDIA-ATTACH-2', 'STATUS-EFFECT-2'],
    spoiler_text: ['STATUS-CREATE-2', 'STATUS-EFFECT-2'],
    visibility: ['STATUS-CREATE-4', 'STATUS-EFFECT-7', 'STATUS-VIS-1', 'STATUS-VIS-3', 'STATUS-VIS-6', 'STATUS-VIS-7', 'STATUS-READ-3'],
    scheduled_at: ['STATUS-SCHEDULED-1', 'STATUS-SCHEDULED-2', 'STATUS-SCHEDULED-3'],
    language: ['STATUS-CREATE-5', 'STATUS-EFFECT-2'],
  },
  Media: {
    'POST · /api/v1/media': ['MEDIA-UPLOAD-1', 'MEDIA-UPLOAD-2', 'MEDIA-UPLOAD-4', 'MEDIA-UPLOAD-6', 'MEDIA-FOCUS-1', 'MEDIA-EFFECT-1', 'ACCESS-SCOPE-MEDIA-1', 'MEDIA-PARAMS-1'],
    'POST · /api/v2/media': ['MEDIA-V2-1', 'MEDIA-V2-2', 'MEDIA-EFFECT-3'],
    GET: ['MEDIA-READ-1', 'MEDIA-READ-2', 'MEDIA-READ-3', 'MEDIA-READ-4', 'MEDIA-READ-5', 'MEDIA-EFFECT-3', 'MEDIA-PATH-1'],
    PUT: ['MEDIA-UPDATE-1', 'MEDIA-UPDATE-2', 'MEDIA-UPDATE-3', 'MEDIA-UPDATE-4', 'MEDIA-FOCUS-2', 'MEDIA-EFFECT-1', 'MEDIA-PATH-1'],
  },
  'Streaming (server-sent events)': {
    '/api/v1/streaming/health': ['STREAM-HEALTH-1'],
    '/api/v1/streaming/user': ['STREAM-USER-1', 'STREAM-USER-2', 'STREAM-SSE-1'],
    '/api/v1/streaming/public': ['STREAM-PUBLIC-1', 'STREAM-PUBLIC-2'],
    '/api/v1/streaming/public/local': ['STREAM-LOCAL-1'],
    '/api/v1/streaming/hashtag': ['STREAM-HASHTAG-1', 'STREAM-HASHTAG-3'],
    '/api/v1/streaming/hashtag/local': ['STREAM-HASHTAG-2'],
    '/api/v1/streaming/list': ['STREAM-LIST-1'],
    '/api/v1/streaming/direct': ['STREAM-DIRECT-1'],
  },
  Authentication: {
    'rule 1': ['AUTH-FLOW-1', 'OAUTH-PASSWORD-1', 'OAUTH-CLIENTCRED-1'],
    'rule 2': ['AUTH-REGISTER-1', 'APPS-REGISTER-1', 'OAUTH-TOKEN-1'],
    'rule 3': ['AUTH-DOMAIN-1'],
    'rule 4': ['AUTH-BEARER-1'],
    'rule 5': ['ACCESS-BROAD-1', 'ACCESS-SCOPE-STATUSES-1', 'ACCESS-SCOPE-FAVOURITES-1', 'ACCESS-SCOPE-BOOKMARKS-1', 'ACCESS-SCOPE-MUTES-1', 'ACCESS-SCOPE-ACCOUNTS-1', 'ACCESS-SCOPE-MEDIA-1', 'ACCESS-READ-1'],
    'rule 6': ['OAUTH-SCOPE-1'],
    'rule 7': ['OAUTH-REDIRECT-1', 'OAUTH-AUTHORIZE-3'],
    'rule 8': ['ACCESS-APPTOKEN-1', 'STATUS-WHITELIST-1'],
    'rule 9': ['OAUTH-REVOKE-1'],
    'rule 10': ['AUTH-PASSWORD-PARAMS-1'],
    'rule 11': ['AUTH-LIFETIME-1'],
    'rule 12': ['AUTH-SCOPE-IMPLY-1'],
    'rule 13': ['AUTH-SSE-TOKEN-1', 'STREAM-WS-1'],
  },
  Events: {
    'rule 1': ['EVENTS-COMMENT-1', 'EVENTS-PARSER-1'],
    'rule 2': ['EVENTS-FRAME-1', 'STREAM-WS-2'],
    update: ['EVENTS-UPDATE-1'],
    notification: ['EVENTS-NOTIFICATION-1', 'RESOURCE-NOTIFICATION-1'],
    delete: ['EVENTS-DELETE-1'],
    filters_changed: ['EVENTS-FILTERS-1'],
  },
  Errors: errorRows({
    '401 · tokenless read of a status on an instance in whitelist mode': ['STATUS-WHITELIST-1'],
    '401 · missing or invalid Authorization header on a token operation': ['ERRORS-TOKEN-1', 'ERRORS-TOKEN-2', 'APPS-VERIFY-2', 'RELATIONS-TOKEN-1'],
    '404 · status does not exist, is deleted, is private, or is not visible to the caller': [
      'STATUS-READ-3', 'STATUS-READ-4', 'STATUS-READ-5', 'STATUS-DELETE-2', 'STATUS-DELETE-6', 'STATUS-VIS-5', 'STATUS-VIS-7', 'STATUS-VIS-8',
      'STATUS-FAV-5', 'STATUS-REBLOG-6', 'STATUS-BOOKMARK-4', 'STATUS-MUTE-5', 'STATUS-PIN-7',
    ],
    '404 · DELETE of a status not owned by the caller or already deleted': ['STATUS-DELETE-3', 'STATUS-DELETE-4'],
    '404 · unreblog when no boost exists': ['STATUS-REBLOG-5'],
    '404 · unbookmark when not bookmarked': ['STATUS-BOOKMARK-3'],
    '404 · attachment does not exist, is deleted, or was not created by the caller': ['MEDIA-READ-4', 'MEDIA-READ-5', 'MEDIA-UPDATE-2', 'MEDIA-UPDATE-4'],
    '422 · pin of a status not owned by the caller': ['STATUS-PIN-2'],
    '422 · pin of a non-public status': ['STATUS-PIN-3'],
    '422 · media upload or update with an unsupported or invalid file or type': ['MEDIA-UPLOAD-6', 'MEDIA-UPDATE-3'],
    '422 · media read where processing failed': ['MEDIA-READ-3'],
  }),
  Limits: {
    'X-RateLimit-Limit': ['LIMITS-HEADERS-1', 'LIMITS-HEADERS-2', 'LIMITS-HEADERS-3'],
    'X-RateLimit-Remaining': ['LIMITS-HEADERS-1', 'LIMITS-HEADERS-2', 'LIMITS-HEADERS-3', 'LIMITS-REMAINING-1'],
    'X-RateLimit-Reset': ['LIMITS-HEADERS-1', 'LIMITS-HEADERS-4', 'LIMITS-RESET-FORMAT-1'],
    'any method, /api/* · Account access': ['LIMITS-ACCESS-1', 'LIMITS-ACCOUNT-1'],
    'any method, /api/* · IP access': ['LIMITS-ACCESS-1'],
    'POST /api/v1/accounts': ['LIMITS-SIGNUP-1'],
    'POST /api/v1/media': ['LIMITS-UPLOAD-1'],
    'DELETE /api/v1/statuses/:id': ['LIMITS-DELETION-1', 'LIMITS-DELETION-2'],
    'POST /api/v1/statuses/:id/unreblog': ['LIMITS-DELETION-2'],
  },
  // A row of this table is judged where its release gates checks: a server configured with an earlier one skips them.
  Versioning: {
    'POST /api/v1/statuses': ['STATUS-CREATE-1', 'STATUS-SCHEDULED-1', 'STATUS-POLL-1'],
    'GET /api/v1/statuses/:id': ['STATUS-READ-1', 'STATUS-READ-4', 'STATUS-VIS-3'],
    'DELETE /api/v1/statuses/:id': ['STATUS-DELETE-1', 'STATUS-DELETE-5', 'STATUS-REDRAFT-1'],
    'POST .../reblog': ['STATUS-REBLOG-2', 'STATUS-REBLOG-3'],
    'POST .../bookmark, .../unbookmark': ['STATUS-BOOKMARK-1', 'STATUS-BOOKMARK-2'],
    'POST .../mute, .../unmute': ['STATUS-MUTE-1', 'STATUS-MUTE-3'],
    'POST .../pin, .../unpin': ['STATUS-PIN-1', 'STATUS-PIN-5'],
    'GET /api/v1/statuses/:id/card': ['STATUS-CARD-1', 'STATUS-CARD-2', 'VERSION-CARD-1'],
    'POST media upload': ['MEDIA-FOCUS-1', 'MEDIA-V2-1', 'VERSION-DEPRECATED-1'],
    'GET media attachment': ['MEDIA-READ-1'],
    'PUT media attachment': ['MEDIA-UPDATE-1', 'MEDIA-UPDATE-3'],
    'GET /api/v1/streaming/health': ['STREAM-HEALTH-1'],
  },
};

// Each optional parameter's effect (issue 49 item 2), audited 2026-12-06: where a parameter's documented effect shows
// on the answer, on the caller's later read and on another account's, a clause judges it (STATUS-EFFECT-*,
// MEDIA-EFFECT-*, each on a read the run makes anyway), but for these, not yet observed, each with its cost:
// - POST .../reblog visibility, on later reads: the booster's read of its boost shows the visibility, and a private
//   boost is hidden from a caller without a token (404). Two /api calls; STATUS-REBLOG-2 judges the answer only. The
//   booster's read alone (B's read of its private boost, one call) would catch STATUS-REBLOG-2:read in the default run,
//   which --explore 320 catches today: no read the default run makes shows a boost's visibility.
// - POST .../reblog without visibility, "default public": every boost of the default run names its visibility. Its
//   cell boosts an unlisted original without the parameter (on a public one the default and the original's visibility
//   agree): a reblog and its unreblog, two /api calls and one of the booster's deletions; no fault yet.
// - media_ids[] and poll[expires_in], on the caller's own later read: A's read of its status with media (one /api call;
//   the DELETE answer, STATUS-DELETE-1 and -5, and another account's read, MEDIA-EFFECT-2 and STATUS-EFFECT-4, show them).
// Without a documented effect to observe, as the contract has it: poll[hide_totals] for the poll's author (the contract
// does not say who is shown the counts), scheduled_at's later read (the scheduled status operations and the
// transition to a published status are not shown), the media thumbnail (no effect beyond its name), and
// Idempotency-Key beyond the status it gives (no list of statuses in the contract).

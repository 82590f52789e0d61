// The clause catalogue: every rule of the contract (docs/contract/social-api.md, shipped with the package) with a
// stable id, the section it stands in, the contract's own words, what kind of rule it is and the release that introduced it.
// Checks name their clause as the first word of their title; reports are organised by this catalogue.
import type { ReplayStep } from '../talk/replay.ts';
import { releaseAtLeast } from '../talk/config.ts';

import type { RootCause } from '../act/steps.ts';

/** rule: the server can be tested on it; not-shown: the contract leaves it open, never failed; client: a client obligation. */
export type Kind = 'rule' | 'not-shown' | 'client';
/** MUST fails the run; SHOULD is reported as a warning. */
export type Severity = 'MUST' | 'SHOULD';
/**
 * What a clause guards, where a failure lets a caller do or see what is not theirs: access control (tokens and
 * scopes), visibility (statuses and events kept from who may not see them) or ownership (what only its owner may
 * change). A server team reads these failures first, whatever they block (root-causes.ts rankRootCauses).
 */
export type Guard = 'access control' | 'visibility' | 'ownership';

export interface Clause {
  id: string;
  section: string;
  words: string;
  kind: Kind;
  severity: Severity;
  since?: string;
  guards?: Guard;
}

type Entry = [id: string, words: string, options?: { kind?: Kind; severity?: Severity; since?: string; guards?: Guard }];

function section(name: string, entries: Entry[]): Clause[] {
  return entries.map(([id, words, options]) => ({
    id,
    section: name,
    words,
    kind: options?.kind ?? 'rule',
    severity: options?.severity ?? 'MUST',
    ...(options?.since ? { since: options.since } : {}),
    ...(options?.guards ? { guards: options.guards } : {}),
  }));
}

export const CLAUSES: readonly Clause[] = [
  ...section('What the service does', [
    // Judged on the nested bracket names, which came with poll[...] (POST /api/v1/statuses, 2.8.0).
    ['WIRE-FORM-1', 'Wire conventions: array parameters use the name suffix [], nested parameters bracket names such as poll[options][]', { since: '2.8.0' }],
    ['WIRE-FORM-2', 'Wire conventions: request parameters are sent as form data'],
    ['WIRE-JSON-1', 'Wire conventions: responses are JSON, except the streaming interface'],
    // Errors: "Error responses carry a JSON body {error: string}", whatever the client accepts; curl sends Accept: */*.
    ['WIRE-JSON-2', 'Wire conventions: responses are JSON; error responses carry a JSON body {error: string} also for a client that sends Accept: */* (as curl does) or no Accept header'],
    ['WIRE-OTHER-1', 'Other endpoint groups (accounts, timelines, lists, notifications, search, instance information, administration and similar): not shown', { kind: 'not-shown' }],
  ]),
  ...section('Resources and their fields', [
    ['RESOURCE-STATUS-1', 'A Status has the fields and types of the Status table; nullable only where marked |null'],
    ['RESOURCE-ACCOUNT-1', 'An Account has the fields and types of the Account table, fields an array of Field'],
    ['RESOURCE-APPLICATION-1', 'An Application includes client_id and client_secret (both string), and the client name and website given at registration'],
    ['RESOURCE-TOKEN-1', 'A Token includes access_token (string)'],
    ['RESOURCE-CONTEXT-1', 'A Context has ancestors and descendants, arrays of Status'],
    ['RESOURCE-ATTACHMENT-1', 'An Attachment has the fields and types of the Attachment table; meta original and small with width, height, size <width>x<height> and aspect'],
    // Polls came with 2.8.0, scheduled statuses with 2.7.0 (the Versioning table's POST /api/v1/statuses).
    ['RESOURCE-POLL-1', 'A Poll has the fields and types of the Poll table', { since: '2.8.0' }],
    ['RESOURCE-SCHEDULED-1', 'A ScheduledStatus has id, scheduled_at, params and media_attachments', { since: '2.7.0' }],
    ['RESOURCE-CARD-1', 'A Card has url, title, description, type, author_name, author_url, provider_name, provider_url, html, image, embed_url (strings), width and height (integers)'],
    ['RESOURCE-STATUS-2', 'Status spoiler_text: empty string when none'],
    ['RESOURCE-ELEMENTS-1', 'Status mentions, tags and emojis: element shape not shown', { kind: 'not-shown' }],
    ['RESOURCE-ATTACHMENT-2', 'Attachment type: values seen image and unknown; other values: not shown', { kind: 'not-shown' }],
    ['RESOURCE-FOCUS-1', 'Server-side preview images are never cropped; clients crop using the focal point', { kind: 'client' }],
    ['RESOURCE-APPLICATION-2', 'Application: full field list not shown', { kind: 'not-shown' }],
    ['RESOURCE-TOKEN-2', 'Token: full field list not shown', { kind: 'not-shown' }],
    ['RESOURCE-NOTIFICATION-1', 'Notification, carried by the notification stream event: fields not shown', { kind: 'not-shown' }],
  ]),
  ...section('States and transitions', [
    ['STATUS-FAV-1', 'POST .../favourite on a status visible to the caller answers the Status with favourited = true'],
    ['STATUS-FAV-2', 'POST .../favourite when already favourited: still 200, unchanged (favourited = true)'],
    ['STATUS-FAV-3', 'POST .../unfavourite answers the Status with favourited = false'],
    ['STATUS-FAV-4', 'POST .../unfavourite when already not favourited: still 200 (favourited = false)'],
    ['STATUS-FAV-5', 'favourite and unfavourite need the status visible to the caller: otherwise 404 "Record not found"', { guards: 'visibility' }],
    ['STATUS-FAV-6', 'GET .../favourited_by lists the accounts that favourited the status, and stops listing an account after its unfavourite'],
    ['STATUS-REBLOG-1', 'POST .../reblog returns a new boost Status: its own id, the original in reblog, reblogged = true'],
    ['STATUS-REBLOG-2', 'The reblog visibility parameter (public, unlisted or private) is the visibility of the boost', { since: '2.8.0' }],
    ['STATUS-REBLOG-3', 'The reblog visibility parameter takes any visibility except limited or direct: those are refused', { since: '2.8.0' }],
    ['STATUS-REBLOG-4', 'POST .../unreblog when a boost by the caller exists answers the Status with reblogged = false'],
    ['STATUS-REBLOG-5', 'POST .../unreblog when no boost by the caller exists answers 404 "Record not found"'],
    ['STATUS-REBLOG-6', 'reblog and unreblog need the status visible to the caller: otherwise 404 "Record not found"', { guards: 'visibility' }],
    ['STATUS-REBLOG-7', 'GET .../reblogged_by lists the accounts that boosted the status, and stops listing an account after its unreblog'],
    ['STATUS-BOOKMARK-1', 'POST .../bookmark on a status visible to the caller answers the Status with bookmarked = true', { since: '3.1.0' }],
    ['STATUS-BOOKMARK-2', 'POST .../unbookmark of a bookmarked status answers the Status with bookmarked = false', { since: '3.1.0' }],
    ['STATUS-BOOKMARK-3', 'POST .../unbookmark of a status that is not bookmarked answers 404 "Record not found"', { since: '3.1.0' }],
    ['STATUS-BOOKMARK-4', 'bookmark and unbookmark need the status visible to the caller: otherwise 404 "Record not found"', { since: '3.1.0', guards: 'visibility' }],
    ['STATUS-MUTE-1', 'POST .../mute by a caller who participates in the thread answers the Status with muted = true', { since: '1.4.2' }],
    ['STATUS-MUTE-2', 'POST .../mute when already muted: still 200 (muted = true)', { since: '1.4.2' }],
    ['STATUS-MUTE-3', 'POST .../unmute answers the Status with muted = false', { since: '1.4.2' }],
    ['STATUS-MUTE-4', 'POST .../unmute when already unmuted: still 200 (muted = false)', { since: '1.4.2' }],
    ['STATUS-MUTE-5', 'mute and unmute need the status visible to the caller: otherwise 404 "Record not found"', { since: '1.4.2', guards: 'visibility' }],
    ['STATUS-PIN-1', "POST .../pin of the caller's own public status that is not a boost answers the Status with pinned = true", { since: '1.6.0' }],
    ['STATUS-PIN-2', 'pin of a status not owned by the caller answers 422 "Validation failed: Someone else\'s toot cannot be pinned"', { since: '1.6.0', guards: 'ownership' }],
    ['STATUS-PIN-3', 'pin of a non-public status answers 422 "Validation failed: Non-public toot cannot be pinned"', { since: '1.6.0' }],
    ['STATUS-PIN-4', 'Reblogs cannot be pinned: pin of a boost answers 422', { since: '1.6.0' }],
    ['STATUS-PIN-5', 'POST .../unpin answers the Status with pinned = false', { since: '1.6.0' }],
    ['STATUS-PIN-6', 'POST .../unpin when already unpinned: still 200 (pinned = false)', { since: '1.6.0' }],
    ['STATUS-PIN-7', 'pin and unpin of a status not visible to the caller answer 404 "Record not found" (pin may instead give the 422 of a status not owned)', { since: '1.6.0', guards: 'visibility' }],
    // The table gives these moves no "already" case, so what a repeat answers is not shown; like ERRORS-5XX-1, a
    // server error to a well-formed request is a warning.
    ['STATUS-REPEAT-1', 'A move repeated where the table gives no "already" case (reblog of a status the caller boosted, pin of a status pinned): its answer is not shown, but never a server error (5xx)', { severity: 'SHOULD' }],
    // The rows read together: after any sequence of moves the Result column holds, and so do the counts and lists that
    // show it. A move's own answer is its row's clause; what a later read shows of the whole sequence is this one.
    ['STATUS-SEQUENCE-1', 'After any sequence of the moves, repeated, undone and interleaved by the owner and another account, each move answers as its row gives it from the state the moves before it left, and a read of the status shows favourites_count and reblogs_count as many as the accounts whose favourite or boost stands'],
    ['STATES-SCHEDULED-1', 'Transition from a scheduled status to a published status: not shown', { kind: 'not-shown' }],
  ]),
  ...section('Client registration', [
    ['APPS-REGISTER-1', 'POST /api/v1/apps returns an Application with client_id and client_secret'],
    ['APPS-REGISTER-2', 'The client name and website given at registration are part of the Application'],
    ['APPS-REDIRECTS-1', 'POST /api/v1/apps: redirect_uris (string; one or more URIs; the out-of-band value urn:ietf:wg:oauth:2.0:oob is allowed)'],
    ['APPS-VERIFY-1', 'GET /api/v1/apps/verify_credentials with the Authorization header returns the Application'],
    ['APPS-VERIFY-2', 'GET /api/v1/apps/verify_credentials without a token answers 401 "The access token is invalid"', { guards: 'access control' }],
    ['APPS-REQUIRED-1', 'Which registration parameters are required: not shown', { kind: 'not-shown' }],
    // "when applicable" leaves servers room, so a missing application is a warning.
    ['APPS-SHOWN-1', 'The client name and website are shown on statuses posted by the application, when applicable (Status application: name and website)', { severity: 'SHOULD' }],
  ]),
  ...section('OAuth', [
    ['OAUTH-TOKEN-1', 'POST /oauth/token obtains an access token and returns a Token'],
    ['OAUTH-SCOPE-1', 'The token operation takes scope (singular), and its value must be a subset of the scopes registered for the application', { guards: 'access control' }],
    ['OAUTH-REDIRECT-1', 'The token operation takes redirect_uri (singular), and its value must be one of the redirect_uris registered', { guards: 'access control' }],
    // Rule 2 names no grant; Mastodon checks it only where a code is exchanged: on the other grants it is a warning.
    ['OAUTH-REDIRECT-2', 'The token operation takes redirect_uri (singular), and its value must be one of the redirect_uris registered: on the client_credentials and password grants too', { severity: 'SHOULD' }],
    // OAuth 2.0 (RFC 6749) 4.1.3 and 10.5, which Authentication rule 1 names: a code is the authorization server's, good once.
    ['OAUTH-CODE-1', 'POST /oauth/token with grant_type authorization_code gives a token only for a code that GET /oauth/authorize created (RFC 6749 4.1.3)', { guards: 'access control' }],
    ['OAUTH-CODE-2', 'An authorization code gives a token once: exchanged again, it is refused (RFC 6749 4.1.2, 10.5)', { guards: 'access control' }],
    ['OAUTH-CLIENTCRED-1', 'With grant_type client_credentials and no scope, the token has the read scope'],
    ['OAUTH-PASSWORD-1', 'The password grant (bots and single-user applications) obtains a user token'],
    ['OAUTH-AUTHORIZE-1', 'GET /oauth/authorize shows an authorization form to the user'],
    ['OAUTH-REVOKE-1', 'POST /oauth/revoke revokes an access token when called with client credentials (RFC 7009)', { guards: 'access control' }],
    ['OAUTH-PARAMS-1', 'Full parameter lists of /oauth/authorize and /oauth/revoke: not shown', { kind: 'not-shown' }],
    ['OAUTH-AUTHORIZE-2', 'GET /oauth/authorize: on approval creates an authorization code and redirects to redirect_uri'],
    ['OAUTH-AUTHORIZE-3', 'GET /oauth/authorize: on approval displays the code when the out-of-band URI was requested (shown for manual copying)'],
  ]),
  ...section('Account relations', [
    ['RELATIONS-APPTOKEN-1', 'GET /api/v1/accounts/:id/following and /followers need a token; an application token suffices'],
    ['RELATIONS-TOKEN-1', 'GET /api/v1/accounts/:id/following and /followers without a token are refused with 401', { guards: 'access control' }],
    ['RELATIONS-SHAPE-1', 'Parameters and response shape of following and followers: not shown', { kind: 'not-shown' }],
  ]),
  ...section('Statuses', [
    ['STATUS-CREATE-1', 'POST /api/v1/statuses (user token + write:statuses) returns a Status'],
    ['STATUS-CREATE-2', 'spoiler_text: warning or subject shown before the content'],
    ['STATUS-CREATE-3', 'sensitive: marks status and media sensitive'],
    ['STATUS-CREATE-4', 'visibility: one of public, unlisted, private, direct'],
    ['STATUS-CREATE-5', 'language: ISO 639 code'],
    ['STATUS-CREATE-6', 'in_reply_to_id: id of the status replied to; the reply carries in_reply_to_id and in_reply_to_account_id'],
    // "sensitive: marks status and media sensitive" depends on no other parameter; some servers keep it only beside a spoiler_text.
    ['STATUS-CREATE-7', 'sensitive: marks status and media sensitive, also when no spoiler_text is given'],
    ['STATUS-READ-1', 'GET /api/v1/statuses/:id is public for public statuses (tokenless reads since 2.7.0)', { since: '2.7.0' }],
    ['STATUS-READ-2', 'A private status is readable by its owner with a user token + read:statuses'],
    ['STATUS-READ-3', 'A private status not visible to the caller answers 404 "Record not found"', { guards: 'visibility' }],
    ['STATUS-READ-4', 'A private status read without a token answers 404 "Record not found"', { since: '2.7.0', guards: 'visibility' }],
    ['STATUS-READ-5', 'A status that does not exist answers 404 "Record not found"'],
    ['STATUS-DELETE-1', 'DELETE /api/v1/statuses/:id returns the Status with text (the source) and media_attachments or poll', { since: '2.9.0' }],
    ['STATUS-DELETE-2', 'After DELETE the status no longer exists: a later read gives 404'],
    ['STATUS-DELETE-3', 'DELETE of a status not owned by the caller answers 404 "Record not found"', { guards: 'ownership' }],
    ['STATUS-DELETE-4', 'DELETE of a status already deleted answers 404 "Record not found"'],
    // "Status with text and media_attachments or poll": a status with media only has no source text, so an empty,
    // null or absent text all say so (the type of text is RESOURCE-STATUS-1's); its media are what there is to resend.
    ['STATUS-DELETE-5', 'DELETE of a status with media only returns the Status with its media_attachments (the source to resend in media_ids[]); its text, where given, is empty', { since: '2.9.0' }],
    ['STATUS-DELETE-6', 'A deleted status does not exist for any operation: its context, reblogged_by and favourited_by answer 404 "Record not found"'],
    ['STATUS-DELETE-7', 'DELETE of a status others acted on (boosted, favourited): the status no longer exists, and a later read gives 404 "Record not found"'],
    // The row's one outcome whatever the timing: a read that meets the DELETE sees the status before it or not at all.
    ['STATUS-DELETE-8', 'A read of a status sent at the same moment as its DELETE answers the status whole (200) or 404 "Record not found", never a server error or a status half deleted'],
    ['STATUS-CONTEXT-1', 'GET /api/v1/statuses/:id/context returns ancestors: the thread above the status'],
    ['STATUS-CONTEXT-2', 'GET /api/v1/statuses/:id/context returns descendants: the thread below the status'],
    ['STATUS-REBLOGGEDBY-1', 'GET /api/v1/statuses/:id/reblogged_by (public) returns an array of Account'],
    ['STATUS-FAVOURITEDBY-1', 'GET /api/v1/statuses/:id/favourited_by (public) returns an array of Account'],
    ['STATUS-WHITELIST-1', 'An instance in whitelist mode answers a tokenless read of a status with 401 "This API requires an authenticated user"', { guards: 'access control' }],
    ['STATUS-VIS-1', 'Public and unlisted statuses are visible to another user: read and context answer them'],
    ['STATUS-VIS-2', 'Context is public for public statuses: it answers for public and unlisted statuses without a token'],
    ['STATUS-VIS-3', 'An unlisted status is readable without a token (tokenless reads since 2.7.0)', { since: '2.7.0' }],
    ['STATUS-VIS-4', 'The context of a private status answers its owner (user token + read:statuses)'],
    ['STATUS-VIS-5', 'The context of a private status answers 404 "Record not found" to another user and without a token', { guards: 'visibility' }],
    ['STATUS-VIS-6', 'A direct status is visible to its owner: read and context answer it'],
    ['STATUS-VIS-7', 'A direct status is not visible to another user or without a token: read and context answer 404 "Record not found"', { guards: 'visibility' }],
    ['STATUS-VIS-8', 'GET /api/v1/statuses/:id/reblogged_by and /favourited_by (public) of a status that is private or not visible to the caller answer 404 "Record not found"', { guards: 'visibility' }],
    ['STATUS-CARD-1', 'GET /api/v1/statuses/:id/card (public) answers a Card, until its removal in 3.0.0'],
    ['STATUS-CARD-2', 'GET /api/v1/statuses/:id/card is removed in 3.0.0: it answers 404', { since: '3.0.0' }],
    ['STATUS-IDEMPOTENCY-1', 'Idempotency-Key prevents duplicate submissions: the same key twice gives the same status'],
    ['STATUS-IDEMPOTENCY-2', 'A different Idempotency-Key gives a new status'],
    ['STATUS-PARAMS-1', 'status is required unless media_ids is given: a creation with neither is refused'],
    ['STATUS-PARAMS-2', 'status is required unless media_ids is given: a creation with media_ids[] and no status parameter creates the status'],
    ['STATUS-POLL-1', "poll[options][] are the options of the new status's Poll, in order", { since: '2.8.0' }],
    ['STATUS-POLL-2', 'poll[expires_in]: seconds the poll stays open (expires_at is created_at plus expires_in)', { since: '2.8.0' }],
    ['STATUS-POLL-3', 'poll[multiple]: allow multiple choices (Poll.multiple)', { since: '2.8.0' }],
    ['STATUS-POLL-4', 'poll[hide_totals] (optional) is accepted: the status is created with its Poll', { since: '2.8.0' }],
    ['STATUS-POLL-5', 'With poll[options][], poll[expires_in] must be present: a poll without it is refused', { since: '2.8.0' }],
    ['STATUS-POLL-6', 'With poll[options][], media_ids cannot be used: a status with both is refused', { since: '2.8.0' }],
    ['STATUS-SCHEDULED-1', 'With scheduled_at at least 5 minutes in the future the response is a ScheduledStatus for that time', { since: '2.7.0' }],
    ['STATUS-SCHEDULED-2', "A ScheduledStatus's params echo the request: text and visibility as sent", { since: '2.7.0' }],
    ['STATUS-SCHEDULED-3', 'scheduled_at must be at least 5 minutes in the future: an earlier time is refused', { since: '2.7.0' }],
    ['STATUS-REDRAFT-1', "Delete and redraft: resending the DELETE answer's text as status, its media ids in media_ids[] and its poll options and multiple (with a fresh poll[expires_in] and poll[hide_totals]) creates an equivalent status", { since: '2.9.0' }],
    // Each optional parameter's documented effect, observed where the caller and another account read the status later.
    ['STATUS-EFFECT-1', 'poll[hide_totals]: hide vote counts until the poll ends: to another account, an open poll made with it shows no votes_count of an option (null or absent)', { since: '2.8.0' }],
    ['STATUS-EFFECT-2', "spoiler_text, sensitive and language mark the status, not only the creation's answer: a later read shows them as created, to its owner and to another account"],
    ['STATUS-EFFECT-3', "poll[options][] and poll[multiple] are the poll's: another account's later read shows its options and multiple as created", { since: '2.8.0' }],
    ['STATUS-EFFECT-5', "status: text content: the Status's content (HTML) carries the text sent, in the creation's answer and in later reads by its owner and by another account"],
    ['STATUS-EFFECT-6', "in_reply_to_id is the reply's: another account's later read of the reply shows the in_reply_to_id and in_reply_to_account_id its creation answered"],
    ['STATUS-EFFECT-7', "visibility marks the status, not only the creation's answer: its owner's later read shows the visibility it was created with"],
    ['STATUS-EFFECT-4', "poll[expires_in] is the poll's: another account's later read shows the expires_at the creation answered (created_at plus expires_in)", { since: '2.8.0' }],
    ['STATUS-ERRORBODY-1', 'Error bodies for failed POST /api/v1/statuses calls: not shown', { kind: 'not-shown' }],
  ]),
  ...section('Media', [
    ['MEDIA-UPLOAD-1', 'POST /api/v1/media (user token + write:media) returns an Attachment, HTTP 200'],
    ['MEDIA-UPLOAD-2', 'meta has original and small, each with width and height (integers), size of the form <width>x<height> and aspect; original is the size of the uploaded image'],
    ['MEDIA-UPLOAD-3', 'Server-side preview images are never cropped: meta.small keeps the aspect of meta.original'],
    ['MEDIA-UPLOAD-4', 'The description given with the upload is the Attachment\'s description (string)'],
    ['MEDIA-UPLOAD-5', 'An attachment is created even when the file is not understood: type unknown, blurhash null'],
    ['MEDIA-UPLOAD-6', 'A media upload with an unsupported or invalid file or type answers 422 "Validation failed: File content type is invalid, File is invalid"'],
    ['MEDIA-V2-1', 'POST /api/v2/media (user token + write:media) returns an Attachment, HTTP 202, url null', { since: '3.1.3' }],
    ['MEDIA-V2-2', 'The v2 upload prepares the thumbnail synchronously: its answer carries a preview_url', { since: '3.1.3' }],
    ['MEDIA-READ-1', 'A read of an attachment whose processing has finished answers 200 and the Attachment', { since: '3.1.3' }],
    ['MEDIA-READ-2', 'A read before processing has finished answers 206, not 200: a 200 read carries the url of the processed file', { since: '3.1.3' }],
    ['MEDIA-READ-3', 'A media read where processing failed answers 422 "Validation failed: File content type is invalid, File is invalid"', { since: '3.1.3' }],
    ['MEDIA-READ-4', 'A read of an attachment not created by the caller answers 404 "Record not found"', { since: '3.1.3', guards: 'visibility' }],
    ['MEDIA-READ-5', 'A read of an attachment that does not exist answers 404 "Record not found"', { since: '3.1.3' }],
    ['MEDIA-UPDATE-1', 'PUT updates the Attachment before it is attached to a status: description and focus change'],
    ['MEDIA-UPDATE-2', 'An update of an attachment not created by the caller answers 404 "Record not found"', { guards: 'ownership' }],
    ['MEDIA-UPDATE-3', 'A media update with an invalid file (a thumbnail that is not an image) is refused with 422', { since: '3.2.0' }],
    ['MEDIA-UPDATE-4', 'An update of an attachment that does not exist (deleted) answers 404 "Record not found"'],
    ['MEDIA-FOCUS-1', 'focus given with the upload is meta.focus: x and y from -1.0 to 1.0, (0,0) the image centre', { since: '2.3.0' }],
    ['MEDIA-FOCUS-2', 'Focal point x and y are floating-point values from -1.0 to 1.0: values in range round-trip through an update, and no value makes the server fail (5xx)', { since: '2.3.0' }],
    ['MEDIA-ATTACH-1', 'POST /api/v1/statuses with media_ids[] of attachments owned by the caller attaches them to the new status'],
    ['MEDIA-ATTACH-2', 'sensitive marks status and media sensitive: a status with media_ids[] and sensitive is sensitive'],
    ['MEDIA-ATTACH-3', "Only attachments owned by the caller are attached: another user's attachment in media_ids[] is refused", { guards: 'ownership' }],
    // The media parameters' effect, observed where the status that attaches the attachment shows it.
    ['MEDIA-EFFECT-1', "description and focus are the attachment's: the status that attaches it carries the description and focal point the attachment was last given"],
    ['MEDIA-EFFECT-3', "description and focus are the attachment's, not only the upload's answer: the caller's later read of it, once processed, shows the description and focal point the upload answered", { since: '3.1.3' }],
    ['MEDIA-EFFECT-2', "media_ids[] attach the media to the status, not only to the creation's answer: another account's later read of the status carries them, with the description and focal point the creation answered"],
    ['MEDIA-PATH-1', 'Paths of the media read (GET) and update (PUT): not shown; each carries one string attachment id', { kind: 'not-shown' }],
    ['MEDIA-PARAMS-1', 'Names and encodings of the media form parameters: not shown, beyond the names focus (added in 2.3.0) and thumbnail (added in 3.2.0)', { kind: 'not-shown' }],
  ]),
  ...section('Streaming (server-sent events)', [
    ['STREAM-HEALTH-1', 'GET /api/v1/streaming/health returns OK when the streaming service is fine', { since: '2.5.0' }],
    ['STREAM-SSE-1', 'Clients receive real-time updates over server-sent events (a long-lived HTTP connection): the stream is text/event-stream'],
    ['STREAM-USER-1', '/api/v1/streaming/user carries events relevant to the authorized user: the home timeline, where the user\'s new status appears as update'],
    ['STREAM-USER-2', '/api/v1/streaming/user carries events relevant to the authorized user: notifications'],
    ['STREAM-USER-3', 'POST /api/v1/statuses/:id/mute: notifications for the thread stop; no notification on the user stream for a reply in a muted thread', { since: '1.4.2' }],
    ['STREAM-USER-4', 'POST /api/v1/statuses/:id/unmute: notifications resume; a reply in the unmuted thread notifies on the user stream', { since: '1.4.2' }],
    ['STREAM-PUBLIC-1', '/api/v1/streaming/public carries all public statuses'],
    ['STREAM-PUBLIC-2', '/api/v1/streaming/public carries public statuses: a private status never appears on it', { guards: 'visibility' }],
    ['STREAM-LOCAL-1', '/api/v1/streaming/public/local carries all local statuses'],
    ['STREAM-HASHTAG-1', '/api/v1/streaming/hashtag with tag carries public statuses for the hashtag'],
    ['STREAM-HASHTAG-2', '/api/v1/streaming/hashtag/local with tag carries local statuses for the hashtag'],
    ['STREAM-HASHTAG-3', '/api/v1/streaming/hashtag carries statuses for its hashtag only: none for a status without it'],
    ['STREAM-LIST-1', '/api/v1/streaming/list with list (a list id) carries statuses for the list'],
    ['STREAM-DIRECT-1', '/api/v1/streaming/direct carries all direct messages'],
  ]),
  ...section('Streaming (WebSocket)', [
    ['STREAM-WS-1', 'One path: /api/v1/streaming, with query parameters access_token, stream, and list and tag where the stream needs them; the token travels in access_token'],
    ['STREAM-WS-2', 'Events are delivered over WebSocket: each message carries the event name and its JSON-encoded payload'],
  ]),
  ...section('Events', [
    ['EVENTS-COMMENT-1', 'The HTTP stream contains events and heartbeat comments: a line that begins with a colon is a comment; it keeps the connection open'],
    ['EVENTS-FRAME-1', 'An event is written as a line event: <name> followed by a line data: <payload>; the payload is JSON-encoded'],
    ['EVENTS-UPDATE-1', 'update: a new status has appeared; the payload is a Status'],
    ['EVENTS-DELETE-1', 'delete: a status has been deleted; the payload is the id of the deleted status'],
    ['EVENTS-NOTIFICATION-1', 'notification: a new notification has appeared; the payload is a Notification (a JSON object; its fields are not shown)'],
    ['EVENTS-FILTERS-1', 'filters_changed: keyword filters have changed; no defined payload (how filters change is not shown, so the event cannot be provoked)', { kind: 'not-shown' }],
    ['EVENTS-STREAMS-1', 'Which stream values carry which events: not shown', { kind: 'not-shown' }],
    ['EVENTS-PARSER-1', 'A line that begins with a colon is a comment and is ignored by parsers', { kind: 'client' }],
    ['EVENTS-PUSH-1', 'Any push-style delivery to external receivers: not shown', { kind: 'not-shown' }],
  ]),
  ...section('Limits', [
    ['LIMITS-HEADERS-1', 'The service reports its rate limits in response headers: every /api/* response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset'],
    ['LIMITS-HEADERS-2', 'X-RateLimit-Limit (number of requests permitted per time period) and X-RateLimit-Remaining (number of requests still allowed) are non-negative whole numbers'],
    ['LIMITS-HEADERS-3', 'X-RateLimit-Remaining, the number of requests still allowed, never exceeds X-RateLimit-Limit, the number permitted per time period'],
    ['LIMITS-HEADERS-4', 'X-RateLimit-Reset is the timestamp at which the limit resets: a time in the future'],
    ['LIMITS-REMAINING-1', 'X-RateLimit-Remaining is the number of requests still allowed: it decreases as the caller makes calls within a period'],
    ['LIMITS-ACCESS-1', 'Any method on /api/* falls under Account access and IP access, 300 requests per 5 minutes: an ordinary call reports limit 300 and a reset within 5 minutes'],
    ['LIMITS-ACCOUNT-1', 'Buckets of type per account are counted per account: one account\'s calls do not spend another account\'s bucket'],
    ['LIMITS-UPLOAD-1', 'POST /api/v1/media (and the v2 upload) falls under Uploading, 30 per 30 minutes per account: the headers report it while it is the closest to exhaustion'],
    ['LIMITS-DELETION-1', 'DELETE /api/v1/statuses/:id falls under Deletion, 30 per 30 minutes per account: the headers report it while it is the closest to exhaustion'],
    ['LIMITS-DELETION-2', 'The Deletion bucket is shared by its two operations: DELETE /api/v1/statuses/:id and POST /api/v1/statuses/:id/unreblog spend one counter'],
    ['LIMITS-SIGNUP-1', 'POST /api/v1/accounts falls under App sign-up, 5 per 30 minutes per IP: once it is spent, Remaining is 0 and the call is refused'],
    ['LIMITS-REFUSAL-1', 'The response when a rate limit is exceeded: not shown', { kind: 'not-shown' }],
    ['LIMITS-RESET-FORMAT-1', 'The format of the X-RateLimit-Reset timestamp: not shown', { kind: 'not-shown' }],
    ['LIMITS-MEDIA-1', 'Media size and format limits: not shown', { kind: 'not-shown' }],
    ['LIMITS-STATUS-1', 'Maximum status length, poll option count and poll expires_in bounds: not shown', { kind: 'not-shown' }],
  ]),
  ...section('Authentication', [
    ['AUTH-DOMAIN-1', 'A client must let the user name the server domain before login and must register against that domain', { kind: 'client' }],
    ['AUTH-LIFETIME-1', 'Token lifetime and refresh: not shown', { kind: 'not-shown' }],
    ['AUTH-PASSWORD-PARAMS-1', 'Parameters of the password grant: not shown', { kind: 'not-shown' }],
    ['AUTH-FLOW-1', 'OAuth 2.0 (RFC 6749) authorization code flow (end users): the code from /oauth/authorize, exchanged at POST /oauth/token with grant_type authorization_code, gives a user token'],
    ['AUTH-REGISTER-1', 'A client first registers through POST /api/v1/apps to obtain client_id and client_secret, then requests a token at POST /oauth/token', { kind: 'client' }],
    ['AUTH-BEARER-1', 'Authenticated calls send the header Authorization: Bearer <ACCESS_TOKEN>'],
    ['AUTH-SCOPE-IMPLY-1', 'Which broader scopes imply which narrower ones: not shown', { kind: 'not-shown' }],
    ['AUTH-SSE-TOKEN-1', 'How a server-sent-events request carries its token: not shown', { kind: 'not-shown' }],
    ['ACCESS-SCOPE-STATUSES-1', 'POST /api/v1/statuses, DELETE /api/v1/statuses/:id, .../reblog and .../unreblog need a user token + write:statuses: a user token without it is refused, and nothing changes', { guards: 'access control' }],
    ['ACCESS-SCOPE-FAVOURITES-1', '.../favourite and .../unfavourite need a user token + write:favourites: a user token without it is refused, and nothing changes', { guards: 'access control' }],
    ['ACCESS-SCOPE-BOOKMARKS-1', '.../bookmark and .../unbookmark need a user token + write:bookmarks: a user token without it is refused, and nothing changes', { since: '3.1.0', guards: 'access control' }],
    ['ACCESS-SCOPE-MUTES-1', '.../mute and .../unmute need a user token + write:mutes: a user token without it is refused, and nothing changes', { since: '1.4.2', guards: 'access control' }],
    ['ACCESS-SCOPE-ACCOUNTS-1', '.../pin and .../unpin need a user token + write:accounts: a user token without it is refused, and nothing changes', { since: '1.6.0', guards: 'access control' }],
    ['ACCESS-SCOPE-MEDIA-1', 'The media upload, read and update need a user token + write:media: a user token without it is refused, and nothing changes', { guards: 'access control' }],
    // Rule 12 leaves open which scopes imply which, so this is a warning; yet rules 5 and 6 let a client register
    // only read, write, follow and push, so only if write grants write:* can any token use the write operations.
    ['ACCESS-BROAD-1', 'Scopes registered at application creation are from read, write, follow, push; operations name fine-grained scopes: a token with the broad write scope is accepted where write:statuses or write:bookmarks is named', { severity: 'SHOULD' }],
    ['ACCESS-APPTOKEN-1', 'Access kinds per operation: public, user token, user token with a named scope: an application token (client credentials, acting for no user) is refused on POST /api/v1/statuses, a user-token operation', { guards: 'access control' }],
    ['ACCESS-READ-1', 'A private status needs a user token + read:statuses: a token of its owner without read:statuses cannot see it', { guards: 'access control' }],
  ]),
  ...section('Errors', [
    ['ERRORS-BODY-1', 'Error responses carry a JSON body {error: string}'],
    ['ERRORS-TEXT-1', 'Each row of the Errors table gives the error text of its answer ("Record not found", "The access token is invalid", ...): an answer to that condition carries that text'],
    ['ERRORS-TOKEN-1', 'A missing Authorization header on a token operation answers 401 "The access token is invalid"'],
    ['ERRORS-TOKEN-2', 'An invalid Authorization header on a token operation answers 401 "The access token is invalid"'],
    ['ERRORS-OTHER-1', 'Status codes beyond those listed: not shown', { kind: 'not-shown' }],
    // Not the contract's words: it lists no condition answered with a server error, and every conformance tool
    // flags one; since the codes beyond those listed are not shown, a 5xx is a warning.
    ['ERRORS-5XX-1', 'The Errors table lists no condition answered with a server error: a well-formed request never gets a 5xx', { severity: 'SHOULD' }],
  ]),
  ...section('Versioning', [
    ['VERSION-DEPRECATED-1', 'The upload at /api/v1/media is deprecated (since 3.1.3) in favour of /api/v2/media', { kind: 'client', since: '3.1.3' }],
    ['VERSION-CARD-1', 'GET /api/v1/statuses/:id/card is deprecated in favour of the card field of Status', { kind: 'client', since: '2.6.0' }],
    ['VERSION-NUMBER-1', "How a client reads the service's own version number: not shown", { kind: 'not-shown' }],
  ]),
];

const BY_ID = new Map(CLAUSES.map((c) => [c.id, c]));

export function clause(id: string): Clause {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`unknown clause id ${id}: add it to suites/support/judge/clauses.ts`);
  return found;
}

/** A clause id at the start of a check title ("STATUS-READ-1 tokenless ..."). */
export const CLAUSE_ID = /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+(?=\s|$)/;

export function findClause(id: string): Clause | undefined {
  return BY_ID.get(id);
}

/** In the reason of every check skipped for the configured release, so that the summary can count them. */
export const RELEASE_SKIP_MARK = 'CONFORMANCE_SERVER_VERSION=';

/**
 * Whether a server of `release` has what a clause describes: the catalogue's since is the one table of releases
 * (as test262's features), read by the checks and steps that need an operation or a parameter, and by the reference
 * server that serves it. A clause without since came with the first release.
 */
export function releaseHas(release: string, id: string): boolean {
  const clause = findClause(id);
  if (!clause) throw new Error(`no clause ${id} in the catalogue (suites/support/judge/clauses.ts)`);
  return !clause.since || releaseAtLeast(release, clause.since);
}

/** A failure as data: what every report shows of it, without reading the message back. */
export interface FailureData {
  clause: string;
  expected: string;
  actual: string;
  /** The redacted exchange that showed it, with its curl line. */
  exchange?: string;
  /** The curl lines that reproduce it, one per line: the replay's, else the request's alone (secrets are environment variable names). */
  reproduce?: string;
  /** Where the failing request names objects the run created: their creations, then the request (talk/replay.ts). */
  replay?: ReplayStep[];
}

/** "STATUS-MUTE-1 (mute answered HTTP 404)", or "outside the contract: ...". */
export function causeLabel(cause: RootCause): string {
  return cause.clause ? `${cause.clause} (${cause.summary})` : `outside the contract: ${cause.summary}`;
}

export class ClauseFailure extends Error {
  /** Own properties survive vitest's serialisation of errors, so the reporter reads the failure as data. */
  readonly data: FailureData;
  constructor(clause: Clause, expected: string, actual: string, exchange = '', reproduce?: string, replay: ReplayStep[] = []) {
    super(`${clause.id} ${clause.words}\n  expected: ${expected}\n  actual:   ${actual}${exchange ? `\n${exchange}` : ''}`);
    this.name = 'ClauseFailure';
    this.data = { clause: clause.id, expected, actual, ...(exchange ? { exchange } : {}), ...(reproduce ? { reproduce } : {}), ...(replay.length ? { replay } : {}) };
  }
}

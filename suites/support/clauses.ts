// The clause catalogue: every rule of the contract (../shared/spec/social-api.md) with a stable id, the
// section it stands in, the contract's own words, what kind of rule it is and the release that introduced it.
// Checks name their clause as the first word of their title; reports are organised by this catalogue.

/** rule: the server can be tested on it; not-shown: the contract leaves it open, never failed; client: a client obligation. */
export type Kind = 'rule' | 'not-shown' | 'client';
/** MUST fails the run; SHOULD is reported as a warning. */
export type Severity = 'MUST' | 'SHOULD';

export interface Clause {
  id: string;
  section: string;
  words: string;
  kind: Kind;
  severity: Severity;
  since?: string;
}

type Entry = [id: string, words: string, options?: { kind?: Kind; severity?: Severity; since?: string }];

function section(name: string, entries: Entry[]): Clause[] {
  return entries.map(([id, words, options]) => ({ id, section: name, words, kind: options?.kind ?? 'rule', severity: options?.severity ?? 'MUST', ...(options?.since ? { since: options.since } : {}) }));
}

export const CLAUSES: readonly Clause[] = [
  ...section('Resources and their fields', [
    ['RESOURCE-STATUS-1', 'A Status has the fields and types of the Status table; nullable only where marked |null'],
    ['RESOURCE-ACCOUNT-1', 'An Account has the fields and types of the Account table, fields an array of Field'],
    ['RESOURCE-APPLICATION-1', 'An Application includes client_id and client_secret (both string), and the client name and website given at registration'],
    ['RESOURCE-TOKEN-1', 'A Token includes access_token (string)'],
    ['RESOURCE-CONTEXT-1', 'A Context has ancestors and descendants, arrays of Status'],
    ['RESOURCE-ATTACHMENT-1', 'An Attachment has the fields and types of the Attachment table; meta original and small with width, height, size <width>x<height> and aspect'],
    ['RESOURCE-POLL-1', 'A Poll has the fields and types of the Poll table'],
    ['RESOURCE-SCHEDULED-1', 'A ScheduledStatus has id, scheduled_at, params and media_attachments'],
    ['RESOURCE-CARD-1', 'A Card has url, title, description, type, author_name, author_url, provider_name, provider_url, html, image, embed_url (strings), width and height (integers)'],
  ]),
  ...section('Client registration', [
    ['APPS-REGISTER-1', 'POST /api/v1/apps returns an Application with client_id and client_secret'],
    ['APPS-REGISTER-2', 'The client name and website given at registration are part of the Application'],
    ['APPS-VERIFY-1', 'GET /api/v1/apps/verify_credentials with the Authorization header returns the Application'],
    ['APPS-VERIFY-2', 'GET /api/v1/apps/verify_credentials without a token answers 401 "The access token is invalid"'],
    ['APPS-REQUIRED-1', 'Which registration parameters are required: not shown', { kind: 'not-shown' }],
  ]),
  ...section('OAuth', [
    ['OAUTH-TOKEN-1', 'POST /oauth/token obtains an access token and returns a Token'],
    ['OAUTH-SCOPE-1', 'The token operation takes scope (singular), and its value must be a subset of the scopes registered for the application'],
    ['OAUTH-REDIRECT-1', 'The token operation takes redirect_uri (singular), and its value must be one of the redirect_uris registered'],
    ['OAUTH-CLIENTCRED-1', 'With grant_type client_credentials and no scope, the token has the read scope'],
    ['OAUTH-PASSWORD-1', 'The password grant (bots and single-user applications) obtains a user token'],
    ['OAUTH-AUTHORIZE-1', 'GET /oauth/authorize shows an authorization form to the user'],
    ['OAUTH-REVOKE-1', 'POST /oauth/revoke revokes an access token when called with client credentials (RFC 7009)'],
    ['OAUTH-PARAMS-1', 'Full parameter lists of /oauth/authorize and /oauth/revoke: not shown', { kind: 'not-shown' }],
  ]),
  ...section('Account relations', [
    ['RELATIONS-APPTOKEN-1', 'GET /api/v1/accounts/:id/following and /followers need a token; an application token suffices'],
    ['RELATIONS-TOKEN-1', 'GET /api/v1/accounts/:id/following and /followers without a token are refused with 401'],
    ['RELATIONS-SHAPE-1', 'Parameters and response shape of following and followers: not shown', { kind: 'not-shown' }],
  ]),
  ...section('Statuses', [
    ['STATUS-CREATE-1', 'POST /api/v1/statuses (user token + write:statuses) returns a Status'],
    ['STATUS-CREATE-2', 'spoiler_text: warning or subject shown before the content'],
    ['STATUS-CREATE-3', 'sensitive: marks status and media sensitive'],
    ['STATUS-CREATE-4', 'visibility: one of public, unlisted, private, direct'],
    ['STATUS-CREATE-5', 'language: ISO 639 code'],
    ['STATUS-CREATE-6', 'in_reply_to_id: id of the status replied to; the reply carries in_reply_to_id and in_reply_to_account_id'],
    ['STATUS-READ-1', 'GET /api/v1/statuses/:id is public for public statuses (tokenless reads since 2.7.0)', { since: '2.7.0' }],
    ['STATUS-READ-2', 'A private status is readable by its owner with a user token + read:statuses'],
    ['STATUS-READ-3', 'A private status not visible to the caller answers 404 "Record not found"'],
    ['STATUS-READ-4', 'A private status read without a token answers 404 "Record not found"'],
    ['STATUS-READ-5', 'A status that does not exist answers 404 "Record not found"'],
    ['STATUS-DELETE-1', 'DELETE /api/v1/statuses/:id returns the Status with text (the source) and media_attachments or poll', { since: '2.9.0' }],
    ['STATUS-DELETE-2', 'After DELETE the status no longer exists: a later read gives 404'],
    ['STATUS-DELETE-3', 'DELETE of a status not owned by the caller answers 404 "Record not found"'],
    ['STATUS-DELETE-4', 'DELETE of a status already deleted answers 404 "Record not found"'],
    ['STATUS-CONTEXT-1', 'GET /api/v1/statuses/:id/context returns ancestors: the thread above the status'],
    ['STATUS-CONTEXT-2', 'GET /api/v1/statuses/:id/context returns descendants: the thread below the status'],
    ['STATUS-REBLOGGEDBY-1', 'GET /api/v1/statuses/:id/reblogged_by (public) returns an array of Account'],
    ['STATUS-FAVOURITEDBY-1', 'GET /api/v1/statuses/:id/favourited_by (public) returns an array of Account'],
    ['STATUS-WHITELIST-1', 'An instance in whitelist mode answers a tokenless read of a status with 401 "This API requires an authenticated user"'],
    ['STATUS-ERRORBODY-1', 'Error bodies for failed POST /api/v1/statuses calls: not shown', { kind: 'not-shown' }],
  ]),
  ...section('Authentication', [
    ['AUTH-DOMAIN-1', 'A client must let the user name the server domain before login and must register against that domain', { kind: 'client' }],
    ['AUTH-LIFETIME-1', 'Token lifetime and refresh: not shown', { kind: 'not-shown' }],
    ['AUTH-PASSWORD-PARAMS-1', 'Parameters of the password grant: not shown', { kind: 'not-shown' }],
  ]),
  ...section('Errors', [
    ['ERRORS-BODY-1', 'Error responses carry a JSON body {error: string}'],
    ['ERRORS-TOKEN-1', 'A missing Authorization header on a token operation answers 401 "The access token is invalid"'],
    ['ERRORS-TOKEN-2', 'An invalid Authorization header on a token operation answers 401 "The access token is invalid"'],
  ]),
];

const BY_ID = new Map(CLAUSES.map((c) => [c.id, c]));

export function clause(id: string): Clause {
  const found = BY_ID.get(id);
  if (!found) throw new Error(`unknown clause id ${id}: add it to suites/support/clauses.ts`);
  return found;
}

/** A clause id at the start of a check title ("STATUS-READ-1 tokenless ..."). */
export const CLAUSE_ID = /^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+(?=\s|$)/;

export function findClause(id: string): Clause | undefined {
  return BY_ID.get(id);
}

export class ClauseFailure extends Error {
  constructor(
    readonly clause: Clause,
    expected: string,
    actual: string,
    exchange = '',
  ) {
    super(`${clause.id} ${clause.words}\n  expected: ${expected}\n  actual:   ${actual}${exchange ? `\n${exchange}` : ''}`);
    this.name = 'ClauseFailure';
  }
}

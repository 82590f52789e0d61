// The operations the contract shows, by method and path, ids as :id: the only exchanges a run-wide rule takes as
// evidence. The run also sends what the contract does not show, as its own housekeeping: the ledger's undos through
// Mastodon's paths (DELETE /api/v1/media/:id, DELETE /api/v1/scheduled_statuses/:id), the account id read from
// GET /api/v1/accounts/verify_credentials, the pages of a web sign-in, the files at an attachment's url. A server's
// answer to those says nothing of the contract, and a report that quotes one sends its reader to a path the contract
// never promised.
import type { Exchange } from '../talk/http.ts';

/** A path segment that is an id: it has a digit (snowflakes, ULIDs, flake ids) or is long; v1, v2 are not. */
const isIdSegment = (segment: string) => !/^v\d+$/.test(segment) && (/\d/.test(segment) || segment.length >= 20);

/** The operation of an exchange, as the contract names it: method and path, ids as :id, without the query. */
export function operationOf(exchange: Pick<Exchange, 'method' | 'path'>): string {
  const path = (exchange.path.split('?')[0] ?? '').split('/').map((segment) => (isIdSegment(segment) ? ':id' : segment)).join('/');
  return `${exchange.method} ${path}`;
}

const STATUS_MOVES = ['favourite', 'unfavourite', 'reblog', 'unreblog', 'bookmark', 'unbookmark', 'mute', 'unmute', 'pin', 'unpin'];
const STREAMS = ['health', 'user', 'public', 'public/local', 'hashtag', 'hashtag/local', 'list', 'direct'];

/** Every operation the contract's tables show (Client registration, OAuth, Account relations, Statuses, Media, Streaming, Limits). */
const SHOWN: ReadonlySet<string> = new Set([
  'POST /api/v1/apps',
  'GET /api/v1/apps/verify_credentials',
  // The authorization form, and its approval, which posts the form back.
  'GET /oauth/authorize',
  'POST /oauth/authorize',
  'POST /oauth/token',
  'POST /oauth/revoke',
  'GET /api/v1/accounts/:id/following',
  'GET /api/v1/accounts/:id/followers',
  // The App sign-up bucket of the Limits table.
  'POST /api/v1/accounts',
  'POST /api/v1/statuses',
  'GET /api/v1/statuses/:id',
  'DELETE /api/v1/statuses/:id',
  ...['context', 'reblogged_by', 'favourited_by', 'card'].map((read) => `GET /api/v1/statuses/:id/${read}`),
  ...STATUS_MOVES.map((move) => `POST /api/v1/statuses/:id/${move}`),
  'POST /api/v1/media',
  'POST /api/v2/media',
  // The contract shows the read and the update of an attachment without their path: the suite sends Mastodon's.
  'GET /api/v1/media/:id',
  'PUT /api/v1/media/:id',
  'GET /api/v1/streaming',
  ...STREAMS.map((stream) => `GET /api/v1/streaming/${stream}`),
]);

/** Whether the exchange is of an operation the contract shows, and so may be evidence for a run-wide rule. */
export function shownByContract(exchange: Pick<Exchange, 'method' | 'path'>): boolean {
  return SHOWN.has(operationOf(exchange));
}

// What the run's answers showed of the objects it makes, in the order the answers came: the evidence on which the
// cleanup says that an object is gone (run/cleanup.ts). Every answer of the run is looked at, the ledger's own
// reads included, so that a read a check made already is not made again. An object is seen by whoever reads it:
// a status by its author, a flag by the account that set it, a token by any call that carries it.
import { perFile } from '../talk/file-state.ts';
import { jsonOf, onExchange, type Exchange } from '../talk/http.ts';

/** One answer about one object. */
export interface Sighting {
  /** The answer's place in the file's order of answers. */
  at: number;
  present: boolean;
  /** A read of the object; false for the answer of the operation that made it. */
  read: boolean;
  exchange: Exchange;
}

/** The flag a status shows for each flag the run sets, and the operations that set and unset it. */
export const FLAGS = {
  favourite: { flag: 'favourited', set: 'favourite', unset: 'unfavourite' },
  boost: { flag: 'reblogged', set: 'reblog', unset: 'unreblog' },
  bookmark: { flag: 'bookmarked', set: 'bookmark', unset: 'unbookmark' },
  mute: { flag: 'muted', set: 'mute', unset: 'unmute' },
  pin: { flag: 'pinned', set: 'pin', unset: 'unpin' },
} as const;
export type FlagKind = keyof typeof FLAGS;

/** The key of an object among the sightings: its kind, its id and who sees it ('' when anyone does). */
export const keyOf = (kind: string, id: string, by = ''): string => `${kind} ${id} ${by}`;

let order = 0;
const sightings = new Map<string, Sighting[]>();
/** The kinds of object a read showed present in this file: their reads answer more than 404. */
const readsThatShow = new Set<string>();
/** The url of each attachment an answer carried, and back. */
const urls = new Map<string, string>();
/** The file key of each url the ledger fetches: an attachment's id for its url, the url itself for a file an update wrote. */
const filesByUrl = new Map<string, string>();
/** The file urls (url, preview_url) each attachment's answers gave. */
const fileUrls = new Map<string, Set<string>>();
/** Those an update of it gave anew: the files its updates wrote. */
const writtenFiles = new Map<string, Set<string>>();
/** The attachments an update answered 2xx: a file any later answer gives anew is one an update wrote. */
const updated = new Set<string>();
/** The status each reply the run made replies to, from its creation's answer. */
const parents = new Map<string, string>();
/** Where the first DELETE of each status answered 2xx: from there on, it was deleted. */
const deletions = new Map<string, number>();
/** The poll of each status the run made, from its creation's answer. */
const polls = new Map<string, string>();
perFile(() => {
  order = 0;
  sightings.clear();
  readsThatShow.clear();
  urls.clear();
  filesByUrl.clear();
  fileUrls.clear();
  writtenFiles.clear();
  updated.clear();
  parents.clear();
  deletions.clear();
  polls.clear();
});

/** The place the next answer will take: what comes at or after it came later. */
export const nextAt = (): number => order + 1;

export const sightingsOf = (key: string): readonly Sighting[] => sightings.get(key) ?? [];

/** Whether a read of this kind ever showed an object present in this file. */
export const readShows = (kind: string): boolean => readsThatShow.has(kind);

/**
 * The status a reply replies to, where that one's DELETE answered 2xx before `before` (the reply's undo) and none of
 * the reply's own did: a server may hide a reply whose parent is gone and keep it, so that the reply's own read and
 * delete answer 404 about a reply that is still there.
 */
export function deletedParentOf(statusId: string, before: number): string | undefined {
  const parent = parents.get(statusId);
  const parentDeleted = parent === undefined ? undefined : deletions.get(parent);
  return parentDeleted !== undefined && parentDeleted < before && !deletions.has(statusId) ? parent : undefined;
}

/** The id of the poll a status the run made carries, from its creation's answer. */
export const pollOf = (statusId: string): string | undefined => polls.get(statusId);

/** The url an answer gave for an attachment's file. */
export const urlOf = (attachmentId: string): string | undefined => urls.get(attachmentId);

/** The urls of the files that updates of an attachment wrote: an update's answer gave them, and no answer before. */
export const writtenFilesOf = (attachmentId: string): string[] => [...(writtenFiles.get(attachmentId) ?? [])];

function record(exchange: Exchange, kind: string, id: string, by: string, present: boolean, read: boolean): void {
  const key = keyOf(kind, id, by);
  const list = sightings.get(key) ?? [];
  list.push({ at: order, present, read, exchange });
  sightings.set(key, list);
  if (read && present) readsThatShow.add(kind);
}

type Json = Record<string, unknown>;
const objectOf = (value: unknown): Json | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined);

/**
 * Remembers the url of every attachment an answer carries: an upload, a read or update, a status's media. The answer
 * that gives a url shows its file there as the answer that made a status shows the status: once a fetch of a file
 * showed one served in this file (one read per kind of object, not one per object; cleanup-reads.ts shownPresent).
 */
function learnUrls(exchange: Exchange, body: Json): void {
  const attachments = [body, ...(Array.isArray(body.media_attachments) ? body.media_attachments : [])].map(objectOf);
  const update = exchange.method === 'PUT' && /^\/api\/v1\/media\/[^/]+$/.test(exchange.path.split('?')[0] ?? '');
  for (const attachment of attachments) {
    if (typeof attachment?.id !== 'string' || !('type' in attachment)) continue;
    // A server may answer an update before it writes the file, which later answers give; past processing (200) only,
    // since the file of an attachment still processing comes with a later answer anyway.
    if (update && exchange.status === 200) updated.add(attachment.id);
    const written = update || updated.has(attachment.id) ? learnWrittenFiles(exchange, attachment.id, attachment) : [];
    if (!updated.has(attachment.id)) for (const url of fileUrlsOf(attachment)) setOf(fileUrls, attachment.id).add(url);
    if (typeof attachment.url !== 'string' || written.includes(canonical(attachment.url))) continue;
    const url = canonical(attachment.url);
    urls.set(attachment.id, url);
    filesByUrl.set(url, attachment.id);
    record(exchange, 'file', attachment.id, '', true, false);
  }
}

/** A url as a fetch of it names it (http.ts: origin, path and query). */
const canonical = (url: string) => (URL.canParse(url) ? new URL(url).href : url);
const fileUrlsOf = (attachment: Json): string[] => [attachment.url, attachment.preview_url].filter((u): u is string => typeof u === 'string' && u !== '').map(canonical);
const setOf = (map: Map<string, Set<string>>, key: string): Set<string> => map.get(key) ?? map.set(key, new Set()).get(key) as Set<string>;

/**
 * The files an update's answer gives that no answer gave before (a new thumbnail, a file rewritten with its
 * description): files the update wrote, which a server may keep after the attachment's delete. Each is its own file
 * for the ledger, keyed by its url, and shown present by this answer as an upload's answer shows its url's file.
 */
function learnWrittenFiles(exchange: Exchange, attachmentId: string, attachment: Json): string[] {
  const known = setOf(fileUrls, attachmentId);
  // Where no answer gave a file of it yet (an upload still processing), the update's are its first, not new ones.
  const written = known.size === 0 ? [] : fileUrlsOf(attachment).filter((url) => !known.has(url));
  for (const url of fileUrlsOf(attachment)) known.add(url);
  for (const url of written) {
    setOf(writtenFiles, attachmentId).add(url);
    filesByUrl.set(url, url);
    record(exchange, 'file', url, '', true, false);
  }
  return written;
}

/** A read of a status by `by`: the status, and each flag it shows for the reader. */
function seeStatus(exchange: Exchange, id: string, body: Json | undefined): void {
  const by = exchange.actor;
  if (exchange.status === 404) return record(exchange, 'status', id, by, false, true);
  if (exchange.status !== 200 || body?.id !== id) return;
  record(exchange, 'status', id, by, true, true);
  for (const [kind, { flag }] of Object.entries(FLAGS)) {
    if (typeof body[flag] === 'boolean') record(exchange, kind, id, by, body[flag] as boolean, true);
  }
}

/** What an answer to a call the ledger knows shows; other calls show nothing. */
function see(exchange: Exchange): void {
  order += 1;
  const status = exchange.status;
  if (status === undefined) return;
  const path = exchange.path.split('?')[0] ?? '';
  const json = jsonOf(exchange);
  const body = objectOf(json.ok ? json.value : undefined);
  const ok = status >= 200 && status < 300;
  if (body && status >= 200 && status < 300) learnUrls(exchange, body);
  const file = filesByUrl.get(exchange.url);
  // An attachment's file is served, or not: 404 or 410, or 403 (S3 refuses a missing object so). Any other answer (a
  // 429, a 5xx of the file server) shows nothing either way.
  const fileGone = status === 404 || status === 410 || status === 403;
  if (file !== undefined && exchange.method === 'GET') return ok || fileGone ? record(exchange, 'file', file, '', ok, true) : undefined;
  const bearer = /^Bearer (.+)$/.exec(exchange.requestHeaders.authorization ?? '')?.[1];
  // A token a call succeeded with is one the server holds; 401 is one it does not.
  if (bearer && path.startsWith('/api/') && (ok || status === 401)) record(exchange, 'token', bearer, '', ok, true);
  const by = exchange.actor;
  let m: RegExpExecArray | null;
  if (exchange.method === 'POST' && path === '/api/v1/statuses' && ok && typeof body?.id === 'string') {
    record(exchange, typeof body.scheduled_at === 'string' ? 'scheduled status' : 'status', body.id, by, true, false);
    if (typeof body.in_reply_to_id === 'string') parents.set(body.id, body.in_reply_to_id);
    const poll = objectOf(body.poll)?.id;
    if (typeof poll === 'string' && typeof body.scheduled_at !== 'string') {
      polls.set(body.id, poll);
      record(exchange, 'poll', poll, '', true, false);
    }
  } else if (exchange.method === 'DELETE' && ok && (m = /^\/api\/v1\/statuses\/([^/]+)$/.exec(path))) {
    if (!deletions.has(m[1] as string)) deletions.set(m[1] as string, order);
  } else if (exchange.method === 'GET' && (m = /^\/api\/v1\/statuses\/([^/]+)$/.exec(path))) {
    seeStatus(exchange, m[1] as string, body);
  } else if (exchange.method === 'POST' && ok && (m = /^\/api\/v1\/statuses\/([^/]+)\/(\w+)$/.exec(path))) {
    const [, id, action] = m as unknown as [string, string, string];
    // A move's answer that is the status shows it there, as its creation's answer does (a pin of a boost: the boost).
    if (body?.id === id) record(exchange, 'status', id, by, true, false);
    const flag = Object.entries(FLAGS).find(([, f]) => f.set === action);
    // The answer of the move that set the flag shows it set (for a boost, on the boosted status inside it).
    if (flag && (body?.[flag[1].flag] === true || objectOf(body?.reblog)?.[flag[1].flag] === true)) record(exchange, flag[0], id, by, true, false);
  } else if (exchange.method === 'GET' && (m = /^\/api\/v1\/polls\/([^/]+)$/.exec(path))) {
    // Outside the contract (Mastodon's): the cleanup reads a deleted status's poll with it.
    if (status === 404 || (status === 200 && body?.id === m[1])) record(exchange, 'poll', m[1] as string, '', status === 200, true);
  } else if (exchange.method === 'GET' && (m = /^\/api\/v1\/scheduled_statuses\/([^/]+)$/.exec(path))) {
    if (status === 404 || (status === 200 && body?.id === m[1])) record(exchange, 'scheduled status', m[1] as string, by, status === 200, true);
  } else if (exchange.method === 'POST' && /^\/api\/v[12]\/media$/.test(path) && ok && typeof body?.id === 'string') {
    record(exchange, 'attachment', body.id, by, true, false);
  } else if (exchange.method === 'GET' && (m = /^\/api\/v1\/media\/([^/]+)$/.exec(path))) {
    // The Attachment states: 206 while processing (no body), 422 where processing failed; 404 when there is none.
    const shown = (status === 200 && body?.id === m[1]) || status === 206 || status === 422;
    if (shown || status === 404) record(exchange, 'attachment', m[1] as string, by, shown, true);
  } else if (exchange.method === 'POST' && path === '/oauth/token') {
    seeClient(exchange, body);
    if (status === 200 && typeof body?.access_token === 'string') record(exchange, 'token', body.access_token, '', true, false);
  }
}

/**
 * A token request: the token operation authenticates the client before it judges the grant (RFC 6749 5.2), so a
 * token it gives, or a grant it refuses as invalid_grant, shows the application there; invalid_client, gone.
 */
function seeClient(exchange: Exchange, body: Json | undefined): void {
  const clientId = exchange.requestHeaders['content-type']?.startsWith('application/x-www-form-urlencoded')
    ? new URLSearchParams(exchange.requestBody ?? '').get('client_id')
    : null;
  if (!clientId) return;
  if (exchange.status === 200 || (exchange.status === 400 && body?.error === 'invalid_grant')) record(exchange, 'application', clientId, '', true, true);
  if (exchange.status === 401 && body?.error === 'invalid_client') record(exchange, 'application', clientId, '', false, true);
}

onExchange(see);

// What the cleanup reads of each object it undoes, and what the run's answers showed of it before (sightings.ts):
// a read shows an object present or absent, by the operation that reads its kind, and an object counts as gone
// only when a read showed it present earlier in the run and a read after the undo shows it absent.
import type { Entry, Subject } from '../act/ledger.ts';
import { FLAGS, keyOf, readShows, sightingsOf, urlOf, writtenFilesOf, type FlagKind, type Sighting } from '../act/sightings.ts';
import { jsonOf, senderOf, type Exchange, type HttpClient } from '../talk/http.ts';

/** The access_token a token operation's answer gave, if it gave one. */
export function accessTokenOf(exchange: Exchange): string | undefined {
  const json = jsonOf(exchange);
  const token = exchange.status === 200 && json.ok ? (json.value as { access_token?: unknown } | null)?.access_token : undefined;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/** A read that shows an object present or absent (sightings.ts). */
export interface Read {
  kind: string;
  key: string;
  /**
   * Whether the answer that made the object counts as showing it present only once a read of its kind showed one
   * present: where the read tells absence by 404, as a server without the read answers too. A flag read tells it by
   * a false flag in the status, which is an answer about the flag.
   */
  witnessed: boolean;
  /** What is read, for the why: "GET /api/v1/statuses/5", "its url". */
  what: string;
  /** Sends the read; undefined when there is nothing to send (an attachment whose url no answer gave). */
  send: () => Promise<Exchange | undefined>;
  /** What a sighting showed, for the why. */
  shown: (sighting: Sighting) => string;
  /** False where there is nothing to read: an attachment whose url no answer gave (one whose processing failed). */
  applies?: () => boolean;
  /**
   * Whether it must show the object present before the undo, where not always: an attachment's record only where its
   * file cannot be read, since then the record's read is the one that shows it gone (a present record proves nothing
   * of a file that a read after the undo no longer serves).
   */
  neededBefore?: () => boolean;
}

/** What the ledger reads of an entry's object. */
export interface Target {
  subject: Subject;
  /** Each must show the object present before the undo (unless Read.neededBefore says otherwise). */
  reads: Read[];
  /** Those that must show it absent after the undo, where not all: an attachment's file, which anyone can fetch. */
  absence?: () => Read[];
  /** A flag shows only on the status it is set on: once that status is gone, nothing of the flag can be read or used. */
  goesWith?: string;
}

export const call = (exchange: Exchange) => `${exchange.method} ${exchange.path.split('?')[0]}`;
const answered = (s: Sighting) => `${call(s.exchange)} answered HTTP ${s.exchange.status}`;

function objectRead(kind: string, id: string, sender: HttpClient, path: string): Read {
  return { kind, key: keyOf(kind, id, sender.actor), witnessed: true, what: `GET ${path}`, send: () => sender.send('GET', path), shown: answered };
}

function flagRead(kind: FlagKind, statusId: string, sender: HttpClient): Read {
  const path = `/api/v1/statuses/${statusId}`;
  const { flag } = FLAGS[kind];
  return {
    kind,
    key: keyOf(kind, statusId, sender.actor),
    witnessed: false,
    what: `${flag} in GET ${path}`,
    send: () => sender.send('GET', path),
    shown: (s) => `${call(s.exchange)} showed ${flag} ${s.present}`,
  };
}

/** Whether a read of the record answered it past processing (not 206): its url, or that it has none, is final then. */
const processed = (record: Read): boolean => sightingsOf(record.key).some((s) => s.read && s.present && s.exchange.status !== 206);

/**
 * The file of an attachment at its url, fetched without a token as anyone can; where no answer gave a url, a read of
 * the record first, unless one already showed it processed without a url.
 */
function fileRead(record: Read, id: string, sender: HttpClient): Read {
  return {
    kind: 'file',
    key: keyOf('file', id),
    witnessed: true,
    what: 'its url',
    send: async () => {
      if (!urlOf(id) && !processed(record)) await record.send();
      return fetchFile(urlOf(id), sender);
    },
    shown: (s) => `its url ${s.exchange.url} ${s.present ? 'was served' : 'was not served'} (HTTP ${s.exchange.status})`,
    applies: () => urlOf(id) !== undefined,
  };
}

/** A file fetched without a token, as anyone can; undefined where there is no url to fetch. */
function fetchFile(url: string | undefined, sender: HttpClient): Promise<Exchange> | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const { origin, pathname, search } = new URL(url);
  return sender.forOrigin(origin).send('GET', `${pathname}${search}`, { accept: '*/*' });
}

/** A file an update of the attachment wrote (sightings.ts writtenFilesOf), at its url: its own object for the ledger. */
function writtenFileRead(url: string, sender: HttpClient): Read {
  return {
    kind: 'file',
    key: keyOf('file', url),
    witnessed: true,
    what: `the file its update wrote at ${url}`,
    send: async () => fetchFile(url, sender),
    shown: (s) => `the file its update wrote, ${s.exchange.url}, ${s.present ? 'was served' : 'was not served'} (HTTP ${s.exchange.status})`,
  };
}

export function tokenRead(token: string, sender: HttpClient): Read {
  return {
    kind: 'token',
    key: keyOf('token', token),
    // 401 is an answer about the token, which a server without the operation does not give.
    witnessed: false,
    what: 'a call with the token',
    send: () => sender.send('GET', '/api/v1/apps/verify_credentials', { token }),
    shown: (s) => `a call with the token (${call(s.exchange)}) answered HTTP ${s.exchange.status}`,
  };
}

/**
 * The token operation with the application's client credentials and an authorization code that does not exist:
 * invalid_grant while the application is there, invalid_client once it is gone (sightings.ts). Nothing is made, but
 * on a server that gives a token for a code it never issued (OAUTH-CODE-1): `given` gets that token, to end it.
 */
export function applicationRead(clientId: string, clientSecret: string, sender: HttpClient, given: (token: string) => void): Read {
  const form = { client_id: clientId, client_secret: clientSecret, redirect_uri: 'urn:ietf:wg:oauth:2.0:oob', grant_type: 'authorization_code', code: 'conformance-cleanup-no-such-code' };
  return {
    kind: 'application',
    key: keyOf('application', clientId),
    witnessed: true,
    what: 'POST /oauth/token with its client credentials',
    send: async () => {
      const exchange = await sender.send('POST', '/oauth/token', { form });
      const token = accessTokenOf(exchange);
      if (token) given(token);
      return exchange;
    },
    shown: (s) => `${call(s.exchange)} with its client credentials ${s.present ? 'still authenticated the client' : 'answered invalid_client'} (HTTP ${s.exchange.status})`,
  };
}

/** What an undo call undoes and how to read it, from its method and path; undefined for a call the ledger does not know. */
export function targetOf(entry: Entry, planned: Exchange): Target | undefined {
  const sender = senderOf(planned);
  if (!sender) return undefined;
  if (entry.token !== undefined && entry.subject) return { subject: entry.subject, reads: [tokenRead(entry.token, sender)] };
  const path = planned.path.split('?')[0] ?? '';
  const owner = planned.actor;
  let m: RegExpExecArray | null;
  if (planned.method === 'DELETE' && (m = /^\/api\/v1\/statuses\/([^/]+)$/.exec(path))) {
    return { subject: { kind: 'status', id: m[1] as string, owner }, reads: [objectRead('status', m[1] as string, sender, path)] };
  }
  if (planned.method === 'DELETE' && (m = /^\/api\/v1\/scheduled_statuses\/([^/]+)$/.exec(path))) {
    return { subject: { kind: 'scheduled status', id: m[1] as string, owner }, reads: [objectRead('scheduled status', m[1] as string, sender, path)] };
  }
  if (planned.method === 'DELETE' && (m = /^\/api\/v1\/media\/([^/]+)$/.exec(path))) {
    const id = m[1] as string;
    const record = objectRead('attachment', id, sender, path);
    const file = fileRead(record, id, sender);
    record.neededBefore = () => !file.applies?.();
    const written = writtenFilesOf(id).map((url) => writtenFileRead(url, sender));
    // Gone once its url no longer serves the file, nor the url of any file its updates wrote; by the record's read
    // where no answer gave a url.
    return { subject: { kind: 'attachment', id, owner }, reads: [record, file, ...written], absence: () => [file.applies?.() ? file : record, ...written] };
  }
  const move = planned.method === 'POST' ? /^\/api\/v1\/statuses\/([^/]+)\/(\w+)$/.exec(path) : null;
  const flag = move && Object.entries(FLAGS).find(([, f]) => f.unset === move[2]);
  if (move && flag) {
    const kind = flag[0] as FlagKind;
    const statusId = move[1] as string;
    return { subject: { kind, id: statusId, owner }, reads: [flagRead(kind, statusId, sender)], goesWith: statusId };
  }
  return undefined;
}

/** A sighting before `before` that showed it present: a read, or the answer that made it (see Read.witnessed). */
export const shownPresent = (read: Read, before: number): Sighting | undefined =>
  sightingsOf(read.key).find((s) => s.at < before && s.present && (s.read || !read.witnessed || readShows(read.kind)));

/** The last read at or after `after`. */
export const lastReadSince = (read: Read, after: number): Sighting | undefined => sightingsOf(read.key).filter((s) => s.read && s.at >= after).at(-1);

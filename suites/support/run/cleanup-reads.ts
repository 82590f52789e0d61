// What the cleanup reads of each object it undoes, and what the run's answers showed of it before (sightings.ts):
// a read shows an object present or absent, by the operation that reads its kind, and an object counts as gone
// only when a read showed it present earlier in the run and a read after the undo shows it absent.
import type { Entry, Subject } from '../act/ledger.ts';
import { FLAGS, keyOf, pollOf, readShows, sightingsOf, urlOf, writtenFilesOf, type FlagKind, type Sighting } from '../act/sightings.ts';
import { perFile } from '../talk/file-state.ts';
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
  /**
   * Whether a sighting tells of the object, where not every one does: a token shown working only by an operation
   * that refuses a made-up token on this server (a server may answer some operations to any token).
   */
  tells?: (sighting: Sighting) => boolean;
  /** Asks what `tells` needs of the answers since `after` (a token: whether their operations refuse a made-up token). */
  vouch?: (after: number) => Promise<void>;
  /** The answers since `after` that showed the object present and tell nothing (Read.tells), for the why. */
  untold?: (after: number) => string | undefined;
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
  /**
   * The read of that status by the flag's account: where it shows the status gone (404 after the undo, present before),
   * the flag went with it, also on a status not on the ledger (a boost that a pin was set on).
   */
  status?: Read;
  /** A status's poll, which a server may keep after the status (run/cleanup.ts reads it once the status is gone). */
  poll?: { id: string; read: Read };
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

/**
 * The poll of a status, at Mastodon's GET /api/v1/polls/:id (outside the contract), read as the status's author: only
 * to confirm that it went with its status. Its 404 tells once a read of a poll showed one present in the file.
 */
function pollRead(id: string, sender: HttpClient): Read {
  const path = `/api/v1/polls/${id}`;
  return { kind: 'poll', key: keyOf('poll', id), witnessed: true, what: `GET ${path}`, send: () => sender.send('GET', path), shown: answered };
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

/** The operation the ledger reads a token with: any token of an application may call it, whatever its scopes. */
const TOKEN_READ = '/api/v1/apps/verify_credentials';
/** A token no server issued: the call that shows whether an operation tells a token from any other. */
const MADE_UP_TOKEN = 'conformance-made-up-token-never-issued';
/** Per GET path, the call with a made-up token, sent at most once per file. */
const madeUpCalls = new Map<string, Promise<Exchange>>();
/** Those that answered, by the same key: what a sighting of a token by that operation is checked against, at once. */
const madeUpAnswers = new Map<string, Exchange>();
perFile(() => {
  madeUpCalls.clear();
  madeUpAnswers.clear();
});

/** Whether the operation refused the made-up token (a 4xx other than 429): only then does its 2xx show a token working. */
function refusesMadeUp(exchange: Exchange): boolean {
  const status = madeUpAnswers.get(exchange.path)?.status;
  return status !== undefined && status >= 400 && status < 500 && status !== 429;
}

/** The same GET with a made-up token, once per file and path: whether the operation tells a token from any other. */
async function tryMadeUp(answered: Exchange, sender: HttpClient): Promise<void> {
  const path = answered.path;
  const call = madeUpCalls.get(path) ?? sender.send('GET', path, { token: MADE_UP_TOKEN });
  madeUpCalls.set(path, call);
  madeUpAnswers.set(path, await call);
}

/**
 * A call with the token: 401 is an answer about the token, which a server without the operation does not give; a
 * 2xx shows it working only where the same operation refused a made-up token in this file (a server may answer any
 * token, as one does on following). `vouch` asks that of each GET that answered the token 2xx since the undo, a
 * check's or the ledger's own, before they are judged.
 */
export function tokenRead(token: string, sender: HttpClient): Read {
  const key = keyOf('token', token);
  const answeredSince = (after: number) => sightingsOf(key).filter((s) => s.read && s.present && s.at >= after && s.exchange.method === 'GET');
  return {
    kind: 'token',
    key,
    witnessed: false,
    what: 'a call with the token',
    send: async () => {
      const exchange = await sender.send('GET', TOKEN_READ, { token });
      if (exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300) await tryMadeUp(exchange, sender);
      return exchange;
    },
    shown: (s) => `a call with the token (${call(s.exchange)}) answered HTTP ${s.exchange.status}${s.present ? ', and a made-up token there was refused' : ''}`,
    tells: (s) => !s.present || !s.read || refusesMadeUp(s.exchange),
    vouch: async (after) => {
      for (const s of answeredSince(after)) if (!madeUpAnswers.has(s.exchange.path)) await tryMadeUp(s.exchange, sender);
    },
    untold: (after) => {
      const untold = answeredSince(after).filter((s) => !refusesMadeUp(s.exchange));
      const said = [...new Map(untold.map((s) => [s.exchange.path, s.exchange])).values()].map((exchange) => {
        const madeUp = madeUpAnswers.get(exchange.path);
        return `${call(exchange)} answered it HTTP ${exchange.status}, and a made-up token ${madeUp?.error ? `got ${madeUp.error}` : `answered HTTP ${madeUp?.status}`} there`;
      });
      return said.length > 0 ? said.join('; ') : undefined;
    },
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
    const poll = pollOf(m[1] as string);
    return { subject: { kind: 'status', id: m[1] as string, owner }, reads: [objectRead('status', m[1] as string, sender, path)], ...(poll ? { poll: { id: poll, read: pollRead(poll, sender) } } : {}) };
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
    const status = objectRead('status', statusId, sender, `/api/v1/statuses/${statusId}`);
    return { subject: { kind, id: statusId, owner }, reads: [flagRead(kind, statusId, sender)], goesWith: statusId, status };
  }
  return undefined;
}

/** A sighting before `before` that showed it present: a read, or the answer that made it (see Read.witnessed). */
export const shownPresent = (read: Read, before: number): Sighting | undefined =>
  sightingsOf(read.key).find((s) => s.at < before && s.present && (s.read || !read.witnessed || readShows(read.kind)) && (read.tells?.(s) ?? true));

/** The last read at or after `after` that tells of the object (Read.tells). */
export const lastReadSince = (read: Read, after: number): Sighting | undefined =>
  sightingsOf(read.key).filter((s) => s.read && s.at >= after && (read.tells?.(s) ?? true)).at(-1);

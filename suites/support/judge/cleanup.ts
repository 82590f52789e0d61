// The cleanup ledger: everything a suite creates is written down as it is created, with the operation that
// undoes it, and undone in reverse order when the suite file ends, also after failures. Only what the run created
// is ever touched. An object counts as gone only when a read showed it present earlier in the run and a read after
// the undo shows it absent (sightings.ts keeps what the run's answers showed): an undo answered 2xx may have undone
// nothing, and a 404 from a read that answers 404 for everything proves nothing. Everything else is listed as left
// behind, with its kind, id, owner and why; so is every application the run registered that no read shows gone,
// and every authorization code the run obtained whose grant it could not end (exchanged, its token revoked).
import { perFile } from '../talk/file-state.ts';
import { createdObject, excerpt, jsonOf, outsideContract, plannedCall, senderOf, type Exchange, type HttpClient } from '../talk/http.ts';
import { redact, registerSecret } from '../talk/redact.ts';
import { noteUnsettled, now, sawUnsettled, settleWindowMs, windowPassed } from './settle.ts';
import { FLAGS, keyOf, nextAt, readShows, sightingsOf, urlOf, type FlagKind, type Sighting } from './sightings.ts';

/** What the run created and could not undo, as the reports list it. */
export interface LeftBehind {
  /** status, scheduled status, attachment, favourite, boost, bookmark, mute, pin, token, application. */
  kind: string;
  /** The object's id; for a flag (favourite, boost...) the id of the status it is set on. */
  id: string;
  /** Who made it: A, B, anonymous, or an application. */
  owner: string;
  /** What the undo answered and what the reads showed. */
  why: string;
}

/** What an entry is, when the undo operation does not tell (a token). */
export interface Subject {
  kind: string;
  id: string;
  owner: string;
}

export interface LedgerOptions {
  subject?: Subject;
  /** The token a revocation revokes: a call with it must be refused afterwards. */
  token?: string;
  /**
   * The move that made it got no answer (a flag move: favourite, boost...): it may or may not have been made, so no
   * read had to show it present before; a read after the undo that shows it absent is enough.
   */
  unanswered?: boolean;
}

interface Entry extends LedgerOptions {
  what: string;
  undo: () => Promise<Exchange>;
  /** The check undid it itself: the place in the file's answers from which a read shows it gone. */
  settledAt?: number;
  /** When the check undid it (settle.ts now): the settle window begins there. */
  settledTime?: number;
}

/** An application the run registered; the contract has no operation to delete one. */
interface Application {
  subject: Subject;
  clientSecret?: string;
  sender?: HttpClient;
}

/** An authorization code the run obtained: a grant of the account's, live until its code is spent and its token revoked. */
interface Authorization {
  code: string;
  subject: Subject;
  /** The token operation with the code, as the client that asked for it sends it. */
  exchange: () => Promise<Exchange>;
  revoke: (token: string) => Promise<Exchange>;
  /** The run exchanged it for a token, which is on the ledger as a token. */
  exchanged: boolean;
}

/**
 * A creation whose answer never came: the server may have made the object. `find` asks the server for it as a client
 * can (a status: the same request with the same Idempotency-Key, which answers the status made already) and gives the
 * answer, whose object is then undone and read like any other; where it finds none, the object is listed as possibly
 * left behind, with what the run sent.
 */
interface Unanswered {
  creation: Exchange;
  kind: string;
  find?: () => Promise<Exchange>;
}

const entries: Entry[] = [];
const applications: Application[] = [];
const unanswered: Unanswered[] = [];
const authorizations: Authorization[] = [];
perFile(() => {
  entries.length = 0;
  applications.length = 0;
  unanswered.length = 0;
  authorizations.length = 0;
});

export interface LedgerEntry {
  /** The check undid it itself (a delete under test): the ledger only reads whether it is gone. */
  settle(): void;
}

/**
 * Writes down what was created and the call that undoes it. Kind, id and owner are read from the undo call
 * (DELETE /api/v1/statuses/:id, POST .../unfavourite...) unless `options` give them.
 */
export function remember(what: string, undo: () => Promise<Exchange>, options: LedgerOptions = {}): LedgerEntry {
  const entry: Entry = { what, undo, ...options };
  entries.push(entry);
  return {
    settle: () => {
      entry.settledAt ??= nextAt();
      entry.settledTime ??= now();
    },
  };
}

/** A creation of a `kind` (status, attachment) that got no answer; see Unanswered. */
export function rememberUnanswered(creation: Exchange, kind: string, find?: () => Promise<Exchange>): void {
  unanswered.push({ creation, kind, ...(find ? { find } : {}) });
}

/** An application the run registered (its registration's answer): listed as left behind unless a read shows it gone. */
export function rememberApplication(registration: Exchange, subject: Subject, clientSecret: unknown): void {
  applications.push({ subject, clientSecret: typeof clientSecret === 'string' ? clientSecret : undefined, sender: senderOf(registration) });
}

/**
 * An authorization code the run obtained (the approval of account `owner`): a code the run does not exchange itself
 * is exchanged at the end and its token revoked, so that no grant stays live; one the token operation then refuses
 * is spent. Listed as a live authorization where neither shows.
 */
export function rememberAuthorization(
  code: string,
  grant: { scope: string; owner: string; application: string },
  calls: { exchange: () => Promise<Exchange>; revoke: (token: string) => Promise<Exchange> },
): void {
  const subject = { kind: 'authorization', id: `#${authorizations.length + 1} (scope "${grant.scope}", application ${grant.application})`, owner: grant.owner };
  authorizations.push({ code, subject, ...calls, exchanged: false });
}

/** The run exchanged this code for a token: the token is on the ledger, and the code is spent. */
export function codeExchanged(code: string): void {
  for (const authorization of authorizations) if (authorization.code === code) authorization.exchanged = true;
}

/** The access_token a token operation's answer gave, if it gave one. */
function accessTokenOf(exchange: Exchange): string | undefined {
  const json = jsonOf(exchange);
  const token = exchange.status === 200 && json.ok ? (json.value as { access_token?: unknown } | null)?.access_token : undefined;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

/** A read that shows an object present or absent (sightings.ts). */
interface Read {
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
}

/** What the ledger reads of an entry's object. */
interface Target {
  subject: Subject;
  /** Each must show the object present before the undo: an attachment's record and its file. */
  reads: Read[];
  /** Those that must show it absent after the undo, where not all: an attachment's file, which anyone can fetch. */
  absence?: () => Read[];
  /** A flag shows only on the status it is set on: once that status is gone, nothing of the flag can be read or used. */
  goesWith?: string;
}

const call = (exchange: Exchange) => `${exchange.method} ${exchange.path.split('?')[0]}`;
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
      const url = urlOf(id);
      if (!url || !URL.canParse(url)) return undefined;
      const { origin, pathname, search } = new URL(url);
      return sender.forOrigin(origin).send('GET', `${pathname}${search}`, { accept: '*/*' });
    },
    shown: (s) => `its url ${s.exchange.url} ${s.present ? 'was served' : 'was not served'} (HTTP ${s.exchange.status})`,
    applies: () => urlOf(id) !== undefined,
  };
}

function tokenRead(token: string, sender: HttpClient): Read {
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
 * invalid_grant while the application is there, invalid_client once it is gone (sightings.ts). Nothing is made.
 */
function applicationRead(clientId: string, clientSecret: string, sender: HttpClient): Read {
  const form = { client_id: clientId, client_secret: clientSecret, redirect_uri: 'urn:ietf:wg:oauth:2.0:oob', grant_type: 'authorization_code', code: 'conformance-cleanup-no-such-code' };
  return {
    kind: 'application',
    key: keyOf('application', clientId),
    witnessed: true,
    what: 'POST /oauth/token with its client credentials',
    send: async () => {
      const exchange = await sender.send('POST', '/oauth/token', { form });
      // A server that gives a token for a code it never issued (OAUTH-CODE-1) gave one to this read: revoked at once.
      const token = accessTokenOf(exchange);
      if (token) await sender.send('POST', '/oauth/revoke', { form: { client_id: clientId, client_secret: clientSecret, token } });
      return exchange;
    },
    shown: (s) => `${call(s.exchange)} with its client credentials ${s.present ? 'still authenticated the client' : 'answered invalid_client'} (HTTP ${s.exchange.status})`,
  };
}

/** What an undo call undoes and how to read it, from its method and path; undefined for a call the ledger does not know. */
function targetOf(entry: Entry, planned: Exchange): Target | undefined {
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
    // Gone once its url no longer serves the file; by the record's read where no answer gave a url.
    return { subject: { kind: 'attachment', id, owner }, reads: [record, file], absence: () => [file.applies?.() ? file : record] };
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
const shownPresent = (read: Read, before: number): Sighting | undefined =>
  sightingsOf(read.key).find((s) => s.at < before && s.present && (s.read || !read.witnessed || readShows(read.kind)));

/** The last read at or after `after`. */
const lastReadSince = (read: Read, after: number): Sighting | undefined => sightingsOf(read.key).filter((s) => s.read && s.at >= after).at(-1);

/** One object's cleanup: what was done to it and from when a read shows it gone. */
interface Case {
  subject: Subject;
  target?: Target;
  /** What the undo did, for the why. */
  undone: string;
  /** When the reads after it came, for the why. */
  after?: string;
  undoneAt: number;
  /** When the undo was made (settle.ts now): a read that still shows the object is read again within the settle window from there. */
  undoneTime: number;
  /** The reads sent after the undo, for the why of one that got no answer. */
  tried: Exchange[];
  /** Nothing undoes it (an application): a read that shows it is not read again. */
  kept?: boolean;
  /** A read after the undo still showed it, or none was sent yet: it is read once the settle window has passed. */
  pending?: boolean;
  /** See LedgerOptions.unanswered. */
  unanswered?: boolean;
}

const absenceReads = (target: Target): Read[] => target.absence?.() ?? target.reads;

/** Sends a read of the case, keeping what it sent for the why. */
async function sendRead(c: Case, read: Read): Promise<Exchange | undefined> {
  const exchange = await read.send();
  if (exchange) c.tried.push(exchange);
  return exchange;
}

/** Sends the reads that show it gone, each unless a read since the undo did; the first that shows it still there ends them. */
async function readAfter(c: Case): Promise<void> {
  for (const read of c.target ? absenceReads(c.target) : []) {
    if (!lastReadSince(read, c.undoneAt)) await sendRead(c, read);
    if (lastReadSince(read, c.undoneAt)?.present) return;
  }
}

/** Whether reads since the undo (a check's own, say) show the object absent. */
const shownGone = (c: Case): boolean => absenceReads(c.target as Target).every((read) => lastReadSince(read, c.undoneAt)?.present === false);

/** Whether a read since the undo still shows the object. */
const stillShown = (c: Case): boolean => (c.target ? absenceReads(c.target) : []).some((read) => lastReadSince(read, c.undoneAt)?.present);

/**
 * A server may delete in the background. The cases a read after the undo still showed (or, once one did, that were
 * not read at once) are read again once the settle window has passed since their undo; what came late marks the file
 * unsettled. Then, where the file is unsettled (a state came late or turned back) and `sweepIf` holds, everything
 * called gone at once is read again after the window too: what came back is still there. A server that showed every
 * state at once is not swept: the reads would double the ledger's share of a run's budget.
 */
async function settleAndSweep(cases: Case[], sweepIf: boolean): Promise<void> {
  const pending = cases.filter((c) => c.pending);
  const gone = cases.filter((c) => !c.pending && c.target && !c.target.goesWith && !c.kept && !whyNotGone(c, new Set()));
  const sweeping = () => sweepIf && sawUnsettled() && gone.length > 0;
  if (pending.length === 0 && !sweeping()) return;
  await windowPassed(Math.max(...[...pending, ...gone].map((c) => c.undoneTime)));
  for (const c of pending) {
    c.after = `once the settle window (${settleWindowMs()} ms) had passed since it`;
    for (const read of absenceReads(c.target as Target)) if (read.applies?.() ?? true) await sendRead(c, read);
    if (!stillShown(c)) noteUnsettled();
  }
  if (!sweeping()) return;
  for (const c of gone) {
    c.after = `once the settle window (${settleWindowMs()} ms) had passed since it`;
    for (const read of absenceReads(c.target as Target)) if (read.applies?.() ?? true) await sendRead(c, read);
  }
}

/** What the undo answered, for the why. */
function undoneBy(undo: Exchange): string {
  if (undo.error) return `${call(undo)} got no answer (${undo.error})`;
  const status = undo.status as number;
  const refused = status >= 300 && status !== 404 ? `: ${excerpt(undo.text, 200) || '(empty body)'}` : '';
  return `${call(undo)} answered HTTP ${status}${refused}`;
}

/**
 * Undoes one entry: reads first what no read showed present yet, then undoes, then reads (but a flag that may go with
 * its status); `deferred`: the read after the undo waits for the settle window (settleAndSweep).
 */
async function undoOne(entry: Entry, deferred: boolean): Promise<Case> {
  const planned = await plannedCall(entry.undo);
  const target = planned && targetOf(entry, planned);
  const subject = target?.subject ?? entry.subject ?? { kind: 'object', id: entry.what, owner: planned?.actor ?? '' };
  const c: Case = { subject, target, undone: '', undoneAt: entry.settledAt ?? 0, undoneTime: entry.settledTime ?? now(), tried: [], ...(entry.unanswered ? { unanswered: true } : {}) };
  if (entry.settledAt !== undefined) {
    c.undone = `${planned ? call(planned) : entry.what} was sent by its check`;
  } else {
    // A flag is not read before: the answer that set it showed it, and most go with their status.
    if (!target?.goesWith) for (const read of target?.reads ?? []) if (!shownPresent(read, nextAt())) await read.send();
    c.undoneAt = nextAt();
    c.undoneTime = now();
    c.undone = undoneBy(await entry.undo());
  }
  if (!target?.goesWith && !deferred) await readAfter(c);
  if (target && !target.goesWith) c.pending = stillShown(c) || (deferred && !shownGone(c));
  return c;
}

/** Why a case is not known to be gone, or undefined when it is gone. */
function whyNotGone(c: Case, goneStatuses: ReadonlySet<string>): string | undefined {
  if (!c.target) return `not known to be gone: ${c.undone}, and no read shows whether such an object is gone`;
  if (c.target.goesWith && goneStatuses.has(c.target.goesWith)) return undefined;
  const reads = c.target.reads.filter((read) => read.applies?.() ?? true);
  for (const read of reads) {
    const after = lastReadSince(read, c.undoneAt);
    if (after?.present) return `still there: ${c.undone}, and ${c.after ?? 'after it'} ${read.shown(after)}`;
  }
  for (const read of c.unanswered ? [] : reads) {
    if (shownPresent(read, c.undoneAt)) continue;
    const before = sightingsOf(read.key).filter((s) => s.at < c.undoneAt && s.read).at(-1);
    return `not known to be gone: ${c.undone}, and no read showed it present before (${before ? read.shown(before) : `${read.what} was never read`})`;
  }
  for (const read of absenceReads(c.target)) {
    if (lastReadSince(read, c.undoneAt)) continue;
    const tried = c.tried.at(-1);
    const got = tried ? `${call(tried)} got ${tried.error ?? `HTTP ${tried.status}`}` : `${read.what} could not be read`;
    return `not known to be gone: ${c.undone}, and the read that would show it gone got nothing that tells (${got})`;
  }
  return undefined;
}

/** An undo that threw: our own bug, said as such. */
async function guarded(entry: Entry, deferred = false): Promise<Case> {
  try {
    return await undoOne(entry, deferred);
  } catch (error) {
    const subject = entry.subject ?? { kind: 'object', id: entry.what, owner: '' };
    return { subject, undone: `internal error of the conformance suite while undoing it: ${(error as Error).message ?? String(error)}`, undoneAt: nextAt(), undoneTime: now(), tried: [] };
  }
}

const leftBehind: LeftBehind[] = [];
perFile(() => {
  leftBehind.length = 0;
});

/**
 * Undoes, newest first, everything on the ledger, then revokes the tokens together (any other undo may need one of
 * them, and no revocation needs another), then reads each application; judges each object from what the reads
 * showed. Its calls are the suite's own.
 */
export async function undoAll(): Promise<void> {
  await outsideContract(async () => {
    for (const lost of unanswered.splice(0)) await findUnanswered(lost);
    const cases: Case[] = [];
    const tokens: Entry[] = [];
    // Once a state came late in this file, or a read after an undo still showed its object, the later reads wait for
    // the settle window, read once then.
    let deferred = sawUnsettled();
    while (entries.length > 0) {
      const entry = entries.pop() as Entry;
      if (entry.token !== undefined) tokens.push(entry);
      else cases.push(await guarded(entry, deferred));
      deferred ||= cases.at(-1)?.pending === true;
    }
    // Before the revocations: the reads of a status go with its owner's token.
    await settleAndSweep(cases, true);
    const revoked = await Promise.all([...tokens.map((token) => guarded(token)), ...authorizations.filter((auth) => !auth.exchanged).map(spend)]);
    // A revoked token that answers is not swept unless one came late: revocation is not delivered in the background.
    await settleAndSweep(revoked, revoked.some((c) => c.pending));
    cases.push(...revoked);
    const goneStatuses = new Set(cases.filter((c) => c.subject.kind === 'status' && !whyNotGone(c, new Set())).map((c) => c.subject.id));
    // A flag whose status is not known gone is read now, one at a time: a read of a status shows all of the reader's flags.
    for (const c of cases) if (c.target?.goesWith && !goneStatuses.has(c.target.goesWith)) await readAfter(c);
    cases.push(...(await Promise.all(applications.map(readApplication))));
    const listed = new Set<string>();
    for (const c of cases) {
      const why = whyNotGone(c, goneStatuses);
      const key = keyOf(c.subject.kind, c.subject.id, c.subject.owner);
      if (why === undefined || listed.has(key)) continue;
      listed.add(key);
      const live = c.subject.kind === 'authorization' ? `a live authorization of ${c.subject.owner}, ${c.subject.id.replace(/^#\d+ \((.*)\)$/, '$1')}, not revoked: ` : '';
      leftBehind.push({ ...c.subject, why: redact(`${live}${why}`) });
    }
  });
}

/**
 * A code the run did not exchange: exchanged now and its token revoked, then read as every token is. A code the token
 * operation refuses gives nothing more (spent, or expired); any other answer leaves the grant live.
 */
async function spend(auth: Authorization): Promise<Case> {
  const c: Case = { subject: auth.subject, undone: '', undoneAt: nextAt(), undoneTime: now(), tried: [] };
  const exchange = await auth.exchange();
  const token = accessTokenOf(exchange);
  const sender = senderOf(exchange);
  if (!token || !sender) {
    const refused = exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500;
    // A refused code is spent: nothing to read; the case is gone with no target and no why.
    c.target = refused ? { subject: auth.subject, reads: [] } : undefined;
    c.undone = `POST /oauth/token with its code answered ${exchange.error ?? `HTTP ${exchange.status}`}`;
    return c;
  }
  registerSecret(token, 'USER_TOKEN_A', 'a user token the run obtained for an authorization code at its end, and revoked');
  const read = tokenRead(token, sender);
  c.target = { subject: auth.subject, reads: [read] };
  c.undoneAt = nextAt();
  c.undoneTime = now();
  c.undone = `its code was exchanged at the end of the run, and ${undoneBy(await auth.revoke(token))}`;
  await readAfter(c);
  c.pending = stillShown(c);
  return c;
}

/** What a request sent, for the why of an object it may have made: "POST /api/v1/statuses (status=..., visibility=direct)". */
function sent(exchange: Exchange): string {
  const body = exchange.requestBody ? ` (${excerpt(exchange.requestBody, 160)})` : '';
  const files = exchange.uploads?.length ? ` (${exchange.uploads.join(', ')})` : '';
  return `${call(exchange)}${body || files}`;
}

/** Whether the status an answer names was made before `before` (our clock), reading its created_at on the server's clock (its Date header). */
function madeBefore(answer: Exchange, before: number): boolean {
  const createdAt = Date.parse(String(createdObject(answer)?.created_at ?? ''));
  const serverNow = Date.parse(answer.headers.date ?? '');
  if (Number.isNaN(createdAt) || Number.isNaN(serverNow)) return false;
  // The Date header has whole seconds: on our clock, created_at is at most a second later than it was.
  return createdAt - (serverNow - Date.now()) < before;
}

/**
 * Finds what a creation without answer made: the object `find` shows is undone by the ledger like any other. Listed as
 * possibly left behind where nothing shows it, or where what was found may be another object than the first request made.
 */
async function findUnanswered(lost: Unanswered): Promise<void> {
  const possibly = (how: string) =>
    void leftBehind.push({ kind: lost.kind, id: '(unknown)', owner: lost.creation.actor, why: redact(`possibly left behind: ${sent(lost.creation)} got no answer (${lost.creation.error ?? ''}); ${how}`) });
  if (!lost.find) return possibly(`no operation of the contract finds such an object`);
  const resentAt = Date.now();
  const answer = await lost.find();
  const id = createdObject(answer)?.id;
  const sender = senderOf(answer);
  if (typeof id !== 'string' || !sender) return possibly(`sent again with its Idempotency-Key, it answered ${answer.error ?? `HTTP ${answer.status}`}`);
  remember(`${lost.kind} ${id} of ${lost.creation.actor}`, () => sender.send('DELETE', `/api/v1/statuses/${id}`));
  if (!madeBefore(answer, resentAt)) possibly(`sent again with its Idempotency-Key, it answered ${lost.kind} ${id}, made anew (the ledger undoes it): the first may remain`);
}

/** An application, once its tokens are revoked: read when a token request showed it there, else listed as it is. */
async function readApplication(app: Application): Promise<Case> {
  const undone = 'the contract has no operation to delete an application';
  const read = app.clientSecret && app.sender ? applicationRead(app.subject.id, app.clientSecret, app.sender) : undefined;
  const c: Case = { subject: app.subject, target: read && { subject: app.subject, reads: [read] }, undone, after: "once the run's tokens were revoked", undoneAt: nextAt(), undoneTime: now(), tried: [], kept: true };
  if (read && shownPresent(read, c.undoneAt)) await readAfter(c);
  return c;
}

/** What could not be undone, for the report: a live instance must be left as it was found. */
export function leftovers(): LeftBehind[] {
  return leftBehind.map((entry) => ({ ...entry }));
}

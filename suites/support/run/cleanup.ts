// The cleanup at the end of each suite file: everything on the ledger (act/ledger.ts) is undone, newest first,
// also after failures, and read (cleanup-reads.ts) until a read shows it gone: an undo answered 2xx may have undone
// nothing, and a 404 from a read that answers 404 for everything proves nothing. Everything else is listed as left
// behind, with its kind, id, owner and why; so is every application the run registered that no read shows gone,
// every authorization code the run obtained whose grant it could not end (exchanged, its token revoked), and every
// poll of a deleted status that a read still shows.
import { inOrderMade, ledger, remember, type Application, type Authorization, type Entry, type Subject, type Unanswered } from '../act/ledger.ts';
import { noteUnsettled, now, sawUnsettled, settleWindowMs, windowPassed } from '../act/settle.ts';
import { deletedParentOf, keyOf, nextAt, sightingsOf } from '../act/sightings.ts';
import type { LeftBehind } from '../report/results.ts';
import { currentPart, inPartOf, type PartCount } from '../talk/counts.ts';
import { perFile } from '../talk/file-state.ts';
import { createdObject, excerpt, outsideContract, plannedCall, senderOf, type Exchange, type HttpClient } from '../talk/http.ts';
import { redact, registerSecret } from '../talk/redact.ts';
import { accessTokenOf, applicationRead, call, lastReadSince, shownPresent, targetOf, tokenRead, type Read, type Target } from './cleanup-reads.ts';

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
  /** An application left unread because another of its group, read, was still there: it is listed as still there. */
  keptLike?: boolean;
  /** A read after the undo still showed it, or none was sent yet: it is read once the settle window has passed. */
  pending?: boolean;
  /** See LedgerOptions.unanswered. */
  unanswered?: boolean;
  /** The part of the plan whose step made it: its reads are counted there (Entry.part). */
  part?: PartCount;
}

const absenceReads = (target: Target): Read[] => target.absence?.() ?? target.reads;

/** Whether a read must show the object present before its undo, at the time it is asked (an attachment's url may come with the record's read). */
const neededBefore = (read: Read): boolean => read.neededBefore?.() ?? true;

/** The part of the plan the cleanup's calls run in, for a case it makes there: its later reads are counted there too. */
const partHere = (): { part?: PartCount } => {
  const part = currentPart();
  return part ? { part } : {};
};

/** Sends a read of the case, keeping what it sent for the why. */
async function sendRead(c: Case, read: Read): Promise<Exchange | undefined> {
  const exchange = await read.send();
  if (exchange) c.tried.push(exchange);
  return exchange;
}

/** Sends the reads that show it gone, each unless a read since the undo did; the first that shows it still there ends them. */
async function readAfter(c: Case): Promise<void> {
  for (const read of c.target ? absenceReads(c.target) : []) {
    await read.vouch?.(c.undoneAt);
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
 * unsettled. What a read showed gone is not read again: a deletion or a revocation is not brought back by the server's
 * own delivery, as an undone boost is (confirmFlags reads those), and a sweep of everything called gone cost a read per
 * object on exactly the servers that deviate. A deviation thus costs the ledger at most one read per object it still saw.
 */
async function settlePending(cases: Case[]): Promise<void> {
  const pending = cases.filter((c) => c.pending);
  if (pending.length === 0) return;
  await windowPassed(Math.max(...pending.map((c) => c.undoneTime)), "the cleanup's reads that confirm its undos held");
  for (const c of pending) {
    c.after = `once the settle window (${settleWindowMs()} ms) had passed since it`;
    await inPartOf(c.part, async () => {
      for (const read of absenceReads(c.target as Target)) if (read.applies?.() ?? true) await sendRead(c, read);
    });
    if (!stillShown(c)) noteUnsettled();
  }
}

/**
 * The flags whose status is not known gone: each read once the settle window has passed since the last of their undos,
 * since an undone boost or favourite may come back through the server's own delivery; one read at a time, as a read
 * of a status shows all of the reader's flags. Where there are none, nothing waits.
 */
async function confirmFlags(flags: Case[]): Promise<void> {
  if (flags.length === 0) return;
  await windowPassed(Math.max(...flags.map((c) => c.undoneTime)), "the cleanup's reads of the flags it undid on statuses that are not gone");
  const confirmedFrom = nextAt();
  for (const c of flags) {
    // Only a read from here on shows that the undo held.
    c.undoneAt = confirmedFrom;
    c.after = `once the settle window (${settleWindowMs()} ms) had passed since it`;
    await inPartOf(c.part, () => readAfter(c));
  }
}

/**
 * The polls of the statuses a read shows gone: a server may keep a poll after its status (one does, readable at
 * Mastodon's GET /api/v1/polls/:id). Each is read once, as its status's author; one a read still shows is read again
 * once the settle window has passed. A status not known gone keeps its poll with it: nothing to read apart.
 */
async function readPolls(goneStatuses: Case[]): Promise<Case[]> {
  const polls: Case[] = [];
  for (const status of goneStatuses) {
    const poll = status.target?.poll;
    if (!poll) continue;
    const subject = { kind: 'poll', id: poll.id, owner: status.subject.owner };
    const c: Case = { subject, target: { subject, reads: [poll.read] }, undone: `its status ${status.subject.id} was deleted (${status.undone})`, undoneAt: status.undoneAt, undoneTime: status.undoneTime, tried: [], ...(status.part ? { part: status.part } : {}) };
    await inPartOf(c.part, () => readAfter(c));
    c.pending = stillShown(c);
    polls.push(c);
  }
  await settlePending(polls);
  return polls;
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
 * its status); `deferred`: the read after the undo waits for the settle window (settlePending).
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
    if (!target?.goesWith) for (const read of target?.reads ?? []) if (neededBefore(read) && !shownPresent(read, nextAt())) await read.send();
    // A status's poll, where no read of a poll showed one in this file yet: the read that shows its 404 after tells.
    if (target?.poll && !shownPresent(target.poll.read, nextAt())) await target.poll.read.send();
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
  if (c.keptLike) return `still there: ${c.undone}`;
  if (!c.target) return `not known to be gone: ${c.undone}, and no read shows whether such an object is gone`;
  if (c.target.goesWith && goneStatuses.has(c.target.goesWith)) return undefined;
  // The flag's status, read by its account after the undo, answered 404, and an answer showed it there before.
  const status = c.target.status;
  if (status && lastReadSince(status, c.undoneAt)?.present === false && shownPresent(status, c.undoneAt)) return undefined;
  const reads = c.target.reads.filter((read) => read.applies?.() ?? true);
  for (const read of reads) {
    const after = lastReadSince(read, c.undoneAt);
    if (after?.present) return `still there: ${c.undone}, and ${c.after ?? 'after it'} ${read.shown(after)}`;
  }
  const parent = c.subject.kind === 'status' ? deletedParentOf(c.subject.id, c.undoneAt) : undefined;
  if (parent) return `not known to be gone: ${c.undone}, and the status it replies to, ${parent}, was deleted before it (a server may hide a reply whose parent is gone, and keep it)`;
  // A read whose answer is about the object itself (a flag false in its status, a 401 to the token) shows it absent
  // whether or not one showed it present before; a 404 may be the answer to everything, so it needs that first.
  for (const read of c.unanswered ? [] : reads) {
    if (!neededBefore(read) || shownPresent(read, c.undoneAt) || (!read.witnessed && lastReadSince(read, c.undoneAt))) continue;
    const before = sightingsOf(read.key).filter((s) => s.at < c.undoneAt && s.read).at(-1);
    return `not known to be gone: ${c.undone}, and no read showed it present before (${before ? read.shown(before) : `${read.what} was never read`})`;
  }
  for (const read of absenceReads(c.target)) {
    if (lastReadSince(read, c.undoneAt)) continue;
    const tried = c.tried.at(-1);
    const got = tried ? `${call(tried)} got ${tried.error ?? `HTTP ${tried.status}`}` : `${read.what} could not be read`;
    const untold = read.untold?.(c.undoneAt);
    return `not known to be gone: ${c.undone}, and the read that would show it gone got nothing that tells (${got}${untold ? `; ${untold}` : ''})`;
  }
  return undefined;
}

/** An undo that threw: our own bug, said as such. */
async function guarded(entry: Entry, deferred = false): Promise<Case> {
  try {
    const c = await inPartOf(entry.part, () => undoOne(entry, deferred));
    if (entry.part) c.part = entry.part;
    return c;
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
 * them, and no revocation needs another), then reads each application (and revokes and reads a token such a read was
 * given); judges each object from what the reads showed. Its calls are the suite's own.
 */
export async function undoAll(): Promise<void> {
  await outsideContract(async () => {
    // What finding it makes goes on the ledger in the part whose creation got no answer, as do the calls to find it.
    for (const lost of ledger.unanswered.splice(0).sort(inOrderMade)) await inPartOf(lost.part, () => findUnanswered(lost));
    const cases: Case[] = [];
    const tokens: Entry[] = [];
    // Once a state came late in this file, or a read after an undo still showed its object, the later reads wait for
    // the settle window, read once then.
    let deferred = sawUnsettled();
    // Newest first in the order the run decided (the steps' order of declaration, a step after those it needs, then
    // the order each step issued its requests in), not the order their answers came in (inOrderMade).
    ledger.entries.sort(inOrderMade);
    while (ledger.entries.length > 0) {
      const entry = ledger.entries.pop() as Entry;
      if (entry.token !== undefined) tokens.push(entry);
      else cases.push(await guarded(entry, deferred));
      deferred ||= cases.at(-1)?.pending === true;
    }
    // Before the revocations: the reads of a status, and of the flags on one the server kept, go with its owner's
    // token, which may be one the run obtained (a revoked token reads nothing).
    await settlePending(cases);
    const goneStatuses = new Set(cases.filter((c) => c.subject.kind === 'status' && !whyNotGone(c, new Set())).map((c) => c.subject.id));
    cases.push(...(await readPolls(cases.filter((c) => c.subject.kind === 'status' && goneStatuses.has(c.subject.id)))));
    await confirmFlags(cases.filter((c) => c.target?.goesWith && !goneStatuses.has(c.target.goesWith)));
    const authorizations = [...ledger.authorizations].sort(inOrderMade);
    const revoked = await Promise.all([...tokens.map((token) => guarded(token)), ...authorizations.filter((auth) => !auth.exchanged).map((auth) => inPartOf(auth.part, () => spend(auth)))]);
    await settlePending(revoked);
    cases.push(...revoked);
    // Listed after the grants' own cases: a live token the end of the run revoked and read is said so first.
    cases.push(...authorizations.filter((auth): auth is Authorization & { unanswered: Exchange } => auth.unanswered !== undefined).map(unseenToken));
    const probeTokens: Promise<Case>[] = [];
    cases.push(...(await readApplications(probeTokens)));
    const probed = await Promise.all(probeTokens);
    await settlePending(probed);
    cases.push(...probed);
    // A server deletes an application's tokens with it (Mastodon does): a token of an application a read shows gone is gone.
    const goneApplications = new Set(cases.filter((c) => c.subject.kind === 'application' && !whyNotGone(c, goneStatuses)).map((c) => `application ${c.subject.id}`));
    const listed = new Set<string>();
    for (const c of cases) {
      const why = c.subject.kind === 'token' && goneApplications.has(c.subject.owner) ? undefined : whyNotGone(c, goneStatuses);
      const key = keyOf(c.subject.kind, c.subject.id, c.subject.owner);
      if (why === undefined || listed.has(key)) continue;
      listed.add(key);
      const maybe = why.startsWith('still there') ? 'a' : 'possibly a';
      const live = c.subject.kind === 'authorization' ? `${maybe} live authorization of ${c.subject.owner}, ${c.subject.id.replace(/^#\d+ \((.*)\)$/, '$1')}, not revoked: ` : '';
      leftBehind.push({ ...c.subject, why: redact(`${live}${why}`), ...(c.keptLike ? { unread: true } : {}) });
    }
  });
}

/**
 * A code the run did not exchange: exchanged now and its token revoked, then read as every token is. A code the token
 * operation refuses gives nothing more (spent, or expired); any other answer (a 429 too) leaves the grant live.
 */
async function spend(auth: Authorization): Promise<Case> {
  const c: Case = { subject: auth.subject, undone: '', undoneAt: nextAt(), undoneTime: now(), tried: [], ...partHere() };
  const exchange = await auth.exchange();
  const token = accessTokenOf(exchange);
  const sender = senderOf(exchange);
  if (!token || !sender) {
    // A 429 refuses the request, not the code: the grant may still be live.
    const refused = exchange.status !== undefined && exchange.status >= 400 && exchange.status < 500 && exchange.status !== 429;
    // A refused code is spent: nothing to read; the case is gone with no target and no why (a token an earlier exchange
    // of it may have got unseen is unseenToken's).
    c.target = refused ? { subject: auth.subject, reads: [] } : undefined;
    c.undone = `POST /oauth/token with its code ${exchange.error ? `got ${exchange.error}` : `answered HTTP ${exchange.status}`}`;
    return c;
  }
  registerSecret(token, 'USER_TOKEN_A', 'a user token the run obtained for an authorization code at its end, and revoked');
  return revokeAndRead(auth.subject, token, sender, auth.revoke, 'its code was exchanged at the end of the run');
}

/**
 * A code an exchange of which got no answer: the server may have issued a token the run never saw, which no read can
 * show gone, whatever became of the code after (exchanged again, refused, or spent at the end).
 */
function unseenToken(auth: Authorization & { unanswered: Exchange }): Case {
  const undone = `${call(auth.unanswered)} with its code got no answer (${auth.unanswered.error ?? 'none'}), so the server may have issued a token the run never saw`;
  return { subject: auth.subject, undone, undoneAt: nextAt(), undoneTime: now(), tried: [] };
}

/** A token the cleanup itself was given, revoked and then read as every token is: `given` says how it came. */
async function revokeAndRead(subject: Subject, token: string, sender: HttpClient, revoke: (token: string) => Promise<Exchange>, given: string): Promise<Case> {
  const c: Case = { subject, target: { subject, reads: [tokenRead(token, sender)] }, undone: '', undoneAt: nextAt(), undoneTime: now(), tried: [], ...partHere() };
  c.undone = `${given}, and ${undoneBy(await revoke(token))}`;
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
  remember(`${lost.kind} ${id} of ${lost.creation.actor}`, () => sender.send('DELETE', `/api/v1/statuses/${id}`), { made: lost.creation });
  if (!madeBefore(answer, resentAt)) possibly(`sent again with its Idempotency-Key, it answered ${lost.kind} ${id}, made anew (the ledger undoes it): the first may remain`);
}

const APPLICATION_UNDONE = 'the contract has no operation to delete an application';

/**
 * An application, once its tokens are revoked: read when a token request showed it there, else listed as it is. A
 * token the read was given (for a code never issued) is revoked and read too: its case joins `probeTokens`.
 */
async function readApplication(app: Application, probeTokens: Promise<Case>[]): Promise<Case> {
  const { clientSecret, sender } = app;
  const given = (token: string) => {
    if (!clientSecret || !sender) return;
    registerSecret(token, 'CLEANUP_PROBE_TOKEN', `a token the server gave the cleanup's read of application ${app.subject.id} for a code it never issued, whose revocation the run asked for`);
    const subject = { kind: 'token', id: `(for a code never issued, to the cleanup's read of application ${app.subject.id})`, owner: `application ${app.subject.id}` };
    const revoke = (t: string) => sender.send('POST', '/oauth/revoke', { form: { client_id: app.subject.id, client_secret: clientSecret, token: t } });
    probeTokens.push(revokeAndRead(subject, token, sender, revoke, "the token operation gave it to the cleanup's read of its application"));
  };
  const read = clientSecret && sender ? applicationRead(app.subject.id, clientSecret, sender, given) : undefined;
  const c: Case = { subject: app.subject, target: read && { subject: app.subject, reads: [read] }, undone: APPLICATION_UNDONE, after: "once the run's tokens were revoked", undoneAt: nextAt(), undoneTime: now(), tried: [], kept: true, ...partHere() };
  if (read && shownPresent(read, c.undoneAt)) await readAfter(c);
  return c;
}

/**
 * The file's applications once their tokens are revoked. The first (of the step declared first) is read; where it
 * still authenticates its client, this server keeps applications, and the others are listed as still there unread (a
 * read per application would tell nothing more and costs a request of the budget each). Where it is gone, or could
 * not be read, each is read.
 */
async function readApplications(probeTokens: Promise<Case>[]): Promise<Case[]> {
  // The first is the application of the step declared first (of its step's registrations, the one sent first), whatever
  // order the registrations were answered in: the read is in that step's cost. Each is read in the part that registered it.
  const [first, ...others] = [...ledger.applications].sort(inOrderMade);
  if (!first) return [];
  const readInPart = (app: Application, tokens: Promise<Case>[]) => inPartOf(app.part, () => readApplication(app, tokens));
  const firstCase = await readInPart(first, probeTokens);
  const kept = firstCase.target && lastReadSince(firstCase.target.reads[0] as Read, firstCase.undoneAt)?.present;
  if (!kept) {
    // Read together, each with its own probe tokens, joined in the applications' order, not in their answers'.
    const ownTokens = others.map((): Promise<Case>[] => []);
    const read = await Promise.all(others.map((app, i) => readInPart(app, ownTokens[i] as Promise<Case>[])));
    probeTokens.push(...ownTokens.flat());
    return [firstCase, ...read];
  }
  const likeFirst = (app: Application): Case => ({
    subject: app.subject,
    undone: `${APPLICATION_UNDONE}, and application ${first.subject.id}, registered by the same group, still authenticated its client ${firstCase.after} (this one was not read)`,
    undoneAt: nextAt(),
    undoneTime: now(),
    tried: [],
    kept: true,
    keptLike: true,
  });
  return [firstCase, ...others.map(likeFirst)];
}

/** What could not be undone, for the report: a live instance must be left as it was found. */
export function leftovers(): LeftBehind[] {
  return leftBehind.map((entry) => ({ ...entry }));
}

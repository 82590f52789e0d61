// The cleanup ledger: everything a suite creates is written down as it is created, with the operation that
// undoes it, and undone in reverse order when the suite file ends, also after failures. Only what the run created
// is ever touched. An undo counts as done when the server answers 2xx, or 404 and a read confirms the object is
// gone: a server without the undo operation answers 404 too, and the object is still there. What is not known to
// be gone is listed as left behind, with its kind, id, owner and why; so are the applications the run registered,
// which the contract has no operation to delete.
import { perFile } from './file-state.ts';
import { excerpt, jsonOf, outsideContract, senderOf, type Exchange } from './http.ts';
import { redact } from './redact.ts';

/** What the run created and could not undo, as the reports list it. */
export interface LeftBehind {
  /** status, scheduled status, attachment, favourite, boost, bookmark, mute, pin, token, application. */
  kind: string;
  /** The object's id; for a flag (favourite, boost...) the id of the status it is set on. */
  id: string;
  /** Who made it: A, B, anonymous, or an application. */
  owner: string;
  /** No undo operation on this server, refused with HTTP n, no answer within N ms... */
  why: string;
}

/** What an entry is, when the undo operation does not tell (see subjectOf). */
export interface Subject {
  kind: string;
  id: string;
  owner: string;
}

/**
 * After the undo answered 404: undefined when a read shows the object gone, else why it is not known to be gone.
 * Sent as the ledger's own calls (outsideContract).
 */
export type Confirm = (undo: Exchange) => Promise<string | undefined>;

export interface LedgerOptions {
  subject?: Subject;
  confirm?: Confirm;
}

interface Entry extends LedgerOptions {
  what: string;
  undo: () => Promise<Exchange>;
  done: boolean;
}

const entries: Entry[] = [];
const leftBehind: LeftBehind[] = [];
perFile(() => {
  entries.length = 0;
  leftBehind.length = 0;
});

export interface LedgerEntry {
  /** The check undid it itself (a delete under test): nothing left to do at the end. */
  settle(): void;
}

/**
 * Writes down what was created and the call that undoes it. Kind, id, owner and the read that confirms a 404 are
 * read from the undo call (DELETE /api/v1/statuses/:id, POST .../unfavourite...) unless `options` give them.
 */
export function remember(what: string, undo: () => Promise<Exchange>, options: LedgerOptions = {}): LedgerEntry {
  const entry: Entry = { what, undo, done: false, ...options };
  entries.push(entry);
  return { settle: () => void (entry.done = true) };
}

/** Something the run made and has no way to undo (an application): listed as left behind at once. */
export function cannotUndo(subject: Subject, why: string): void {
  leftBehind.push({ ...subject, why: redact(why) });
}

/** The flag a status shows for each undoable interaction. */
const FLAGS: Record<string, { kind: string; flag: string }> = {
  unfavourite: { kind: 'favourite', flag: 'favourited' },
  unreblog: { kind: 'boost', flag: 'reblogged' },
  unbookmark: { kind: 'bookmark', flag: 'bookmarked' },
  unmute: { kind: 'mute', flag: 'muted' },
  unpin: { kind: 'pin', flag: 'pinned' },
};

interface Undoable {
  subject: Subject;
  /** The read whose 404 (or, for a flag, whose flag false) shows the object gone. */
  read: string;
  flag?: string;
  /** Answers of the read that show the object still there besides 200: an attachment reads 206 or 422 too. */
  alsoThere?: number[];
}

/** What an undo call undoes, read from its method and path; undefined for a call the ledger does not know. */
function undoableOf(undo: Exchange): Undoable | undefined {
  const path = undo.path.split('?')[0] ?? '';
  const owner = undo.actor;
  let m: RegExpExecArray | null;
  if (undo.method === 'DELETE' && (m = /^\/api\/v1\/statuses\/([^/]+)$/.exec(path))) return { subject: { kind: 'status', id: m[1] as string, owner }, read: path };
  if (undo.method === 'DELETE' && (m = /^\/api\/v1\/scheduled_statuses\/([^/]+)$/.exec(path))) return { subject: { kind: 'scheduled status', id: m[1] as string, owner }, read: path };
  if (undo.method === 'DELETE' && (m = /^\/api\/v1\/media\/([^/]+)$/.exec(path))) {
    // The Attachment state table: 206 while processing; the Errors table: 422 where processing failed.
    return { subject: { kind: 'attachment', id: m[1] as string, owner }, read: path, alsoThere: [206, 422] };
  }
  if (undo.method === 'POST' && (m = /^\/api\/v1\/statuses\/([^/]+)\/(un\w+)$/.exec(path)) && FLAGS[m[2] as string]) {
    const { kind, flag } = FLAGS[m[2] as string] as { kind: string; flag: string };
    return { subject: { kind, id: m[1] as string, owner }, read: `/api/v1/statuses/${m[1]}`, flag };
  }
  return undefined;
}

const call = (exchange: Exchange) => `${exchange.method} ${exchange.path.split('?')[0]}`;

/** The start of every why after an undo answered 404: what it answered, and what the read showed. */
export function stillThere(undo: Exchange, evidence: string): string {
  return `no undo operation on this server: ${call(undo)} answered HTTP 404, and ${evidence}`;
}

/** The read that would have confirmed a 404 got no answer, or an answer that tells nothing. */
export function unconfirmed(undo: Exchange, read: Exchange): string {
  const answer = read.error ?? `HTTP ${read.status}`;
  return `not known to be gone: ${call(undo)} answered HTTP 404, and the read that would show it gone (${call(read)}) got ${answer}`;
}

/** The read confirmation of an undo the ledger knows: gone when the object reads 404, or the flag reads false. */
async function confirmByRead(undo: Exchange, undoable: Undoable): Promise<string | undefined> {
  const sender = senderOf(undo);
  if (!sender) return `not known to be gone: ${call(undo)} answered HTTP 404`;
  const read = await sender.send('GET', undoable.read);
  if (read.status === 404) return undefined;
  if (!undoable.flag && read.status !== undefined && [200, ...(undoable.alsoThere ?? [])].includes(read.status)) {
    return stillThere(undo, `${call(read)} still answers HTTP ${read.status}`);
  }
  if (read.status !== 200 || !undoable.flag) return unconfirmed(undo, read);
  const json = jsonOf(read);
  const shown = json.ok && typeof json.value === 'object' && json.value !== null ? (json.value as Record<string, unknown>)[undoable.flag] : undefined;
  if (shown === false) return undefined;
  return shown === undefined ? unconfirmed(undo, read) : stillThere(undo, `${call(read)} still shows ${undoable.flag} ${JSON.stringify(shown)}`);
}

/** Why the undo did not undo, or undefined when the object is gone. */
async function whyNotUndone(entry: Entry, undo: Exchange): Promise<string | undefined> {
  if (undo.error) return `${call(undo)}: ${undo.error}`;
  const status = undo.status as number;
  if (status >= 200 && status < 300) return undefined;
  if (status !== 404) return `refused with HTTP ${status}: ${call(undo)} answered ${excerpt(undo.text, 200) || '(empty body)'}`;
  if (entry.confirm) return entry.confirm(undo);
  const undoable = undoableOf(undo);
  return undoable ? confirmByRead(undo, undoable) : `not known to be gone: ${call(undo)} answered HTTP 404`;
}

/** Undoes one entry: what it leaves behind, if anything. */
async function undoOne(entry: Entry): Promise<LeftBehind | undefined> {
  let undo: Exchange | undefined;
  let why: string | undefined;
  try {
    undo = await entry.undo();
    why = await whyNotUndone(entry, undo);
  } catch (error) {
    why = `internal error of the conformance suite while undoing it: ${(error as Error).message ?? String(error)}`;
  }
  if (why === undefined) return undefined;
  const subject = entry.subject ?? (undo && undoableOf(undo)?.subject) ?? { kind: 'object', id: entry.what, owner: undo?.actor ?? '' };
  return { ...subject, why: redact(why) };
}

/**
 * Undoes, newest first, everything on the ledger that its check did not settle, then revokes the tokens together:
 * any other undo may need one of them, and no revocation needs another. Its calls are the suite's own.
 */
export async function undoAll(): Promise<void> {
  await outsideContract(async () => {
    const tokens: Entry[] = [];
    while (entries.length > 0) {
      const entry = entries.pop() as Entry;
      if (entry.done) continue;
      if (entry.subject?.kind === 'token') {
        tokens.push(entry);
        continue;
      }
      const left = await undoOne(entry);
      if (left) leftBehind.push(left);
    }
    for (const left of await Promise.all(tokens.map(undoOne))) if (left) leftBehind.push(left);
  });
}

/** What could not be undone, for the report: a live instance must be left as it was found. */
export function leftovers(): LeftBehind[] {
  return leftBehind.map((entry) => ({ ...entry }));
}

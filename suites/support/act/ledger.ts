// The cleanup ledger: everything a suite creates is written down as it is created, with the operation that
// undoes it; the cleanup (run/cleanup.ts) undoes it all in reverse order when the suite file ends, also after
// failures, and lists what it could not; its order is the one the run decided (inOrderMade), never the order the
// answers came in. Only what the run created is ever touched. Applications, which no operation
// deletes, and authorization codes, whose grants the cleanup ends, are written down too.
import { currentPart, inPartThatSent, type PartCount } from '../talk/counts.ts';
import { perFile } from '../talk/file-state.ts';
import { issueOrderOf, issuedSoFar, senderOf, type Exchange, type HttpClient } from '../talk/http.ts';
import { now } from './settle.ts';
import { nextAt } from './sightings.ts';

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
  /**
   * What `what` names may be on the ledger already (a resubmission answers the status made first): its undo and reads
   * are then counted in the part that made it.
   */
  again?: true;
  /** The request that made it: its place among the requests issued (not its answer's) orders the entry (inOrderMade). */
  made?: Exchange;
}

/**
 * Where something the run made stands in the order the run decided: the order of declaration of the step that made it,
 * then the place of the request that made it among those the run issued. Never the order the answers came in: steps
 * run side by side, a step sends requests together, and the first undo of a kind carries the read that shows one there,
 * which each run must count in the same step's cost.
 */
export interface Made {
  part?: PartCount;
  /** The request's place among those issued (talk/http.ts issueOrderOf). */
  issued?: number;
}

/** Sorts by the order the run decided (Made), for Array.sort; the sort is stable, so what ties keeps its place. */
export function inOrderMade(x: Made, y: Made): number {
  const last = Number.MAX_SAFE_INTEGER;
  return (x.part?.order ?? last) - (y.part?.order ?? last) || (x.issued ?? last) - (y.issued ?? last);
}

/** The place of the request that made something; where none is given, the requests issued so far (when it is written down). */
const issuedBy = (made: Exchange | undefined): { issued: number } => ({ issued: (made && issueOrderOf(made)) ?? issuedSoFar() });

export interface Entry extends Omit<LedgerOptions, 'made'>, Made {
  what: string;
  undo: () => Promise<Exchange>;
  /** The check undid it itself: the place in the file's answers from which a read shows it gone. */
  settledAt?: number;
  /** When the check undid it (settle.ts now): the settle window begins there. */
  settledTime?: number;
  /** The part of the plan that made it (the step running): the ledger's undo and reads of it are counted there. */
  part?: PartCount;
}

/** An application the run registered; the contract has no operation to delete one. */
export interface Application extends Made {
  /** The part of the plan that made it: the cleanup's calls for it are counted there. */
  part?: PartCount;
  subject: Subject;
  clientSecret?: string;
  sender?: HttpClient;
}

/** An authorization code the run obtained: a grant of the account's, live until its code is spent and its token revoked. */
export interface Authorization extends Made {
  /** The part of the plan that made it: the cleanup's calls for it are counted there. */
  part?: PartCount;
  code: string;
  subject: Subject;
  /** The token operation with the code, as the client that asked for it sends it. */
  exchange: () => Promise<Exchange>;
  revoke: (token: string) => Promise<Exchange>;
  /** The run exchanged it for a token, which is on the ledger as a token. */
  exchanged: boolean;
  /** An exchange of it that got no answer: the server may have issued a token the run never saw. */
  unanswered?: Exchange;
}

/**
 * A creation whose answer never came: the server may have made the object. `find` asks the server for it as a client
 * can (a status: the same request with the same Idempotency-Key, which answers the status made already) and gives the
 * answer, whose object is then undone and read like any other; where it finds none, the object is listed as possibly
 * left behind, with what the run sent.
 */
export interface Unanswered extends Made {
  /** The part of the plan that made it: the cleanup's calls for it are counted there. */
  part?: PartCount;
  creation: Exchange;
  kind: string;
  find?: () => Promise<Exchange>;
}

/** What this file wrote down, for the cleanup at its end (run/cleanup.ts), which takes it off as it undoes it. */
export const ledger = { entries: [] as Entry[], applications: [] as Application[], unanswered: [] as Unanswered[], authorizations: [] as Authorization[] };
const { entries, applications, unanswered, authorizations } = ledger;
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
  const part = (options.again ? entries.find((earlier) => earlier.what === what)?.part : undefined) ?? currentPart();
  const { made, ...kept } = options;
  const entry: Entry = { what, undo, ...kept, ...(part ? { part } : {}), ...issuedBy(made) };
  entries.push(entry);
  return {
    settle: () => {
      entry.settledAt ??= nextAt();
      entry.settledTime ??= now();
    },
  };
}

/** The part of the plan running, as the ledger writes it down with what it makes. */
const partNow = (): { part?: PartCount } => {
  const part = currentPart();
  return part ? { part } : {};
};

/**
 * Runs the calls a step makes in the ledger's place on what `creation` made (its undo, the read that shows it gone):
 * the ledger then only reads, so they are counted in the part that made it, whose cost holds the ledger's undo and read.
 */
export const inLedgersPlace = <T>(creation: Exchange | undefined, calls: () => Promise<T>): Promise<T> => (creation ? inPartThatSent(creation, calls) : calls());

/** A creation of a `kind` (status, attachment) that got no answer; see Unanswered. */
export function rememberUnanswered(creation: Exchange, kind: string, find?: () => Promise<Exchange>): void {
  unanswered.push({ creation, kind, ...(find ? { find } : {}), ...partNow(), ...issuedBy(creation) });
}

/** An application the run registered (its registration's answer): listed as left behind unless a read shows it gone. */
export function rememberApplication(registration: Exchange, subject: Subject, clientSecret: unknown): void {
  applications.push({ subject, clientSecret: typeof clientSecret === 'string' ? clientSecret : undefined, sender: senderOf(registration), ...partNow(), ...issuedBy(registration) });
}

/**
 * An authorization code the run obtained (the approval of account `owner`): a code the run does not exchange itself
 * is exchanged at the end and its token revoked, so that no grant stays live; one the token operation then refuses
 * is spent. Listed as a live authorization where neither shows. `shownBy`: the answer that showed the code.
 */
export function rememberAuthorization(
  code: string,
  grant: { scope: string; owner: string; application: string },
  calls: { exchange: () => Promise<Exchange>; revoke: (token: string) => Promise<Exchange> },
  shownBy?: Exchange,
): void {
  const subject = { kind: 'authorization', id: `#${authorizations.length + 1} (scope "${grant.scope}", application ${grant.application})`, owner: grant.owner };
  authorizations.push({ code, subject, ...calls, exchanged: false, ...partNow(), ...issuedBy(shownBy) });
}

/** The run exchanged this code for a token: the token is on the ledger, and the code is spent. */
export function codeExchanged(code: string): void {
  for (const authorization of authorizations) if (authorization.code === code) authorization.exchanged = true;
}

/**
 * An exchange of this code got no answer: the server may have spent it on a token the run never saw. False where the
 * code is no authorization of the run's (a probe's made-up code).
 */
export function codeUnanswered(code: string, exchange: Exchange): boolean {
  const authorization = authorizations.find((a) => a.code === code);
  if (authorization) authorization.unanswered ??= exchange;
  return authorization !== undefined;
}

// Whether a move of the States and transitions table took (favourite, unreblog, mute, ...), for the moves and
// checks that build on it. Moves act on the id of the status acted on, never on an id their answer gave: an answer
// may be another status (a wrapper with the original in reblog) or carry a stale flag, and that is the move's own
// check to judge. So an answer that does not show the flag on the status acted on is not the last word: a read of
// that status confirms the flag before the checks after the move are blocked by the move's clause. A server may apply
// a move in the background: that read waits for the flag within the settle window (settle.ts), and an undo whose
// state must hold is confirmed by one read once the window has passed (Holds): a flag that comes back fails the undo.
import { perFile } from '../talk/file-state.ts';
import type { FormParams } from '../talk/form.ts';
import { createdObject, inOrderIssued, type Exchange, type RequestOptions } from '../talk/http.ts';
import type { Actor } from './actors.ts';
import { remember, type LedgerEntry } from './ledger.ts';
import { type RootCause, answerOf, causeOf, failed, succeeded, type Step } from './steps.ts';
import { noteLate, noteUnsettled, now, settle, settleWindowMs, windowPassed } from './settle.ts';

export type Flag = 'favourited' | 'reblogged' | 'bookmarked' | 'muted' | 'pinned';

/**
 * The flag of the status `statusId` as an answer shows it, itself or inside a boost of it (the wrapper's own flags are
 * the boost's, not the status's); undefined where the answer shows neither, or leaves the flag out.
 */
export function flagOn(exchange: Exchange, statusId: string, flag: Flag): unknown {
  const body = createdObject(exchange);
  const reblog = body?.reblog as Record<string, unknown> | null | undefined;
  const acted = body?.id === statusId ? body : reblog?.id === statusId ? reblog : undefined;
  return acted?.[flag];
}

/**
 * Whether an answer shows the status `statusId` carrying the flag with `value`, itself or inside a boost of it (some
 * servers answer a status another account boosted as that boost: whether that answer is right is the move's own
 * check, not what a step that needs the move to have taken asks); else what it showed instead.
 */
export function shows(exchange: Exchange, statusId: string, flag: Flag, value: boolean): { ok: true } | { ok: false; shown: string } {
  const body = createdObject(exchange);
  if (exchange.status === 200 && flagOn(exchange, statusId, flag) === value) return { ok: true };
  if (!body) return { ok: false, shown: answerOf(exchange) };
  const other = body.id === statusId ? '' : ` status ${JSON.stringify(body.id)}`;
  return { ok: false, shown: `${answerOf(exchange)}${other} with ${flag} ${JSON.stringify(body[flag])}` };
}

/**
 * The id of the status `acted` that the move `made` acted on, once the move took: its answer, or else a read of the
 * status by the same actor, shows the flag the transition gives. A move that was refused (no 200) or that a read
 * shows did not take is the cause, by `clause`, of everything after it.
 */
export async function took(
  actor: Actor,
  acted: Step<{ id: string }>,
  made: Step<Exchange>,
  flag: Flag,
  value: boolean,
  clause: string,
  what: string,
): Promise<Step<string>> {
  if (!made.ok) return failed(made.cause, made.exchange);
  if (!acted.ok) return failed(acted.cause, acted.exchange);
  const statusId = acted.value.id;
  const answer = shows(made.value, statusId, flag, value);
  if (answer.ok) return succeeded(statusId, made.value);
  const didNotTake = (shown: string) => failed<string>(causeOf(clause, `${what} answered ${shown}`, made.value), made.value);
  if (made.value.status !== 200) return didNotTake(answer.shown);
  const read = await settle(() => actor.get(`/api/v1/statuses/${statusId}`), (exchange) => shows(exchange, statusId, flag, value).ok, now());
  noteLate(clause, `${flag} ${value} of status ${statusId}, which the answer to ${what} did not show,`, read);
  if (read.shown) return succeeded(statusId, read.exchange);
  const confirmed = shows(read.exchange, statusId, flag, value);
  const shown = confirmed.ok ? '' : confirmed.shown;
  return didNotTake(`${answer.shown}, and a read of status ${statusId} answered ${shown} (settle window ${settleWindowMs()} ms)`);
}

/** A state a move left that must hold: its flag and value, the clause of the move, and what the move was. */
interface Held {
  flag: Flag;
  value: boolean;
  clause: string;
  what: string;
  at: number;
}

/**
 * The states the moves on one status left that must hold (an undone favourite must not come back): confirmed by one
 * read of the status by the actor that moved, once the settle window has passed since the last of them took. A
 * flag that turned back fails the move's clause, and blocks the checks that met the state after it.
 */
export class Holds {
  private readonly held: Held[] = [];
  private readonly turned = new Map<string, { cause: RootCause; exchange: Exchange }>();

  /** The move of `clause` took (took): its flag must keep `value`. */
  expect(flag: Flag, value: boolean, clause: string, what: string): void {
    this.held.push({ flag, value, clause, what, at: now() });
  }

  /**
   * One read of the status once the window has passed since the last move; a read that shows no such status says
   * nothing. It answers that read (none where no state must hold), which a later check may take as its own.
   */
  async confirm(actor: Actor, statusId: string): Promise<Exchange | undefined> {
    const last = this.held.at(-1);
    if (!last) return undefined;
    await windowPassed(last.at, `the read of status ${statusId} that confirms the undos held`);
    const read = await actor.get(`/api/v1/statuses/${statusId}`);
    const body = createdObject(read);
    if (read.status !== 200 || body?.id !== statusId) return read;
    for (const { flag, value, clause, what, at } of this.held) {
      if (body[flag] === value || typeof body[flag] !== 'boolean') continue;
      noteUnsettled();
      const summary = `${flag} came back to ${JSON.stringify(body[flag])} after ${what} had set it ${value}: a read of status ${statusId} ${Math.round(now() - at)} ms after it (settle window ${settleWindowMs()} ms)`;
      this.turned.set(clause, { cause: causeOf(clause, summary, read), exchange: read });
    }
    return read;
  }

  /** What a read showed turned back of the state the move of `clause` left: judge/verify expectHeld fails it, and preconditions needHeld blocks what met it after. */
  turnedBack(clause: string): { cause: RootCause; exchange: Exchange } | undefined {
    return this.turned.get(clause);
  }
}

/** Whether `exchange` comes before `other` (or there is no other) in the order the run decided. */
const issuedBefore = (exchange: Exchange, other: Exchange | undefined): boolean => !other || inOrderIssued(exchange, other) < 0;

/** The path of an operation on a status: `/api/v1/statuses/:id/favourite`. */
export const operationOn = (statusId: string, operation: string) => `/api/v1/statuses/${statusId}/${operation}`;
const on = operationOn;

/**
 * The ledger entries of this file's moves on statuses not undone yet, by actor, undo and status: an undo that answers
 * 200 settles its entry, and a read that shows the status gone settles those on it, so the ledger sends nothing for them.
 * The ledger's concern, as every entry is: the steps that move share it, and none hands it to another.
 */
export class Moves {
  readonly #pending = new Map<string, LedgerEntry>();
  /** The answer of each pending move, by the same key: of moves made together, that of the one issued first, whichever came first. */
  readonly #answers = new Map<string, Exchange>();
  /** The accounts whose moves on a status may have taken (answered 200, or never answered), undone since or not, by status id. */
  readonly #movedBy = new Map<string, Set<string>>();

  /** A new file's run: its ledger is new too. */
  clear(): void {
    this.#pending.clear();
    this.#answers.clear();
    this.#movedBy.clear();
  }

  /** A move the ledger undoes at the end, unless an undo of the group answered 200 before. */
  async move(actor: Actor, statusId: string, action: string, undo: string, form?: FormParams, options?: RequestOptions): Promise<Exchange> {
    const exchange = await actor.post(on(statusId, action), form, options);
    // A move whose answer never came may have been made all the same: the ledger undoes it, and a read tells.
    if (exchange.status === 200 || exchange.timedOut) {
      this.#movedBy.set(statusId, (this.#movedBy.get(statusId) ?? new Set()).add(actor.name));
      // Made again while its first is pending (twice at the same moment), the one entry undoes both.
      const key = `${actor.name} ${undo} ${statusId}`;
      if (!this.#pending.has(key)) this.#pending.set(key, remember(`${action} of ${statusId} by ${actor.name}`, () => actor.post(on(statusId, undo)), { unanswered: exchange.timedOut, made: exchange }));
      if (issuedBefore(exchange, this.#answers.get(key))) this.#answers.set(key, exchange);
    }
    return exchange;
  }

  /** The answer to `actor`'s move on the status that no undo of the group has undone since (its entry is pending), if one stands. */
  standing(actor: Actor, statusId: string, undo: string): Exchange | undefined {
    const key = `${actor.name} ${undo} ${statusId}`;
    return this.#pending.has(key) ? this.#answers.get(key) : undefined;
  }

  async undoMove(actor: Actor, statusId: string, undo: string): Promise<Exchange> {
    const exchange = await actor.post(on(statusId, undo));
    const key = `${actor.name} ${undo} ${statusId}`;
    if (exchange.status === 200) this.#pending.get(key)?.settle();
    this.#pending.delete(key);
    this.#answers.delete(key);
    return exchange;
  }

  /** A move the server should refuse: what it accepts anyway is undone at once, so that no later move meets it. */
  async probe(actor: Actor, statusId: string, action: string, undo: string, form?: FormParams, options?: RequestOptions): Promise<Exchange> {
    const exchange = await this.move(actor, statusId, action, undo, form, options);
    if (exchange.status === 200) await this.undoMove(actor, statusId, undo);
    return exchange;
  }

  /**
   * Whether an account other than `author` moved on the status, its move taken or unanswered, undone since or not: a
   * server may keep what others once acted on, so such a status is no control of a plain delete.
   */
  movedByOthers(statusId: string, author: Actor): boolean {
    return [...(this.#movedBy.get(statusId) ?? [])].some((name) => name !== author.name);
  }

  /** The moves of `actor` on a status a read showed gone: they went with it, so nothing is left to undo. */
  settleGone(actor: Actor, statusId: string): void {
    for (const [key, entry] of this.#pending) {
      if (key.startsWith(`${actor.name} `) && key.endsWith(` ${statusId}`)) {
        entry.settle();
        this.#pending.delete(key);
        this.#answers.delete(key);
      }
    }
  }
}

/** This file's moves not undone yet (see Moves). */
export const moves = new Moves();
/** The states that must hold on each of this file's statuses, by status id: the rows write them down, one read confirms them. */
const holds = new Map<string, Holds>();
perFile(() => {
  moves.clear();
  holds.clear();
});

/** The states that must hold on a status (none on a status not made). */
export function holdsOn(statusId: string | undefined): Holds {
  if (statusId === undefined) return new Holds();
  const made = holds.get(statusId) ?? new Holds();
  holds.set(statusId, made);
  return made;
}

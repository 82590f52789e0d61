// Whether a move of the States and transitions table took (favourite, unreblog, mute, ...), for the moves and
// checks that build on it. Moves act on the id of the status acted on, never on an id their answer gave: an answer
// may be another status (a wrapper with the original in reblog) or carry a stale flag, and that is the move's own
// check to judge. So an answer that does not show the flag on the status acted on is not the last word: a read of
// that status confirms the flag before the checks after the move are blocked by the move's clause. A server may apply
// a move in the background: that read waits for the flag within the settle window (settle.ts), and an undo whose
// state must hold is confirmed by one read once the window has passed (Holds): a flag that comes back fails the undo.
import { createdObject, type Exchange } from '../talk/http.ts';
import type { Actor } from './actors.ts';
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

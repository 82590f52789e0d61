// Whether a move of the States and transitions table took (favourite, unreblog, mute, ...), for the moves and
// checks that build on it. Moves act on the id of the status acted on, never on an id their answer gave: an answer
// may be another status (a wrapper with the original in reblog) or carry a stale flag, and that is the move's own
// check to judge. So an answer that does not show the flag on the status acted on is not the last word: a read of
// that status confirms the flag before the checks after the move are blocked by the move's clause.
import { createdObject, type Actor } from './actors.ts';
import type { Exchange } from './http.ts';
import { answerOf, causeOf, failed, succeeded, type Step } from './preconditions.ts';

export type Flag = 'favourited' | 'reblogged' | 'bookmarked' | 'muted' | 'pinned';

/** Whether an answer is the status `statusId` carrying the flag with `value`; else what it showed instead. */
export function shows(exchange: Exchange, statusId: string, flag: Flag, value: boolean): { ok: true } | { ok: false; shown: string } {
  const body = createdObject(exchange);
  if (exchange.status === 200 && body?.id === statusId && body[flag] === value) return { ok: true };
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
  const read = await actor.get(`/api/v1/statuses/${statusId}`);
  const confirmed = shows(read, statusId, flag, value);
  return confirmed.ok ? succeeded(statusId, read) : didNotTake(`${answer.shown}, and a read of status ${statusId} answered ${confirmed.shown}`);
}

// The input space of the exploration (docs/exploring.md): the contract's operations on one id (the Statuses table's
// status operations, the Media table's read and update), and for the id the classes of "Find what no check was
// written for": the caller's own object, another account's visible one, one the caller cannot see, a deleted one, one
// that never existed, a malformed one. fast-check draws the ids that name nothing, seeded (CONFORMANCE_SEED); the
// covering set sends every class of every operation once, every operation reached before any is reached twice; random
// draws follow. What the contract says each answer must be is the oracle's (judge/explore-oracle.ts); this module
// only draws, plans what the budget buys and sends.
import type { Exchange } from '../talk/http.ts';
import type { Actor } from './actors.ts';
import { createdId } from './created.ts';
import type { DeletionShare } from './deletion-share.ts';
import { remember } from './ledger.ts';
import { type Held, idOf, type Input, type Operation, operationNamed, pathOf, type Sent, SHRINK_BOUND, smallerMalformed, takes } from './explore-inputs-model.ts';
export * from './explore-inputs-model.ts';

/** Sends an operation on an id as `caller`. Where an error row covers the input, a 5xx is its check's to judge. */
export function send(caller: Actor, op: Operation, id: string, judgedHere: boolean): Promise<Exchange> {
  const options = judgedHere ? { malformed: true } : {};
  if (op.idParameter) return caller.attemptStatus({ ...op.form, [op.idParameter]: id }, options);
  const path = pathOf(op, id);
  if (op.method === 'GET') return caller.get(path, options);
  if (op.method === 'DELETE') return caller.delete(path, options);
  if (op.method === 'PUT') return caller.put(path, op.form, options);
  return caller.post(path, op.form, options);
}

/**
 * Sends the inputs one after another as `caller`, each on the objects as the run made them: a move that took is
 * undone at once (a boost is on the ledger until its unreblog answers; the flags go with the statuses the ledger
 * deletes). `judgedHere` says where an error row covers the input, so that its check, not ERRORS-5XX-1, judges a 5xx.
 * An input of a class the run holds no object of is not sent.
 */
export async function sendInputs(caller: Actor, inputs: readonly Input[], held: Held, judgedHere: (input: Input) => boolean): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (const input of inputs) {
    const id = idOf(input, held);
    if (id === undefined) continue;
    const op = operationNamed(input.operation);
    const exchange = await send(caller, op, id, judgedHere(input));
    const took = op.undo !== undefined && takes(op, input.idClass) && exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
    if (!took) {
      sent.push({ input, id, exchange });
      continue;
    }
    const undoOp = operationNamed(op.undo as string);
    // A boost is a status of its own: on the ledger until its unreblog answers.
    const boost = op.name === 'reblog' ? remember(`boost of ${id} by ${caller.name}, explored`, () => send(caller, undoOp, id, false), { made: exchange }) : undefined;
    const undo = await send(caller, undoOp, id, true);
    if (undo.status !== undefined && undo.status >= 200 && undo.status < 300) boost?.settle();
    sent.push({ input, id, exchange, undo });
  }
  return sent;
}

/**
 * The smallest input that still breaks what `broken` tells, tried smallest first within SHRINK_BOUND: for a malformed
 * id, its shorter parts that are still malformed; the other classes are one value each, already their smallest. An
 * operation counted in the Deletion bucket (a DELETE, an unreblog, a reply the ledger deletes) tries each value only
 * with a deletion of `share` (what the inputs left of theirs), given back where a reply made nothing.
 */
export async function shrink(caller: Actor, finding: Sent, broken: (exchange: Exchange) => boolean, judgedHere: boolean, share: DeletionShare): Promise<Sent> {
  if (finding.input.idClass !== 'malformed') return finding;
  const op = operationNamed(finding.input.operation);
  for (const value of smallerMalformed(finding.id).slice(0, SHRINK_BOUND.requestsPerFinding)) {
    if (op.deletes && !share.take()) break;
    const exchange = await send(caller, op, value, judgedHere);
    if (op.idParameter && createdId(exchange) === undefined && exchange.error === undefined) share.giveBack();
    if (broken(exchange)) return { input: { ...finding.input, value }, id: value, exchange };
  }
  return finding;
}

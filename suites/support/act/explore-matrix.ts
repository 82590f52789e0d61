// The access matrix as explored inputs (docs/exploring.md, "The access matrix"; issue 50's decision of 2026-12-07):
// every status operation of the contract's Statuses table x caller (the owner, another account, no token) x the
// visibility of the status (public, unlisted, private, direct), on statuses of A's. The default run asks 62 of the 180
// cells (DEFAULT_ASKED, docs/performance.md's matrix table); the rest are sent here under --explore N, before any
// other explored input, so that --explore N with N at least their cost completes the matrix. What each cell must
// answer is the oracle's (judge/explore-matrix-oracle.ts); this module only plans what the budget buys and sends.
import type { Actor } from './actors.ts';
import type { DeletionShare } from './deletion-share.ts';
import { operationNamed, send } from './explore-inputs.ts';
import { remember } from './ledger.ts';
import type { Caller, Cell, MatrixStatuses, SentCell } from './explore-matrix-model.ts';
export * from './explore-matrix-model.ts';

/**
 * Sends the cells of `caller` one after another through `actor`, on A's statuses: a move that took (answered 2xx) is
 * undone at once, whether the contract grants it or not (a boost is on the ledger until its unreblog answers), so that
 * every cell meets the statuses as they were made. `judgedHere` says where a row covers the cell, so that its check,
 * not ERRORS-5XX-1, judges a 5xx. A cell whose status was not made is not sent. A cell whose move's undo is counted in
 * the Deletion bucket (a boost's unreblog) is sent only with a deletion of `share`, the caller's, whatever the
 * contract says the move does (a deviating server takes a boost of a status the caller cannot see), given back
 * where the move did not take; one the share no longer holds is not sent.
 */
export async function sendCells(actor: Actor, caller: Caller, cells: readonly Cell[], statuses: MatrixStatuses, judgedHere: (cell: Cell) => boolean, share: DeletionShare): Promise<SentCell[]> {
  const sent: SentCell[] = [];
  for (const cell of cells.filter((c) => c.caller === caller)) {
    const id = statuses[cell.visibility];
    if (id === undefined) continue;
    const op = operationNamed(cell.operation);
    const undoDeletes = caller !== 'none' && op.undo !== undefined && operationNamed(op.undo).deletes === true;
    if (undoDeletes && !share.take()) continue;
    const exchange = await send(actor, op, id, judgedHere(cell));
    const took = op.undo !== undefined && caller !== 'none' && exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300;
    if (!took) {
      if (undoDeletes && exchange.error === undefined) share.giveBack();
      sent.push({ cell, id, exchange });
      continue;
    }
    const undoOp = operationNamed(op.undo as string);
    const boost = op.name === 'reblog' ? remember(`boost of ${id} by ${actor.name}, the access matrix`, () => send(actor, undoOp, id, false), { made: exchange }) : undefined;
    const undo = await send(actor, undoOp, id, true);
    if (undo.status !== undefined && undo.status >= 200 && undo.status < 300) boost?.settle();
    sent.push({ cell, id, exchange, undo });
  }
  return sent;
}

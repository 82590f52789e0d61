// The cells of an access matrix: who asked (a caller), about which status (by its visibility), by which operation,
// and what the server answered. A check over several cells judges every one and fails once, with the table of what
// each cell answered: one missing guard is one failure, and the table shows every cell it left open.
import type { Exchange } from '../talk/http.ts';
import { answerOf } from '../act/steps.ts';
import { countJudged } from './preconditions.ts';
import { fail, observeErrorBody } from './verify.ts';

export interface AccessCell {
  /** Who asked: "B", "no token". */
  caller: string;
  /** The status asked about, by its visibility: "private", "direct". */
  status: string;
  /** The operation asked: "reblogged_by". */
  operation: string;
  exchange: Exchange;
}

/** The cells as a table, a row a cell: who asked, about which status, by which operation, and what answered. */
export function tableOf(cells: readonly AccessCell[]): string {
  const header = ['caller', 'status', 'operation', 'answer'];
  const rows = [header, ...cells.map((cell) => [cell.caller, cell.status, cell.operation, answerOf(cell.exchange)])];
  const widths = header.map((_, column) => Math.max(...rows.map((row) => (row[column] as string).length)));
  return rows.map((row) => `  ${row.map((value, column) => value.padEnd(widths[column] as number)).join(' | ').trimEnd()}`).join('\n');
}

/**
 * Every cell answers the Errors row: HTTP `status` with `text` (its body and text are observed for ERRORS-BODY-1 and
 * ERRORS-TEXT-1). Otherwise the running check fails once, with the table of every cell; its exchange is the first cell
 * that answered otherwise (one that got an answer, where one did: no answer is evidence of nothing).
 */
export function expectEveryCell(cells: readonly AccessCell[], status: number, text: string): void {
  const otherwise = cells.filter((cell) => cell.exchange.status !== status);
  for (const cell of cells) if (cell.exchange.status === status) observeErrorBody(cell.exchange, text);
  const evidence = otherwise.find((cell) => !cell.exchange.unanswered && !cell.exchange.rateLimited) ?? otherwise[0];
  if (evidence) {
    const expected = `HTTP ${status} {"error": "${text}"} in every cell`;
    fail(expected, `${otherwise.length} of ${cells.length} cells answered otherwise:\n${tableOf(cells)}`, evidence.exchange);
  }
  countJudged(cells.length);
}

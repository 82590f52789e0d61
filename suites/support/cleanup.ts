// The cleanup ledger: everything a suite creates is written down as it is created, and undone in reverse
// order when the suite file ends, also after failures. Only what the run created is ever touched.
import type { Exchange } from './http.ts';
import { redact } from './redact.ts';

interface Entry {
  what: string;
  undo: () => Promise<Exchange>;
  done: boolean;
}

const entries: Entry[] = [];
const leftBehind: string[] = [];

export interface LedgerEntry {
  /** The check undid it itself (a delete under test): nothing left to do at the end. */
  settle(): void;
}

export function remember(what: string, undo: () => Promise<Exchange>): LedgerEntry {
  const entry: Entry = { what, undo, done: false };
  entries.push(entry);
  return { settle: () => void (entry.done = true) };
}

/** An undo succeeded when the server answered 2xx, or 404 because the object is already gone. */
function undone(exchange: Exchange): boolean {
  return exchange.status !== undefined && ((exchange.status >= 200 && exchange.status < 300) || exchange.status === 404);
}

export async function undoAll(): Promise<void> {
  while (entries.length > 0) {
    const entry = entries.pop() as Entry;
    if (entry.done) continue;
    const exchange = await entry.undo().catch((error: unknown) => ({ error: String(error) }) as Exchange);
    if (!undone(exchange)) {
      const why = exchange.error ?? `HTTP ${exchange.status}`;
      leftBehind.push(redact(`${entry.what}: ${why}`));
    }
  }
}

/** What could not be undone, for the report: a live instance must be left as it was found. */
export function leftovers(): string[] {
  return [...leftBehind];
}

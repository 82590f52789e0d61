// The settle window (CONFORMANCE_SETTLE_MS): a server may apply a move or a deletion in the background, so that a
// read right after the answer still shows the state before it (a deleted status answering 200 for a second), or
// shows the new state and later the old one again (an undone favourite that its own delivery brings back). A read
// that judges such a state waits for it within the window, and a state that must hold is confirmed once the window
// has passed: a verdict then depends on whether the server applies the move within the window, not on how fast the
// run went. On a server that shows every state at once this costs no read: polling goes on only while the state is
// not there yet.
import type { TestContext } from 'vitest';
import { DEFAULT_SETTLE_MS } from '../talk/config.ts';
import { perFile } from '../talk/file-state.ts';
import type { Exchange } from '../talk/http.ts';
import { announceWait } from '../talk/pacing.ts';

/**
 * The pause before reading again a state not there yet, or half the window where that is shorter (the embedded
 * server's): a state still not there then is read once more, at the end of the window, and no more. A server that
 * applies a move late costs at most SETTLE_REREADS reads per state the run waits for, however long it lags
 * (docs/performance.md, "What a deviation costs").
 */
const FIRST_PAUSE_MS = 400;
const firstPauseMs = () => Math.min(FIRST_PAUSE_MS, windowMs / 2);
export const SETTLE_REREADS = 2;

let windowMs = DEFAULT_SETTLE_MS;
/** Whether the server showed, in this file, a state that came late or turned back: the ledger's later reads then wait for the window (cleanup.ts). */
let unsettled = false;
/** What came late, by the clause whose check judges it: an observation of that check. */
const lateStates = new Map<string, string>();
perFile(() => {
  windowMs = DEFAULT_SETTLE_MS;
  unsettled = false;
  lateStates.clear();
});

export const now = (): number => performance.now();

/** The file's settle window, from its configuration (actors.ts). */
export function useSettleWindow(ms: number): void {
  windowMs = ms;
}

export const settleWindowMs = (): number => windowMs;

/** Whether a state came late or turned back in this file. */
export const sawUnsettled = (): boolean => unsettled;

/** A state that came late or turned back, seen outside `settle`: the ledger re-reads what it called gone. */
export function noteUnsettled(): void {
  unsettled = true;
}

const pause = (ms: number) => new Promise<void>((done) => setTimeout(done, Math.max(0, ms)));

/**
 * Waits until the window that began at `since` has passed: a read after it shows whether a state held. A wait long
 * enough for a person to wonder says so, with `before` what (pacing.ts announceWait).
 */
export async function windowPassed(since: number, before: string): Promise<void> {
  const ms = since + windowMs - now();
  announceWait(ms, `for the settle window (${windowMs} ms) to pass, before ${before}`);
  await pause(ms);
}

export interface Settled {
  /** The answer that showed the state, else the last one read. */
  exchange: Exchange;
  shown: boolean;
  /** How long after `since` the state showed, where the first answer did not show it. */
  lateMs?: number;
}

/**
 * Reads until an answer shows the state, within the settle window that began at `since` (the move's answer):
 * `first` (an answer already read) or one read at once, then while the state is not there, again after the first pause
 * and at the end of the window (SETTLE_REREADS in all). An answer that is no answer (a timeout) ends it: there is
 * nothing to wait for.
 */
export async function settle(read: () => Promise<Exchange>, shows: (exchange: Exchange) => boolean, since: number, first?: Exchange): Promise<Settled> {
  let exchange = first ?? (await read());
  if (shows(exchange)) return { exchange, shown: true };
  const end = since + windowMs;
  for (let reread = 1; reread <= SETTLE_REREADS && exchange.status !== undefined && now() < end; reread++) {
    // The last read waits for the window's end; a pause cut to it is the last too: a timer may fire a moment early,
    // which must not add a read.
    const wait = reread === SETTLE_REREADS ? end - now() : firstPauseMs();
    const last = wait >= end - now();
    const ms = Math.min(wait, end - now());
    announceWait(ms, `within the settle window (${windowMs} ms), before reading again a state that is not there yet`);
    await pause(ms);
    exchange = await read();
    if (shows(exchange)) {
      unsettled = true;
      return { exchange, shown: true, lateMs: Math.round(now() - since) };
    }
    if (last) break;
  }
  return { exchange, shown: false };
}

/** Keeps what came late for the check of `clause`, which reports it as an observation. */
export function noteLate(clause: string, what: string, settled: Settled): void {
  if (settled.lateMs !== undefined) lateStates.set(clause, `${what} showed ${settled.lateMs} ms after the answer (settle window ${windowMs} ms)`);
}

/** Reports, as an observation of the check of `clause`, a state it judged that came late: it passes, but not at once. */
export async function observeLate(context: TestContext, clause: string): Promise<void> {
  const late = lateStates.get(clause);
  if (late) await context.annotate(late, 'observation');
}

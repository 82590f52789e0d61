// The circuit breaker of one suite file (file-state.ts starts it afresh for each): it opens for a server that does
// not answer at all, and never for one that is slow. At the first request of the file that got no complete answer
// within CONFORMANCE_TIMEOUT_MS, the breaker asks the server for the cheapest answer it has (GET / of its origin,
// outside the contract and its buckets). Once two requests in a row went unanswered, that probe decides: where its
// answer came whole within the timeout, the server is alive and slow at what it was asked: the count starts again,
// and every request is waited for. Where it did not (a server that accepts connections and never answers, or answers
// a byte a second), the file sends it no more: further requests come back at once, unsent, with the reason. A group's
// preparation is so bounded by the timeouts it spends, not by the number of its requests.
import { perFile } from './file-state.ts';
import { undici } from './undici.ts';

const SILENCES_TO_OPEN = 2;

interface Origin {
  /** The requests that went unanswered in a row. */
  unanswered: string[];
  /** Set once a probe got no answer either: the breaker is open. */
  open?: string;
  /** The probe started by the first silence of a row: whether the server answered it. */
  probing?: Promise<boolean>;
}

/** Per origin (the API and the streaming service may be two servers). */
const origins = new Map<string, Origin>();
perFile(() => origins.clear());

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

export interface ProbeSettings {
  timeoutMs: number;
  userAgent: string;
}

/** Whether the origin gives any complete answer within the timeout: status, headers and the whole body. */
async function answers(origin: string, { timeoutMs, userAgent }: ProbeSettings): Promise<boolean> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const { request } = await undici();
    const response = await request(`${origin}/`, { headers: { 'user-agent': userAgent }, signal, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    await response.body.dump({ limit: 1024 * 1024 });
    // dump resolves, not rejects, when the timeout aborts a body that was still coming (a byte a second): no answer.
    return !signal.aborted;
  } catch {
    return false;
  }
}

/**
 * A request to `url` got no complete answer within the timeout. The first silence starts a probe of the server at
 * once; on the second in a row the probe's answer decides: the breaker opens only where the probe got no answer either.
 * Resolves once that is settled.
 */
export async function recordSilence(url: string, what: string, probe: ProbeSettings): Promise<void> {
  const origin = originOf(url);
  let state = origins.get(origin);
  if (!state) origins.set(origin, (state = { unanswered: [] }));
  if (state.open !== undefined) return;
  state.unanswered.push(what);
  state.probing ??= answers(origin, probe);
  if (state.unanswered.length < SILENCES_TO_OPEN) return;
  const current = state;
  const [first, second] = current.unanswered;
  const alive = await current.probing;
  if (current.open !== undefined || current.unanswered.length === 0) return;
  delete current.probing;
  if (alive) current.unanswered = [];
  else current.open = `not sent: the server gave no answer within ${probe.timeoutMs} ms to ${first} and ${second}, nor to GET / after them`;
}

/** A request to `url` got its answer: the server still answers. */
export function recordAnswer(url: string): void {
  const state = origins.get(originOf(url));
  if (state && state.open === undefined) {
    state.unanswered = [];
    delete state.probing;
  }
}

/** Why a request to `url` is not sent, or undefined when it may be. */
export function notSentReason(url: string): string | undefined {
  return origins.get(originOf(url))?.open;
}

// The circuit breaker of one suite file (file-state.ts starts it afresh for each): once a server has let two
// requests of the file in a row go without a complete answer for the whole CONFORMANCE_TIMEOUT_MS, the file sends
// it no more. Further requests come back at once, unsent, with the reason. A group's preparation is so bounded by
// the timeouts it spends, not by the number of its requests, against a server that accepts connections and never
// answers, or answers a byte a second. An answer in between closes the breaker again: a slow server that does
// answer is waited for.
import { perFile } from './file-state.ts';

const SILENCES_TO_OPEN = 2;

/** Per origin (the API and the streaming service may be two servers): the requests that went unanswered in a row. */
const silences = new Map<string, string[]>();
perFile(() => silences.clear());

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/** A request to `url` got no complete answer within the timeout. */
export function recordSilence(url: string, request: string): void {
  const origin = originOf(url);
  silences.set(origin, [...(silences.get(origin) ?? []), request]);
}

/** A request to `url` got its answer: the server still answers. */
export function recordAnswer(url: string): void {
  silences.delete(originOf(url));
}

/** Why a request to `url` is not sent, or undefined when it may be. */
export function notSentReason(url: string, timeoutMs: number): string | undefined {
  const unanswered = silences.get(originOf(url)) ?? [];
  if (unanswered.length < SILENCES_TO_OPEN) return undefined;
  return `not sent: the server gave no answer within ${timeoutMs} ms to ${unanswered.slice(0, SILENCES_TO_OPEN).join(' and ')}`;
}

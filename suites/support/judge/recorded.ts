// Recorded answers for the unit tests of judgements: a check's judgement is a function of exchanges, so its tests
// build the exchanges a server would have given, without one, and read the failure a judgement threw as data.
import type { Exchange } from '../talk/http.ts';
import { ClauseFailure } from './clauses.ts';

/** An answer as the HTTP layer records it: `status` undefined where none came. */
export function recorded(request: { method: string; path: string; actor?: string }, status: number | undefined, body: unknown, extra: Partial<Exchange> = {}): Exchange {
  return {
    method: request.method,
    url: `http://127.0.0.1:1${request.path}`,
    path: request.path,
    actor: request.actor ?? 'A',
    requestHeaders: {},
    headers: { 'content-type': 'application/json' },
    text: typeof body === 'string' ? body : JSON.stringify(body),
    truncated: false,
    ms: 3,
    ...(status === undefined ? {} : { status }),
    ...extra,
  };
}

/** The failure `judge` threw, as data; undefined where it held. Anything but a failure of a clause is thrown on. */
export function failureOf(judge: () => void): ClauseFailure['data'] | undefined {
  try {
    judge();
  } catch (error) {
    if (error instanceof ClauseFailure) return error.data;
    throw error;
  }
  return undefined;
}

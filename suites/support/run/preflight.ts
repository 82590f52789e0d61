// What the command asks a configured server before the run, to tell our mistakes from the server's: an address
// where nothing listens, a server that takes connections and answers nothing, and a token the server refuses or that
// belongs to the wrong account. Each is a configuration error (exit code 2, one line), not a failure of the server.
// The run's first requests: for each configured token GET /api/v1/accounts/verify_credentials, Mastodon's read of the
// token's own account, which the groups make later to learn A's account id, side by side; then HEAD / (the round trip,
// which also sizes the run). Those requests are spent before the command reads the rate-limit budget (version-hint.ts),
// so the reading counts them; HEAD / comes between the token reads and that reading, so that the count between them
// tells whether the server counts a path outside /api (pacing.ts budgetAtStart).
import { redact, registerSecret } from '../talk/redact.ts';
import { PREFLIGHT_TIMEOUT_MS } from '../talk/config.ts';
import { excerpt } from '../talk/http.ts';
import { undici } from '../talk/undici.ts';

/** After this long without an answer, the command says what it waits for: a silent server is not a hung command. */
export const WAIT_NOTICE_MS = 1000;
const MAX_BODY_BYTES = 64 * 1024;
const CREDENTIALS = '/api/v1/accounts/verify_credentials';

// Errors that mean the address is wrong (nothing listens, no such host), not that the server misbehaves.
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing listens there)',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  EHOSTUNREACH: 'no route to the host',
  ENETUNREACH: 'the network is unreachable',
};

/** Failures of the connection that bring no byte of an answer: the server closed or reset it. */
const CLOSED = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMED_OUT = new Set(['TimeoutError', 'AbortError', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export interface PreflightSettings {
  baseUrl: string;
  tokenA?: string;
  tokenB?: string;
  timeoutMs: number;
  userAgent: string;
}

/** A request the preflight sent, as the run counts it: the server counts it as one of the run's. */
export interface Sent {
  actor: 'anonymous' | 'A' | 'B';
  method: string;
  path: string;
}

/**
 * everyPath: HEAD / came with rate-limit headers, as from a server that counts every path (/oauth, /auth, files) in
 * its access buckets: the run plans those calls against the bucket too. readingsBeforeHead: the rate-limit headers
 * (and Date) of the token reads, every one answered before HEAD / was sent.
 */
export type Preflight =
  | { ok: true; roundTripMs: number; sent: Sent[]; accountIdA?: string; everyPath: boolean; readingsBeforeHead: Record<string, string>[] }
  | { ok: false; problem: string };

/** Why a request got no (complete) answer: its time ran out, the server closed the connection, or another error (its code). */
type Failure = { kind: 'timeout' | 'closed' | 'other'; code: string };

/** One answer as the preflight reads it: its status and body, and the failure that cut it short or came instead. */
interface Answer {
  status?: number;
  body: string;
  failure?: Failure;
  ms: number;
  /** It came with an X-RateLimit-Remaining header. */
  rateLimited?: boolean;
  /** Its rate-limit headers and Date, where it came with them. */
  reading?: Record<string, string>;
}

const READING_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'date'];

function failureOf(error: unknown): Failure {
  const e = error as { name?: string; code?: string; cause?: { code?: string } };
  const code = e.cause?.code ?? e.code ?? e.name ?? 'unknown';
  return { kind: TIMED_OUT.has(code) || TIMED_OUT.has(e.name ?? '') ? 'timeout' : CLOSED.has(code) ? 'closed' : 'other', code };
}

/** The preflight's own bound: CONFORMANCE_TIMEOUT_MS, or PREFLIGHT_TIMEOUT_MS where that is shorter, and which of them it is. */
function boundOf(settings: PreflightSettings): { timeoutMs: number; said: string } {
  return settings.timeoutMs <= PREFLIGHT_TIMEOUT_MS ? { timeoutMs: settings.timeoutMs, said: 'CONFORMANCE_TIMEOUT_MS' } : { timeoutMs: PREFLIGHT_TIMEOUT_MS, said: "the first requests' own bound" };
}

async function ask(url: string, settings: PreflightSettings, method: 'HEAD' | 'GET', timeoutMs: number, token?: string): Promise<Answer> {
  const started = performance.now();
  const answer: Answer = { body: '', ms: 0 };
  try {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': settings.userAgent, ...(token ? { authorization: `Bearer ${token}` } : {}) };
    const response = await (await undici()).request(url, { method, headers, signal: AbortSignal.timeout(timeoutMs), headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    answer.status = response.statusCode;
    if (response.headers['x-ratelimit-remaining'] !== undefined) {
      answer.rateLimited = true;
      answer.reading = Object.fromEntries(READING_HEADERS.flatMap((name) => (typeof response.headers[name] === 'string' ? [[name, response.headers[name]]] : [])));
    }
    answer.ms = performance.now() - started;
    for await (const chunk of response.body) {
      answer.body += String(chunk);
      if (answer.body.length > MAX_BODY_BYTES) break;
    }
  } catch (error) {
    answer.failure = failureOf(error);
    answer.ms ||= performance.now() - started;
  }
  return answer;
}

/** The {error} text of an answer, else a short excerpt of its body. */
function errorText(body: string): string {
  try {
    const error = (JSON.parse(body) as { error?: unknown } | null)?.error;
    if (typeof error === 'string') return excerpt(error, 200);
  } catch {
    // Not JSON: the body as it is.
  }
  return excerpt(body, 200) || '(empty body)';
}

/** The id of the account a complete 200 answer describes: an object with a string id and username, as an Account has. */
function accountIdOf(answer: Answer | undefined): string | undefined {
  if (answer?.status !== 200 || answer.failure) return undefined;
  try {
    const account = JSON.parse(answer.body) as { id?: unknown; username?: unknown } | null;
    return typeof account?.id === 'string' && typeof account.username === 'string' ? account.id : undefined;
  } catch {
    return undefined;
  }
}

/** Answers that may say the path is not there, not that the token is refused: a server without verify_credentials. */
const NO_SUCH_PATH = new Set([404, 405, 410]);

/**
 * Whether a token read's answer refuses its token: any 4xx but 429 (the rate limit's answer: the budget's, never
 * evidence), since servers refuse a made-up token with 401, 403, 422 or 400. A 404, 405 or 410 may only say that the
 * server has no verify_credentials (outside the contract): it refuses the token only where another token's read of
 * the same path was answered 2xx.
 */
function refused(answer: Answer, tokenReads: readonly (Answer | undefined)[]): boolean {
  const { status } = answer;
  if (status === undefined || status < 400 || status >= 500 || status === 429) return false;
  return !NO_SUCH_PATH.has(status) || tokenReads.some((other) => other?.status !== undefined && other.status >= 200 && other.status < 300);
}

/**
 * Asks the server its first requests and says what stops the run before any check: nothing listens, no answer at all
 * within its own bound (boundOf), a token refused (any 4xx but 429: refused()), or tokens A and B of one account.
 * `announce` gets one line where no answer came within WAIT_NOTICE_MS. A server that answers anything else (an error
 * page, garbage, a 404 for the Mastodon path to every token) gets its run: what it answers is for the checks to judge.
 */
export async function preflight(settings: PreflightSettings, announce: (line: string) => void): Promise<Preflight> {
  const { baseUrl, tokenA, tokenB } = settings;
  // A server that answers nothing is told within a short bound, however long the run's requests may take.
  const { timeoutMs, said } = boundOf(settings);
  // A server's refusal may quote the token it refused: the line names the setting instead.
  registerSecret(tokenA, 'CONFORMANCE_TOKEN_A');
  registerSecret(tokenB, 'CONFORMANCE_TOKEN_B');
  const notice = setTimeout(() => announce(`… waiting for ${baseUrl} (HEAD / and GET ${CREDENTIALS}), up to ${timeoutMs / 1000} s (${said})`), WAIT_NOTICE_MS);
  const deadline = performance.now() + timeoutMs;
  const [a, b] = await Promise.all([
    tokenA ? ask(`${baseUrl}${CREDENTIALS}`, settings, 'GET', timeoutMs, tokenA) : undefined,
    tokenB ? ask(`${baseUrl}${CREDENTIALS}`, settings, 'GET', timeoutMs, tokenB) : undefined,
  ]);
  // HEAD / once the token reads answered, within what is left of the one bound: where the server counts it, the
  // count between their readings and the budget's read shows it. Where nothing is left, it is not sent.
  const left = Math.floor(deadline - performance.now());
  const headSent = left >= 1;
  const root: Answer = headSent ? await ask(`${baseUrl}/`, settings, 'HEAD', left) : { body: '', ms: 0, failure: { kind: 'timeout', code: 'TimeoutError' } };
  clearTimeout(notice);
  const answers = [root, a, b].filter((answer): answer is Answer => answer !== undefined);
  const unreachable = UNREACHABLE[root.failure?.code ?? ''];
  if (unreachable) return { ok: false, problem: `cannot reach CONFORMANCE_BASE_URL ${baseUrl}: ${unreachable}` };
  if (answers.every((answer) => answer.status === undefined && answer.failure?.kind !== 'other')) {
    const closed = answers.find((answer) => answer.failure?.kind === 'closed')?.failure;
    const how = closed ? `: the server closed every connection before answering (${closed.code})` : ` within ${timeoutMs / 1000} s (${said})`;
    return { ok: false, problem: `no answer from ${baseUrl}${how} to HEAD / and GET ${CREDENTIALS}` };
  }
  for (const [answer, setting] of [[a, 'CONFORMANCE_TOKEN_A'], [b, 'CONFORMANCE_TOKEN_B']] as const) {
    if (answer && refused(answer, [a, b])) {
      return { ok: false, problem: redact(`${setting} was refused by ${baseUrl}: GET ${CREDENTIALS} answered HTTP ${answer.status} ${errorText(answer.body)}`) };
    }
  }
  const [idA, idB] = [accountIdOf(a), accountIdOf(b)];
  if (idA !== undefined && idA === idB) {
    return { ok: false, problem: `CONFORMANCE_TOKEN_A and CONFORMANCE_TOKEN_B belong to the same account (id ${idA} at ${baseUrl}): B must be another user's token` };
  }
  const sent: Sent[] = [
    ...(headSent ? [{ actor: 'anonymous', method: 'HEAD', path: '/' } as const] : []),
    ...(tokenA ? [{ actor: 'A', method: 'GET', path: CREDENTIALS } as const] : []),
    ...(tokenB ? [{ actor: 'B', method: 'GET', path: CREDENTIALS } as const] : []),
  ];
  // HEAD / sizes the run by its round trip; where it got no answer, the first request that did.
  const readingsBeforeHead = [a, b].flatMap((answer) => (answer?.reading ? [answer.reading] : []));
  const roundTripMs = (root.status !== undefined ? root : (answers.find((answer) => answer.status !== undefined) ?? root)).ms;
  return { ok: true, sent, roundTripMs, ...(idA ? { accountIdA: idA } : {}), everyPath: root.rateLimited === true, readingsBeforeHead };
}

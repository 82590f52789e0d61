// Configuration: one table of settings, read from the environment (which the CLI fills from its flags and
// from .env). Every setting has an environment name and a mirroring CLI flag; both are public interface.
import { readFileSync } from 'node:fs';
import { DEFAULT_MAX_IN_FLIGHT } from './in-flight.ts';

export interface Setting {
  env: string;
  flag: string;
  kind: 'url' | 'secret' | 'text' | 'boolean' | 'integer' | 'release';
  description: string;
}

/** The seed of the generated inputs unless one is given: fixed, so that a gate's verdicts do not move from run to run. */
export const DEFAULT_SEED = 1;

export const SETTINGS: readonly Setting[] = [
  { env: 'CONFORMANCE_BASE_URL', flag: '--base-url', kind: 'url', description: 'server under test; unset: the embedded reference server is started on an ephemeral loopback port and used' },
  { env: 'CONFORMANCE_STREAMING_URL', flag: '--streaming-url', kind: 'url', description: 'streaming base address, when it differs from the base URL' },
  { env: 'CONFORMANCE_TOKEN_A', flag: '--token-a', kind: 'secret', description: 'user access token (scopes read write follow push) of account A; required with CONFORMANCE_BASE_URL' },
  { env: 'CONFORMANCE_TOKEN_B', flag: '--token-b', kind: 'secret', description: 'user access token of a second, distinct account B: the "other user" in ownership and visibility checks' },
  { env: 'CONFORMANCE_USERNAME_A', flag: '--username-a', kind: 'text', description: 'login of account A (Mastodon: its e-mail address); with the password, enables the password grant and the web sign-in of the authorization code flow, which give tokens with chosen scopes' },
  { env: 'CONFORMANCE_PASSWORD_A', flag: '--password-a', kind: 'secret', description: 'password of account A' },
  { env: 'CONFORMANCE_USERNAME_B', flag: '--username-b', kind: 'text', description: 'username of account B' },
  { env: 'CONFORMANCE_PASSWORD_B', flag: '--password-b', kind: 'secret', description: 'password of account B' },
  { env: 'CONFORMANCE_SERVER_VERSION', flag: '--server-version', kind: 'release', description: "the release of this API the server implements, in Mastodon's numbering (1.0.0 or later; not the server's own release number); gates version-dependent checks; default: the newest release the contract names (3.2.0)" },
  { env: 'CONFORMANCE_WHITELIST_MODE', flag: '--whitelist-mode', kind: 'boolean', description: 'the instance runs in whitelist mode (tokenless status reads answer 401)' },
  { env: 'CONFORMANCE_DESTRUCTIVE', flag: '--destructive', kind: 'boolean', description: 'allow checks that exhaust rate-limit buckets (the embedded default run sets it)' },
  { env: 'CONFORMANCE_USER_AGENT', flag: '--user-agent', kind: 'text', description: 'User-Agent header of every request and stream (default social-api-conformance/<version>); some servers refuse requests without one' },
  { env: 'CONFORMANCE_TIMEOUT_MS', flag: '--timeout-ms', kind: 'integer', description: 'longest wait for one response, in milliseconds (default 30000: what browsers and client libraries tolerate, so that a slow answer is not read as none); a server that answers nothing at all is told at once by the first requests of the command, within 10 s at most, and a stream waits for an event at most 10 s (or this, where shorter)' },
  { env: 'CONFORMANCE_SETTLE_MS', flag: '--settle-ms', kind: 'integer', description: 'settle window, in milliseconds (default 3000; 100 on the embedded reference server without variations): how long a read that judges the state a move or a deletion left waits for that state to show, and after which the state must still hold' },
  { env: 'CONFORMANCE_MAX_IN_FLIGHT', flag: '--max-in-flight', kind: 'integer', description: `most requests in flight against the server at once, across every group of the run (default ${DEFAULT_MAX_IN_FLIGHT}, what a server with 4 workers keeps up with; 1 to 64)` },
  { env: 'CONFORMANCE_SEED', flag: '--seed', kind: 'integer', description: `seed of the inputs fast-check generates (a redraft text, a focal point, the explored inputs and the state machine's moves; default ${DEFAULT_SEED}): the same seed gives the same inputs, so that two runs against one server give the same verdicts; another seed explores other inputs` },
  { env: 'CONFORMANCE_EXPLORE', flag: '--explore', kind: 'integer', description: 'requests the exploration of generated inputs (docs/exploring.md) gives the explored inputs (the access matrix, the inputs on ids, the creations) and again the state machine\'s sequences, beyond what the default run gives them; the objects they name, the registration, OAuth and relations inputs, the media and the streams come beside N, each bounded: the command announces what each part adds, the run\'s plan in all and the rate-limit windows it takes; 0 turns the exploration off; unset: the default run\'s share, ids that name nothing on the operations that delete nothing' },
  { env: 'CONFORMANCE_REPORT_DIR', flag: '--report-dir', kind: 'text', description: 'where reports go (default reports/)' },
  { env: 'CONFORMANCE_RECORD', flag: '--record', kind: 'text', description: 'write every exchange of the run to this file as HAR 1.2 (browser devtools and HAR viewers open it), redacted as the reports are' },
  { env: 'CONFORMANCE_LIST_ID', flag: '--list-id', kind: 'text', description: 'id of a list of account A that includes account B, for the list stream (the embedded server provides one)' },
  { env: 'CONFORMANCE_EXPECTATIONS', flag: '--expectations', kind: 'text', description: 'JSON file of checks known to fail (or to skip), each with a reason; expected failures do not fail the run (see docs/ci-gate.md)' },
  { env: 'CONFORMANCE_WRITE_EXPECTATIONS', flag: '--write-expectations', kind: 'text', description: 'after the run, write this expectations file: the entries of CONFORMANCE_EXPECTATIONS (else of the file itself, where it exists) kept with their reasons and skips, each expected failure that now passes widened to ["fail", "pass"] (never dropped), and an entry "fail" with the run\'s reason added for each failure of a MUST clause and each blocked check that no entry covers (see docs/ci-gate.md)' },
  { env: 'CONFORMANCE_ALLOW_UNEXPECTED_PASS', flag: '--allow-unexpected-pass', kind: 'boolean', description: 'an expected failure that now passes is reported but does not fail the run' },
  { env: 'CONFORMANCE_FAULTS', flag: '--fault', kind: 'text', description: 'embedded server only: comma-separated reference-server faults to switch on (our own tests use it)' },
];

/** The newest release the contract's Versioning table names. */
export const NEWEST_RELEASE = '3.2.0';
/** The first release of this API: the Versioning table counts Mastodon's releases, and a server cannot implement 0.x. */
export const FIRST_RELEASE = '1.0.0';
/** What clients tolerate: a slow answer (a busy server takes more than 10 s at times) is not read as none. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** The longest wait of the command's first requests: a server that answers nothing is told at once, however long the timeout. */
export const PREFLIGHT_TIMEOUT_MS = 10_000;
/**
 * The longest wait for a stream's event: a stream keeps its own bounded window, whatever the requests' timeout. Its
 * opening (the WebSocket handshake, the SSE headers) is a request, bounded by the timeout.
 */
export const STREAM_WINDOW_MS = 10_000;
/** How long a stream waits for an event from its cause: its own window, or the timeout where that is shorter. */
export const streamWindowMs = (config: Pick<Config, 'timeoutMs' | 'streamWindowMs'>): number => config.streamWindowMs ?? Math.min(config.timeoutMs, STREAM_WINDOW_MS);
/** How long a state a move or a deletion left may take to show, and must hold for: a server may apply them in the background. */
export const DEFAULT_SETTLE_MS = 3_000;
/**
 * The settle window on the embedded reference server, which applies every move and deletion before it answers: the
 * window only delays the read that confirms an undo held (the run's longest wait: 1000 ms made the States and
 * transitions group the run's longest, 500 ms left both workers idle together), and the one state that comes back late
 * (the favourite of the fault STATUS-FAV-3:returns) does so half a window after its undo, before any request the
 * server takes after it (Store.later). settle.ts's first pause is shorter still (half the window), so that a state not
 * there yet is read again twice, as on a live server. Its variations model a live server's ways (a deletion that takes
 * a second), so a run with any of them keeps the live default.
 */
export const EMBEDDED_SETTLE_MS = 100;
/**
 * The client's pause before its second read of an upload still processing, against the embedded reference server
 * (media.test.ts; a live server is read after 500 ms, then twice as long each time). That server's processing takes
 * half of this and never ends before a read found it unfinished (routes/media.ts): the second read, this pause after
 * the first, always finds it ended, however loaded the machine, so the run's requests do not move with the load.
 */
export const EMBEDDED_MEDIA_READ_MS = 50;

/** The package's name and version, as package.json gives them. */
export const PACKAGE = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { name: string; version: string };
/** What every request says it is, as real clients do: some servers refuse requests without a User-Agent. */
export const DEFAULT_USER_AGENT = `${PACKAGE.name}/${PACKAGE.version}`;

/** The parts of the exploration (suites/explore.test.ts): inputs on ids, creations, the access matrix's cells, media, streams, registration and OAuth, moves at the same moment. */
export const EXPLORE_PARTS = ['ids', 'creations', 'matrix', 'media', 'streams', 'auth', 'at-once'] as const;
export type ExplorePart = (typeof EXPLORE_PARTS)[number];

export interface Config {
  baseUrl: string;
  streamingUrl: string;
  tokenA?: string;
  tokenB?: string;
  usernameA?: string;
  passwordA?: string;
  usernameB?: string;
  passwordB?: string;
  serverVersion: string;
  whitelistMode: boolean;
  destructive: boolean;
  timeoutMs: number;
  /** The settle window: a state that shows later than this after its move fails; one that turns back within it fails too. */
  settleMs: number;
  /** Most requests in flight against the server at once, across every worker of the run (in-flight.ts). */
  maxInFlight: number;
  /** The seed of the inputs fast-check generates (fc.sample, fc.check): one seed, one set of inputs. */
  seed: number;
  /**
   * The requests the exploration of generated inputs spends beyond the default run's share (--explore N); 0 turns it
   * off; undefined: the default share alone.
   */
  explore?: number;
  /**
   * Our own fault runs only (CONFORMANCE_EXPLORE_PARTS, read by prepareRun, never a setting of the command): the parts
   * of the exploration a run sends, where a fault's line is met in those alone; undefined: every part.
   */
  exploreParts?: readonly ExplorePart[];
  /**
   * Our own fault runs only (CONFORMANCE_STREAM_WINDOW_MS, read by prepareRun): a stream's window apart from the
   * requests' timeout, so that a fault that silences a stream costs seconds while a slow answer (a stream's opening
   * too) is still an answer.
   */
  streamWindowMs?: number;
  /** The count of requests in flight that every worker of the run shares; made by prepareRun. */
  inFlight?: SharedArrayBuffer;
  /** The estimate of the IP access bucket that every worker of the run shares; made by prepareRun (pacing.ts). */
  rateReading?: SharedArrayBuffer;
  /** The turns on the narrow buckets that every worker of the run shares; made by prepareRun (bucket-turns.ts). */
  bucketTurns?: SharedArrayBuffer;
  /** --max-failures N: the failures that stop the run, and their count, which every worker shares (judge/run-stop.ts). */
  stop?: { after: number; failures: SharedArrayBuffer };
  /** The User-Agent header of every request, stream and WebSocket handshake. */
  userAgent: string;
  reportDir: string;
  /** The HAR file the run records every exchange in (--record). */
  recordFile?: string;
  listId?: string;
  /**
   * A's account id where the run knows it before its first group: the embedded server's, or the id the command's
   * preflight read with A's token (CONFORMANCE_PREFLIGHT_ACCOUNT_A, which the command sets): no group asks again.
   */
  accountIdA?: string;
  expectationsFile?: string;
  /** Where the run writes its expectations: the ratchet's baseline. */
  writeExpectationsFile?: string;
  allowUnexpectedPass: boolean;
  /** True when the suite started its own reference server. */
  embedded: boolean;
  faults: string[];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === '' ? undefined : v;
}

function booleanOf(env: Env, name: string): boolean {
  const v = value(env, name)?.toLowerCase();
  if (v === undefined) return false;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function urlOf(env: Env, name: string): string | undefined {
  const v = value(env, name);
  if (v === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ConfigError(`${name} is not a URL: "${v}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an http or https URL, got "${v}"`);
  return url.toString().replace(/\/+$/, '');
}

/** A whole number from `min` to `max`, or `fallback` where it is not given. */
function wholeNumberOf(env: Env, name: string, fallback: number, [min, max]: [number, number], unit: string): number {
  const raw = value(env, name);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be a whole number${unit} from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** Reads and validates the configuration; throws ConfigError with one clear sentence. */
/** Where the command hands the workers A's account id that its preflight read (cli.ts, prepareRun): not a setting. */
export const PREFLIGHT_ACCOUNT_A = 'CONFORMANCE_PREFLIGHT_ACCOUNT_A';

export function configFromEnv(env: Env): Config {
  const baseUrl = urlOf(env, 'CONFORMANCE_BASE_URL');
  const embedded = baseUrl === undefined;
  const timeoutMs = wholeNumberOf(env, 'CONFORMANCE_TIMEOUT_MS', DEFAULT_TIMEOUT_MS, [100, 600_000], ' of milliseconds');
  const settleFallback = embedded && !value(env, 'CONFORMANCE_VARIATIONS') ? EMBEDDED_SETTLE_MS : DEFAULT_SETTLE_MS;
  const settleMs = wholeNumberOf(env, 'CONFORMANCE_SETTLE_MS', settleFallback, [0, 60_000], ' of milliseconds');
  const maxInFlight = wholeNumberOf(env, 'CONFORMANCE_MAX_IN_FLIGHT', DEFAULT_MAX_IN_FLIGHT, [1, 64], ' of requests');
  const seed = wholeNumberOf(env, 'CONFORMANCE_SEED', DEFAULT_SEED, [-(2 ** 31), 2 ** 31 - 1], '');
  const explore = value(env, 'CONFORMANCE_EXPLORE') === undefined ? undefined : wholeNumberOf(env, 'CONFORMANCE_EXPLORE', 0, [0, 10_000], ' of requests');
  const serverVersion = value(env, 'CONFORMANCE_SERVER_VERSION') ?? NEWEST_RELEASE;
  // The Versioning table counts the releases of this API (Mastodon's, from 1.0.0 on); a server's own release
  // number (0.7.1) read as one would skip every check that came with a later release, silently.
  if (!/^\d+\.\d+\.\d+$/.test(serverVersion)) {
    throw new ConfigError(`CONFORMANCE_SERVER_VERSION must be a release number such as 3.2.0 or 4.2.0 (the release of this API the server implements, in Mastodon's numbering), got "${serverVersion}"`);
  }
  if (!releaseAtLeast(serverVersion, FIRST_RELEASE)) {
    throw new ConfigError(
      `CONFORMANCE_SERVER_VERSION=${serverVersion} is no release of this API (Mastodon's numbering starts at ${FIRST_RELEASE}): give the release of this API the server implements (such as 2.7.2 for a server that reports "2.7.2 (compatible; Akkoma 3.13.2)"), not the server's own release number`,
    );
  }
  const userAgent = value(env, 'CONFORMANCE_USER_AGENT') ?? DEFAULT_USER_AGENT;
  // A header value: visible ASCII and spaces (RFC 9110 field-value), nothing that would end the header line.
  if (!/^[\x20-\x7e]+$/.test(userAgent)) throw new ConfigError(`CONFORMANCE_USER_AGENT must be printable ASCII on one line, got "${env.CONFORMANCE_USER_AGENT}"`);
  const tokenA = value(env, 'CONFORMANCE_TOKEN_A');
  const tokenB = value(env, 'CONFORMANCE_TOKEN_B');
  if (!embedded && !tokenA) throw new ConfigError('missing token: CONFORMANCE_TOKEN_A is required when CONFORMANCE_BASE_URL is set');
  if (tokenA && tokenA === tokenB) throw new ConfigError('CONFORMANCE_TOKEN_A and CONFORMANCE_TOKEN_B are the same token: B must be a second, distinct account');
  const faults = (value(env, 'CONFORMANCE_FAULTS') ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  if (faults.length > 0 && !embedded) throw new ConfigError('CONFORMANCE_FAULTS switches faults of the embedded reference server: leave CONFORMANCE_BASE_URL unset to use it');
  return {
    baseUrl: baseUrl ?? '',
    streamingUrl: urlOf(env, 'CONFORMANCE_STREAMING_URL') ?? baseUrl ?? '',
    tokenA,
    tokenB,
    usernameA: value(env, 'CONFORMANCE_USERNAME_A'),
    passwordA: value(env, 'CONFORMANCE_PASSWORD_A'),
    usernameB: value(env, 'CONFORMANCE_USERNAME_B'),
    passwordB: value(env, 'CONFORMANCE_PASSWORD_B'),
    serverVersion,
    whitelistMode: booleanOf(env, 'CONFORMANCE_WHITELIST_MODE'),
    // The embedded default run is the one place where exhausting buckets is always safe.
    destructive: env.CONFORMANCE_DESTRUCTIVE === undefined ? embedded : booleanOf(env, 'CONFORMANCE_DESTRUCTIVE'),
    timeoutMs,
    settleMs,
    maxInFlight,
    seed,
    ...(explore === undefined ? {} : { explore }),
    userAgent,
    reportDir: value(env, 'CONFORMANCE_REPORT_DIR') ?? 'reports',
    recordFile: value(env, 'CONFORMANCE_RECORD'),
    listId: value(env, 'CONFORMANCE_LIST_ID'),
    expectationsFile: value(env, 'CONFORMANCE_EXPECTATIONS'),
    writeExpectationsFile: value(env, 'CONFORMANCE_WRITE_EXPECTATIONS'),
    allowUnexpectedPass: booleanOf(env, 'CONFORMANCE_ALLOW_UNEXPECTED_PASS'),
    embedded,
    faults,
  };
}

/** Compares release numbers such as 2.7.0 and 3.1.3. */
export function releaseAtLeast(release: string, minimum: string): boolean {
  const a = release.split('.').map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** The environment names of the secret settings, for redaction. */
export const SECRET_SETTINGS = SETTINGS.filter((s) => s.kind === 'secret').map((s) => s.env);

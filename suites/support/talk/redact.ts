// Secrets never reach a message, a log line or a report. Known values (configured tokens and passwords,
// client secrets and tokens the run obtains) are replaced by the name of the variable that holds them, so a
// redacted request still reads like a command to paste; anything that looks like a credential but is not
// known is masked by its position (Bearer header, access_token/client_secret/password/code fields). A known value
// too short to replace wherever it appears (it would redact ordinary words) is replaced by its name where a
// credential stands, so that a replay pasted with the variables set still sends it.

/** A value's variable, and for a value the run obtained itself, what it is and how a person gets one. */
interface Known {
  name: string;
  obtained?: string;
}

const known = new Map<string, Known>();
/** The known values, longest first (so a secret that contains another is replaced whole), made once per new secret: a report redacts thousands of strings. */
let longestFirst: [string, string][] | undefined;
/** How many times a secret was registered: a redaction made before a new secret is stale. */
let registered = 0;
export const secretsRegistered = (): number => registered;
/** Values shorter than LONG_ENOUGH (and their encodings), by the name of their variable: replaced only where a credential stands. */
const short = new Map<string, string>();
/** Real tokens and secrets are at least this long; a shorter value could be an ordinary word. */
const LONG_ENOUGH = 6;

/** A value as it stands in text, and as a form body or a query encodes it (a password with a space or an @ in it). */
const spellingsOf = (value: string): string[] => [value, new URLSearchParams({ v: value }).toString().slice(2), encodeURIComponent(value)];

/**
 * Remembers a secret value under a name such as CONFORMANCE_TOKEN_A or CLIENT_SECRET. A value the run obtained
 * itself has `obtained`, what it is and how to get one ("a user token of A with scope ...: POST /oauth/token ..."),
 * shown next to a curl line that names it.
 */
export function registerSecret(value: string | undefined, name: string, obtained?: string): void {
  if (!value) return;
  registered++;
  if (value.length < LONG_ENOUGH) {
    for (const spelling of spellingsOf(value)) short.set(spelling, name);
    return;
  }
  const entry = { name, ...(obtained ? { obtained } : {}) };
  for (const spelling of spellingsOf(value)) known.set(spelling, entry);
  longestFirst = undefined;
}

/** A cookie's value as a variable name: what it is and which cookie (SESSION_COOKIE_MASTODON_SESSION). */
export function cookieVariable(cookieName: string): string {
  const suffix = cookieName.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return suffix ? `SESSION_COOKIE_${suffix}` : 'SESSION_COOKIE';
}

/**
 * "$NAME is what it is: how to get one" for each secret the run obtained that `raw` (unredacted text) holds, in the
 * order they appear: a reader pasting a curl line gets these first, since the run revoked or never exported them.
 */
export function obtainedSecretsIn(raw: string): string[] {
  const found = [...known]
    .filter(([value, entry]) => entry.obtained && raw.includes(value))
    .sort((x, y) => raw.indexOf(x[0]) - raw.indexOf(y[0]))
    .map(([, entry]) => `$${entry.name} is ${entry.obtained}`);
  return [...new Set(found)];
}

const FIELD_NAMES = 'access_token|refresh_token|client_secret|password|code|token';
/** Where a credential stands: what comes before it, the credential, what follows it. */
const PATTERNS: RegExp[] = [
  /(Bearer\s+)(?!\$)([^\s"',]+)()/gi,
  /(Basic\s+)(?!\$)([A-Za-z0-9+/=]+)()/gi,
  new RegExp(`("(?:${FIELD_NAMES})"\\s*:\\s*")(?!\\$)([^"]*)(")`, 'g'),
  new RegExp(`((?:^|[?&\\s])(?:${FIELD_NAMES})=)(?!\\$)([^&\\s"']+)()`, 'g'),
];

export function redact(text: string): string {
  let out = text;
  longestFirst ??= [...known].sort((x, y) => y[0].length - x[0].length).map(([value, { name }]) => [value, `$${name}`]);
  for (const [value, variable] of longestFirst) {
    if (out.includes(value)) out = out.split(value).join(variable);
  }
  // Where a credential stands: a short known value by its name, anything else masked.
  const masked = (_match: string, before: string, value: string, after: string) => `${before}${short.has(value) ? `$${short.get(value)}` : '[redacted]'}${after}`;
  for (const pattern of PATTERNS) out = out.replace(pattern, masked);
  return out;
}

/**
 * Every string of a value (objects and arrays walked through) redacted, but those under the keys `kept`: a report
 * redacts its data before it renders it, so that the masks never reach its markup, and leaves alone the texts that
 * carry no secret (a check's title, whose words "as Bearer token" the positional masks would eat).
 */
export function redactData<T>(value: T, kept: ReadonlySet<string>): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactData(item, kept)) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, kept.has(key) ? inner : redactData(inner, kept)])) as T;
}

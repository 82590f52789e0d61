// Secrets never reach a message, a log line or a report. Known values (configured tokens and passwords,
// client secrets and tokens the run obtains) are replaced by the name of the variable that holds them, so a
// redacted request still reads like a command to paste; anything that looks like a credential but is not
// known is masked by its position (Bearer header, access_token/client_secret/password/code fields).

const known = new Map<string, string>();

/** Remembers a secret value under a name such as CONFORMANCE_TOKEN_A or CLIENT_SECRET. */
export function registerSecret(value: string | undefined, name: string): void {
  // Very short values would redact ordinary words; real tokens and secrets are long.
  if (!value || value.length < 6) return;
  known.set(value, name);
  // As it travels in a form body or a query (a password with a space or an @ in it), it is encoded.
  for (const encoded of [new URLSearchParams({ v: value }).toString().slice(2), encodeURIComponent(value)]) known.set(encoded, name);
}

const FIELD_NAMES = 'access_token|refresh_token|client_secret|password|code|token';
const PATTERNS: [RegExp, string][] = [
  [/(Bearer\s+)(?!\$)[^\s"',]+/gi, '$1[redacted]'],
  [/(Basic\s+)(?!\$)[A-Za-z0-9+/=]+/gi, '$1[redacted]'],
  [new RegExp(`("(?:${FIELD_NAMES})"\\s*:\\s*")(?!\\$)[^"]*(")`, 'g'), '$1[redacted]$2'],
  [new RegExp(`((?:^|[?&\\s])(?:${FIELD_NAMES})=)(?!\\$)[^&\\s"']+`, 'g'), '$1[redacted]'],
];

export function redact(text: string): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const [value, name] of [...known].sort((x, y) => y[0].length - x[0].length)) {
    out = out.split(value).join(`$${name}`);
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

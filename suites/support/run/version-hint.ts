// A hint for CONFORMANCE_SERVER_VERSION, from outside the contract (Versioning: "How a client reads the service's
// own version number: not shown"): Mastodon and its compatible servers report a version at GET /api/v1/instance.
// The CLI prints it beside the configured release for a configured server. It never changes the run: the request
// goes around the suite's HTTP client, so it is neither counted nor judged.
import { FIRST_RELEASE, releaseAtLeast } from '../talk/config.ts';
import { undici } from '../talk/undici.ts';

const MAX_BODY_BYTES = 256 * 1024;
const MAX_SHOWN_CHARS = 120;

/** The server's description, whose rate-limit headers also tell the budget left before a run. */
export const INSTANCE = '/api/v1/instance';

/** The version GET /api/v1/instance reports, or undefined: no such endpoint, no JSON, no answer in time. */
export async function reportedVersion(
  baseUrl: string,
  userAgent: string,
  timeoutMs: number,
  onHeaders: (headers: Record<string, string>) => void = () => undefined,
): Promise<string | undefined> {
  try {
    const response = await (await undici()).request(`${baseUrl}${INSTANCE}`, {
      headers: { accept: 'application/json', 'user-agent': userAgent },
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    // Its rate-limit headers tell how much of the budget is left before the run starts (pacing.ts budgetAtStart).
    onHeaders(Object.fromEntries(Object.entries(response.headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name.toLowerCase(), value]] : []))));
    if (response.statusCode !== 200) {
      await response.body.dump();
      return undefined;
    }
    let text = '';
    for await (const chunk of response.body) {
      text += String(chunk);
      if (text.length > MAX_BODY_BYTES) {
        response.body.destroy();
        return undefined;
      }
    }
    const version = (JSON.parse(text) as { version?: unknown } | null)?.version;
    return typeof version === 'string' ? version.replace(/[^\x20-\x7e]/g, '').slice(0, MAX_SHOWN_CHARS) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One line: what the server reports; the API release it names, where it starts with one and says what it is
 * compatible with (Akkoma reports "2.7.2 (compatible; Akkoma 3.13.2)"); a warning where the number cannot be a
 * release of this API (GoToSocial reports its own, "0.17.0"); and the release the run checks.
 */
export function versionHint(reported: string, configured: string, configuredExplicitly: boolean): string {
  const api = /^\d+\.\d+\.\d+/.exec(reported)?.[0];
  const names = !api
    ? ''
    : !releaseAtLeast(api, FIRST_RELEASE)
      ? `, which cannot be a release of this API (below ${FIRST_RELEASE}): the server's own release number, most likely`
      : api !== reported
        ? `, which names API release ${api}`
        : '';
  const source = configuredExplicitly ? 'CONFORMANCE_SERVER_VERSION' : 'CONFORMANCE_SERVER_VERSION unset: the newest release the contract names';
  return `Hint (outside the contract, does not change the run): GET /api/v1/instance reports version "${reported}"${names}; this run checks release ${configured} (${source}).`;
}

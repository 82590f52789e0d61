// A browser session for the web sign-in: a cookie jar (tough-cookie), redirects followed within the server's own
// address and never to another host, every request through the actor's HTTP client (its deadline, User-Agent,
// counting and redaction). Session cookies are secrets: failure messages show them as $SESSION_COOKIE.
import { Cookie, CookieJar } from 'tough-cookie';
import type { Exchange, HttpClient } from './http.ts';
import type { HtmlForm } from './html-forms.ts';
import { cookieVariable, registerSecret } from './redact.ts';

/** More redirects than this in one navigation is a loop. */
const MAX_REDIRECTS = 10;
const PAGE_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** One navigation: a request and the redirects followed from it. */
export interface Navigation {
  /** The first answer (before any redirect was followed). */
  first: Exchange;
  /** The last answer: a page, or a redirect that was not followed. */
  last: Exchange;
  /** Address of the last answer, for resolving its forms. */
  url: URL;
  /** Where the last answer sends the browser when that was not followed: another host, or where `stopAt` stops. */
  leftFor?: URL;
  /** Why the navigation ended without a page: a redirect loop, a redirect without a location. */
  error?: string;
}

export class Browser {
  private readonly jar = new CookieJar();
  private readonly base: URL;

  /** `stopAt`: addresses not to follow even on the server's own host (the client's redirect_uri). */
  constructor(
    private readonly http: HttpClient,
    private readonly stopAt: (url: URL) => boolean = () => false,
  ) {
    this.base = new URL(http.baseUrl);
  }

  /** GET of a page of the server, by its path and query. */
  open(pathAndQuery: string): Promise<Navigation> {
    return this.navigate('GET', new URL(`${this.http.baseUrl}${pathAndQuery}`));
  }

  /** Submits a form of the server's own (see serves) with these entries, as a browser does: GET forms in the query, POST forms as form data. */
  submit(form: HtmlForm, entries: readonly (readonly [string, string])[]): Promise<Navigation> {
    if (form.method === 'POST') return this.navigate('POST', form.action, entries);
    const target = new URL(form.action);
    target.search = new URLSearchParams(entries.map(([name, value]): [string, string] => [name, value])).toString();
    return this.navigate('GET', target);
  }

  /** Whether an address is the server's own (under its base URL): the browser requests no other. */
  serves(url: URL): boolean {
    return this.pathOf(url) !== undefined;
  }

  /** The path and query of an address under the base URL; undefined for any other address. */
  private pathOf(url: URL): string | undefined {
    const base = this.http.baseUrl;
    const href = url.href.split('#')[0] as string;
    return url.origin === this.base.origin && href.startsWith(base) ? href.slice(base.length) || '/' : undefined;
  }

  private async navigate(method: string, url: URL, entries?: readonly (readonly [string, string])[]): Promise<Navigation> {
    let first: Exchange | undefined;
    for (let redirects = 0; ; redirects++) {
      const exchange = await this.request(method, url, entries);
      first ??= exchange;
      const status = exchange.status ?? 0;
      if (status < 300 || status >= 400 || status === 304) return { first, last: exchange, url };
      const location = exchange.headers.location;
      if (!location) return { first, last: exchange, url, error: `HTTP ${status} without a Location header` };
      const target = new URL(location, url);
      if (this.stopAt(target) || !this.serves(target)) return { first, last: exchange, url, leftFor: target };
      if (redirects >= MAX_REDIRECTS) return { first, last: exchange, url, error: `more than ${MAX_REDIRECTS} redirects` };
      // 307 and 308 repeat the request as it was; the others turn it into a GET of the new address.
      if (status !== 307 && status !== 308) {
        method = 'GET';
        entries = undefined;
      }
      url = target;
    }
  }

  private async request(method: string, url: URL, entries?: readonly (readonly [string, string])[]): Promise<Exchange> {
    const cookie = await this.jar.getCookieString(url.href);
    const exchange = await this.http.send(method, this.pathOf(url) as string, {
      accept: PAGE_ACCEPT,
      token: null,
      ...(cookie ? { headers: { cookie } } : {}),
      ...(entries ? { formEntries: entries } : {}),
    });
    for (const line of exchange.setCookies ?? []) {
      const parsed = Cookie.parse(line);
      if (!parsed) continue;
      registerSecret(parsed.value, cookieVariable(parsed.key), `the cookie ${parsed.key} the server set in the run's web sign-in, which the run never exported: sign in at ${url.origin} in a browser and copy it`);
      await this.jar.setCookie(parsed, url.href, { ignoreError: true });
    }
    return exchange;
  }
}

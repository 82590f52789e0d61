// The authorization code flow (Authentication rule 1: end users) driven as a person drives it in a browser:
// GET /oauth/authorize, sign in where the server asks for it (Mastodon's and GoToSocial's sign-in are a plain
// form behind a redirect and a session cookie, with hidden fields such as a CSRF token), approve the
// authorization form, and read the code from the redirect to redirect_uri or from the out-of-band page.
// Redirects to other hosts are not followed; passwords, cookies and codes appear in output only as the names
// of their variables.
import { OOB, type Actor, type Application } from './actors.ts';
import { Browser, type Navigation } from './browser.ts';
import type { RootCause } from './clauses.ts';
import type { Exchange } from './http.ts';
import { codeOnPage, entriesOf, formsOf, isTextField, methodOverrideOf, type FormField, type HtmlForm } from './html-forms.ts';
import { causeOf } from './preconditions.ts';
import { redact, registerSecret } from './redact.ts';

export interface AuthorizationCode {
  code?: string;
  /** Why there is no code: what was missing or what the server answered. Empty with a code. */
  reason: string;
  /** The answer to GET /oauth/authorize: the authorization form, or a redirect to the sign-in page. */
  form?: Exchange;
  /** The answer the approval ended with: the redirect to redirect_uri, or the page that shows the code. */
  approval?: Exchange;
  /**
   * Set when the server, not the suite's reach, broke the flow: no authorization form (OAUTH-AUTHORIZE-1), an
   * approval without a code (OAUTH-AUTHORIZE-2 or -3), or account A's credentials refused (outside the contract).
   * Without it, `reason` says what the suite could not do (a skip).
   */
  cause?: RootCause;
}

/** Forms submitted in one flow at most: a sign-in, a second step the suite cannot fill is refused before this. */
const MAX_FORMS = 4;
const AUTHORIZE_PATH = '/oauth/authorize';

/** The field a person types their login into: the one named for it, else the first text field. */
function loginFieldOf(form: HtmlForm): FormField | undefined {
  const text = form.fields.filter(isTextField);
  const named = (f: FormField) => /username|email/.test(f.autocomplete) || /user|email|login|acct|account/i.test(f.name);
  return text.find(named) ?? text[0];
}

/** A sign-in form: one password field (a sign-up form has two) and a field for the login. */
function signInFormOf(forms: readonly HtmlForm[]): HtmlForm | undefined {
  return forms.find((form) => form.fields.filter((f) => f.type === 'password').length === 1 && loginFieldOf(form) !== undefined);
}

/** The approval form: posted, not a deny form (Rails' _method=delete), and asking for nothing the suite would have to type. */
function approvalFormOf(forms: readonly HtmlForm[]): HtmlForm | undefined {
  const approvals = forms.filter(
    (form) => form.method === 'POST' && (methodOverrideOf(form) ?? 'post') === 'post' && !form.fields.some((f) => f.type === 'password' || (isTextField(f) && f.value === '')),
  );
  return approvals.find((form) => form.action.pathname.endsWith(AUTHORIZE_PATH)) ?? approvals[0];
}

const answerOf = (exchange: Exchange) => (exchange.error ? `no answer: ${exchange.error}` : `HTTP ${exchange.status}`);

/** The code the navigation ended with: in the redirect to redirect_uri, or on the page. */
function codeOf(navigation: Navigation): { code?: string; refusal?: string } {
  if (navigation.leftFor) {
    const { searchParams } = navigation.leftFor;
    const error = searchParams.get('error');
    return { code: searchParams.get('code') ?? undefined, ...(error ? { refusal: `the server answered error=${error}` } : {}) };
  }
  const isHtml = /html/i.test(navigation.last.headers['content-type'] ?? '');
  return { code: navigation.last.status === 200 && isHtml ? codeOnPage(navigation.last.text) : undefined };
}

/** What a navigation that gave neither a form to fill nor a code ended with. */
function dead(navigation: Navigation, origin: string, redirectUri: string): string {
  const { last, leftFor, error } = navigation;
  if (error) return `${last.method} ${last.path.split('?')[0]} answered ${error}`;
  if (leftFor && !leftFor.href.startsWith(redirectUri)) {
    return `the server sent the browser to ${leftFor.origin}${leftFor.pathname}; the suite follows redirects within ${origin} only`;
  }
  return `no sign-in or authorization form at ${last.path.split('?')[0]} (${answerOf(last)})`;
}

/**
 * An authorization code for account A (CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A), by signing in and
 * approving the authorization as a person would. `reason` says why there is none; `form` and `approval` are the
 * answers the OAuth checks judge.
 */
export async function authorizationCode(anon: Actor, app: Application, scope: string, redirectUri = OOB): Promise<AuthorizationCode> {
  const authorize = `${AUTHORIZE_PATH}?${new URLSearchParams({ client_id: app.client_id, redirect_uri: redirectUri, response_type: 'code', scope })}`;
  const result = await signInAndApprove(anon, authorize, redirectUri);
  registerSecret(result.code, 'AUTHORIZATION_CODE', `an authorization code for A, good once and used by the run: sign in as A and approve GET ${authorize}`);
  return result;
}

/** The flow itself, from the authorization URL to the code or the reason there is none. */
async function signInAndApprove(anon: Actor, authorize: string, redirectUri: string): Promise<AuthorizationCode> {
  const { usernameA, passwordA } = anon.config;
  if (!usernameA || !passwordA) return { reason: 'needs CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A to sign in and approve the authorization form' };
  registerSecret(passwordA, 'CONFORMANCE_PASSWORD_A');
  const browser = new Browser(anon.http, (url) => redirectUri !== OOB && url.href.startsWith(redirectUri));
  const origin = new URL(anon.config.baseUrl).origin;
  let navigation = await browser.open(authorize);
  const form = navigation.first;
  let signedIn = false;

  for (let submitted = 0; submitted <= MAX_FORMS; submitted++) {
    const { code, refusal } = codeOf(navigation);
    if (code) return { code, reason: '', form, approval: navigation.last };
    if (refusal || navigation.leftFor?.href.startsWith(redirectUri)) {
      const reason = redact(refusal ?? 'the redirect to redirect_uri carries no code');
      return { reason, cause: causeOf('OAUTH-AUTHORIZE-2', reason, navigation.last), form, approval: navigation.last };
    }
    // A refused sign-in comes back as the form again, often with a 4xx: every HTML answer is read for forms.
    const isPage = !navigation.leftFor && /html/i.test(navigation.last.headers['content-type'] ?? '');
    const forms = isPage ? formsOf(navigation.last.text, navigation.url) : [];
    const signIn = signInFormOf(forms);
    if (signIn) {
      if (signedIn) {
        const reason = `signing in as CONFORMANCE_USERNAME_A was refused: the sign-in form came back (${answerOf(navigation.last)})`;
        return { reason, cause: causeOf(undefined, reason, navigation.last), form };
      }
      signedIn = true;
      const values = new Map([
        [(loginFieldOf(signIn) as FormField).name, usernameA],
        [signIn.fields.find((f) => f.type === 'password')?.name as string, passwordA],
      ]);
      navigation = await browser.submit(signIn, entriesOf(signIn, values));
      // A form that signs in and approves at once (the reference server's own) ends the flow here.
      if (signIn.action.pathname.endsWith(AUTHORIZE_PATH)) return approved(navigation, form, 'the authorization form', redirectUri);
      continue;
    }
    const approval = approvalFormOf(forms);
    if (approval) {
      navigation = await browser.submit(approval, entriesOf(approval));
      return approved(navigation, form, 'the approval', redirectUri);
    }
    if (forms.length > 0 && signedIn) {
      return { reason: `after signing in, ${navigation.last.path.split('?')[0]} asks for more than a username and password (two-factor authentication?); the suite cannot fill it`, form };
    }
    const reason = dead(navigation, origin, redirectUri);
    // No form at all where the contract shows one: the authorization operation's own failure.
    const noForm = form.error !== undefined || (form.status !== undefined && form.status >= 400);
    return { reason, ...(noForm ? { cause: causeOf('OAUTH-AUTHORIZE-1', `GET /oauth/authorize answered ${answerOf(form)}`, form) } : {}), form };
  }
  return { reason: `no code after ${MAX_FORMS} forms`, form };
}

/**
 * The end of the flow: the navigation that followed the approval gives the code, or says why not. An approval the
 * server accepted without a code is OAUTH-AUTHORIZE-3's (out of band) or -2's (redirect); one it refused is account
 * A's credentials or the form, outside the contract.
 */
function approved(navigation: Navigation, form: Exchange, what: string, redirectUri: string): AuthorizationCode {
  const { code, refusal } = codeOf(navigation);
  if (code) return { code, reason: '', form, approval: navigation.last };
  const reason = redact(`${what} gave no code (${refusal ?? answerOf(navigation.last)})`);
  const accepted = navigation.last.status !== undefined && navigation.last.status < 400;
  const clause = accepted ? (redirectUri === OOB ? 'OAUTH-AUTHORIZE-3' : 'OAUTH-AUTHORIZE-2') : undefined;
  return { reason, cause: causeOf(clause, reason, navigation.last), form, approval: navigation.last };
}

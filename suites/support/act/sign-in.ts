// The authorization code flow (Authentication rule 1: end users) driven as a person drives it in a browser:
// GET /oauth/authorize, sign in where the server asks for it (Mastodon's and GoToSocial's sign-in are a plain
// form behind a redirect and a session cookie, with hidden fields such as a CSRF token; a small server's is the
// authorization page's own form, posting wherever it likes), pick the account whose login was given where the server
// asks which, press the approving button of the authorization form, and read the code from the redirect to
// redirect_uri or from the page the sign-in or the approval answered with.
// Redirects to other hosts are not followed, nor forms submitted there; passwords, cookies and codes appear in
// output only as the names of their variables.
import { createdObject, type Exchange, jsonOf } from '../talk/http.ts';
import { OOB, type Application } from './applications.ts';
import type { Actor } from './actors.ts';
import { Browser, type Navigation } from '../talk/browser.ts';
import { type RootCause, causeOf } from './steps.ts';
import { rememberAuthorization } from './ledger.ts';
import { codeInAnswer, entriesOf, formsOf, isTextField, methodOverrideOf, type FormField, type HtmlForm, type SubmitButton } from '../talk/html-forms.ts';
import { redact, registerSecret } from '../talk/redact.ts';

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
   * approval without a code (OAUTH-AUTHORIZE-2 or -3), or account A's credentials or the scopes refused (outside the
   * contract). Without it, `reason` says what the suite could not do (a skip).
   */
  cause?: RootCause;
}

/** Forms submitted in one flow at most: a sign-in, an account chooser, an approval, and one to spare. */
const MAX_FORMS = 4;
const AUTHORIZE_PATH = '/oauth/authorize';
/** What the buttons of a person's choice say, in the words servers use. */
const APPROVES = /\b(allow|authori[sz]e|approve|grant)\b/i;
const DENIES = /\b(deny|cancel|reject|decline|refuse|abort|no|not|don'?t)\b/i;
const LEAVES = /\b(sign|log)\s*out\b|\blogout\b|\bswitch\b/i;

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

const wordsOf = (button: SubmitButton) => `${button.label} ${button.value} ${button.name ?? ''}`;

/**
 * The button a person presses to approve: one that says so (Allow, Authorize...), else one that neither denies nor
 * leaves; never Deny or Cancel, wherever it stands among the buttons. A form without buttons is sent as Enter sends it.
 */
function approvingButtonOf(form: HtmlForm): { button?: SubmitButton } | undefined {
  if (form.buttons.length === 0) return {};
  const neutral = form.buttons.filter((b) => !DENIES.test(wordsOf(b)) && !LEAVES.test(wordsOf(b)));
  const button = neutral.find((b) => APPROVES.test(wordsOf(b))) ?? neutral[0];
  return button ? { button } : undefined;
}

/** Whether a form asks for something the suite would have to type: a password, an empty text field (a second factor). */
const asksToType = (form: HtmlForm) => form.fields.some((f) => f.type === 'password' || (isTextField(f) && f.value === ''));

/**
 * The approval: a posted form (not a deny form: Rails' _method=delete) that asks for nothing the suite would have to
 * type, with a button that approves; the one that posts to /oauth/authorize first.
 */
function approvalOf(forms: readonly HtmlForm[]): { form: HtmlForm; button?: SubmitButton } | undefined {
  const approvals = forms.flatMap((form) => {
    const pressed = form.method === 'POST' && (methodOverrideOf(form) ?? 'post') === 'post' && !asksToType(form) ? approvingButtonOf(form) : undefined;
    return pressed ? [{ form, ...pressed }] : [];
  });
  return approvals.find(({ form }) => form.action.pathname.endsWith(AUTHORIZE_PATH)) ?? approvals[0];
}

/**
 * Whether a label names account A by one of `names` (its login, its username): `alice`, `@alice`,
 * `@alice@social.example`, or the login itself.
 */
function namesAccount(label: string, names: readonly string[]): boolean {
  const words = label
    .toLowerCase()
    .split(/[\s()<>,;:"']+/)
    .map((word) => word.replace(/^@/, ''));
  return names.some((name) => {
    const wanted = name.toLowerCase();
    return words.some((word) => word === wanted || word.split('@')[0] === wanted);
  });
}

/** The accounts a form offers to choose among (an account chooser): its choices whose label names an account (`@bob`). */
const offeredAccounts = (forms: readonly HtmlForm[]) => forms.flatMap((form) => form.choices.map((c) => c.label).filter((label) => /(^|\s)@\w/.test(label)));

/**
 * An account chooser: a form that offers account A (by `names`, its login and username) among others, as a radio,
 * an option or a button of its own. What to send: that choice, pressing the approving button where the chooser is
 * also the approval, else the account's button or the form's first that does not deny.
 */
function accountChoiceOf(forms: readonly HtmlForm[], names: readonly string[]): { form: HtmlForm; values: Map<string, string>; button?: SubmitButton; approves: boolean } | undefined {
  for (const form of forms.filter((f) => (methodOverrideOf(f) ?? 'post') === 'post')) {
    const choice = form.choices.find((c) => namesAccount(c.label, names) || namesAccount(c.value, names));
    const accountButton = form.buttons.find((b) => !LEAVES.test(wordsOf(b)) && namesAccount(`${b.label} ${b.value}`, names));
    if (!choice && !accountButton) continue;
    const values = new Map(choice ? [[choice.name, choice.value]] : []);
    const approving = approvingButtonOf(form);
    // A chooser whose buttons all deny or leave offers no way on.
    if (!accountButton && !approving) continue;
    const approves = approving?.button !== undefined && APPROVES.test(wordsOf(approving.button)) && !accountButton;
    return { form, values, button: accountButton ?? approving?.button, approves };
  }
  return undefined;
}

const answerOf = (exchange: Exchange) => (exchange.error ? `no answer: ${exchange.error}` : `HTTP ${exchange.status}`);
const isHtml = (exchange: Exchange) => /html/i.test(exchange.headers['content-type'] ?? '');
const isAuthorizePath = (url: URL) => url.pathname.endsWith(AUTHORIZE_PATH);

/** The forms of the page a navigation ended on; none for a redirect not followed or an answer that is no page. */
const formsAt = (navigation: Navigation) => (!navigation.leftFor && isHtml(navigation.last) ? formsOf(navigation.last.text, navigation.url) : []);

/**
 * The code, or the refusal, of the redirect to redirect_uri: a channel that cannot be mistaken for something else.
 * The out-of-band URI has no redirect.
 */
function redirectCodeOf(navigation: Navigation, redirectUri: string): { code?: string; refusal?: string } {
  const target = navigation.leftFor;
  if (!target || redirectUri === OOB || !target.href.startsWith(redirectUri)) return {};
  const error = target.searchParams.get('error');
  return { code: target.searchParams.get('code') ?? undefined, refusal: error ? `the server answered error=${error}` : 'the redirect to redirect_uri carries no code' };
}

/**
 * The code a sign-in or an approval answered with: in the redirect to redirect_uri, or on the page it led to (in an
 * element made to show it, or as the page's whole text, HTML or plain), unless that page still asks for something:
 * the authorization form (a consent page listing the scopes as `<code>read</code>` shows no code), an account
 * chooser, a form to type into (a second factor).
 */
function shownCodeOf(navigation: Navigation, scopes: readonly string[], redirectUri: string): { code?: string; refusal?: string } {
  if (navigation.leftFor) return redirectCodeOf(navigation, redirectUri);
  const { last } = navigation;
  if (last.status !== 200) return {};
  const forms = formsAt(navigation);
  const stillAsks = approvalOf(forms) !== undefined || forms.some((form) => isAuthorizePath(form.action) || asksToType(form));
  return { code: stillAsks ? undefined : codeInAnswer(last.headers['content-type'], last.text, scopes) };
}

/** The error code of an OAuth refusal (RFC 6749 5.2), from a JSON body or a redirect. */
function oauthErrorOf(exchange: Exchange, navigation?: Navigation): string | undefined {
  const json = jsonOf(exchange);
  const error = json.ok ? (json.value as { error?: unknown } | null)?.error : undefined;
  return typeof error === 'string' ? error : (navigation?.leftFor?.searchParams.get('error') ?? undefined);
}

/**
 * A refusal of the scopes asked for: whether a server grants narrow scopes beyond its registration is not shown
 * (Authentication rule 12), so it is a cause outside the contract.
 */
const scopeRefused = (error: string | undefined, scope: string, exchange: Exchange): RootCause | undefined =>
  error === 'invalid_scope' ? causeOf(undefined, `the authorization refused the scopes "${scope}" (invalid_scope)`, exchange) : undefined;

/** What a navigation that gave neither a form to fill nor a code ended with; `elsewhere`: its page's forms that post to another host. */
function dead(navigation: Navigation, origin: string, redirectUri: string, elsewhere: readonly HtmlForm[]): string {
  const { last, leftFor, error } = navigation;
  if (error) return `${last.method} ${last.path.split('?')[0]} answered ${error}`;
  if (leftFor && !leftFor.href.startsWith(redirectUri)) {
    return `the server sent the browser to ${leftFor.origin}${leftFor.pathname}; the suite follows redirects within ${origin} only`;
  }
  const targets = [...new Set(elsewhere.map((form) => `${form.action.origin}${form.action.pathname}`))];
  const posted = targets.length > 0 ? `; its forms post to ${targets.join(', ')}, and the suite submits forms within ${origin} only` : '';
  return `no sign-in or authorization form at ${last.path.split('?')[0]} (${answerOf(last)})${posted}`;
}

/**
 * A person's browser for the authorization code flow of account A (CONFORMANCE_USERNAME_A and
 * CONFORMANCE_PASSWORD_A): one cookie jar, so that A signs in once for all the codes it gives. Flows take turns,
 * as a person approves one authorization after another.
 */
export class WebSignIn {
  private readonly browser: Browser;
  /** The redirect_uri of the flow under way: the browser stops there, as the client receives it. */
  private redirectUri = OOB;
  private turn: Promise<unknown> = Promise.resolve();
  /** Account A's username, asked once of verify_credentials with A's token where a chooser does not name A's login. */
  private usernameOfA?: Promise<string | undefined>;
  /**
   * A's sign-in as the server refused it: the flows after it end so at once. The same password sent again is refused
   * again, and a server may lock an account, or throttle an address, after a few refusals.
   */
  private signInRefused?: AuthorizationCode;

  constructor(private readonly anon: Actor) {
    this.browser = new Browser(anon.http, (url) => this.redirectUri !== OOB && url.href.startsWith(this.redirectUri));
  }

  /** An authorization code for `scope`; `reason` says why there is none; `form` and `approval` are the answers the OAuth checks judge. */
  code(app: Application, scope: string, redirectUri = OOB): Promise<AuthorizationCode> {
    const flow = this.turn.then(() => {
      this.redirectUri = redirectUri;
      return this.flow(app, scope, redirectUri);
    });
    this.turn = flow.catch(() => undefined);
    return flow;
  }

  private async flow(app: Application, scope: string, redirectUri: string): Promise<AuthorizationCode> {
    const { usernameA, passwordA, baseUrl } = this.anon.config;
    if (!usernameA || !passwordA) return { reason: 'needs CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A to sign in and approve the authorization form' };
    if (this.signInRefused) return this.signInRefused;
    registerSecret(passwordA, 'CONFORMANCE_PASSWORD_A');
    const scopes = scope.split(' ');
    const query = new URLSearchParams({ client_id: app.client_id, redirect_uri: redirectUri, response_type: 'code', scope });
    let navigation = await this.browser.open(`${AUTHORIZE_PATH}?${query}`);
    const form = navigation.first;
    let signedIn = false;
    let chosen = false;
    /**
     * What approved, once the suite pressed an approving button or signed in on the authorization page: a flow that
     * then ends without a code is the server's failure to give one.
     */
    let approval: string | undefined;
    const end = (what: string, refusal?: string) => endWithoutCode(navigation, form, `${what} gave no code (${refusal ?? answerOf(navigation.last)})`, scope, redirectUri);

    for (let submitted = 0; submitted <= MAX_FORMS; submitted++) {
      // Before any sign-in or approval, only a redirect to redirect_uri gives a code (a server may skip the form it was
      // shown before); after one, what it answered may show the code, wherever its form posted.
      const { code, refusal } = approval || signedIn ? shownCodeOf(navigation, scopes, redirectUri) : redirectCodeOf(navigation, redirectUri);
      if (code) {
        registerSecret(code, 'AUTHORIZATION_CODE', `an authorization code for A, good once and used by the run: sign in as A and approve GET ${AUTHORIZE_PATH}?${query}`);
        this.remember(app, code, scope, redirectUri, navigation.last);
        return { code, reason: '', form, approval: navigation.last };
      }
      if (refusal) return end(approval ?? 'the authorization', refusal);
      if (submitted === MAX_FORMS) break;
      // A refused sign-in comes back as the form again, often with a 4xx: every HTML answer is read for forms. A form
      // that posts to another host is never submitted: A's password and session stay with the server under test.
      const pageForms = formsAt(navigation);
      const forms = pageForms.filter((f) => this.browser.serves(f.action));
      const signIn = signInFormOf(forms);
      if (signIn) {
        if (signedIn) {
          const reason = `signing in as CONFORMANCE_USERNAME_A was refused: the sign-in form came back (${answerOf(navigation.last)})`;
          this.signInRefused = { reason, cause: causeOf(undefined, reason, navigation.last), form };
          return this.signInRefused;
        }
        signedIn = true;
        const values = new Map([
          [(loginFieldOf(signIn) as FormField).name, usernameA],
          [signIn.fields.find((f) => f.type === 'password')?.name as string, passwordA],
        ]);
        // A form of the authorization page, or one posting to it, signs in and approves at once (the reference
        // server's own; a small server's posting to a path of its own).
        if (isAuthorizePath(navigation.url) || isAuthorizePath(signIn.action)) approval = 'the authorization form';
        navigation = await this.browser.submit(signIn, entriesOf(signIn, values, approvingButtonOf(signIn)?.button));
        continue;
      }
      const offered = chosen ? [] : offeredAccounts(forms);
      const choice = chosen ? undefined : (accountChoiceOf(forms, [usernameA]) ?? (offered.length > 0 ? accountChoiceOf(forms, await this.namesOfA()) : undefined));
      if (offered.length > 0 && !choice) {
        const names = await this.namesOfA();
        const reason = `the account chooser at ${navigation.last.path.split('?')[0]} does not offer account A (${names.map((n) => `"${n}"`).join(' or ')}): it offers ${offered.join(', ')}`;
        return { reason, form };
      }
      if (choice) {
        chosen = true;
        navigation = await this.browser.submit(choice.form, entriesOf(choice.form, choice.values, choice.button));
        if (choice.approves) approval = 'the approval';
        continue;
      }
      // What looked like an approval (a chooser that approves as well) may lead to the authorization form: MAX_FORMS bounds it.
      const approvalForm = approvalOf(forms);
      if (approvalForm) {
        navigation = await this.browser.submit(approvalForm.form, entriesOf(approvalForm.form, new Map(), approvalForm.button));
        approval = 'the approval';
        continue;
      }
      // A page to type into after the sign-in (a second factor) is no failure of the approval, wherever it came.
      if (signedIn && (forms.some(asksToType) || (forms.length > 0 && !approval))) {
        return { reason: `after signing in, ${navigation.last.path.split('?')[0]} asks for more than a username and password (two-factor authentication?); the suite cannot fill it`, form };
      }
      if (approval) return end(approval);
      const reason = dead(navigation, new URL(baseUrl).origin, redirectUri, pageForms.filter((f) => !forms.includes(f)));
      // No form at all where the contract shows one: the authorization operation's own failure, unless it refused the scopes.
      const noForm = form.error !== undefined || (form.status !== undefined && form.status >= 400);
      const cause = scopeRefused(oauthErrorOf(form), scope, form) ?? (noForm ? causeOf('OAUTH-AUTHORIZE-1', `GET /oauth/authorize answered ${answerOf(form)}`, form) : undefined);
      return { reason, ...(cause ? { cause } : {}), form };
    }
    return { reason: `no code after ${MAX_FORMS} forms`, form };
  }

  /** The names account A goes by: the login given, and its username, from verify_credentials with A's token (asked once). */
  private async namesOfA(): Promise<string[]> {
    const { tokenA, usernameA } = this.anon.config;
    this.usernameOfA ??= this.anon
      .withToken('A', tokenA as string)
      .get('/api/v1/accounts/verify_credentials', { outsideContract: true })
      .then((exchange) => {
        const username = createdObject(exchange)?.username;
        return typeof username === 'string' ? username : undefined;
      });
    const username = await this.usernameOfA;
    return [usernameA as string, ...(username ? [username] : [])];
  }

  /** Every code goes on the ledger: exchanged by the run or at its end, its token revoked, or listed as a live authorization. */
  private remember(app: Application, code: string, scope: string, redirectUri: string, shownBy: Exchange): void {
    const credentials = { client_id: app.client_id, client_secret: app.client_secret };
    rememberAuthorization(code, { scope, owner: 'A', application: app.client_id }, {
      exchange: () => this.anon.post('/oauth/token', { ...credentials, grant_type: 'authorization_code', code, redirect_uri: redirectUri, scope }),
      revoke: (token) => this.anon.post('/oauth/revoke', { ...credentials, token }),
    }, shownBy);
  }
}

/**
 * A flow that ended without a code. An approval the server accepted (a page, or a redirect to redirect_uri) without
 * a code is OAUTH-AUTHORIZE-3's (out of band) or -2's (redirect); one it refused is account A's credentials or the
 * form, outside the contract, and a refusal of the scopes is outside the contract too (rule 12).
 */
function endWithoutCode(navigation: Navigation, form: Exchange, said: string, scope: string, redirectUri: string): AuthorizationCode {
  const { last } = navigation;
  const accepted = last.status !== undefined && last.status < 400;
  // A page the suite reads no code on may still show one in a way it does not know: its limit, said as such.
  const unread =
    accepted && redirectUri === OOB && !navigation.leftFor
      ? `; the suite reads a code from a read-only input, a <code> or <pre>, or an answer (HTML or plain text) that is the code alone: if the page shows one otherwise, that is a limit of the suite`
      : '';
  const reason = redact(`${said}${unread}`);
  const clause = accepted ? (redirectUri === OOB ? 'OAUTH-AUTHORIZE-3' : 'OAUTH-AUTHORIZE-2') : undefined;
  const cause = scopeRefused(oauthErrorOf(last, navigation), scope, last) ?? causeOf(clause, reason, last);
  return { reason, cause, form, approval: last };
}

/** The browsers of this file's accounts: each signs in once for every approval, as a person approves one after another. */
const browsers = new WeakMap<Actor, WebSignIn>();

/** The browser in which account A (`actor`) signs in and approves: one per account, its requests its tokenless ones (Actor.signingIn). */
export function webSignInOf(actor: Actor): WebSignIn {
  const browser = browsers.get(actor) ?? new WebSignIn(actor.signingIn());
  browsers.set(actor, browser);
  return browser;
}

/** An authorization code for account A in a browser of its own (see WebSignIn). */
export function authorizationCode(anon: Actor, app: Application, scope: string, redirectUri = OOB): Promise<AuthorizationCode> {
  return new WebSignIn(anon).code(app, scope, redirectUri);
}

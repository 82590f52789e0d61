// The forms and codes of real servers' pages, as Mastodon and GoToSocial render them (shapes from their templates).
import { describe, expect, it } from 'vitest';
import { codeAsText, codeInAnswer, codeOnPage, entriesOf, formsOf, isTextField, methodOverrideOf } from './html-forms.ts';

const PAGE = new URL('https://social.example/auth/sign_in');

describe('HTML forms', () => {
  it("should read Mastodon's sign-in form: hidden CSRF token kept, unchecked box left out, the button as submitter", () => {
    const html = `<!DOCTYPE html><html><body><div class="form-container">
      <form class="simple_form new_user" id="new_user" novalidate action="/auth/sign_in" accept-charset="UTF-8" method="post">
        <input type="hidden" name="authenticity_token" value="csrf-123" autocomplete="off">
        <div class="input email"><input autofocus class="string email required" type="email" name="user[email]" id="user_email" aria-label="E-mail address"></div>
        <div class="input password"><input class="password required" type="password" name="user[password]" id="user_password" autocomplete="current-password"></div>
        <input name="user[remember_me]" type="hidden" value="0"><input type="checkbox" value="1" name="user[remember_me]" id="user_remember_me">
        <div class="actions"><button name="button" type="submit" class="btn">Log in</button></div>
      </form></div></body></html>`;
    const [form] = formsOf(html, PAGE);
    expect(form?.action.href).toBe('https://social.example/auth/sign_in');
    expect(form?.method).toBe('POST');
    expect(form?.fields.filter(isTextField).map((f) => f.name)).toEqual(['user[email]']);
    const entries = entriesOf(form!, new Map([['user[email]', 'a@example'], ['user[password]', 'pw']]));
    expect(entries).toEqual([
      ['authenticity_token', 'csrf-123'],
      ['user[email]', 'a@example'],
      ['user[password]', 'pw'],
      ['user[remember_me]', '0'],
      ['button', ''],
    ]);
  });

  it("should tell Mastodon's approve form from its deny form (Rails' _method=delete)", () => {
    const fields = '<input type="hidden" name="authenticity_token" value="t"><input type="hidden" name="client_id" value="c"><input type="hidden" name="scope" value="read write">';
    const html = `<form action="/oauth/authorize" method="post">${fields}<button name="button" type="submit">Authorize</button></form>
      <form action="/oauth/authorize" method="post"><input type="hidden" name="_method" value="delete">${fields}<button name="button" type="submit">Deny</button></form>`;
    const forms = formsOf(html, new URL('https://social.example/oauth/authorize?client_id=c'));
    expect(forms.map(methodOverrideOf)).toEqual([undefined, 'delete']);
    expect(entriesOf(forms[0]!)).toEqual([['authenticity_token', 't'], ['client_id', 'c'], ['scope', 'read write'], ['button', '']]);
  });

  it("should read GoToSocial's sign-in form (username typed as email) and its button-only authorization form", () => {
    const signIn = formsOf(
      `<form action="/auth/sign_in" method="POST"><input type="email" class="form-control" name="username" required><input type="password" name="password" required><button type="submit">Login</button></form>`,
      PAGE,
    )[0];
    expect(signIn?.fields.map((f) => [f.name, f.type])).toEqual([['username', 'email'], ['password', 'password']]);
    expect(signIn?.buttons).toEqual([{ value: '', label: 'Login' }]);
    const authorize = formsOf('<form action="/oauth/authorize" method="POST"><p><button type="submit">Allow</button></p></form>', PAGE)[0];
    expect(authorize && entriesOf(authorize)).toEqual([]);
  });

  it('should list every button with what it says, and press the one asked for, whatever its place', () => {
    const [form] = formsOf(
      `<form action="/oauth/authorize" method="post"><input type="hidden" name="client_id" value="c">
        <label><input type="checkbox" name="scopes[]" value="read" checked> read</label><input type="checkbox" name="scopes[]" value="push">
        <select name="expires_in"><option value="86400">a day</option><option value="0" selected>never</option></select>
        <button type="submit" name="decision" value="deny">Deny</button><input type="submit" name="decision" value="Allow"></form>`,
      PAGE,
    );
    expect(form?.buttons).toEqual([
      { name: 'decision', value: 'deny', label: 'Deny' },
      { name: 'decision', value: 'Allow', label: 'Allow' },
    ]);
    expect(entriesOf(form!, new Map(), form?.buttons[1])).toEqual([
      ['client_id', 'c'],
      ['scopes[]', 'read'],
      ['expires_in', '0'],
      ['decision', 'Allow'],
    ]);
  });

  it('should read the choices of radio groups and selects with their labels, and send a choice where none was checked', () => {
    const [form] = formsOf(
      `<form method="post"><label><input type="radio" name="account" value="2"> @bob</label><input type="radio" id="a1" name="account" value="1"><label for="a1">@alice</label>
        <select name="lang"><option>en</option><option value="de">Deutsch</option></select><button>Continue</button></form>`,
      PAGE,
    );
    expect(form?.choices).toEqual([
      { name: 'account', value: '2', label: '@bob' },
      { name: 'account', value: '1', label: '@alice' },
      { name: 'lang', value: 'en', label: 'en' },
      { name: 'lang', value: 'de', label: 'Deutsch' },
    ]);
    expect(entriesOf(form!, new Map([['account', '1']]))).toEqual([
      ['lang', 'en'],
      ['account', '1'],
    ]);
  });

  it("should resolve a form's action as a browser does: relative to the page or its <base href>, absolute, or the page itself", () => {
    const page = new URL('http://127.0.0.1:8080/oauth/authorize?client_id=c#top');
    const actionOf = (html: string) => formsOf(html, page).map((form) => `${form.method} ${form.action.href}`);
    // A small C server's authorization page: the form posts the user name and password to a path of its own.
    expect(actionOf('<form method="POST" action="login"><input name="user"><input type="password" name="pass"></form>')).toEqual(['POST http://127.0.0.1:8080/oauth/login']);
    expect(actionOf('<form method="post" action="../cgi-bin/auth.cgi#x"></form>')).toEqual(['POST http://127.0.0.1:8080/cgi-bin/auth.cgi']);
    expect(actionOf('<form method="post" action="http://127.0.0.1:8080/sign-in"></form>')).toEqual(['POST http://127.0.0.1:8080/sign-in']);
    expect(actionOf('<head><base href="/app/"></head><form method="post" action="signin"></form>')).toEqual(['POST http://127.0.0.1:8080/app/signin']);
    // Without an action a form submits to the page's own address, query included (not the base); without a method, by GET.
    expect(actionOf('<base href="/app/"><form></form>')).toEqual(['GET http://127.0.0.1:8080/oauth/authorize?client_id=c']);
    // An action that is no URL: a browser does not submit the form.
    expect(actionOf('<form method="post" action="http://[::1"></form><form method="post" action="/ok"></form>')).toEqual(['POST http://127.0.0.1:8080/ok']);
  });

  it('should find the code an out-of-band page shows: Mastodon, GoToSocial and the reference server', () => {
    expect(codeOnPage('<div class="input-copy"><input type="text" maxlength="999" spellcheck="false" readonly value="AbC-123_xyz" class="oauth-code"><button type="button">Copy</button></div>')).toBe('AbC-123_xyz');
    expect(codeOnPage(`<section class="oob-token"><h1>Hi alice!</h1><p>Here's your out-of-band token with scope "<em>read</em>", use it wisely:</p><code>ZmFrZS1jb2Rl</code></section>`)).toBe('ZmFrZS1jb2Rl');
    expect(codeOnPage('<p>Copy this authorization code:</p><code id="authorization-code">q1w2e3r4</code>')).toBe('q1w2e3r4');
    expect(codeOnPage('<p>Authorized.</p>')).toBeUndefined();
    // A <pre>, and a page whose whole text is the code; a sentence is none.
    expect(codeOnPage('<h1>Authorization code</h1><pre>\n  Zm9vYmFyYmF6cXV4MTIz\n</pre>')).toBe('Zm9vYmFyYmF6cXV4MTIz');
    expect(codeOnPage('<!doctype html><html><body>\nZm9vYmFyYmF6cXV4MTIz\n</body></html>')).toBe('Zm9vYmFyYmF6cXV4MTIz');
    expect(codeOnPage('<!doctype html>Authorized.')).toBeUndefined();
    expect(codeAsText('Zm9vYmFyYmF6cXV4MTIz\n')).toBe('Zm9vYmFyYmF6cXV4MTIz');
    expect(codeAsText('Authorization granted')).toBeUndefined();
    // The scopes asked for, shown in the same elements, are no code.
    expect(codeOnPage('<p>Scopes: <code>read</code> <code>write:statuses</code></p><code>ZmFrZS1jb2Rl</code>', ['read', 'write:statuses'])).toBe('ZmFrZS1jb2Rl');
    // Any read-only text input, as a page other than Mastodon's lets the code be copied.
    expect(codeOnPage('<label>Your code <input type="text" readonly value="c0de-4u-2copy"></label>')).toBe('c0de-4u-2copy');
  });

  it('should read the code an answer is alone by what it says it is: text/plain, no type, or an HTML body of nothing else', () => {
    // A small C server answers the sign-in's post with the code itself, as the whole body.
    expect(codeInAnswer('text/plain; charset=utf-8', 'Zm9vYmFyYmF6cXV4MTIz\r\n')).toBe('Zm9vYmFyYmF6cXV4MTIz');
    expect(codeInAnswer(undefined, 'Zm9vYmFyYmF6cXV4MTIz')).toBe('Zm9vYmFyYmF6cXV4MTIz');
    expect(codeInAnswer('text/html', '<html><body>Zm9vYmFyYmF6cXV4MTIz</body></html>')).toBe('Zm9vYmFyYmF6cXV4MTIz');
    // The HTML elements of codeOnPage, through the answer's type.
    expect(codeInAnswer('text/html', '<pre>Zm9vYmFyYmF6cXV4MTIz</pre>')).toBe('Zm9vYmFyYmF6cXV4MTIz');
    expect(codeInAnswer('text/html; charset=utf-8', '<p>Scopes: <code>read</code></p><code>q1w2e3r4</code>', ['read'])).toBe('q1w2e3r4');
    // A short code of letters and digits, as a small server's hex; a message of one word is none.
    expect(codeInAnswer('text/plain', '9f86d081\n')).toBe('9f86d081');
    expect(codeInAnswer('text/plain', 'Unauthorized')).toBeUndefined();
    expect(codeInAnswer('text/plain', 'invalid_grant')).toBeUndefined();
    expect(codeInAnswer('text/plain', 'Your code: Zm9vYmFyYmF6cXV4MTIz')).toBeUndefined();
    // An answer of another type is not read as text: JSON's quotes and braces are no code's.
    expect(codeInAnswer('application/json', 'Zm9vYmFyYmF6cXV4MTIz')).toBeUndefined();
  });
});

// The forms and codes of real servers' pages, as Mastodon and GoToSocial render them (shapes from their templates).
import { describe, expect, it } from 'vitest';
import { codeAsText, codeOnPage, entriesOf, formsOf, isTextField, methodOverrideOf } from './html-forms.ts';

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
  });
});

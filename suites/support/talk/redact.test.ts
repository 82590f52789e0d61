import { describe, expect, it } from 'vitest';
import { cookieVariable, obtainedSecretsIn, redact, redactData, registerSecret } from './redact.ts';

describe('redaction', () => {
  it('should replace a known secret by the name of its variable, everywhere it appears', () => {
    registerSecret('tok-AAAAAAAAAAAAAAAAAAAA', 'CONFORMANCE_TOKEN_A');
    expect(redact('Authorization: Bearer tok-AAAAAAAAAAAAAAAAAAAA and tok-AAAAAAAAAAAAAAAAAAAA')).toBe(
      'Authorization: Bearer $CONFORMANCE_TOKEN_A and $CONFORMANCE_TOKEN_A',
    );
  });

  it('should replace a known secret also where a form body or a query encodes it', () => {
    registerSecret('p@ss word&more', 'CONFORMANCE_PASSWORD_A');
    expect(redact('user%5Bemail%5D=alice&user%5Bpassword%5D=p%40ss+word%26more')).toBe('user%5Bemail%5D=alice&user%5Bpassword%5D=$CONFORMANCE_PASSWORD_A');
    expect(redact('?pw=p%40ss%20word%26more')).toBe('?pw=$CONFORMANCE_PASSWORD_A');
  });

  it('should say what each value the run obtained is and how to get one, once each, in the order the text holds them', () => {
    registerSecret('configured-token-bbbb', 'CONFORMANCE_TOKEN_B');
    registerSecret('app-token-cccccccc', 'APP_TOKEN', 'an application token with scope "read"');
    registerSecret('cookie value/dddd', 'SESSION_COOKIE_S', 'the cookie s');
    const raw = 'cookie: s=cookie%20value%2Fdddd; token=app-token-cccccccc&again=app-token-cccccccc&b=configured-token-bbbb&s=cookie value/dddd';
    expect(obtainedSecretsIn(raw)).toEqual(['$SESSION_COOKIE_S is the cookie s', '$APP_TOKEN is an application token with scope "read"']);
    expect(obtainedSecretsIn('nothing secret')).toEqual([]);
  });

  it('should name a cookie value by what it is and which cookie it is', () => {
    expect(cookieVariable('_mastodon_session')).toBe('SESSION_COOKIE_MASTODON_SESSION');
    expect(cookieVariable('remember-user.token')).toBe('SESSION_COOKIE_REMEMBER_USER_TOKEN');
    expect(cookieVariable('__')).toBe('SESSION_COOKIE');
  });

  it('should replace a short secret by the name of its variable where a credential stands, and leave the same letters alone elsewhere', () => {
    registerSecret('k3y', 'CONFORMANCE_TOKEN_B');
    expect(redact('Authorization: Bearer k3y')).toBe('Authorization: Bearer $CONFORMANCE_TOKEN_B');
    expect(redact('{"access_token":"k3y"} ?access_token=k3y&x=1')).toBe('{"access_token":"$CONFORMANCE_TOKEN_B"} ?access_token=$CONFORMANCE_TOKEN_B&x=1');
    expect(redact('a k3y of the keyboard')).toBe('a k3y of the keyboard');
    expect(redact('Bearer k3yz')).toBe('Bearer [redacted]');
  });

  it('should mask unknown credentials by their position', () => {
    expect(redact('Authorization: Bearer zzzzzzzzzzzz')).toBe('Authorization: Bearer [redacted]');
    expect(redact('{"access_token":"x1","client_secret":"y2","name":"n"}')).toBe('{"access_token":"[redacted]","client_secret":"[redacted]","name":"n"}');
    expect(redact('grant_type=password&password=hunter22&username=a')).toBe('grant_type=password&password=[redacted]&username=a');
  });

  it('should redact every string of a value but those under the keys kept, leaving the rest of it as it was', () => {
    registerSecret('data-token-eeeeeeee', 'CONFORMANCE_TOKEN_A');
    const value = { title: 'X-1 as Bearer token', n: 3, ok: true, none: null, checks: [{ title: 'as Bearer token', message: 'Bearer data-token-eeeeeeee', steps: ['Bearer zz'] }] };
    expect(redactData(value, new Set(['title']))).toEqual({
      title: 'X-1 as Bearer token',
      n: 3,
      ok: true,
      none: null,
      checks: [{ title: 'as Bearer token', message: 'Bearer $CONFORMANCE_TOKEN_A', steps: ['Bearer [redacted]'] }],
    });
  });
});

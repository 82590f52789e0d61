import { describe, expect, it } from 'vitest';
import { redact, registerSecret } from './redact.ts';

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

  it('should mask unknown credentials by their position', () => {
    expect(redact('Authorization: Bearer zzzzzzzzzzzz')).toBe('Authorization: Bearer [redacted]');
    expect(redact('{"access_token":"x1","client_secret":"y2","name":"n"}')).toBe('{"access_token":"[redacted]","client_secret":"[redacted]","name":"n"}');
    expect(redact('grant_type=password&password=hunter22&username=a')).toBe('grant_type=password&password=[redacted]&username=a');
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv, SETTINGS } from './config.ts';

describe('configuration', () => {
  it('should start the embedded server, destructive checks allowed, when no base URL is set', () => {
    const config = configFromEnv({});
    expect(config.embedded).toBe(true);
    expect(config.destructive).toBe(true);
    expect(config.serverVersion).toBe('3.2.0');
    expect(config.userAgent).toMatch(/^social-api-conformance\/\d+\.\d+\.\d+/);
    expect(configFromEnv({ CONFORMANCE_USER_AGENT: 'Mozilla/5.0 (compatible; audit)' }).userAgent).toBe('Mozilla/5.0 (compatible; audit)');
  });

  it('should refuse bad input with one clear sentence', () => {
    const refusals: [Record<string, string>, RegExp][] = [
      [{ CONFORMANCE_BASE_URL: 'not a url' }, /CONFORMANCE_BASE_URL is not a URL/],
      [{ CONFORMANCE_BASE_URL: 'ftp://x.example' }, /http or https/],
      [{ CONFORMANCE_BASE_URL: 'https://x.example' }, /missing token: CONFORMANCE_TOKEN_A/],
      [{ CONFORMANCE_TOKEN_A: 'same-token', CONFORMANCE_TOKEN_B: 'same-token' }, /the same token/],
      [{ CONFORMANCE_TIMEOUT_MS: 'soon' }, /CONFORMANCE_TIMEOUT_MS/],
      [{ CONFORMANCE_SERVER_VERSION: 'latest' }, /release number/],
      [{ CONFORMANCE_SERVER_VERSION: '4.2' }, /release number such as 3\.2\.0/],
      [{ CONFORMANCE_SERVER_VERSION: '0.7.1' }, /^CONFORMANCE_SERVER_VERSION=0\.7\.1 is no release of this API .*not the server's own release number$/],
      [{ CONFORMANCE_DESTRUCTIVE: 'maybe' }, /true or false/],
      [{ CONFORMANCE_USER_AGENT: 'two\nlines' }, /CONFORMANCE_USER_AGENT must be printable ASCII/],
    ];
    for (const [env, message] of refusals) {
      expect(() => configFromEnv(env)).toThrow(ConfigError);
      expect(() => configFromEnv(env)).toThrow(message);
    }
  });

  it('should take any release of this API from 1.0.0 on, beyond those the contract names too', () => {
    for (const release of ['1.0.0', '2.7.0', '4.2.10']) expect(configFromEnv({ CONFORMANCE_SERVER_VERSION: release }).serverVersion).toBe(release);
  });

  it('should leave destructive checks off for a live server unless asked', () => {
    const live = { CONFORMANCE_BASE_URL: 'https://x.example/', CONFORMANCE_TOKEN_A: 'token-a-123456' };
    expect(configFromEnv(live)).toMatchObject({ embedded: false, destructive: false, baseUrl: 'https://x.example' });
    expect(configFromEnv({ ...live, CONFORMANCE_DESTRUCTIVE: 'yes' }).destructive).toBe(true);
  });

  it('should give the embedded server without variations a settle window of 100 ms, every other server 3000 ms', () => {
    const live = { CONFORMANCE_BASE_URL: 'https://x.example/', CONFORMANCE_TOKEN_A: 'token-a-123456' };
    expect(configFromEnv({}).settleMs).toBe(100);
    expect(configFromEnv({ CONFORMANCE_FAULTS: 'STATUS-FAV-3:returns' }).settleMs).toBe(100);
    expect(configFromEnv({ CONFORMANCE_VARIATIONS: 'background-delete' }).settleMs).toBe(3000);
    expect(configFromEnv(live).settleMs).toBe(3000);
    expect(configFromEnv({ CONFORMANCE_SETTLE_MS: '2500' }).settleMs).toBe(2500);
  });

  it('should document every setting in .env.example', () => {
    const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
    for (const setting of SETTINGS) expect(example).toMatch(new RegExp(`^${setting.env}=`, 'm'));
  });
});

import { describe, expect, it } from 'vitest';
import { checkNeeds, statementEnd } from './check-needs.ts';

const SOURCE = `
const NEEDS_B = 'needs CONFORMANCE_TOKEN_B';
const PINS = '1.6.0';
/** A helper with a (parenthesis) in a comment and a string ')' */
function asB(context: TestContext) {
  needs(context, b, NEEDS_B);
  return ')';
}
const lateRelease = (context: TestContext) => before(context, config, '3.0.0');
describe('Statuses', () => {
  it('STATUS-READ-2 a plain check', async () => {
    await a.get('/api/v1/statuses/1');
  });
  it('STATUS-PIN-2 pin of a status not owned by the caller answers 422', async (context) => {
    since(context, config, PINS);
    asB(context);
  });
  it('STATUS-VIS-2 context of a public status reads without a token', (context) => {
    needs(context, !config.whitelistMode, 'the instance runs in whitelist mode (CONFORMANCE_WHITELIST_MODE)');
    lateRelease(context);
  });
  it('LIMITS-SIGNUP-1 spends the bucket', (context) => {
    needs(context, config.destructive, 'set CONFORMANCE_DESTRUCTIVE');
    if (!config.passwordA) context.skip("needs CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A");
  });
});
`;

// A file in the declared shape (run/checks.ts): a requirement held in a constant, and steps whose titles and inner
// names must not reach another step's requirement.
const DECLARED = `
const CREDENTIALS = requirement(config.usernameA && config.passwordA, 'needs CONFORMANCE_USERNAME_A and CONFORMANCE_PASSWORD_A');
const DESTRUCTIVE = requirement(config.destructive, 'set CONFORMANCE_DESTRUCTIVE');
const spent = step('the sign-up bucket spent', { as: 'anonymous', cost: { api: 6 } }, async () => {
  const token = await spend(DESTRUCTIVE);
  return made(token);
});
const token = step('a token, not the spent one', { as: 'anonymous', cost: { oauth: 1 } }, async () => made(await grant()));
section('OAuth', () => {
  it('OAUTH-PASSWORD-1 the password grant gives a user token', { requires: [CREDENTIALS], needs: { token } }, ({ token }) => check(token));
  it('OAUTH-TOKEN-1 the token operation returns a Token', { needs: { token } }, ({ token }) => check(token));
});
`;

describe('checkNeeds', () => {
  it('should read a declared check\'s requirements from the constants its options name, and nothing from the words of strings', () => {
    expect(checkNeeds(DECLARED).map(({ text, needs }) => [text?.split(' ')[0], needs])).toEqual([
      ['OAUTH-PASSWORD-1', ['CONFORMANCE_USERNAME_A', 'CONFORMANCE_PASSWORD_A']],
      ['OAUTH-TOKEN-1', []],
    ]);
  });

  it('should read each check\'s needs from its body, the helpers it calls and its clause\'s release, each once', () => {
    expect(checkNeeds(SOURCE).map(({ text, needs }) => [text?.split(' ')[0], needs])).toEqual([
      ['STATUS-READ-2', []],
      // The catalogue's since (1.6.0) and the body's since(PINS) name one release.
      ['STATUS-PIN-2', ['release >= 1.6.0', 'CONFORMANCE_TOKEN_B']],
      ['STATUS-VIS-2', ['not CONFORMANCE_WHITELIST_MODE', 'release < 3.0.0']],
      ['LIMITS-SIGNUP-1', ['CONFORMANCE_DESTRUCTIVE', 'CONFORMANCE_USERNAME_A', 'CONFORMANCE_PASSWORD_A']],
    ]);
  });

  it('should give each check its line', () => {
    expect(checkNeeds(SOURCE).map((c) => c.line)).toEqual([11, 14, 18, 22]);
  });
});

describe('statementEnd', () => {
  it('should end a statement at its semicolon, stepping over strings, templates and comments', () => {
    const source = "const a = f(';', `;`, /* ; */ 1); next();";
    expect(source.slice(0, statementEnd(source, 0))).toBe("const a = f(';', `;`, /* ; */ 1);");
  });

  it('should end a function declaration at the brace that closes its body', () => {
    const source = 'function f() {\n  return { a: 1 };\n}\nconst b = 2;';
    expect(source.slice(0, statementEnd(source, 0))).toBe('function f() {\n  return { a: 1 };\n}');
  });
});

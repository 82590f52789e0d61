// The fault runner's wrappers evaluate a suite file anew per run (import-anew.ts): a file imported again after
// forgetEvaluation is a new module, one imported again without it the same, and a file the worker lost track of fails
// the run instead of silently registering no tests.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { forgetEvaluation } from './import-anew.ts';

const SELF = fileURLToPath(new URL('./import-anew.ts', import.meta.url));

describe('forgetEvaluation', () => {
  it('should make the next import of a file evaluate it anew, and only then', async () => {
    const first = await import('./import-anew.ts');
    expect(await import('./import-anew.ts')).toBe(first);
    forgetEvaluation(SELF);
    const again = await import('./import-anew.ts');
    expect(again).not.toBe(first);
    expect(again.forgetEvaluation).toBeTypeOf('function');
  });

  it('should refuse a file imported through it before that the worker no longer holds', () => {
    const lost = fileURLToPath(new URL('./no-such-suite.test.ts', import.meta.url));
    forgetEvaluation(lost);
    expect(() => forgetEvaluation(lost)).toThrow(`cannot import ${lost} anew: the worker holds no module of it`);
  });
});

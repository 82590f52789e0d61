// fast-check's string arbitraries precompute their bias slices when they are made (fc.stringMatching: about 15 ms of CPU
// each), and the exploration's models make about twenty at their import: every run paid them, though the default share
// draws one input and a run with one check none (docs/performance.md).
import fc from 'fast-check';

/** An arbitrary made at its first use and then the same as the one `make` returns: it draws and shrinks as that one does. */
class MadeAtFirstUse<T> extends fc.Arbitrary<T> {
  #made: fc.Arbitrary<T> | undefined;

  constructor(private readonly make: () => fc.Arbitrary<T>) {
    super();
  }

  get #arbitrary(): fc.Arbitrary<T> {
    return (this.#made ??= this.make());
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.#arbitrary.generate(random, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.#arbitrary.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.#arbitrary.shrink(value, context);
  }
}

/** fc.stringMatching, made when it first draws. */
export const stringMatching = (pattern: RegExp): fc.Arbitrary<string> => new MadeAtFirstUse(() => fc.stringMatching(pattern));

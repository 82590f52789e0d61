// fc.stringMatching, built the first time a value is drawn from it. Building one compiles its pattern, 10-40 ms of CPU
// each (2026-12-07), and the explore models declare a dozen when they load, in every run, while a default run draws
// from few of them: at the end of the embedded run, where both workers are busy, that was about 0.15 s of a worker.
// The arbitrary built is the same, so a seed draws the same values.
import fc from 'fast-check';

class BuiltOnFirstDraw<T> extends fc.Arbitrary<T> {
  #built: fc.Arbitrary<T> | undefined;

  constructor(private readonly build: () => fc.Arbitrary<T>) {
    super();
  }

  private get built(): fc.Arbitrary<T> {
    return (this.#built ??= this.build());
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.built.generate(mrng, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.built.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.built.shrink(value, context);
  }
}

/** The strings `pattern` matches, as fc.stringMatching draws them, built on first use. */
export const matching = (pattern: RegExp): fc.Arbitrary<string> => new BuiltOnFirstDraw(() => fc.stringMatching(pattern));

// undici, loaded when a file's checks are about to run (setup.ts) or at the first request, not when a module that
// sends one is imported: loading it takes a few hundred ms of CPU, which every worker paid on every run, also for
// suite files none of whose checks runs (a run with --only collects every file). Type imports of it cost nothing.
import { createRequire } from 'node:module';

type Undici = typeof import('undici');
let loading: Promise<Undici> | undefined;
let packed: string | undefined;

/**
 * The one-file copy of undici the conformance command made (run/packed-undici.mjs), loaded instead of the package's
 * modules where it is there: set before the first load.
 */
export function loadUndiciFrom(file: string | undefined): void {
  packed = file;
}

function load(): Promise<Undici> {
  if (packed) {
    try {
      return Promise.resolve(createRequire(import.meta.url)(packed) as Undici);
    } catch {
      // Removed since the command made it (another command's clean-up): the package itself, as without it.
    }
  }
  return import('undici');
}

export const undici = (): Promise<Undici> => (loading ??= load());

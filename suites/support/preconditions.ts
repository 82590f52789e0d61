// Preconditions: a check whose inputs are not configured, or that concerns a later release than the server
// under test, is skipped with its reason, never failed.
import type { TestContext } from 'vitest';
import { releaseAtLeast, type Config } from './config.ts';

/** In the reason of every check skipped for the configured release, so that the summary can count them. */
export const RELEASE_SKIP_MARK = 'CONFORMANCE_SERVER_VERSION=';

export function needs(context: TestContext, present: unknown, reason: string): void {
  if (!present) context.skip(reason);
}

/** Skips a check for a clause that came with a later release than CONFORMANCE_SERVER_VERSION. */
export function since(context: TestContext, config: Config, release: string): void {
  if (!releaseAtLeast(config.serverVersion, release)) {
    context.skip(`needs release ${release} or later (${RELEASE_SKIP_MARK}${config.serverVersion})`);
  }
}

/** Skips a check for behaviour that a later release removed. */
export function before(context: TestContext, config: Config, release: string): void {
  if (releaseAtLeast(config.serverVersion, release)) {
    context.skip(`removed in release ${release} (${RELEASE_SKIP_MARK}${config.serverVersion})`);
  }
}

// Usage errors, the user's mistakes (exit code 2): one line on stderr, no stack trace, the command ends.
import { ExpectationsError, loadExpectations, type Expectation } from '../report/expectations.ts';

/** Exit codes: 0 the run passed, 1 it failed, 2 usage or configuration error. */
export const EXIT = { passed: 0, failed: 1, usage: 2 } as const;

export function usageError(message: string): never {
  process.stderr.write(`social-api-conformance: ${message}\n`);
  process.exit(EXIT.usage);
}

/** The expectations file, validated before anything runs: a mistake in it is a usage error. */
export function expectationsOf(file: string | undefined): Expectation[] {
  if (!file) return [];
  try {
    return loadExpectations(file);
  } catch (error) {
    if (error instanceof ExpectationsError) usageError(error.message);
    throw error;
  }
}

#!/usr/bin/env node
// The installed command (`npx social-api-conformance`): loads the TypeScript CLI through tsx.
// `serve` starts the reference server as `npm run reference-server` does, so a client author needs no clone.
// vitest is loaded before tsx registers its hooks, so that vitest's own modules are not run through them
// (about 0.8 s and 140 MiB less per run); the server needs no vitest.
import { register } from 'tsx/esm/api';

if (process.argv[2] === 'serve') {
  // The server reads its options from process.argv, as under `npm run reference-server -- ...`.
  process.argv.splice(2, 1);
  register();
  await import('../../../fixtures/reference-server/main.ts');
} else {
  await import('vitest/node');
  register();
  await import('./cli.ts');
}

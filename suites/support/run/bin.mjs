#!/usr/bin/env node
// The installed command (`npx social-api-conformance`): loads the TypeScript CLI through tsx.
// `serve` starts the reference server as `npm run reference-server` does, so a client author needs no clone.
// vitest is loaded before tsx registers its hooks, so that vitest's own modules are not run through them
// (about 0.8 s and 140 MiB less per run); the server needs no vitest, nor do the answers that run nothing (--help,
// --list), and --version is answered here, before anything else loads (docs/performance.md, the command's start).
// The other packages an answer loads come before the hooks too (each module tsx's thread answers costs both threads
// CPU): a run's vitest runtime (the run-wide judges the reporter registers import it) and the embedded reference
// server's; --list's exploration model (fast-check) and oracle (vitest's runtime).
import { readFileSync } from 'node:fs';

const SERVER_PACKAGES = ['ws', 'pngjs', 'jpeg-js', 'omggif', 'blurhash'];
const PACKAGES = {
  serve: SERVER_PACKAGES,
  run: ['vitest/node', 'vitest', ...SERVER_PACKAGES, 'dotenv'],
  list: ['vitest', 'fast-check', 'dotenv'],
  help: [],
};

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  const { name, version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${name} ${version}\n`);
} else {
  const { register } = await import('tsx/esm/api');
  if (args[0] === 'serve') {
    // The server reads its options from process.argv, as under `npm run reference-server -- ...`.
    process.argv.splice(2, 1);
    await Promise.all(PACKAGES.serve.map((name) => import(name)));
    register();
    await import('../../../fixtures/reference-server/main.ts');
  } else {
    const answer = args.some((arg) => arg === '--help' || arg === '-h') ? 'help' : args.includes('--list') ? 'list' : 'run';
    await Promise.all(PACKAGES[answer].map((name) => import(name)));
    register();
    await import('./cli.ts');
  }
}

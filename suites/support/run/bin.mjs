#!/usr/bin/env node
// The installed command (`npx social-api-conformance`): loads the CLI compiled once (compiled-cli.mjs), else through tsx.
// `serve` starts the reference server as `npm run reference-server` does, so a client author needs no clone.
// vitest is loaded before tsx registers its hooks, so that vitest's own modules are not run through them
// (about 0.8 s and 140 MiB less per run); the server needs no vitest, nor do the answers that run nothing (--help,
// --list), and --version is answered here, before anything else loads (docs/performance.md, the command's start).
// The other packages an answer loads come before the hooks too (each module tsx's thread answers costs both threads
// CPU): dotenv, --list's exploration model (fast-check) and oracle (vitest's runtime). An embedded run's main thread
// loads no vitest runtime (judge/run-wide-owner.ts; where the suite files load through tsx, typescript-hooks.mjs loads
// it before the hooks), and the reference server requires its packages (ws, the image codecs) at their first use,
// outside tsx's hooks: neither holds back the start of vitest's workers.
// --list answers from its cache where the same listing was made before (listingCache).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { fileURLToPath } from 'node:url';
import { compiledCli } from './compiled-cli.mjs';
import { typeScriptHooks } from './typescript-hooks.mjs';

const PACKAGES = {
  run: ['vitest/node', 'dotenv'],
  list: ['vitest', 'fast-check', 'dotenv'],
  help: [],
};

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** What a listing is made of besides the command line, the environment and .env: the project's own files. */
const LISTING_SOURCES = ['suites', 'fixtures', 'schemas', 'docs/contract', 'package.json', 'package-lock.json', 'tsconfig.json'];
/** Listings kept: one per command line and configuration, the newest. */
const LISTINGS_KEPT = 16;

/** Each file under `path` with its size and time of change, or nothing where there is no such path. */
function stamps(path) {
  try {
    const stat = statSync(path);
    if (!stat.isDirectory()) return [`${path} ${stat.size} ${stat.mtimeMs}`];
    return readdirSync(path).filter((name) => name !== 'node_modules').sort().flatMap((name) => stamps(join(path, name)));
  } catch {
    return [];
  }
}

/**
 * --list's answers kept on disk: loading the declarations and the exploration's model takes most of a second, and the
 * listing is a function of the command line, the settings (CONFORMANCE_* variables, .env, the files they name) and the
 * project's files, each named in the key with its size and time of change. The answer is made by cli.ts as without the
 * cache, and kept only where it ended with exit code 0 and wrote nothing to stderr. Where the folder cannot be written
 * (a read-only install), nothing is kept.
 */
function listingCache(args) {
  const folder = join(ROOT, 'node_modules/.cache/social-api-conformance/list');
  const settings = Object.entries(process.env).filter(([name]) => name.startsWith('CONFORMANCE_')).sort(([x], [y]) => x.localeCompare(y));
  const named = [...args, ...settings.map(([, value]) => value)].flatMap((value) => (value.length < 4096 ? stamps(value) : []));
  const sources = LISTING_SOURCES.flatMap((path) => stamps(join(ROOT, path)));
  const key = createHash('sha256').update(JSON.stringify([process.version, process.cwd(), args, settings, stamps('.env'), named, sources])).digest('hex').slice(0, 32);
  const file = join(folder, `${key}.txt`);
  let kept;
  try {
    kept = readFileSync(file, 'utf8');
  } catch {}
  return {
    kept,
    /** Keeps what the command writes to stdout, once it ends with exit code 0 and wrote nothing to stderr. */
    keep() {
      const out = [];
      let quiet = true;
      const write = (stream, onWrite) => {
        const original = stream.write.bind(stream);
        stream.write = (chunk, ...rest) => (onWrite(chunk), original(chunk, ...rest));
      };
      write(process.stdout, (chunk) => out.push(String(chunk)));
      write(process.stderr, (chunk) => (quiet &&= String(chunk).length === 0));
      process.on('exit', (code) => {
        if (code !== 0 || !quiet) return;
        try {
          mkdirSync(folder, { recursive: true });
          writeFileSync(`${file}.${process.pid}`, out.join(''));
          renameSync(`${file}.${process.pid}`, file);
          const byAge = readdirSync(folder).map((name) => ({ name, at: statSync(join(folder, name)).mtimeMs })).sort((x, y) => y.at - x.at);
          for (const { name } of byAge.slice(LISTINGS_KEPT)) rmSync(join(folder, name), { force: true });
        } catch {}
      });
    },
  };
}

const args = process.argv.slice(2);
const listing = args[0] !== 'serve' && args.includes('--list') && !args.some((arg) => arg === '--help' || arg === '-h') ? listingCache(args) : undefined;
if (listing?.kept !== undefined) {
  process.stdout.write(listing.kept);
} else if (args.length === 1 && args[0] === '--version') {
  const { name, version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${name} ${version}\n`);
} else {
  if (args[0] === 'serve') {
    // The server reads its options from process.argv, as under `npm run reference-server -- ...`.
    process.argv.splice(2, 1);
    await typeScriptHooks({ vitest: false });
    await import('../../../fixtures/reference-server/main.ts');
  } else {
    const answer = args.some((arg) => arg === '--help' || arg === '-h') ? 'help' : listing ? 'list' : 'run';
    listing?.keep();
    // An answer of the command lasts seconds: V8's optimizing compiler spent more CPU on its background threads than
    // its code saved (docs/performance.md), so this process's code goes no further than V8's baseline compiler. The
    // flag is the whole process's, its workers' too; `serve`, which runs for long, and our own tests keep the optimizing compiler.
    setFlagsFromString('--max-opt=1');
    const [compiled] = await Promise.all([compiledCli(), ...PACKAGES[answer].map((name) => import(name))]);
    // The compiled command loads without tsx's hooks; what it loads later through tsx (the planner, the exploration,
    // the suite files) registers them first (typescript-hooks.mjs).
    const cli = compiled ? await import(compiled) : (await typeScriptHooks({ vitest: answer !== 'help' }), await import('./cli.ts'));
    cli.answerCommandLine();
  }
}

// The command's own TypeScript (cli.ts and what it loads to answer and to run), compiled once into one module kept on
// disk and loaded without tsx: through tsx's hooks each of its 70 modules cost a round trip to tsx's thread for every
// import, which kept the main thread waiting for most of a second before vitest started (docs/performance.md).
// The suite files, and what the planner and the exploration load with them (every module cli.ts and run-command.ts
// import dynamically but run-command.ts itself), stay outside it and load through tsx as before: those modules and
// the suite files then share one instance of every module they import. The compiled module is made again whenever
// one of the files it was made of changed (size or time of change); where it cannot be made or kept (no esbuild, a
// read-only install), the command loads cli.ts through tsx.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRY = fileURLToPath(new URL('./cli.ts', import.meta.url));
/** The one module loaded dynamically that belongs with the command: the run itself (a module of its own, splitting). */
const BUNDLED_LATE = fileURLToPath(new URL('./run-command.ts', import.meta.url));
// A folder per project folder: git worktrees may share one node_modules, each with its own sources.
const FOLDER = join(ROOT, 'node_modules/.cache/social-api-conformance/cli', createHash('sha256').update(ROOT).digest('hex').slice(0, 16));
const MANIFEST = join(FOLDER, 'manifest.json');
/** A compiled module replaced this long ago is removed: a command started before may still be loading it. */
const KEPT_AFTER_REPLACED_MS = 10 * 60_000;

const stamp = (file) => {
  const stat = statSync(file);
  return `${stat.size} ${stat.mtimeMs}`;
};

/** The compiled module's URL where the one on disk was made of the files as they are now. */
function fresh() {
  try {
    const { entry, inputs } = JSON.parse(readFileSync(MANIFEST, 'utf8'));
    if (!Object.entries(inputs).every(([file, made]) => stamp(file) === made)) return undefined;
    return pathToFileURL(join(FOLDER, entry)).href;
  } catch {
    return undefined;
  }
}

/**
 * Each module keeps its own import.meta.url (its paths to package.json, the schemas, the declared checks are relative to
 * its own file), and every dynamic import but run-command.ts's stays a module of its own, by its absolute path.
 */
const ownPlaces = {
  name: 'own-places',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\//, namespace: 'file' }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const path = resolve(args.resolveDir, args.path);
      return path === BUNDLED_LATE ? { path } : { path: pathToFileURL(path).href, external: true };
    });
    build.onLoad({ filter: /\.(ts|mjs)$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: args.path.endsWith('.ts') ? 'ts' : 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

async function compile() {
  const { build } = await import('esbuild');
  // A folder per compilation: another command may still be loading the modules of the one before.
  const made = `made-${Date.now()}-${process.pid}`;
  const result = await build({
    entryPoints: { cli: ENTRY },
    bundle: true,
    // run-command.ts in a module of its own, with the packages it loads (vitest's node API): loaded only for a run.
    splitting: true,
    outdir: join(FOLDER, made),
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    packages: 'external',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [ownPlaces],
  });
  const inputs = Object.fromEntries(Object.keys(result.metafile.inputs).map((input) => resolve(ROOT, input)).map((file) => [file, stamp(file)]));
  mkdirSync(FOLDER, { recursive: true });
  // Written whole, then renamed: another command may be reading the folder.
  const written = (file, text) => {
    writeFileSync(`${file}.${process.pid}`, text);
    renameSync(`${file}.${process.pid}`, file);
  };
  mkdirSync(join(FOLDER, made));
  for (const output of result.outputFiles) writeFileSync(output.path, output.text);
  const entry = `${made}/cli.js`;
  written(MANIFEST, JSON.stringify({ entry, inputs }));
  for (const other of readdirSync(FOLDER)) {
    const folder = join(FOLDER, other);
    if (other !== made && other.startsWith('made-') && Date.now() - statSync(folder).mtimeMs > KEPT_AFTER_REPLACED_MS) rmSync(folder, { recursive: true, force: true });
  }
  return pathToFileURL(join(FOLDER, entry)).href;
}

/** The URL of the compiled command, made now where it is missing or stale; none where it cannot be made. */
export async function compiledCli() {
  try {
    return fresh() ?? (await compile());
  } catch {
    return undefined;
  }
}

// undici (npm) packed once into one CommonJS file kept on disk, which the workers load instead of the package's 110
// modules: node 20 resolves, reads and lexes each of them in every worker (about 60 ms of CPU a worker, on the way
// to its first request; docs/performance.md). The same code, bundled by esbuild as node bundles its own copy of undici.
// Made again when undici's package.json changes (an install); where it cannot be made or kept (no esbuild, a read-only
// install), the workers import the package as before.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const FOLDER = join(ROOT, 'node_modules/.cache/social-api-conformance/packed');
const require = createRequire(import.meta.url);

/** The packed file's path, made now where it is missing; none where it cannot be made. */
export async function packedUndici() {
  try {
    const manifest = require.resolve('undici/package.json');
    const { size, mtimeMs } = statSync(manifest);
    const key = createHash('sha256').update(JSON.stringify([manifest, size, mtimeMs, process.versions.node])).digest('hex').slice(0, 16);
    const file = join(FOLDER, `undici-${key}.cjs`);
    if (existsSync(file)) return file;
    const { build } = await import('esbuild');
    const result = await build({ entryPoints: [require.resolve('undici')], bundle: true, platform: 'node', format: 'cjs', target: `node${process.versions.node.split('.')[0]}`, write: false, logLevel: 'silent' });
    mkdirSync(FOLDER, { recursive: true });
    // Written whole, then renamed: another command may be loading it.
    writeFileSync(`${file}.${process.pid}`, result.outputFiles[0].text);
    renameSync(`${file}.${process.pid}`, file);
    for (const other of readdirSync(FOLDER)) if (other.startsWith('undici-') && join(FOLDER, other) !== file && !other.includes('.cjs.')) rmSync(join(FOLDER, other), { force: true });
    return file;
  } catch {
    return undefined;
  }
}

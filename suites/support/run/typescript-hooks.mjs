// tsx's hooks, registered once, when the command first loads TypeScript of its own: at once where it runs cli.ts
// through tsx, only for the planner and the exploration where it runs the compiled command (compiled-cli.mjs). An
// embedded run without --explore, --help and a listing without the exploration then never start tsx's thread (0.2 to
// 0.45 s of CPU before its first answer).
let registered;

/**
 * Registers tsx's hooks, once; resolves when the next import of a .ts module goes through them. vitest's runtime, which
 * the suite files and the support layer import, is loaded first, outside the hooks (each module tsx's thread answers
 * costs both threads CPU): the compiled command's main thread no longer loads it before (judge/run-wide-owner.ts).
 * `serve` and --help, which load no suite file, spare it (`vitest: false`).
 */
export function typeScriptHooks({ vitest = true } = {}) {
  registered ??= (vitest ? import('vitest') : Promise.resolve()).then(() => import('tsx/esm/api')).then(({ register }) => void register());
  return registered;
}

// tsx's hooks, registered once, when the command first loads TypeScript of its own: at once where it runs cli.ts
// through tsx, only for the planner and the exploration where it runs the compiled command (compiled-cli.mjs). An
// embedded run without --explore, --help and a listing without the exploration then never start tsx's thread (0.2 to
// 0.45 s of CPU before its first answer).
let registered;

/** Registers tsx's hooks, once; resolves when the next import of a .ts module goes through them. */
export function typeScriptHooks() {
  registered ??= import('tsx/esm/api').then(({ register }) => void register());
  return registered;
}

/** Registers tsx's hooks, once, vitest's runtime loaded before them unless `vitest` is false; resolves when the next import of a .ts module goes through them. */
export function typeScriptHooks(options?: { vitest?: boolean }): Promise<void>;

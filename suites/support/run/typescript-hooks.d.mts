/** Registers tsx's hooks, once; resolves when the next import of a .ts module goes through them. */
export function typeScriptHooks(): Promise<void>;

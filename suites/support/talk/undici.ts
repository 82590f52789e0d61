// undici, loaded when a file's checks are about to run (setup.ts) or at the first request, not when a module that
// sends one is imported: loading it takes a few hundred ms of CPU, which every worker paid on every run, also for
// suite files none of whose checks runs (a run with --only collects every file). Type imports of it cost nothing.
let loading: Promise<typeof import('undici')> | undefined;

export const undici = (): Promise<typeof import('undici')> => (loading ??= import('undici'));

// The runner of many runs (suite-runner.ts) evaluates a suite file once per run, in workers that keep their modules
// from one file to the next (isolate: false, so that the support layer loads once per worker). Imported under a query
// of its own per run (`?run=N`), each evaluation was a module of its own: transformed again, written to vitest's
// transform cache on disk (120 KB each, 3 GB in a day of runs) and kept, with everything its run made, in the worker
// and in the main thread's module graph until the runner ended. Instead, the file keeps one module, whose evaluation
// the worker forgets before each run imports it: the code transformed once is evaluated again, and the last run's
// module is left to the garbage collector. vitest's own vi.resetModules() does the same to every module (the support
// layer too); this does it to the suite file alone.

/** What this needs of a module of vitest's worker (vite/module-runner's EvaluatedModuleNode). */
interface EvaluatedModule {
  promise?: unknown;
  exports?: unknown;
  evaluated: boolean;
}

/** vitest's state of the worker (its internal `__vitest_worker__`): the modules it evaluated, by file. */
interface WorkerState {
  evaluatedModules?: { getModulesByFile(file: string): Set<EvaluatedModule> | undefined };
}

/** The files this worker has imported through forgetEvaluation: each must be found again, or its next run would reuse its tests. */
const imported = new Set<string>();

/**
 * Makes the next import of `file` (an absolute path) evaluate it anew in this worker. A file imported before that
 * cannot be found fails the run loudly: silently reused, its module would register no tests, and the run would
 * report no check at all.
 */
export function forgetEvaluation(file: string): void {
  const modules = (globalThis as { __vitest_worker__?: WorkerState }).__vitest_worker__?.evaluatedModules;
  if (!modules) throw new Error(`cannot import ${file} anew: vitest's worker state has no evaluated modules`);
  const nodes = modules.getModulesByFile(file) ?? new Set<EvaluatedModule>();
  if (imported.has(file) && nodes.size === 0) throw new Error(`cannot import ${file} anew: the worker holds no module of it`);
  imported.add(file);
  for (const node of nodes) {
    node.promise = undefined;
    node.exports = undefined;
    node.evaluated = false;
  }
}

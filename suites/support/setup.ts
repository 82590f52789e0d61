// Runs around every suite file: undoes what the file created, and hands its request counts, leftovers and
// run-wide observations (registered checks, resource schemas, error bodies and texts) to the reporter through
// the file's task meta.
import { afterAll } from 'vitest';
import { leftovers, undoAll, type LeftBehind } from './cleanup.ts';
import { countsSnapshot, type Counts } from './counts.ts';
import './registered-checks.ts';
import { runWideSnapshot } from './run-wide.ts';

declare module 'vitest' {
  interface TaskMeta {
    counts?: Counts;
    leftovers?: LeftBehind[];
  }
}

afterAll(async (file) => {
  await undoAll();
  file.meta.counts = countsSnapshot();
  file.meta.leftovers = leftovers();
  file.meta.runWide = runWideSnapshot();
});

// Runs around every suite file: starts the support layer's state afresh (file-state.ts), closes what must not
// outlive the file, undoes what it created, and hands its request counts, leftovers and run-wide observations
// (registered checks, resource schemas, error bodies and texts) to the reporter through the file's task meta.
import { afterAll } from 'vitest';
import { leftovers, undoAll, type LeftBehind } from './cleanup.ts';
import { countsSnapshot, type Counts } from './counts.ts';
import { endFile, startFile } from './file-state.ts';
import './registered-checks.ts';
import { runWideSnapshot } from './run-wide.ts';

declare module 'vitest' {
  interface TaskMeta {
    counts?: Counts;
    leftovers?: LeftBehind[];
  }
}

startFile();

afterAll(async (file) => {
  await endFile();
  await undoAll();
  file.meta.counts = countsSnapshot();
  file.meta.leftovers = leftovers();
  file.meta.runWide = runWideSnapshot();
});

// Runs around every suite file: undoes what the file created, and hands its request counts and
// leftovers to the reporter through the file's task meta.
import { afterAll } from 'vitest';
import { undoAll, leftovers } from './cleanup.ts';
import { countsSnapshot, type Counts } from './counts.ts';

declare module 'vitest' {
  interface TaskMeta {
    counts?: Counts;
    leftovers?: string[];
  }
}

afterAll(async (file) => {
  await undoAll();
  file.meta.counts = countsSnapshot();
  file.meta.leftovers = leftovers();
});

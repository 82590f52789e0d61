// Runs around every suite file: starts the support layer's state afresh (file-state.ts), closes what must not
// outlive the file, undoes what it created, and hands its request counts, leftovers and run-wide observations
// (registered checks, resource schemas, error bodies and texts) to the reporter through the file's task meta.
import { afterAll, beforeAll, inject } from 'vitest';
import { leftovers, undoAll } from './cleanup.ts';
import type { LeftBehind } from '../report/results.ts';
import { countsSnapshot, outsidePartsSnapshot, partsSnapshot, type Counts, type PartCount, type PathCost } from '../talk/counts.ts';
import { endSection } from '../talk/pacing.ts';
import type { Config } from '../talk/config.ts';
import { endFile, startFile } from '../talk/file-state.ts';
import { recordExchanges, writeHarPart } from '../talk/har.ts';
import '../judge/registered-checks.ts';
// Listens to what the run's creations answer (act/creations.ts), before the file's first creation.
import '../judge/resources.ts';
import { runWideSnapshot } from '../judge/run-wide.ts';
import { loadUndiciFrom, undici } from '../talk/undici.ts';

declare module 'vitest' {
  interface TaskMeta {
    counts?: Counts;
    /** The group's parts (its steps), each planned and sent, the ledger's calls for what it made included. */
    parts?: PartCount[];
    /** The group's requests that no part sent, by path: our tests want none. */
    outsideParts?: PathCost;
    leftovers?: LeftBehind[];
  }
  interface ProvidedContext {
    /** The one-file copy of undici the conformance command made (packed-undici.mjs); none under plain vitest. */
    packedUndici?: string;
  }
}

startFile();
loadUndiciFrom(inject('packedUndici'));
// Our own runner of many runs in one process (suites/self/suite-runner.ts) provides `runs`, no `config`: it records nothing.
const recordFile = (inject('config') as Config | undefined)?.recordFile;
if (recordFile) recordExchanges();

// The transports (undici, ws) load before the file's first request, not while it runs: loaded under a running
// deadline, on a loaded machine, they made the first requests of a group time out. A file none of whose checks is
// selected runs no hook, and so never loads them (the fixed cost of a run).
beforeAll(async () => {
  await Promise.all([undici(), import('ws')]);
});

// vitest hands a hook its context first (empty here) and the file second.
afterAll(async ({}, file) => {
  await endFile();
  await undoAll();
  // The section held its worst case for its cleanup's calls too: what it did not spend is the next section's.
  endSection();
  file.meta.counts = countsSnapshot();
  file.meta.parts = partsSnapshot();
  file.meta.outsideParts = outsidePartsSnapshot();
  file.meta.leftovers = leftovers();
  file.meta.runWide = runWideSnapshot();
  // The cleanup's exchanges too: a recording holds every request the run sent.
  if (recordFile) writeHarPart(recordFile, file.file.filepath);
});

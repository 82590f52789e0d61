// The state of the support layer belongs to one suite file: its counts, cleanup ledger, run-wide observations,
// pacing estimates, circuit breaker, actors and open streams. The modules themselves persist across the files a
// worker runs (loading them once per worker, not once per file, is most of a run's CPU time), so each stateful
// module registers here how its state starts afresh and ends, and setup.ts, which runs around every file, calls
// both. Only this keeps one file's state from reaching the next, which may be another run against another server.
type Hook = () => void | Promise<void>;

const starts: Hook[] = [];
const ends: Hook[] = [];

/** `reset` runs before each suite file: the module's state as a file must find it. */
export function perFile(reset: () => void): void {
  starts.push(reset);
}

/** `end` runs after each suite file's own afterAll hooks, before its cleanup: what must not outlive the file (open connections). */
export function atFileEnd(end: Hook): void {
  ends.push(end);
}

export function startFile(): void {
  for (const reset of starts) reset();
}

export async function endFile(): Promise<void> {
  for (const end of ends) await end();
}

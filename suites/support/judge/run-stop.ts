// --max-failures N (-x: 1): the run stops after N failed checks, and loses nothing. vitest's own bail cancelled the
// files that were running, whose results then never reached the reports (under load a run with three faults once
// printed PASS with 17 checks). Instead the failures are counted in memory that every worker of the run shares (as
// in-flight.ts's count is); once N are met, every check not yet judged skips itself with the reason, every file ends
// as usual (its cleanup runs), and every selected check is reported. A failure counts whatever its clause's severity
// and whatever the expectations file says of it (docs/ci-gate.md). Every run counts its failures, with or without
// --max-failures: the command then checks that each one reached the reports (run-command.ts).

/** The words every check the stop left unjudged starts its skip reason with. */
const STOPPED = 'not run: the run stopped after';

/** Why a check the stop left unjudged was skipped. */
export const stopReason = (after: number) => `${STOPPED} ${after} failed check${after === 1 ? '' : 's'} (--max-failures, -x)`;

/** Whether a skip reason is the stop's. */
export const isStopReason = (reason: string | undefined): boolean => reason?.startsWith(STOPPED) ?? false;

/**
 * What the run's configuration carries: the count of failures every worker adds to, and --max-failures N (Infinity
 * without it: the count then only guards the exit code, run-command.ts).
 */
export interface StopAt {
  after: number;
  failures: SharedArrayBuffer;
}

/** A stop after `after` failed checks, its count to be shared by every worker of the run (and every repeat of a stability run). */
export const stopAt = (after = Number.POSITIVE_INFINITY): StopAt => ({ after, failures: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT) });

export class RunStop {
  private readonly count: Int32Array;

  constructor(readonly at: StopAt) {
    this.count = new Int32Array(at.failures);
  }

  /** A check failed. */
  failed(): void {
    Atomics.add(this.count, 0, 1);
  }

  /** The checks that failed so far, in every worker. */
  get failures(): number {
    return Atomics.load(this.count, 0);
  }

  /** Whether the run has met its N failures: a check not yet judged is then not judged. */
  get reached(): boolean {
    return this.failures >= this.at.after;
  }

  get reason(): string {
    return stopReason(this.at.after);
  }
}

let current: RunStop | undefined;

/** The run's stop in this worker, where the run has one: the same count for every file the worker runs. */
export function runStop(at: StopAt | undefined): RunStop | undefined {
  // Memory that crossed into another process arrives as a copy, or not at all: the worker then counts its own failures.
  if (!at || !(at.failures instanceof SharedArrayBuffer)) return undefined;
  if (current?.at.failures !== at.failures) current = new RunStop(at);
  return current;
}

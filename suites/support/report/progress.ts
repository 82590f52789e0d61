// The progress of a run on a terminal: the checks judged of the total and the groups running, one line rewritten
// in place. Every other line the reporter prints goes above it. A CI log or a pipe gets no such line (reporter.ts).

/** Back to the start of the line, and the line erased. */
const ERASE_LINE = '\r\u001b[K';

export class ProgressLine {
  private judged = 0;
  private readonly running: string[] = [];
  private shown = false;
  private finished = false;

  constructor(
    private readonly total: number,
    private readonly write: (text: string) => void,
  ) {}

  groupStarted(name: string): void {
    this.running.push(name);
    this.draw();
  }

  groupEnded(name: string): void {
    const at = this.running.indexOf(name);
    if (at >= 0) this.running.splice(at, 1);
    this.draw();
  }

  checkJudged(): void {
    // A check the source could not count (a title that is no literal) never takes the counter past the total.
    this.judged = Math.min(this.total, this.judged + 1);
    this.draw();
  }

  /** Prints whole lines above the progress line, which follows them. */
  print(text: string): void {
    this.clear();
    this.write(text);
    this.draw();
  }

  /** Erases the progress line for good: the run's end prints its summary where it stood. */
  finish(): void {
    if (this.shown) this.write(ERASE_LINE);
    this.shown = false;
    this.finished = true;
  }

  private clear(): void {
    if (this.shown) this.write(ERASE_LINE);
    this.shown = false;
  }

  private draw(): void {
    if (this.finished) return;
    const groups = this.running.length ? ` · ${this.running.join(', ')}` : '';
    this.write(`${ERASE_LINE}${this.judged}/${this.total} checks judged${groups}`);
    this.shown = true;
  }
}

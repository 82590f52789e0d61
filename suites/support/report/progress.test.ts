import { describe, expect, it } from 'vitest';
import { ProgressLine } from './progress.ts';

/** What a terminal shows after `written`: each \r goes back to the line's start, \x1b[K erases the rest of it. */
function screen(written: string): string[] {
  const lines = [''];
  for (const part of written.split(/(\r\u001b\[K|\n)/)) {
    if (part === '\r\u001b[K') lines[lines.length - 1] = '';
    else if (part === '\n') lines.push('');
    else lines[lines.length - 1] += part;
  }
  return lines;
}

describe('ProgressLine', () => {
  const started = () => {
    let written = '';
    const progress = new ProgressLine(3, (text) => (written += text));
    return { progress, shown: () => screen(written) };
  };

  it('should show the checks judged of the total and the groups running, in place', () => {
    const { progress, shown } = started();
    progress.groupStarted('Statuses');
    progress.groupStarted('Media');
    progress.checkJudged();
    expect(shown()).toEqual(['1/3 checks judged · Statuses, Media']);
    progress.groupEnded('Statuses');
    expect(shown()).toEqual(['1/3 checks judged · Media']);
  });

  it('should print whole lines above the progress line', () => {
    const { progress, shown } = started();
    progress.groupStarted('Statuses');
    progress.checkJudged();
    progress.print('Statuses: 1 passed\n');
    expect(shown()).toEqual(['Statuses: 1 passed', '1/3 checks judged · Statuses']);
  });

  it('should never count past the total, and once finished leave its line empty under the lines printed after', () => {
    const { progress, shown } = started();
    for (let i = 0; i < 5; i++) progress.checkJudged();
    expect(shown()).toEqual(['3/3 checks judged']);
    progress.finish();
    expect(shown()).toEqual(['']);
    progress.print('Conformance: PASS\n');
    expect(shown()).toEqual(['Conformance: PASS', '']);
  });
});

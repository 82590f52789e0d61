import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Exchange } from '../talk/http.ts';
import { useAnnouncer } from '../talk/pacing.ts';
import { now, sawUnsettled, settle, useSettleWindow, windowPassed } from './settle.ts';

const answer = (status: number) => ({ status }) as Exchange;

/** A read whose answers come in this order, counting how many were sent. */
function reads(...statuses: number[]): { read: () => Promise<Exchange>; sent: () => number } {
  let sent = 0;
  return { read: async () => answer(statuses[Math.min(sent++, statuses.length - 1)] as number), sent: () => sent };
}

const gone = (exchange: Exchange) => exchange.status === 404;

describe('settle', () => {
  // The window is read on the clock the pauses advance: a busy machine, whose timers fire late, changes no read.
  const onFakeClock = async <T>(settling: () => Promise<T>): Promise<T> => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const settled = settling();
      await vi.runAllTimersAsync();
      return await settled;
    } finally {
      vi.useRealTimers();
    }
  };

  it('should send no read beyond the first where it shows the state, and none at all where the answer given does', async () => {
    useSettleWindow(1000);
    const once = reads(404);
    expect(await settle(once.read, gone, now())).toEqual({ exchange: answer(404), shown: true });
    expect(once.sent()).toBe(1);
    const none = reads(404);
    expect((await settle(none.read, gone, now(), answer(404))).shown).toBe(true);
    expect(none.sent()).toBe(0);
    expect(sawUnsettled()).toBe(false);
  });

  it('should read again, with pauses, while the state is not there, and say how late it showed', async () => {
    useSettleWindow(2000);
    const late = reads(200, 404);
    const settled = await onFakeClock(() => settle(late.read, gone, now()));
    expect(settled.shown).toBe(true);
    expect(settled.lateMs).toBeGreaterThanOrEqual(350);
    expect(late.sent()).toBe(2);
    expect(sawUnsettled()).toBe(true);
  });

  it('should stop at the end of the window with the last answer', async () => {
    useSettleWindow(500);
    const never = reads(200);
    const { settled, waited } = await onFakeClock(async () => {
      const started = now();
      return { settled: await settle(never.read, gone, started), waited: now() - started };
    });
    expect(settled).toEqual({ exchange: answer(200), shown: false });
    expect(waited).toBe(500);
    expect(never.sent()).toBe(3);
  });
});

describe('windowPassed', () => {
  afterEach(() => useAnnouncer(undefined));

  it('should say so in a line when the window leaves more than 2 s to wait, and wait silently otherwise', async () => {
    const announced: string[] = [];
    useAnnouncer((line) => announced.push(line));
    useSettleWindow(3000);
    // A window that began 2.5 s ago leaves half a second: no line.
    await windowPassed(now() - 2500, 'a read');
    expect(announced).toEqual([]);
    const started = now();
    await windowPassed(now() - 900, "the cleanup's reads");
    expect(now() - started).toBeGreaterThanOrEqual(2000);
    expect(announced).toEqual([expect.stringMatching(/^… waiting 3 s, until \d\d:\d\d:\d\d UTC, for the settle window \(3000 ms\) to pass, before the cleanup's reads$/)]);
  });
});

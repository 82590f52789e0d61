import { describe, expect, it } from 'vitest';
import type { Exchange } from '../talk/http.ts';
import { now, sawUnsettled, settle, useSettleWindow } from './settle.ts';

const answer = (status: number) => ({ status }) as Exchange;

/** A read whose answers come in this order, counting how many were sent. */
function reads(...statuses: number[]): { read: () => Promise<Exchange>; sent: () => number } {
  let sent = 0;
  return { read: async () => answer(statuses[Math.min(sent++, statuses.length - 1)] as number), sent: () => sent };
}

const gone = (exchange: Exchange) => exchange.status === 404;

describe('settle', () => {
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
    const settled = await settle(late.read, gone, now());
    expect(settled.shown).toBe(true);
    expect(settled.lateMs).toBeGreaterThanOrEqual(350);
    expect(late.sent()).toBe(2);
    expect(sawUnsettled()).toBe(true);
  });

  it('should stop at the end of the window with the last answer', async () => {
    useSettleWindow(500);
    const started = now();
    const never = reads(200);
    const settled = await settle(never.read, gone, started);
    expect(settled).toEqual({ exchange: answer(200), shown: false });
    expect(now() - started).toBeLessThan(1500);
    expect(never.sent()).toBe(3);
  });
});

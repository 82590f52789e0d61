// Turns on a narrow bucket: while a step holds it, no call of another step that spends it comes between the turns.
import { describe, expect, it } from 'vitest';
import { bucketTurnsMemory, holdBuckets, inTurn, shareBucketTurns } from './bucket-turns.ts';

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('turns on a narrow bucket', () => {
  it("should let no other step's call of a held bucket fall between the turns, nor start the turns while one is in flight", async () => {
    shareBucketTurns(bucketTurnsMemory());
    const order: string[] = [];
    const call = (name: string, ms = 20) =>
      inTurn(['Account access', 'IP access', 'Uploading'], async () => {
        order.push(`${name} sent`);
        await pause(ms);
        order.push(`${name} answered`);
      });
    // An upload of another group is in flight when the turns are asked for: they start after its answer.
    const before = call('other before', 60);
    await pause(5);
    const turns = holdBuckets(['Uploading'], async () => {
      await call('turn 1');
      await pause(30);
      await call('turn 2');
    });
    await pause(20);
    // Asked for while the turns hold the bucket: it goes after them.
    const during = call('other during');
    // A call of another bucket is not held back.
    const deletion = inTurn(['Deletion'], async () => void order.push('deletion sent'));
    await Promise.all([before, turns, during, deletion]);
    const at = (entry: string) => order.indexOf(entry);
    expect(at('turn 1 sent')).toBeGreaterThan(at('other before answered'));
    expect(at('other during sent')).toBeGreaterThan(at('turn 2 answered'));
    expect(at('deletion sent')).toBeLessThan(at('turn 2 answered'));
  });

  it('should release the bucket when the turns throw', async () => {
    shareBucketTurns(bucketTurnsMemory());
    await expect(holdBuckets(['Deletion'], async () => Promise.reject(new Error('no answer')))).rejects.toThrow('no answer');
    const sent = await Promise.race([inTurn(['Deletion'], async () => 'sent'), pause(500).then(() => 'waited')]);
    expect(sent).toBe('sent');
  });
});

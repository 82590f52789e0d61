import { describe, expect, it } from 'vitest';
import { LIMITS } from '../talk/pacing.ts';
import type { Exchange } from '../talk/http.ts';
import type { Actor } from './actors.ts';
import { DeletionShare } from './deletion-share.ts';
import { classesOf, costOf, coverageLines, drawInputs, exploreAnnouncement, exploreDeletionsOf, EXPLORE_DELETIONS, isMalformed, NAMING_NOTHING, OPERATIONS, operationNamed, scopeOf, shrink, smallerMalformed, type Sent } from './explore-inputs.ts';

/** A default share as the run's plan may leave it. */
const SHARE = 2;
/** A release that has every clause the exploration is gated by, as 3.2.0 has. */
const settings = (explore?: number) => ({ ...(explore === undefined ? {} : { explore }), share: SHARE, released: () => true, withB: true });

describe('the explored inputs', () => {
  it('should draw the same inputs from one seed, and other ids from another', () => {
    const scope = scopeOf(settings(200));
    expect(drawInputs(scope, 1)).toEqual(drawInputs(scope, 1));
    const values = (seed: number) => drawInputs(scope, seed).flatMap((input) => (input.value === undefined ? [] : [input.value]));
    expect(values(2)).not.toEqual(values(1));
  });

  it('should reach every operation of the scope before it reaches any twice', () => {
    const inputs = drawInputs(scopeOf(settings(200)), 1);
    const firstRound = inputs.slice(0, OPERATIONS.length).map((input) => input.operation);
    expect(new Set(firstRound).size).toBe(OPERATIONS.length);
  });

  it('should send every class of every operation once before any random draw, as far as the requests go', () => {
    const inputs = drawInputs(scopeOf(settings(1000)), 1);
    const covering = inputs.filter((input) => input.drawnBy === 'covering');
    const deleting = (op: (typeof OPERATIONS)[number]) => op.deletes || op.name === 'reblog';
    for (const op of OPERATIONS.filter((op) => !deleting(op))) {
      expect(new Set(covering.filter((input) => input.operation === op.name).map((input) => input.idClass)), op.name).toEqual(new Set(classesOf(op)));
    }
    expect(inputs.some((input) => input.drawnBy === 'random')).toBe(true);
  });

  it('should keep the default share to ids that name nothing, on the operations that delete nothing, within its requests', () => {
    const inputs = drawInputs(scopeOf(settings()), 1);
    expect(inputs.reduce((sum, input) => sum + costOf(input).requests, 0)).toBeLessThanOrEqual(SHARE);
    expect(inputs.every((input) => NAMING_NOTHING.includes(input.idClass) && !operationNamed(input.operation).deletes)).toBe(true);
    expect(inputs.every((input) => costOf(input).deletions === 0)).toBe(true);
  });

  it('should keep --explore N within its requests and its deletions, and --explore 0 to nothing', () => {
    const inputs = drawInputs(scopeOf(settings(300)), 5);
    expect(inputs.reduce((sum, input) => sum + costOf(input).requests, 0)).toBeLessThanOrEqual(SHARE + 300);
    expect(inputs.reduce((sum, input) => sum + costOf(input).deletions, 0)).toBeLessThanOrEqual(EXPLORE_DELETIONS.A.inputs);
    expect(drawInputs(scopeOf(settings(0)), 1)).toEqual([]);
  });

  it('should leave out the classes that need B where B is not configured, and say what the scope left out', () => {
    const scope = scopeOf({ ...settings(200), withB: false });
    const inputs = drawInputs(scope, 1);
    expect(inputs.some((input) => input.idClass === 'visible' || input.idClass === 'hidden')).toBe(false);
    expect(coverageLines(scope, inputs).find((line) => line.startsWith('read:'))).toMatch(/left out: visible \(outside the scope\), hidden \(outside the scope\)/);
  });

  it('should shrink a malformed id to smaller ones that are still malformed, smallest first', () => {
    expect(smallerMalformed('ab1')).toEqual(['1', 'a', 'ab', 'b1'].filter(isMalformed));
    expect(smallerMalformed('-15')[0]).toBe('-');
    expect(isMalformed('..')).toBe(false);
    expect(isMalformed('123')).toBe(false);
  });

  it('should shrink a DELETE of a malformed id only within the deletions the inputs left, whatever the server answers', async () => {
    // A server that answers every DELETE 500: each smaller id still breaks, so only the share stops the shrinker.
    const deletes: string[] = [];
    const answer = (path: string): Exchange => ({ method: 'DELETE', url: path, path, actor: 'A', requestHeaders: {}, status: 500, headers: {}, text: '', truncated: false, ms: 1 });
    const caller = { delete: async (path: string) => (deletes.push(path), answer(path)) } as unknown as Actor;
    const finding: Sent = { input: { operation: 'delete', idClass: 'malformed', value: 'abcdef', drawnBy: 'covering' }, id: 'abcdef', exchange: answer('/api/v1/statuses/abcdef') };
    const share = new DeletionShare(1);
    await shrink(caller, { ...finding, exchange: answer('x') }, () => false, true, share);
    expect(deletes, 'one value tried: the one deletion left').toHaveLength(1);
    expect(share.remaining).toBe(0);
    await shrink(caller, finding, () => false, true, share);
    expect(deletes, 'none left: nothing more sent').toHaveLength(1);
  });

  it('should announce the windows --explore N takes past the run\'s one, and each account\'s deletions it adds', () => {
    expect(exploreAnnouncement(10, { fewest: 1, most: 1 }, 285, 5)).toMatch(/still fits one window/);
    expect(exploreAnnouncement(600, { fewest: 4, most: 4 }, 285, 5)).toMatch(/takes 4 windows .*, so it waits 3 times, up to 5 minutes each, for a reset/);
    expect(exploreAnnouncement(200, { fewest: 4, most: 5 }, 285, 5)).toMatch(/takes 4 to 5 windows .*, so it waits 3 to 4 times,/);
    expect(exploreAnnouncement(200, { fewest: 2, most: 2 }, 285, 5)).toContain(`up to ${exploreDeletionsOf('A')} more of A's (2 objects, `);
    expect(exploreAnnouncement(200, { fewest: 2, most: 2 }, 285, 5)).toContain(`${exploreDeletionsOf('B')} more of B's (2 objects, ${EXPLORE_DELETIONS.B.creations} creations, ${EXPLORE_DELETIONS.B.sequences} sequences)`);
  });

  it('should say that N goes to the explored inputs and again to the sequences, the other parts beside it, and the plan in all', () => {
    const line = exploreAnnouncement(200, { fewest: 3, most: 5 }, 285, 5, { api: 70, oauth: 43 }, undefined, { sequences: true, plannedCalls: 836 });
    expect(line).toContain('gives up to 200 requests to the explored inputs (the access matrix first, then the inputs on ids and the creations) and up to 200 to the state machine\'s sequences');
    expect(line).toContain('adds beside them 21 for the objects');
    expect(line).toContain('the run\'s plan then counts at most 836 IP access calls in all');
    expect(exploreAnnouncement(200, { fewest: 3, most: 5 }, 285, 5, undefined, undefined, { sequences: false, plannedCalls: 500 })).not.toContain('to the state machine\'s sequences');
  });

  it('should keep each account\'s deletions under --explore N, beside a run\'s own 15, within the Deletion bucket\'s 30', () => {
    // A run's own: at most half the bucket, so that two runs in a row fit (suites/self/budget.test.ts holds it).
    for (const who of ['A', 'B'] as const) expect(15 + exploreDeletionsOf(who), who).toBeLessThanOrEqual(LIMITS.Deletion.limit);
  });
});

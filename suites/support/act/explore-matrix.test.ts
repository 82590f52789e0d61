import { describe, expect, it } from 'vitest';
import { ALL_CELLS, askedByDefault, cellCost, matrixAnnouncement, matrixSettingsOf, MATRIX_OBJECT_REQUESTS, MATRIX_STATUSES, planMatrix } from './explore-matrix.ts';
import { EXPLORE_DELETIONS } from './explore-inputs.ts';

/** A run with B, on a release that has every operation, not in whitelist mode. */
const settings = (more: { withB?: boolean; whitelistMode?: boolean } = {}) => matrixSettingsOf({ withB: more.withB ?? true, whitelistMode: more.whitelistMode ?? false, released: () => true, share: 0 });
const key = (c: { operation: string; caller: string; visibility: string }) => `${c.operation} ${c.caller} ${c.visibility}`;

describe('the access matrix as explored inputs', () => {
  it('should hold 180 cells, of which the default run asks 62', () => {
    expect(ALL_CELLS).toHaveLength(180);
    expect(ALL_CELLS.filter(askedByDefault)).toHaveLength(62);
  });

  it('should send every cell the default run does not ask once, but those its deletions cannot pay for, each left out with why', () => {
    const plan = planMatrix(settings(), Number.MAX_SAFE_INTEGER);
    expect(plan.cells.some(askedByDefault)).toBe(false);
    expect(new Set(plan.cells.map(key)).size).toBe(plan.cells.length);
    expect([...plan.cells, ...plan.leftOut.map((l) => l.cell)].map(key).sort()).toEqual(ALL_CELLS.map(key).sort());
    const deleting = plan.leftOut.filter((l) => l.why === "beyond the matrix's deletions");
    expect(deleting.every(({ cell }) => cellCost(cell).deletions > 0)).toBe(true);
    expect(plan.leftOut.every((l) => l.why === 'asked by the default run' || l.why === "beyond the matrix's deletions")).toBe(true);
    expect(plan.requests).toBe(MATRIX_OBJECT_REQUESTS + plan.cells.reduce((sum, cell) => sum + cellCost(cell).requests, 0));
  });

  it("should keep A's part of the Deletion bucket: its statuses, and its cells' deletions within what is left", () => {
    const plan = planMatrix(settings(), Number.MAX_SAFE_INTEGER);
    const spent = (caller: string) => plan.cells.filter((cell) => cell.caller === caller).reduce((sum, cell) => sum + cellCost(cell).deletions, 0);
    expect(MATRIX_STATUSES.length + spent('owner')).toBeLessThanOrEqual(EXPLORE_DELETIONS.A.matrix);
    expect(spent('other')).toBe(0);
  });

  it('should send the guards first and a tokenless DELETE last, within the requests given, and nothing where they do not pay for its statuses', () => {
    const plan = planMatrix(settings(), Number.MAX_SAFE_INTEGER);
    const lastOwner = plan.cells.map((c) => c.caller).lastIndexOf('owner');
    expect(plan.cells.findIndex((c) => c.caller === 'owner')).toBeGreaterThan(plan.cells.map((c) => c.caller).lastIndexOf('other'));
    expect(plan.cells.slice(lastOwner + 1).every((c) => c.operation === 'delete' && c.caller === 'none')).toBe(true);
    const cut = planMatrix(settings(), 60);
    expect(cut.requests).toBeLessThanOrEqual(60);
    expect(cut.leftOut.some((l) => l.why === 'beyond the requests')).toBe(true);
    expect(planMatrix(settings(), MATRIX_OBJECT_REQUESTS - 1)).toMatchObject({ cells: [], requests: 0 });
  });

  it("should leave out B's cells without B, and tokenless reads in whitelist mode", () => {
    expect(planMatrix(settings({ withB: false }), Number.MAX_SAFE_INTEGER).cells.some((c) => c.caller === 'other')).toBe(false);
    const whitelisted = planMatrix(settings({ whitelistMode: true }), Number.MAX_SAFE_INTEGER).cells;
    expect(whitelisted.some((c) => c.caller === 'none' && (c.operation === 'reblogged_by' || c.operation === 'favourited_by'))).toBe(false);
    expect(whitelisted.some((c) => c.caller === 'none' && c.operation === 'bookmark')).toBe(true);
  });

  it('should announce what the matrix takes of --explore N, and from which N it is whole', () => {
    const whole = planMatrix(settings(), Number.MAX_SAFE_INTEGER);
    expect(matrixAnnouncement(200)).toContain(`the first ${whole.requests} of them: the whole matrix`);
    expect(matrixAnnouncement(50)).toContain(`(--explore ${whole.requests} sends them all)`);
  });
});

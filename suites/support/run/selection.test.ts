import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editDistance, listing, nearest, runWideChecks, selectedOf, selectionMistake, selectionOf, suiteGroups, withoutSkipped, type SelectedCheck } from './selection.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const ids = (checks: readonly SelectedCheck[]) => checks.map((c) => c.title.split(' ')[0]);

describe('selectionOf', () => {
  it('should match ids and group names whatever their case', () => {
    expect(selectionOf({ group: ['OAuth', 'statuses.test.ts'], only: ['status-read'], exclude: ['Status-Read-2'] })).toEqual({
      groups: ['oauth', 'statuses'],
      only: ['STATUS-READ'],
      exclude: ['STATUS-READ-2'],
    });
  });
});

describe('selectedOf', () => {
  it('should take the checks --only names less those --exclude names, and run only the files that hold one', () => {
    const plan = selectedOf(ROOT, selectionOf({ only: ['status-read'], exclude: ['STATUS-READ-2'] }));
    // The explored inputs (suites/explore.test.ts) judge three of these clauses too.
    expect(ids(plan.checks)).toEqual(['STATUS-READ-1', 'STATUS-READ-3', 'STATUS-READ-5', 'STATUS-READ-1', 'STATUS-READ-3', 'STATUS-READ-4', 'STATUS-READ-5']);
    expect(plan.run).toEqual(['suites/explore.test.ts', 'suites/statuses.test.ts']);
    expect(plan.unselected).toHaveLength(suiteGroups(ROOT).length - 2);
  });

  it('should take a group by the name the reports show, in any case, as by its file name', () => {
    for (const name of ['States and transitions', 'STATES AND TRANSITIONS', 'statuses-interactions', 'Authentication']) expect(selectionMistake(ROOT, selectionOf({ group: [name] })), name).toBeUndefined();
    expect(selectedOf(ROOT, selectionOf({ group: ['States and transitions', 'statuses-interactions'] })).run).toEqual(['suites/statuses-interactions.test.ts']);
    expect(selectedOf(ROOT, selectionOf({ group: ['authentication'], only: ['AUTH-'] })).checks.map((c) => c.group)).toContain('Authentication');
  });

  it('should run the named groups, or all of them through vitest\'s include, where nothing narrows the selection', () => {
    expect(selectedOf(ROOT, selectionOf({ group: ['oauth'] })).run).toEqual(['suites/oauth.test.ts']);
    const whole = selectedOf(ROOT, selectionOf({}));
    expect(whole.run).toEqual([]);
    expect(whole.checks.length).toBeGreaterThan(100);
  });

  it('should keep every file of a shard, so that the shards slice the same list', () => {
    expect(selectedOf(ROOT, selectionOf({ only: ['OAUTH-'] }), true).run).toHaveLength(suiteGroups(ROOT).length);
  });
});

describe('selectionMistake', () => {
  it.each([
    ['an --only prefix no check takes', { only: ['STATUS-RAED'] }, '--only "STATUS-RAED" matches no check; nearest ids: "STATUS-READ"'],
    ['an --exclude prefix no check takes', { exclude: ['oauth-tokn'] }, '--exclude "OAUTH-TOKN" matches no check; nearest ids: "OAUTH-TOKEN"'],
    ['an unknown group', { group: ['statuss'] }, 'unknown group "statuss": no suites/statuss.test.ts, and no group shows that name; nearest: "statuses"'],
    ['a group\'s name misspelt', { group: ['States and transitons'] }, 'unknown group "states and transitons": no suites/states and transitons.test.ts, and no group shows that name; nearest: "States and transitions"'],
    ['a selection that takes no check', { group: ['oauth'], only: ['STATUS-READ'] }, 'the selection (--group, --only, --exclude) takes no check'],
  ])('should name %s, with the nearest names', (_what, flags, start) => {
    expect(selectionMistake(ROOT, selectionOf(flags))).toMatch(new RegExp(`^${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('should find none in a selection that takes checks', () => {
    expect(selectionMistake(ROOT, selectionOf({ group: ['statuses'], only: ['status-'], exclude: ['STATUS-READ'] }))).toBeUndefined();
  });
});

describe('nearest', () => {
  it('should rank by edit distance, then by the longest common start (STATUS-REBLOG and STATUS are 5 edits away)', () => {
    expect(editDistance('STATUS-RAED', 'STATUS-READ')).toBe(2);
    expect(nearest('STATUS-RAED', ['OAUTH', 'STATUS', 'STATUS-REBLOG', 'STATUS-READ'], 2)).toEqual(['STATUS-READ', 'STATUS-REBLOG']);
  });
});

describe('listing', () => {
  const NONE = { api: 0, oauth: 0, files: 0, streams: 0 };
  const status = { name: "A's public status", as: 'A', cost: { api: 2 }, mayAdd: 1 };
  const check = (title: string, needs: string[] = [], removedIn?: string): SelectedCheck => ({
    file: 'suites/statuses.test.ts',
    group: 'Statuses',
    title,
    needs,
    ...(removedIn ? { removedIn } : {}),
    steps: [],
    cost: NONE,
  });

  it("should give a line per check in columns: clause id, group, needs, cost, the check's sentence; its steps under it; then the steps of all, each once, and the count", () => {
    const read = { ...check('STATUS-READ-1 a public status', ['CONFORMANCE_TOKEN_B']), steps: [status], cost: { ...NONE, api: 2 } };
    const again = { ...check('STATUS-READ-22 another'), steps: [status, { name: "B's read", as: 'B', cost: { api: 1 }, mayAdd: 0 }], cost: { ...NONE, api: 3 } };
    expect(listing([read, again])).toEqual([
      'CLAUSE          GROUP     NEEDS                COST    CHECK',
      'STATUS-READ-1   Statuses  CONFORMANCE_TOKEN_B  2 /api  a public status',
      "    step: A's public status (as A; 2 /api; may add 1)",
      'STATUS-READ-22  Statuses  -                    3 /api  another',
      "    step: A's public status (as A; 2 /api; may add 1)",
      "    step: B's read (as B; 1 /api; may add 0)",
      '2 steps, each run once: 3 /api; a deviating server may add at most 1 calls',
      '2 checks in 1 group',
    ]);
  });

  it('should list the run-wide checks a run reports, one per run-wide clause whose check runs at the release, and count them apart', () => {
    const checks = [check('RESOURCE-STATUS-1 a Status has the fields'), check('RESOURCE-CARD-1 a Card has the fields', ['release < 3.0.0'], '3.0.0'), check('STATUS-READ-1 a public status')];
    const clauses = [
      { id: 'RESOURCE-STATUS-1', sentence: 'every Status the run met' },
      { id: 'RESOURCE-CARD-1', sentence: 'every Card the run met' },
      { id: 'ERRORS-BODY-1', sentence: 'every error answer' },
    ];
    const runWide = runWideChecks(checks, clauses, '3.2.0');
    expect(runWide.map((c) => c.title)).toEqual(['RESOURCE-STATUS-1 every Status the run met (run-wide)']);
    expect(runWideChecks(checks, clauses, '2.9.0')).toHaveLength(2);
    const lines = listing(checks, runWide);
    expect(lines.at(-3)).toMatch(/^RESOURCE-STATUS-1 +Statuses +- +nothing +every Status the run met \(run-wide\)$/);
    expect(lines.at(-1)).toBe("4 checks in 1 group: 3 of the group's own and 1 run-wide (one per run-wide clause whose check runs, judged over every group and counted in its check's group), as a run counts them");
  });

  it('should leave out the checks the expectations file skips', () => {
    const checks = [check('STATUS-READ-1 a public status'), check('STATUS-READ-2 the owner reads')];
    expect(ids(withoutSkipped(checks, [{ check: 'STATUS-READ-2', expect: 'skip', reason: 'r' }]))).toEqual(['STATUS-READ-1']);
  });
});

// The one result per run-wide clause that the reporter makes of every file's observations.
import { describe, expect, it, type TaskMeta } from 'vitest';
import type { Mismatch } from '../judge/run-wide.ts';
import type { CheckResult } from './results.ts';
import { runWideResults } from './run-wide-results.ts';
import { stopReason } from '../judge/run-stop.ts';

describe('runWideResults', () => {
  const own = (clause: string, status: CheckResult['status']): CheckResult => ({
    clause,
    title: `${clause} this group`,
    group: 'Statuses',
    file: 'suites/statuses.test.ts',
    line: 7,
    status,
    outcome: status,
    severity: 'MUST',
    durationMs: 0,
    observations: [],
  });
  const mismatch: Mismatch = { expected: 'Status /favourites_count: integer', actual: 'Status /favourites_count: "0"', exchange: '  request:  GET /api/v1/statuses/1  (as A)' };
  const metas: TaskMeta[] = [
    { runWide: { judged: { 'RESOURCE-STATUS-1': 3, 'RESOURCE-TOKEN-1': 1 }, mismatches: {} } },
    { runWide: { judged: { 'RESOURCE-STATUS-1': 4 }, mismatches: { 'RESOURCE-STATUS-1': { favourites: mismatch } } } },
    { runWide: { judged: { 'RESOURCE-STATUS-1': 2 }, mismatches: { 'RESOURCE-STATUS-1': { favourites: { ...mismatch, exchange: 'a later one' } } } } },
  ];

  it('should judge a clause over every file of the run when its owning check was not skipped', () => {
    const checks = [own('RESOURCE-STATUS-1', 'passed'), own('RESOURCE-TOKEN-1', 'blocked'), own('RESOURCE-ACCOUNT-1', 'skipped')];
    const results = runWideResults(metas, checks, []);
    expect(results.map((r) => [r.clause, r.status, r.line])).toEqual([
      ['RESOURCE-STATUS-1', 'failed', 7],
      ['RESOURCE-TOKEN-1', 'passed', 7],
    ]);
    // The same mismatch in two files is one, shown with the first exchange.
    expect(results[0]?.message).toContain('actual:   Status /favourites_count: "0"');
    expect(results[0]?.failure?.exchange).toBe(mismatch.exchange);
    expect(results[0]?.observations).toEqual(['9 judged across the run']);
  });

  it('should pass a clause only when the run judged an instance of it, and say why it judged none', () => {
    const headers = (id: string, judged: number): TaskMeta => ({ runWide: { judged: { [id]: judged }, mismatches: {} } });
    const bodyless: TaskMeta = { runWide: { judged: { 'ERRORS-BODY-1': 2 }, mismatches: { 'ERRORS-BODY-1': { plain: { expected: 'a JSON body {"error": string}', actual: 'HTTP 404: 404 Not Found' } } } } };
    const blockedBy = { clause: 'STATUS-POLL-1', summary: 'a status created with poll[options][] answered poll null' };
    const checks = [own('RESOURCE-POLL-1', 'blocked'), own('RESOURCE-SCHEDULED-1', 'passed'), own('ERRORS-BODY-1', 'failed'), own('ERRORS-TEXT-1', 'passed')];
    checks[0] = { ...(checks[0] as CheckResult), blockedBy };
    const results = runWideResults([headers('RESOURCE-SCHEDULED-1', 0), bodyless], checks, []);
    const of = (id: string) => results.find((r) => r.clause === id);
    // The owning check's block is the run-wide result's: no Poll was met anywhere.
    expect(of('RESOURCE-POLL-1')).toMatchObject({ status: 'blocked', outcome: 'blocked', blockedBy, judged: 0 });
    // Nothing failed that explains it: not judged, with the reason.
    expect(of('RESOURCE-SCHEDULED-1')).toMatchObject({ status: 'not-judged', outcome: 'not-judged', judged: 0, notJudged: expect.stringContaining('ScheduledStatus') });
    // No error answer carried {error: string}: ERRORS-BODY-1, which failed, left ERRORS-TEXT-1 nothing to read.
    expect(of('ERRORS-TEXT-1')).toMatchObject({ status: 'blocked', blockedBy: { clause: 'ERRORS-BODY-1', summary: 'HTTP 404: 404 Not Found' } });
  });

  it('should report a clause skipped, as its checks, when the run stopped before any of them (--max-failures)', () => {
    const reason = stopReason(1);
    const checks = [own('RESOURCE-STATUS-1', 'passed'), { ...own('RESOURCE-TOKEN-1', 'skipped'), skipReason: reason }];
    const results = runWideResults(metas, checks, []);
    expect(results.map((r) => [r.clause, r.status, r.skipReason])).toEqual([
      ['RESOURCE-STATUS-1', 'failed', undefined],
      ['RESOURCE-TOKEN-1', 'skipped', reason],
    ]);
  });

  it('should add nothing to a run that left the owning checks out', () => {
    expect(runWideResults(metas, [{ ...own('STATUS-READ-1', 'passed') }], [])).toEqual([]);
  });
});

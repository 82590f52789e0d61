// The results of one run, as the reporter collects them, and the report files made from them:
// results.json (everything), junit.xml (CI systems) and summary.md (a CI job summary).
import { CLAUSE_ID } from './clauses.ts';
import type { Counts } from './counts.ts';
import { redact } from './redact.ts';

export type CheckStatus = 'passed' | 'failed' | 'skipped';

export interface CheckResult {
  /** The clause the check names in its title. */
  clause: string;
  title: string;
  group: string;
  file: string;
  status: CheckStatus;
  durationMs: number;
  /** The clause the failure names (a schema mismatch found in another check names its resource's clause). */
  failedClause?: string;
  message?: string;
  skipReason?: string;
  observations: string[];
}

export interface GroupResult {
  name: string;
  file: string;
  durationMs: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Errors that are no check's: a suite file that could not load, a hook that threw. */
  errors: string[];
}

export interface RunResults {
  server: { baseUrl: string; embedded: boolean; version: string; faults: string[] };
  startedAt: string;
  durationMs: number;
  totals: { checks: number; passed: number; failed: number; skipped: number };
  groups: GroupResult[];
  checks: CheckResult[];
  counts: Counts;
  leftovers: string[];
  /** Errors outside any check (unhandled rejections...): each fails the run. */
  errors: string[];
}

export function clauseOfTitle(title: string): string {
  return CLAUSE_ID.exec(title)?.[0] ?? 'UNNAMED';
}

export function failedClauseOf(message: string): string | undefined {
  return CLAUSE_ID.exec(message)?.[0];
}

export function totalsOf(checks: readonly CheckResult[]): RunResults['totals'] {
  return {
    checks: checks.length,
    passed: checks.filter((c) => c.status === 'passed').length,
    failed: checks.filter((c) => c.status === 'failed').length,
    skipped: checks.filter((c) => c.status === 'skipped').length,
  };
}

const xml = (s: string) =>
  s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function junitXml(results: RunResults): string {
  const suites = results.groups.map((group) => {
    const checks = results.checks.filter((c) => c.file === group.file);
    const cases = checks.map((c) => {
      const open = `    <testcase classname="${xml(group.name)}" name="${xml(c.title)}" time="${(c.durationMs / 1000).toFixed(3)}"`;
      if (c.status === 'failed') {
        const first = (c.message ?? '').split('\n')[0] ?? '';
        return `${open}>\n      <failure message="${xml(first)}" type="${xml(c.failedClause ?? c.clause)}">${xml(c.message ?? '')}</failure>\n    </testcase>`;
      }
      if (c.status === 'skipped') return `${open}>\n      <skipped message="${xml(c.skipReason ?? '')}"/>\n    </testcase>`;
      return `${open}/>`;
    });
    const errors = group.errors.map((e, i) => `    <testcase classname="${xml(group.name)}" name="${xml(`${group.name} could not run (${i + 1})`)}">\n      <error message="${xml(e.split('\n')[0] ?? '')}">${xml(e)}</error>\n    </testcase>`);
    return `  <testsuite name="${xml(group.name)}" tests="${checks.length + errors.length}" failures="${group.failed}" errors="${group.errors.length}" skipped="${group.skipped}" time="${(group.durationMs / 1000).toFixed(3)}">\n${[...cases, ...errors].join('\n')}\n  </testsuite>`;
  });
  const t = results.totals;
  return redact(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="social-api-conformance" tests="${t.checks}" failures="${t.failed}" skipped="${t.skipped}" time="${(results.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`);
}

export function summaryMarkdown(results: RunResults): string {
  const t = results.totals;
  const verdict = t.failed > 0 || results.errors.length > 0 ? 'FAIL' : 'PASS';
  const lines = [
    `# Conformance: ${verdict}`,
    '',
    `Server: ${results.server.baseUrl}${results.server.embedded ? ' (embedded reference server)' : ''}, release ${results.server.version}`,
    '',
    '| checks | passed | failed | skipped | requests | duration |',
    '|---|---|---|---|---|---|',
    `| ${t.checks} | ${t.passed} | ${t.failed} | ${t.skipped} | ${results.counts.total} | ${(results.durationMs / 1000).toFixed(1)} s |`,
    '',
  ];
  const failed = results.checks.filter((c) => c.status === 'failed');
  if (failed.length > 0) {
    lines.push('## Failures by clause', '');
    const byClause = new Map<string, CheckResult[]>();
    for (const c of failed) byClause.set(c.failedClause ?? c.clause, [...(byClause.get(c.failedClause ?? c.clause) ?? []), c]);
    for (const [id, checks] of [...byClause].sort()) {
      lines.push(`- **${id}**: ${checks.map((c) => c.title).join('; ')}`);
    }
    lines.push('');
  }
  if (results.errors.length > 0 || results.groups.some((g) => g.errors.length > 0)) {
    lines.push('## Errors outside checks', '');
    for (const e of [...results.errors, ...results.groups.flatMap((g) => g.errors)]) lines.push(`- ${e.split('\n')[0]}`);
    lines.push('');
  }
  const skipped = results.checks.filter((c) => c.status === 'skipped');
  if (skipped.length > 0) {
    lines.push('## Skipped', '');
    for (const c of skipped) lines.push(`- ${c.title}: ${c.skipReason ?? 'skipped'}`);
    lines.push('');
  }
  const c = results.counts;
  lines.push(
    '## Requests',
    '',
    `${c.total} requests; per account: ${Object.entries(c.perAccount).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; per bucket: ${Object.entries(c.perBucket).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}.`,
    `Status creations ${c.statusCreations}, deletions and unreblogs ${c.deletions}, uploads ${c.uploads}, stream connections ${c.streamConnections}.`,
    `Objects left behind: ${results.leftovers.length}${results.leftovers.length ? `: ${results.leftovers.join('; ')}` : ''}.`,
    '',
  );
  return redact(lines.join('\n'));
}

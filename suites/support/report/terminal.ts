// The end of the terminal output (and of a CI log), and the GitHub Actions annotations of the checks that need a
// person's eye.
import { blockedByCause, NOT_SELECTED, suiteErrorsOf } from './blocks.ts';
import { byFailedClause, checksCount, groupLine, leftBehindLine, leftBehindParts, planLine, redactedResults, releaseLine, timingLine, totalsLine, type CheckResult, type RunResults } from './results.ts';
import { rootCauseLine, ROOT_CAUSES_HEADING } from './root-causes.ts';
import { flippingChecks, intermittentChecks, repeatLines, verdictList, verdictsOf } from './stability.ts';

/** The terminal lists this many objects left behind; summary.md and the other reports list them all. */
const LEFT_BEHIND_SHOWN = 20;

/** The terminal ranks this many root causes, each with its curl line; summary.md and the other reports rank them all. */
const ROOT_CAUSES_SHOWN = 10;

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Each group's line once the run is judged, as summary.md and report.html give it (the run-wide results counted in
 * their owning group), with how long it ran, or "(not run)" for a group the selection took no check of.
 */
export function groupLines(results: Pick<RunResults, 'groups' | 'checks'>): string[] {
  const ran = new Set(results.checks.filter((c) => c.skipReason !== NOT_SELECTED).map((c) => c.file));
  return results.groups.map((g) => `${groupLine(g)} (${ran.has(g.file) ? seconds(g.durationMs) : 'not run'})`);
}

const verdictLine = (results: RunResults) =>
  `Conformance: ${results.verdict}: ${results.totals.checks} checks, ${totalsLine(results.totals)}; ${results.counts.total} requests in ${(results.durationMs / 1000).toFixed(1)} s`;

/** The errors of the suite itself (outside checks, and beside a check not judged), one line each. */
function suiteErrorLines(results: RunResults): string[] {
  return [
    ...[...results.errors, ...results.groups.flatMap((g) => g.errors)].map((e) => `Error of the suite: ${e.split('\n')[0]}`),
    ...suiteErrorsOf(results).map((e) => `Error of the suite beside a check not judged (not the server's; it decides no verdict, please report it): ${e}`),
  ];
}

/** The end of a quiet run's output (-q): the verdict and the errors of the suite, nothing else. */
export function quietSummary(raw: RunResults): string {
  const results = redactedResults(raw);
  return [verdictLine(results), ...suiteErrorLines(results)].join('\n');
}

/** The end of the terminal output (and of a CI log): verdict, totals, and what to look at. */
export function terminalSummary(raw: RunResults): string {
  const results = redactedResults(raw);
  const plan = planLine(results);
  const lines = [verdictLine(results), releaseLine(results), timingLine(results), ...(plan ? [plan] : [])];
  const causes = results.rootCauses;
  if (causes.length > 0) lines.push(ROOT_CAUSES_HEADING);
  causes.slice(0, ROOT_CAUSES_SHOWN).forEach((r, i) => {
    lines.push(`  ${i + 1}. ${rootCauseLine(r)}`);
    // A replay (more than one line) creates first what the request names: the run deleted its own objects.
    if (r.reproduce?.includes('\n')) lines.push(`     replay, to paste into sh with the CONFORMANCE_* variables set (the first lines create what the request names):`);
    if (r.reproduce) lines.push(...r.reproduce.split('\n').map((line) => `     ${line}`));
  });
  if (causes.length > ROOT_CAUSES_SHOWN) lines.push(`  ... and ${causes.length - ROOT_CAUSES_SHOWN} more in summary.md`);
  const list = (heading: string, checks: readonly CheckResult[]) => {
    if (checks.length === 0) return;
    lines.push(`${heading}:`);
    for (const [id, group] of byFailedClause(checks)) lines.push(`  ${id}: ${group.map((c) => c.title).join('; ')}`);
  };
  list('Failures by clause', results.checks.filter((c) => c.outcome === 'failed'));
  list('Warnings (SHOULD clauses)', results.checks.filter((c) => c.outcome === 'warning'));
  list('Expected failures', results.checks.filter((c) => c.outcome === 'expected-failure'));
  for (const c of intermittentChecks(results)) {
    lines.push(`Intermittent: ${c.title}: ${verdictList(verdictsOf(c))}`, ...repeatLines(c).map((line) => `  ${line}`));
  }
  for (const c of flippingChecks(results)) lines.push(`Flipping between runs: ${c.title}: ${verdictList(c.history ?? [])}`);
  for (const e of results.expectations.entries.filter((e) => e.state === 'unexpectedly passing')) {
    lines.push(`Unexpectedly passing${results.expectations.allowUnexpectedPass ? ' (allowed)' : ''}: ${e.check}: the expectations file says it fails (${e.reason})`);
  }
  lines.push(...suiteErrorLines(results));
  for (const group of blockedByCause(results.checks)) lines.push(`Blocked: ${checksCount(group.checks.length)} by ${group.label}`);
  for (const c of results.checks.filter((c) => c.outcome === 'not-judged')) lines.push(`Not judged: ${c.title}: ${c.notJudged ?? 'nothing was judged'}`);
  const skipped = results.checks.filter((c) => c.outcome === 'skipped');
  if (skipped.length) {
    const reasons = new Map<string, number>();
    for (const c of skipped) reasons.set(c.skipReason ?? 'skipped', (reasons.get(c.skipReason ?? 'skipped') ?? 0) + 1);
    lines.push(`Skipped: ${[...reasons].map(([reason, n]) => `${n} × ${reason}`).join('; ')}`);
  }
  lines.push(`Objects left behind: ${results.leftovers.length}`);
  const { byHand, applicationsLine } = leftBehindParts(results.leftovers);
  if (byHand.length > 0) lines.push(`  To remove by hand (${byHand.length}):`);
  for (const e of byHand.slice(0, LEFT_BEHIND_SHOWN)) lines.push(`    ${leftBehindLine(e)}`);
  if (byHand.length > LEFT_BEHIND_SHOWN) lines.push(`    ... and ${byHand.length - LEFT_BEHIND_SHOWN} more in summary.md`);
  if (applicationsLine) lines.push(`  Applications: ${applicationsLine} (client ids in summary.md)`);
  return lines.join('\n');
}

/** GitHub Actions workflow commands escape %, CR and LF in messages, and also , and : in properties. */
const ghData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const ghProperty = (s: string) => ghData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One ::error (or ::warning) line per check that needs a person's eye, for GitHub Actions. */
export function githubAnnotations(raw: RunResults): string[] {
  const results = redactedResults(raw);
  const annotate = (level: 'error' | 'warning', c: CheckResult, message: string) =>
    `::${level} file=${ghProperty(c.file)}${c.line ? `,line=${c.line}` : ''},title=${ghProperty(c.failedClause ?? c.clause)}::${ghData(message)}`;
  const lines: string[] = [];
  for (const c of results.checks) {
    if (c.outcome === 'failed') lines.push(annotate('error', c, `${c.title}\n${c.message ?? ''}`));
    if (c.outcome === 'warning') lines.push(annotate('warning', c, `SHOULD: ${c.title}\n${c.message ?? ''}`));
    if (c.outcome === 'unexpectedly-passing') {
      const level = results.expectations.allowUnexpectedPass ? 'warning' : 'error';
      lines.push(annotate(level, c, `unexpectedly passing: ${c.title}; the expectations file says it fails (${c.expectation?.reason ?? ''}): remove the entry`));
    }
  }
  for (const e of [...results.errors, ...results.groups.flatMap((g) => g.errors)]) lines.push(`::error title=conformance::${ghData(e)}`);
  for (const c of results.checks) if (c.suiteError) lines.push(`::warning file=${ghProperty(c.file)}${c.line ? `,line=${c.line}` : ''},title=error of the suite::${ghData(c.suiteError)}`);
  return lines;
}

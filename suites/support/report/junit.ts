// junit.xml: the run for CI systems, a testsuite per group and a testcase per check.
import { causeLabel } from '../judge/clauses.ts';
import { type CheckResult, redactedResults, type RunResults, type Totals } from './results.ts';

const xml = (s: string) =>
  s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A check as a JUnit testcase: only what fails the run is a <failure>; expected failures are <skipped>. */
function junitCase(c: CheckResult, group: string, allowUnexpectedPass: boolean): string {
  const open = `    <testcase classname="${xml(group)}" name="${xml(c.title)}" time="${(c.durationMs / 1000).toFixed(3)}"`;
  const firstLine = (c.message ?? '').split('\n')[0] ?? '';
  switch (c.outcome) {
    case 'failed':
      return `${open}>\n      <failure message="${xml(firstLine)}" type="${xml(c.failedClause ?? c.clause)}">${xml(c.message ?? '')}</failure>\n    </testcase>`;
    case 'unexpectedly-passing': {
      const why = `unexpectedly passing: the expectations file says it fails (${c.expectation?.reason ?? ''})`;
      return allowUnexpectedPass
        ? `${open}>\n      <system-out>${xml(why)}</system-out>\n    </testcase>`
        : `${open}>\n      <failure message="${xml(why)}" type="unexpectedly-passing">${xml(why)}</failure>\n    </testcase>`;
    }
    case 'expected-failure':
      return `${open}>\n      <skipped message="${xml(`expected failure: ${c.expectation?.reason ?? ''}`)}"/>\n      <system-out>${xml(c.message ?? '')}</system-out>\n    </testcase>`;
    case 'warning':
      return `${open}>\n      <system-out>${xml(`WARNING (SHOULD clause ${c.failedClause ?? c.clause}): ${c.message ?? ''}`)}</system-out>\n    </testcase>`;
    case 'blocked':
      return `${open}>\n      <skipped message="${xml(`blocked by ${c.blockedBy ? causeLabel(c.blockedBy) : 'a failed precondition'}`)}"/>${c.blockedBy?.exchange ? `\n      <system-out>${xml(c.blockedBy.exchange)}</system-out>` : ''}\n    </testcase>`;
    case 'not-judged':
      return `${open}>\n      <skipped message="${xml(`not judged: ${c.notJudged ?? ''}`)}"/>${c.suiteError ? `\n      <system-err>${xml(c.suiteError)}</system-err>` : ''}\n    </testcase>`;
    case 'skipped':
      return `${open}>\n      <skipped message="${xml(c.skipReason ?? '')}"/>\n    </testcase>`;
    default:
      return `${open}/>`;
  }
}

/** junit.xml, rendered from redacted data (redactedResults): the markup itself is never redacted, nor a title. */
export function junitXml(raw: RunResults): string {
  const results = redactedResults(raw);
  const allow = results.expectations.allowUnexpectedPass;
  const failing = (g: Totals) => g.failed + (allow ? 0 : g.unexpectedPasses);
  const suites = results.groups.map((group) => {
    const checks = results.checks.filter((c) => c.file === group.file);
    const cases = checks.map((c) => junitCase(c, group.name, allow));
    const errors = group.errors.map((e, i) => `    <testcase classname="${xml(group.name)}" name="${xml(`${group.name}: error of the suite (${i + 1})`)}">\n      <error message="${xml(e.split('\n')[0] ?? '')}">${xml(e)}</error>\n    </testcase>`);
    const skipped = group.skipped + group.blocked + group.notJudged + group.expectedFailures;
    return `  <testsuite name="${xml(group.name)}" tests="${checks.length + errors.length}" failures="${failing(group)}" errors="${group.errors.length}" skipped="${skipped}" time="${(group.durationMs / 1000).toFixed(3)}">\n${[...cases, ...errors].join('\n')}\n  </testsuite>`;
  });
  const t = results.totals;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="social-api-conformance" tests="${t.checks}" failures="${failing(t)}" skipped="${t.skipped + t.blocked + t.notJudged + t.expectedFailures}" time="${(results.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`;
}

// summary.md: the run as a CI job summary, root causes first, then every failure, block and skip with its evidence.
import { findClause } from '../judge/clauses.ts';
import { byFailedClause, type CheckResult, checksCount, groupLine, type GroupResult, type LeftBehind, leftBehindParts, type RankedCause, redactedResults, releaseLine, REPLAY_SAID, type RunResults, statusCodeOnlyNote, timingLine } from './results.ts';
import { blockedByCause, SUITE_ERRORS_SAID, suiteErrorsOf } from './blocks.ts';
import { causeState, ROOT_CAUSES_SAID } from './root-causes.ts';
import { FLIPPING_SAID, flippingChecks, INTERMITTENT_SAID, intermittentChecks, repeatLines, verdictList, verdictsOf } from './stability.ts';

const fence = (text: string) => `\`\`\`\n${text.replace(/```/g, "'''")}\n\`\`\``;

function failureSection(heading: string, checks: readonly CheckResult[], note: (c: CheckResult) => string): string[] {
  if (checks.length === 0) return [];
  const lines = [`## ${heading}`, ''];
  for (const [id, list] of byFailedClause(checks)) {
    const words = findClause(id)?.words;
    lines.push(`### ${id}${words ? `: ${words}` : ''}`, '');
    for (const c of list) {
      const replay = c.failure?.replay?.map((step) => step.curl).join('\n');
      lines.push(`<details><summary>${c.title.replace(/</g, '&lt;')}${note(c)}</summary>`, '', fence(c.message ?? ''), '', ...(replay ? [REPLAY_SAID, '', fence(replay), ''] : []), '</details>', '');
    }
  }
  return lines;
}

/** summary.md's first section: what to fix first, each cause with its evidence and curl line. */
function rootCausesSection(causes: readonly RankedCause[]): string[] {
  if (causes.length === 0) return [];
  const lines = ['## Root causes', '', ROOT_CAUSES_SAID, ''];
  causes.forEach((r, i) => {
    const state = causeState(r);
    lines.push(`${i + 1}. **${r.label.replace(/</g, '&lt;')}**${state ? ` (${state})` : ''}, blocks ${checksCount(r.blocks)}${r.clause ? `: ${r.evidence.replace(/</g, '&lt;')}` : ''}`);
    // A replay is several lines (replay.ts): fenced, as the failures' replays are.
    if (r.reproduce?.includes('\n')) lines.push('', `   ${REPLAY_SAID}`, '', ...fence(r.reproduce).split('\n').map((line) => `   ${line}`));
    else if (r.reproduce) lines.push('', `   \`${r.reproduce.replace(/`/g, "'")}\``);
  });
  return [...lines, ''];
}

/** summary.md's groups, each with its mark: a group that judged nothing is marked apart, never with a tick. */
function groupsSection(groups: readonly GroupResult[]): string[] {
  if (groups.length === 0) return [];
  return ['## Groups', '', ...groups.map((g) => `- ${groupLine(g)}`), ''];
}

export function summaryMarkdown(raw: RunResults): string {
  const results = redactedResults(raw);
  const t = results.totals;
  const lines = [
    `# Conformance: ${results.verdict}`,
    '',
    `Server: ${results.server.baseUrl}${results.server.embedded ? ' (embedded reference server)' : ''}, release ${results.server.version}${results.server.seed === undefined ? '' : `, seed ${results.server.seed}`}${results.server.faults.length ? `, faults ${results.server.faults.join(', ')}` : ''}`,
    '',
    `${releaseLine(results)}.`,
    '',
    '| checks | passed | failed | warnings | expected failures | unexpectedly passing | blocked | not judged | skipped | requests | duration |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    `| ${t.checks} | ${t.passed} | ${t.failed} | ${t.warnings} | ${t.expectedFailures} | ${t.unexpectedPasses} | ${t.blocked} | ${t.notJudged} | ${t.skipped} | ${results.counts.total} | ${(results.durationMs / 1000).toFixed(1)} s |`,
    '',
    ...rootCausesSection(results.rootCauses),
    ...groupsSection(results.groups),
  ];
  lines.push(...failureSection('Failures by clause', results.checks.filter((c) => c.outcome === 'failed'), () => ''));
  const unexpected = results.expectations.entries.filter((e) => e.state === 'unexpectedly passing');
  if (unexpected.length > 0) {
    const consequence = results.expectations.allowUnexpectedPass ? 'allowed by --allow-unexpected-pass' : 'this fails the run: remove them from the expectations file';
    lines.push('## Unexpectedly passing', '', `Listed as failing in the expectations file, but they pass (${consequence}):`, '');
    for (const e of unexpected) lines.push(`- **${e.check}**: ${e.reason}`);
    lines.push('');
  }
  lines.push(...failureSection('Warnings (SHOULD clauses)', results.checks.filter((c) => c.outcome === 'warning'), () => ''));
  lines.push(...failureSection('Expected failures', results.checks.filter((c) => c.outcome === 'expected-failure'), (c) => ` (expected: ${c.expectation?.reason ?? ''})`));
  lines.push(...stabilitySections(results));
  if (results.errors.length > 0 || results.groups.some((g) => g.errors.length > 0)) {
    lines.push('## Errors of the suite', '', 'Not deviations of the server: a group whose preparation threw, an unhandled error. Each fails the run; please report it.', '');
    for (const e of [...results.errors, ...results.groups.flatMap((g) => g.errors)]) lines.push(`- ${e.split('\n')[0]}`);
    lines.push('');
  }
  const besideChecks = suiteErrorsOf(results);
  if (besideChecks.length > 0) {
    lines.push('## Errors of the suite beside checks not judged', '', SUITE_ERRORS_SAID, '');
    for (const e of besideChecks) lines.push(`- ${e}`);
    lines.push('');
  }
  const blocked = blockedByCause(results.checks);
  if (blocked.length > 0) {
    lines.push('## Blocked (cannot judge)', '', 'A precondition of these checks did not hold on the server, so their own clauses could not be judged. They do not fail the run; the root cause is a failure (or something outside the contract) of its own.', '');
    for (const group of blocked) {
      lines.push(`### ${checksCount(group.checks.length)} blocked by ${group.label}`, '');
      if (group.cause.exchange) lines.push(fence(group.cause.exchange), '');
      for (const c of group.checks) lines.push(`- ${c.title}`);
      lines.push('');
    }
  }
  const unjudged = results.checks.filter((c) => c.outcome === 'not-judged');
  if (unjudged.length > 0) {
    lines.push('## Not judged', '', 'Nothing failed, yet the run met nothing these checks judge: they are not passed (a pass judged at least one instance). They do not fail the run.', '');
    for (const c of unjudged) lines.push(`- ${c.title}: ${c.notJudged ?? 'nothing was judged'}`);
    lines.push('');
  }
  const codeOnly = results.checks.filter((c) => c.statusCodeOnly);
  if (codeOnly.length > 0) {
    lines.push('## Passed on the status code only', '', 'Their titles name an error text that the server did not send: they judged the status code only.', '');
    for (const c of codeOnly) lines.push(`- ${c.title}: ${statusCodeOnlyNote(c)}`);
    lines.push('');
  }
  const skipped = results.checks.filter((c) => c.outcome === 'skipped');
  if (skipped.length > 0) {
    lines.push('## Skipped', '');
    for (const c of skipped) lines.push(`- ${c.title}: ${c.skipReason ?? 'skipped'}`);
    lines.push('');
  }
  const c = results.counts;
  lines.push(
    '## Requests',
    '',
    `${c.total} requests; per account: ${Object.entries(c.perAccount).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; per bucket: ${Object.entries(c.perBucket).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; per path: ${Object.entries(c.perPath ?? {}).map(([k, v]) => `${k === 'files' ? 'files' : `/${k}`} ${v}`).join(', ') || 'none'}.`,
    `Status creations ${c.statusCreations}, scheduled statuses ${c.scheduledStatuses}, deletions and unreblogs ${c.deletions}, uploads ${c.uploads}, stream connections ${c.streamConnections}.`,
    timingLine(results),
    '',
    ...leftBehindSection(results.leftovers),
  );
  return lines.join('\n');
}
/** summary.md's intermittent checks, each repeat with its evidence, and the checks that keep flipping from run to run. */
function stabilitySections(results: RunResults): string[] {
  const lines: string[] = [];
  const intermittent = intermittentChecks(results);
  if (intermittent.length > 0) {
    lines.push(`## Intermittent (${results.repeats ?? 1} repeats)`, '', INTERMITTENT_SAID, '');
    for (const c of intermittent) lines.push(`- **${c.title.replace(/</g, '&lt;')}**: ${verdictList(verdictsOf(c))}`, ...repeatLines(c).map((line) => `  - ${line.replace(/</g, '&lt;')}`));
    lines.push('');
  }
  const flipping = flippingChecks(results);
  if (flipping.length > 0) {
    lines.push('## Flipping between runs', '', FLIPPING_SAID, '');
    for (const c of flipping) lines.push(`- **${c.title.replace(/</g, '&lt;')}**: ${verdictList(c.history ?? [])}`);
    lines.push('');
  }
  return lines;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** summary.md's list of what the run could not undo: the true count, what to remove by hand, then the applications. */
function leftBehindSection(leftovers: readonly LeftBehind[]): string[] {
  const lines = [`## Objects left behind: ${leftovers.length}`, ''];
  if (leftovers.length === 0) return [...lines, 'Everything the run created was undone.', ''];
  const { byHand, applications, applicationsLine } = leftBehindParts(leftovers);
  if (byHand.length > 0) {
    lines.push(`To remove by hand (${byHand.length}): what the run created and could not undo.`, '');
    lines.push('| kind | id | owner | why |', '|---|---|---|---|');
    for (const e of byHand) lines.push(`| ${cell(e.kind)} | ${cell(e.id)} | ${cell(e.owner)} | ${cell(e.why)} |`);
    lines.push('');
  }
  if (applicationsLine) lines.push(`Applications: ${applicationsLine}. Client ids: ${applications.map((e) => `${e.id} (${e.why.startsWith('still there') ? 'still there' : 'not known to be gone'})`).join(', ')}.`, '');
  return lines;
}

// The reports a person opens in a browser, each one self-contained file (inline style and script, no
// fetches): report.html, the conformance of one server at a glance, organised by the clause catalogue;
// and the compatibility matrix of several servers (matrix.ts), clauses as rows and servers as columns.
import { causeLabel, CLAUSES, type Clause } from '../judge/clauses.ts';
import { blockedByCause, SUITE_ERRORS_SAID, suiteErrorsOf } from './blocks.ts';
import { type CheckResult, type ClauseResult, clauseResults, type ClauseTile, groupMark, groupText, leftBehindParts, type RankedCause, redactedResults, REPLAY_SAID, type RunResults, statusCodeOnlyNote, totalsLine } from './results.ts';
import { ROOT_CAUSES_SAID } from './root-causes.ts';
import { FLIPPING_SAID, flippingChecks, INTERMITTENT_SAID, intermittentChecks, repeatLines, verdictList, verdictsOf } from './stability.ts';

type Shown = ClauseResult | 'not testable';

const LABEL: Record<Shown, string> = {
  failed: 'failed',
  'unexpectedly-passing': 'unexpectedly passing',
  warning: 'warning (SHOULD)',
  'expected-failure': 'expected failure',
  passed: 'passed',
  blocked: 'blocked (cannot judge)',
  'not-judged': 'not judged (nothing met to judge)',
  skipped: 'skipped',
  'not run': 'not run',
  'not testable': 'not testable (not shown, or a client obligation)',
};

/** One character per result, so the matrix reads without colour too. */
const SYMBOL: Record<Shown, string> = {
  failed: '✗',
  'unexpectedly-passing': 'xpass',
  warning: '!',
  'expected-failure': 'xfail',
  passed: '✓',
  blocked: '?',
  'not-judged': '0',
  skipped: '–',
  'not run': '',
  'not testable': '·',
};

const cssClass = (result: Shown) => `r-${result.replace(/ /g, '-')}`;

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const anchor = (s: string) => s.replace(/[^A-Za-z0-9-]/g, '_');

const STYLE = `
:root { --failed: #d1242f; --unexpectedly-passing: #bc4c00; --warning: #d4a72c; --expected-failure: #8250df;
  --passed: #1f883d; --blocked: #6e7781; --not-judged: #afb8c1; --skipped: #8c959f; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0 auto; max-width: 1200px; padding: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 28px 0 10px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 0; }
.meta { color: var(--muted); margin: 0 0 12px; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 4px; color: #fff; font-weight: 600; margin-left: 8px; font-size: 16px; vertical-align: middle; }
.verdict.PASS { background: var(--passed); } .verdict.FAIL { background: var(--failed); }
.totals { display: flex; flex-wrap: wrap; gap: 8px; }
.total { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 110px; border-top: 4px solid var(--line); }
.total .n { display: block; font-size: 24px; font-weight: 600; } .total .label { color: var(--muted); }
.total.o-failed { border-top-color: var(--failed); } .total.o-passed { border-top-color: var(--passed); }
.total.o-warning { border-top-color: var(--warning); } .total.o-expected-failure { border-top-color: var(--expected-failure); }
.total.o-unexpectedly-passing { border-top-color: var(--unexpectedly-passing); } .total.o-blocked { border-top-color: var(--blocked); } .total.o-not-judged { border-top-color: var(--not-judged); } .total.o-skipped { border-top-color: var(--skipped); }
.total.o-failed.some .n { color: var(--failed); }
.legend { display: flex; flex-wrap: wrap; gap: 12px; margin: 0 0 12px; color: var(--muted); }
.legend .tile { min-width: 16px; height: 16px; padding: 0 3px; font-size: 11px; line-height: 14px; text-align: center; vertical-align: middle; }
.section-row { display: grid; grid-template-columns: 220px 1fr; gap: 12px; padding: 8px 0; border-bottom: 1px solid var(--line); }
.tiles { display: flex; flex-wrap: wrap; gap: 4px; }
.tile { display: inline-block; min-width: 40px; padding: 3px 6px; border-radius: 4px; font: 12px/1.3 ui-monospace, SFMono-Regular, Menlo, monospace; text-decoration: none; color: #fff; border: 1px solid transparent; }
.r-failed { background: var(--failed); color: #fff; } .r-passed { background: var(--passed); color: #fff; }
.r-warning { background: var(--warning); color: var(--ink); } .r-expected-failure { background: var(--expected-failure); color: #fff; }
.r-unexpectedly-passing { background: var(--unexpectedly-passing); color: #fff; } .r-blocked { background: repeating-linear-gradient(45deg, var(--blocked), var(--blocked) 4px, #8c959f 4px, #8c959f 8px); color: #fff; } .r-skipped { background: var(--skipped); color: #fff; }
.r-not-judged { background: #fff; color: var(--ink); border: 2px dotted var(--not-judged); }
.r-not-run { background: #fff; color: var(--muted); border: 1px solid var(--line); }
.r-not-testable { background: repeating-linear-gradient(45deg, #f6f8fa, #f6f8fa 4px, #eaeef2 4px, #eaeef2 8px); color: var(--muted); border: 1px dashed var(--line); }
details.failure { border: 1px solid var(--line); border-left: 6px solid var(--failed); border-radius: 6px; margin: 8px 0; padding: 6px 10px; }
details.failure.o-warning { border-left-color: var(--warning); } details.failure.o-expected-failure { border-left-color: var(--expected-failure); }
details.failure.o-unexpectedly-passing { border-left-color: var(--unexpectedly-passing); }
details.failure summary { cursor: pointer; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; margin-right: 6px; }
.guard { background: #6639ba; color: #fff; }
.words { color: var(--muted); margin: 6px 0; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 10px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; font: 12px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; }
.reproduce .step { display: flex; gap: 8px; align-items: flex-start; margin: 0 0 6px; } .reproduce pre { flex: 1; margin: 0; min-width: 0; }
.scroll { overflow-x: auto; max-width: 100%; }
details.clause-section { border-bottom: 1px solid var(--line); } details.clause-section > summary { cursor: pointer; padding: 6px 0; font-weight: 600; }
details.clause-section .counts { font-weight: 400; margin-left: 8px; }
button { font: inherit; padding: 3px 10px; border: 1px solid var(--line); border-radius: 6px; background: #f6f8fa; cursor: pointer; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
td.result { white-space: nowrap; } td.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; white-space: nowrap; }
tr.section th { background: #f6f8fa; } .dim { color: var(--muted); }
table.matrix td.cell { text-align: center; min-width: 90px; font-weight: 600; }
.filed-by-others { outline: 2px dashed #fff; outline-offset: -4px; }
.root-cause-tile { box-shadow: 0 0 0 2px #fff, 0 0 0 4px var(--ink); }
.tile-meaning .tile { min-width: 0; margin: 0 2px; }
.tile .blocks, .cell .blocks { display: inline-block; margin-left: 5px; padding: 0 5px; border-radius: 8px; background: #fff; color: var(--ink); font-weight: 600; }
ol.root-causes li { margin: 0 0 10px; overflow-wrap: anywhere; } ol.root-causes .evidence { color: var(--muted); }
ul.groups { list-style: none; padding: 0; } ul.groups .mark { display: inline-block; width: 1.4em; font-weight: 700; }
.g-failed .mark { color: var(--failed); } .g-passed .mark { color: var(--passed); } .g-nothing-judged .mark { color: var(--blocked); } .g-failed-within-the-verdict .mark { color: var(--warning); }
`;

// Opens the failure (or the folded section of the clause table) a tile or a root cause points at, and copies curl
// lines: one step, or all steps of a replay. A click opens it at once, and again after the reader closed it (the
// hash is then unchanged, so no hashchange comes); hashchange serves the address bar.
const SCRIPT = `
function openDetails(id) {
  var target = document.getElementById(id);
  for (var el = target; el; el = el.parentElement) if (el.tagName === 'DETAILS') el.open = true;
  if (target && target.tagName !== 'DETAILS') target.scrollIntoView();
}
function openTarget() { openDetails(location.hash.slice(1)); }
document.addEventListener('click', function (event) {
  var link = event.target.closest && event.target.closest('a[href^="#"]');
  if (link) openDetails(decodeURIComponent(link.getAttribute('href').slice(1)));
  var button = event.target.closest && event.target.closest('button[data-copy]');
  if (button) copyCurl(button);
});
window.addEventListener('hashchange', openTarget); openTarget();
function copyCurl(button) {
  var scope = button.getAttribute('data-copy') === 'all' ? button.closest('.reproduce') : button.closest('.step');
  var text = Array.prototype.map.call(scope.querySelectorAll('code'), function (code) { return code.textContent; }).join('\\n');
  var done = function () { button.textContent = 'Copied'; };
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, function () {}); else done();
}
`;

/** The page around a body rendered from redacted data (redactData): the markup itself is never redacted. */
function page(title: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body>
${body}
${script ? `<script>${script}</script>` : ''}
</body></html>
`;
}

/** A wide table scrolls sideways inside its box, not the page. */
const scrolling = (table: string) => `<div class="scroll">${table}</div>`;

/**
 * The curl lines that show a failure, each with its Copy button: a replay's creations and then the failing request,
 * said what they are, with a button that copies them all to paste as one script; or its one curl line.
 */
function reproduceHtml(lines: readonly string[]): string {
  if (lines.length === 0) return '';
  const steps = lines.map((line) => `<div class="step"><pre><code>${esc(line)}</code></pre><button type="button" data-copy="step">Copy</button></div>`);
  if (lines.length === 1) return `<div class="reproduce">${steps.join('')}</div>`;
  return `<div class="reproduce"><p class="meta">${esc(REPLAY_SAID)}</p>${steps.join('')}<button type="button" data-copy="all">Copy all curl lines</button></div>`;
}

/** A failing check's curl lines: its replay where the failing request names objects the run created, else its curl line. */
const curlLinesOf = (check: CheckResult): string[] => check.failure?.replay?.map((step) => step.curl) ?? (check.reproduce ? [check.reproduce] : []);

/** The catalogue's sections in order, and the clauses the results name that the catalogue lacks. */
function sectionsOf(knownIds: Iterable<string>): Array<[string, Clause[]]> {
  const sections = new Map<string, Clause[]>();
  for (const clause of CLAUSES) sections.set(clause.section, [...(sections.get(clause.section) ?? []), clause]);
  const catalogued = new Set(CLAUSES.map((c) => c.id));
  const strays = [...new Set(knownIds)].filter((id) => !catalogued.has(id)).sort();
  if (strays.length) {
    sections.set('Not in the catalogue', strays.map((id) => ({ id, section: 'Not in the catalogue', words: 'a check names a clause id the catalogue lacks', kind: 'rule', severity: 'MUST' })));
  }
  return [...sections];
}

function shownResult(clause: Clause, result: ClauseResult | undefined): Shown {
  if (result) return result;
  return clause.kind === 'rule' ? 'not run' : 'not testable';
}

const LEGEND_ORDER = ['passed', 'failed', 'warning', 'expected-failure', 'unexpectedly-passing', 'blocked', 'not-judged', 'skipped', 'not run', 'not testable'] as const;
const legendOf = (symbol: (r: Shown) => string) => LEGEND_ORDER.map((r) => `<span><span class="tile ${cssClass(r)}">${symbol(r)}</span> ${esc(LABEL[r])}</span>`).join('');

/** The one meaning of a clause's tile (or cell), as its legend states it. */
const TILE_MEANING = `<p class="meta tile-meaning" id="tile-meaning">Each tile is the worst outcome of the clause's own checks, a failure that a check of another clause filed under this clause counted here as well; <span class="tile r-failed filed-by-others">ID</span> dashed inside: only such a failure makes it so (its own checks did better). <span class="tile r-failed root-cause-tile">ID<span class="blocks">n</span></span> framed, with a number: a cause of blocks, it keeps n checks from being judged (see Root causes).</p>`;

const tileClasses = (base: string, result: Shown, tile: ClauseTile | undefined) =>
  `${base} ${cssClass(result)}${tile?.filedByOthers ? ' filed-by-others' : ''}${tile?.blocks ? ' root-cause-tile' : ''}`;
const tileData = (tile: ClauseTile | undefined) => `${tile?.filedByOthers ? ' data-filed-by-others="true"' : ''}${tile?.blocks ? ` data-blocks="${tile.blocks}"` : ''}`;

/** A tile's result in words, with where a failure filed by another check comes from and what a root cause blocks. */
function tileNote(result: Shown, tile: ClauseTile | undefined): string {
  const notes = [LABEL[result]];
  if (tile?.filedByOthers) {
    const from = tile.checks.filter((c) => c.status === 'failed' && c.failedClause && c.failedClause !== c.clause).map((c) => c.clause);
    notes.push(`through the failure of ${[...new Set(from)].join(', ')} filed under this clause`);
  }
  if (tile?.blocks) notes.push(`cause of ${tile.blocks} blocked check${tile.blocks === 1 ? '' : 's'}`);
  return notes.join('; ');
}

const failureId = (i: number) => `failure-${i + 1}`;
/** The results that open their section of the clause table, which starts folded otherwise. */
const OPENS_ITS_SECTION: readonly Shown[] = ['failed', 'unexpectedly-passing', 'warning'];
const ATTENTION: readonly CheckResult['outcome'][] = ['failed', 'unexpectedly-passing', 'warning', 'expected-failure'];

function failureDetails(check: CheckResult, index: number): string {
  const id = check.failedClause ?? check.clause;
  const clause = CLAUSES.find((c) => c.id === id);
  const why =
    check.outcome === 'unexpectedly-passing'
      ? `The expectations file says this check fails (${check.expectation?.reason ?? ''}), but it passed: remove the entry.`
      : check.outcome === 'expected-failure'
        ? `Expected: ${check.expectation?.reason ?? ''}`
        : '';
  return `<details class="failure o-${check.outcome}" id="${failureId(index)}" data-clause="${esc(id)}">
<summary><span class="badge ${cssClass(check.outcome)}">${esc(LABEL[check.outcome])}</span><b>${esc(id)}</b> ${esc(check.title.startsWith(`${id} `) ? check.title.slice(id.length + 1) : check.title)} <span class="dim">(${esc(check.file)}${check.line ? `:${check.line}` : ''})</span></summary>
${clause ? `<p class="words">${esc(clause.id)} (${esc(clause.section)}, ${clause.severity}): ${esc(clause.words)}</p>` : ''}
${why ? `<p>${esc(why)}</p>` : ''}
${check.message ? `<pre class="message">${esc(check.message)}</pre>` : ''}
${reproduceHtml(curlLinesOf(check))}
</details>`;
}

/** report.html: one server's conformance, sections and clauses coloured by result, each failure expandable. */
export function reportHtml(raw: RunResults): string {
  const results = redactedResults(raw);
  const byClause = clauseResults(results.checks);
  const attention = results.checks.filter((c) => ATTENTION.includes(c.outcome));
  const firstFailure = new Map<string, string>();
  attention.forEach((c, i) => {
    for (const id of [c.failedClause ?? c.clause, c.clause]) if (!firstFailure.has(id)) firstFailure.set(id, failureId(i));
  });
  const sections = sectionsOf(byClause.keys());
  const t = results.totals;
  const server = results.server;
  const totals: Array<[number, string, Shown | 'checks']> = [
    [t.checks, 'checks', 'checks'],
    [t.passed, 'passed', 'passed'],
    [t.failed, 'failed', 'failed'],
    [t.warnings, 'warnings', 'warning'],
    [t.expectedFailures, 'expected failures', 'expected-failure'],
    [t.unexpectedPasses, 'unexpectedly passing', 'unexpectedly-passing'],
    [t.blocked, 'blocked', 'blocked'],
    [t.notJudged, 'not judged', 'not-judged'],
    [t.skipped, 'skipped', 'skipped'],
  ];
  const legend = `<div class="legend">${legendOf(() => '')}</div>${TILE_MEANING}`;
  const matrix = sections
    .map(([name, clauses]) => {
      const tiles = clauses.map((clause) => {
        const tile = byClause.get(clause.id);
        const result = shownResult(clause, tile?.result);
        const target = firstFailure.get(clause.id) ?? `clause-${anchor(clause.id)}`;
        return `<a class="${tileClasses('tile', result, tile)}" href="#${target}" data-clause="${esc(clause.id)}" data-result="${esc(result)}"${tileData(tile)} title="${esc(`${clause.id}: ${clause.words} (${tileNote(result, tile)})`)}">${esc(clause.id)}${tile?.blocks ? `<span class="blocks">${tile.blocks}</span>` : ''}</a>`;
      });
      return `<div class="section-row"><h3>${esc(name)}</h3><div class="tiles">${tiles.join('')}</div></div>`;
    })
    .join('\n');
  const table = sections
    .map(([name, clauses]) => {
      const lines = clauses.map((clause) => ({ clause, found: byClause.get(clause.id), result: shownResult(clause, byClause.get(clause.id)?.result) }));
      const rows = lines.map(({ clause, found, result }) => {
        const checks = (found?.checks ?? []).map((c) => `${esc(c.title)}${c.outcome === 'skipped' ? ` <span class="dim">(skipped: ${esc(c.skipReason ?? '')})</span>` : ''}${c.blockedBy ? ` <span class="dim">(blocked by ${esc(causeLabel(c.blockedBy))})</span>` : ''}${judgedNote(c)}`).join('<br>');
        return `<tr id="clause-${anchor(clause.id)}"><td class="id">${esc(clause.id)}</td><td>${esc(clause.words)}</td><td>${clause.kind}</td><td>${clause.kind === 'rule' ? clause.severity : ''}</td><td>${clause.since ?? ''}</td><td class="result"><span class="badge ${cssClass(result)}">${esc(LABEL[result])}</span></td><td>${checks}</td></tr>`;
      });
      // Folded, so that the page is as long as what needs reading: a section with a failure or a warning opens.
      const shown = lines.map((line) => line.result);
      const open = shown.some((r) => OPENS_ITS_SECTION.includes(r));
      const counts = [...new Set(shown)].map((r) => `${shown.filter((x) => x === r).length} ${LABEL[r]}`).join(', ');
      return `<details class="clause-section" data-section="${esc(name)}"${open ? ' open' : ''}><summary>${esc(name)}<span class="counts dim">${esc(counts)}</span></summary>
${scrolling(`<table><thead><tr><th>Clause</th><th>Contract's words</th><th>Kind</th><th>Severity</th><th>Since</th><th>Result</th><th>Checks</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`)}</details>`;
    })
    .join('\n');
  const skipped = results.checks.filter((c) => c.outcome === 'skipped');
  const unjudged = results.checks.filter((c) => c.outcome === 'not-judged');
  const blocked = blockedByCause(results.checks);
  const blockedCount = blocked.reduce((n, g) => n + g.checks.length, 0);
  const errors = [...results.errors, ...results.groups.flatMap((g) => g.errors)];
  const besideChecks = suiteErrorsOf(results);
  const body = `<header>
<h1>Conformance report <span class="verdict ${results.verdict}" id="verdict">${results.verdict}</span></h1>
<p class="meta">Server ${esc(server.baseUrl)}${server.embedded ? ' (embedded reference server)' : ''}, release ${esc(server.version)}${server.faults.length ? `, faults ${esc(server.faults.join(', '))}` : ''}. Started ${esc(results.startedAt)}, ${(results.durationMs / 1000).toFixed(1)} s, ${results.counts.total} requests.${results.expectations.file ? ` Expectations: ${esc(results.expectations.file)}.` : ''}</p>
</header>
<section id="totals" class="totals">${totals.map(([n, label, r]) => `<div class="total o-${r}${n > 0 ? ' some' : ''}" data-total="${esc(label)}"><span class="n">${n}</span><span class="label">${esc(label)}</span></div>`).join('')}</section>
${rootCausesHtml(results.rootCauses, firstFailure)}
<section id="groups"><h2>Groups</h2><ul class="groups">${results.groups.map((g) => { const { mark, meaning } = groupMark(g); return `<li class="g-${meaning.replace(/ /g, '-')}" data-group="${esc(g.name)}" data-mark="${mark}"><span class="mark">${mark}</span>${esc(groupText(g))}</li>`; }).join('')}</ul></section>
<section id="matrix"><h2>Clauses by section</h2>${legend}
${matrix}
</section>
<section id="failures"><h2>Failures and warnings (${attention.length})</h2>
${attention.length ? attention.map(failureDetails).join('\n') : '<p>None.</p>'}
</section>
${errors.length ? `<section id="errors"><h2>Errors of the suite (${errors.length})</h2>${errors.map((e) => `<pre>${esc(e)}</pre>`).join('\n')}</section>` : ''}
${besideChecks.length ? `<section id="suite-errors"><h2>Errors of the suite beside checks not judged (${besideChecks.length})</h2><p class="meta">${esc(SUITE_ERRORS_SAID)}</p>${besideChecks.map((e) => `<pre>${esc(e)}</pre>`).join('\n')}</section>` : ''}
${stabilityHtml(results)}
<section id="blocked"><h2>Blocked: cannot judge (${blockedCount})</h2>
${blocked.length ? blocked.map((g) => `<details class="blocked-cause" data-cause="${esc(g.label)}"><summary>${g.checks.length} check${g.checks.length === 1 ? '' : 's'} blocked by ${esc(g.label)}</summary>${g.cause.exchange ? `<pre>${esc(g.cause.exchange)}</pre>` : ''}<ul>${g.checks.map((c) => `<li>${esc(c.title)}</li>`).join('')}</ul></details>`).join('\n') : '<p>None.</p>'}
</section>
<section id="not-judged"><h2>Not judged: nothing met to judge (${unjudged.length})</h2>
${unjudged.length ? `<p class="meta">Nothing failed, yet the run met nothing these checks judge: they are not passed (a pass judged at least one instance).</p><ul>${unjudged.map((c) => `<li data-check="${esc(c.clause)}">${esc(c.title)}: <span class="dim">${esc(c.notJudged ?? 'nothing was judged')}</span></li>`).join('\n')}</ul>` : '<p>None.</p>'}
</section>
<section id="left-behind"><h2>Objects left behind (${results.leftovers.length})</h2>
${leftBehindTable(results)}
</section>
<section id="skipped"><h2>Skipped (${skipped.length})</h2>
${skipped.length ? `<ul>${skipped.map((c) => `<li>${esc(c.title)}: <span class="dim">${esc(c.skipReason ?? 'skipped')}</span></li>`).join('\n')}</ul>` : '<p>None.</p>'}
</section>
<section id="clauses"><h2>All clauses</h2>
${table}
</section>
<footer><p class="meta">${esc(totalsLine(t))}. Status creations ${results.counts.statusCreations}, scheduled statuses ${results.counts.scheduledStatuses}, deletions and unreblogs ${results.counts.deletions}, uploads ${results.counts.uploads}, stream connections ${results.counts.streamConnections}; objects left behind ${results.leftovers.length}.</p></footer>`;
  return page(`Conformance ${results.verdict}: ${server.baseUrl}`, body, SCRIPT);
}

/** report.html opens with what to fix first: each root cause, what it blocks, its evidence and curl line. */
/** The intermittent checks of a stability run, each repeat with its evidence, and the checks that keep flipping; nothing where there are none. */
function stabilityHtml(results: RunResults): string {
  const intermittent = intermittentChecks(results);
  const flipping = flippingChecks(results);
  const parts: string[] = [];
  if (intermittent.length > 0) {
    const items = intermittent.map((c) => `<li data-check="${esc(c.clause)}" data-verdicts="${esc(verdictList(verdictsOf(c)))}">${esc(c.title)}: ${esc(verdictList(verdictsOf(c)))}<ul>${repeatLines(c).map((line) => `<li class="dim">${esc(line)}</li>`).join('')}</ul></li>`);
    parts.push(`<section id="intermittent"><h2>Intermittent (${intermittent.length}, over ${results.repeats ?? 1} repeats)</h2><p class="meta">${esc(INTERMITTENT_SAID)}</p><ul>${items.join('\n')}</ul></section>`);
  }
  if (flipping.length > 0) {
    const items = flipping.map((c) => `<li data-check="${esc(c.clause)}" data-history="${esc(verdictList(c.history ?? []))}">${esc(c.title)}: ${esc(verdictList(c.history ?? []))}</li>`);
    parts.push(`<section id="history"><h2>Flipping between runs (${flipping.length})</h2><p class="meta">${esc(FLIPPING_SAID)}</p><ul>${items.join('\n')}</ul></section>`);
  }
  return parts.join('\n');
}

function rootCausesHtml(causes: readonly RankedCause[], firstFailure: ReadonlyMap<string, string>): string {
  if (causes.length === 0) return '<section id="root-causes"><h2>Root causes (0)</h2><p>None: no clause failed and no check was blocked.</p></section>';
  const items = causes.map((r) => {
    // A failure opens at its details; a clause that only blocks, at its row of the clause table; the rest, at the blocked checks.
    const target = r.clause ? (firstFailure.get(r.clause) ?? `clause-${anchor(r.clause)}`) : 'blocked';
    const name = `<a href="#${target}"><b>${esc(r.label)}</b></a>`;
    const ownBlocked = r.ownCheckBlockedBy && `its own check blocked by ${r.ownCheckBlockedBy}`;
    const outcome = r.outcome ? ` <span class="badge ${cssClass(r.outcome)}">${esc(LABEL[r.outcome])}</span>` : ownBlocked ? ` <span class="badge r-blocked">${esc(ownBlocked)}</span>` : '';
    const guarded = r.guards ? ` <span class="badge guard">${esc(r.guards)}</span>` : '';
    const evidence = r.clause ? `<div class="evidence">${esc(r.evidence)}</div>` : '';
    const curl = reproduceHtml(r.reproduce ? r.reproduce.split('\n') : []);
    return `<li data-cause="${esc(r.label)}" data-blocks="${r.blocks}"${r.guards ? ` data-guards="${esc(r.guards)}"` : ''}>${name}${outcome}${guarded}: <span class="blocks-count">blocks ${r.blocks} check${r.blocks === 1 ? '' : 's'}</span>${evidence}${curl}</li>`;
  });
  return `<section id="root-causes"><h2>Root causes (${causes.length})</h2>
<p class="meta">${esc(ROOT_CAUSES_SAID)}</p>
<ol class="root-causes">${items.join('\n')}</ol></section>`;
}
/** How many instances a check that ran judged, for its line in the clause table. */
const judgedNote = (c: CheckResult) => {
  if (c.judged === undefined || c.outcome === 'skipped') return '';
  const codeOnly = statusCodeOnlyNote(c);
  return ` <span class="dim" data-judged="${c.judged}">(judged ${c.judged}${codeOnly ? `; <span class="status-code-only">${esc(codeOnly)}</span>` : ''})</span>`;
};

/** What the run created and could not undo, one row per object: kind, id, owner and why. */
function leftBehindTable(results: RunResults): string {
  if (results.leftovers.length === 0) return '<p>None: everything the run created was undone.</p>';
  const { byHand, applications, applicationsLine } = leftBehindParts(results.leftovers);
  const rows = byHand.map((e) => `<tr><td>${esc(e.kind)}</td><td class="id">${esc(e.id)}</td><td>${esc(e.owner)}</td><td>${esc(e.why)}</td></tr>`);
  const table = byHand.length
    ? `<p class="meta">To remove by hand (${byHand.length}): what the run created and could not undo.</p>
${scrolling(`<table><thead><tr><th>Kind</th><th>Id</th><th>Owner</th><th>Why</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`)}`
    : '';
  const apps = applicationsLine ? `<p class="applications">Applications: ${esc(applicationsLine)}.</p><details><summary>Client ids</summary><ul>${applications.map((e) => `<li class="id">${esc(e.id)}: ${esc(e.why)}</li>`).join('')}</ul></details>` : '';
  return `${table}${apps}`;
}

export interface MatrixColumn {
  label: string;
  results: RunResults;
}

/** The compatibility matrix: the catalogue's clauses as rows, one column per server (or release). */
export function matrixHtml(raw: readonly MatrixColumn[]): string {
  const columns = raw.map((c) => ({ ...c, results: redactedResults(c.results) }));
  const perColumn = columns.map((c) => clauseResults(c.results.checks));
  const sections = sectionsOf(perColumn.flatMap((m) => [...m.keys()]));
  const head = columns
    .map((c) => `<th class="cell"><span class="verdict ${c.results.verdict}">${esc(c.label)}</span><br><span class="dim">${esc(c.results.server.baseUrl)}<br>release ${esc(c.results.server.version)}</span></th>`)
    .join('');
  const rows = sections
    .map(([name, clauses]) => {
      const lines = clauses.map((clause) => {
        const cells = perColumn.map((results, i) => {
          const found = results.get(clause.id);
          const result = shownResult(clause, found?.result);
          const checks = (found?.checks ?? []).map((c) => `${c.title}: ${c.outcome}${c.skipReason ? ` (${c.skipReason})` : ''}`).join('\n');
          return `<td class="${tileClasses('cell', result, found)}" data-column="${i}" data-clause="${esc(clause.id)}" data-result="${esc(result)}"${tileData(found)} title="${esc(`${columns[i]?.label}: ${tileNote(result, found)}${checks ? `\n${checks}` : ''}`)}">${SYMBOL[result]}${found?.blocks ? `<span class="blocks">${found.blocks}</span>` : ''}</td>`;
        });
        return `<tr><td class="id${clause.kind === 'rule' ? '' : ' dim'}" title="${esc(clause.words)}">${esc(clause.id)}</td><td class="${clause.kind === 'rule' ? '' : 'dim'}">${esc(clause.words)}</td>${cells.join('')}</tr>`;
      });
      return `<tr class="section"><th colspan="${2 + columns.length}">${esc(name)}</th></tr>\n${lines.join('\n')}`;
    })
    .join('\n');
  const totals = columns.map((c) => `<td class="cell dim">${esc(totalsLine(c.results.totals))}</td>`).join('');
  const legend = `<div class="legend">${legendOf((r) => SYMBOL[r])}</div>${TILE_MEANING}`;
  const body = `<h1>Conformance matrix</h1>
<p class="meta">${columns.length} result sets; one row per clause of the contract, one column per server.</p>
${legend}
${scrolling(`<table class="matrix"><thead><tr><th>Clause</th><th>Contract's words</th>${head}</tr></thead>
<tbody>
${rows}
<tr class="section"><th colspan="2">Totals</th>${totals}</tr>
</tbody></table>`)}`;
  return page('Conformance matrix', body);
}

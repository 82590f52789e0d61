import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUSES } from '../judge/clauses.ts';
import { SETTINGS } from '../talk/config.ts';
import { contractRows, staleMappings, unmappedRows } from './contract-map.ts';
import { anchorsOf, brokenLinks, contractText, GENERATED_MARK, generatedPages, headingAnchor, relativeLinks, ROOT, stalePages } from './docs.ts';
import { FIGURES_PAGE, figuresPage, fullRunFigures, misstatedFigures } from './figures.ts';
import { IP_ACCESS_LINE } from './run-plan.ts';
import { DECLARED_CHECKS } from '../report/declared-checks.ts';
import { declarationsText, loadDeclarations } from './declarations.ts';

describe('documentation', () => {
  it('should have every generated page as npm run docs makes it', () => {
    expect(stalePages(), 'these generated pages differ from the code: refresh them with npm run docs').toEqual([]);
  });

  it('should hold the declared checks that --list, the selection, the reports and the pages read equal to what the suite files declare', async () => {
    const declared = declarationsText(await loadDeclarations(ROOT));
    expect(readFileSync(join(ROOT, DECLARED_CHECKS), 'utf8'), `${DECLARED_CHECKS} differs from the suite files' declarations: refresh it with npm run docs`).toBe(declared);
  });

  it('should find a generated page stale once it is edited by hand, and name it', () => {
    const copy = mkdtempSync(join(tmpdir(), 'docs-'));
    try {
      cpSync(join(ROOT, 'docs'), join(copy, 'docs'), { recursive: true });
      const [first] = generatedPages();
      writeFileSync(join(copy, first!.path), readFileSync(join(ROOT, first!.path), 'utf8').replace('MUST', 'SHOULD'));
      expect(stalePages(copy)).toEqual([first!.path]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('should generate the catalogue and the settings from their declarations, marked as generated', () => {
    const [clauses, settings] = generatedPages().map((p) => p.text);
    for (const page of [clauses, settings]) expect(page!.startsWith(`${GENERATED_MARK}\n`)).toBe(true);
    for (const c of CLAUSES) expect(clauses).toContain(`| \`${c.id}\` |`);
    for (const s of SETTINGS) expect(settings).toContain(`| \`${s.env}\` | \`${s.flag}\` |`);
    // A cell keeps the contract's words readable: `|null` stays in its cell, `*/*` is no emphasis, `<width>` no tag.
    expect(clauses).toContain('Accept: \\*/\\*');
    expect(clauses).toContain('&lt;width>x&lt;height>');
  });

  it("should state a full run's figures once, in docs/figures.md, as the declarations give them, and show the same in every sample", async () => {
    const figures = await fullRunFigures(ROOT);
    expect(readFileSync(join(ROOT, FIGURES_PAGE), 'utf8'), `${FIGURES_PAGE} differs from the declarations: refresh it with npm run docs`).toBe(figuresPage(GENERATED_MARK, figures));
    expect(misstatedFigures(ROOT, figures), 'samples of the documentation that show other figures than the plan (suites/support/run/figures.ts)').toEqual([]);
    // The checks a run reports, the /api calls and the streams add up.
    expect(figures.reportedChecks).toBe(figures.declaredChecks + figures.runWideChecks);
    expect(figures.ipAccess).toBe(figures.api + figures.streams);
    expect(figures.groups.reduce((sum, g) => sum + g.cost.api, 0)).toBe(figures.api);
  });

  it("should plan a full run within one window of the IP access bucket, the exploration's default share filling what the checks leave", async () => {
    const { ipAccess, exploreShare } = await fullRunFigures(ROOT);
    // Issue 50's hard line: 300 calls less pacing's reserve. The checks and their controls come first; where they leave
    // nothing, the share is 0 and a request more needs a new decision on the budget, not a lower line.
    expect(IP_ACCESS_LINE).toBe(285);
    expect(ipAccess, 'IP access calls a full run plans').toBeLessThanOrEqual(IP_ACCESS_LINE);
    if (exploreShare > 0) expect(ipAccess, `the exploration's default share (${exploreShare}, derived by run-plan.ts) fills the window to the line`).toBe(IP_ACCESS_LINE);
  });

  it('should find a sample that shows another figure than the plan, and name it', async () => {
    const figures = await fullRunFigures(ROOT);
    const copy = mkdtempSync(join(tmpdir(), 'figures-'));
    try {
      cpSync(join(ROOT, 'docs'), join(copy, 'docs'), { recursive: true });
      writeFileSync(join(copy, 'README.md'), readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/(; )\d+( requests in )/, '$1330$2'));
      expect(misstatedFigures(copy, figures)).toEqual([`README.md: requests 330, the plan gives ${figures.requests}`]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('should resolve every relative link of README.md and docs/ to a file, and every anchor to a heading', () => {
    expect(brokenLinks()).toEqual([]);
  });

  it("should read a page's links and headings as GitHub does, leaving out code", () => {
    const page = [
      '# Exit codes',
      '## POST /api/v1/statuses parameters',
      'See [the gate](ci-gate.md#the-ratchet), [a site](https://example.org/x) and [here](#exit-codes).',
      '`[not a link](nowhere.md)`',
      '```',
      '[also not](nowhere.md)',
      '# not a heading',
      '```',
    ].join('\n');
    expect(relativeLinks(page)).toEqual(['ci-gate.md#the-ratchet', '#exit-codes']);
    expect([...anchorsOf(page)]).toEqual(['exit-codes', 'post-apiv1statuses-parameters']);
    expect(headingAnchor('Streaming (server-sent events)')).toBe('streaming-server-sent-events');
  });

  describe('the contract, mapped', () => {
    it('should map every table row and numbered rule of the contract to clauses or a reason, and nothing else', () => {
      expect(unmappedRows(contractText()), 'declare these rows in suites/support/judge/contract-rows.ts').toEqual([]);
      expect(staleMappings(contractText()), 'these mappings name a row or a clause that is gone').toEqual([]);
    });

    it('should fail on a row or a rule added to the contract and not mapped, and on a mapped row removed', () => {
      const contract = contractText();
      const grown = contract
        .replace('| GET | /api/v1/statuses/:id/card |', '| GET | /api/v1/statuses/:id/history | public | array of StatusEdit |\n| GET | /api/v1/statuses/:id/card |')
        .replace('13. How a server-sent-events request', '14. Tokens expire after a day.\n13. How a server-sent-events request');
      expect(grown).not.toBe(contract);
      expect(unmappedRows(grown)).toEqual(['Statuses: GET · /api/v1/statuses/:id/history', 'Authentication: rule 14']);
      const shrunk = contract.replace(/^\| X-RateLimit-Reset \|.*\n/m, '');
      expect(staleMappings(shrunk)).toEqual(['Limits: X-RateLimit-Reset (no such row)']);
    });

    it("should read a table's rows by their fewest telling first cells, under their heading, escaped pipes kept in their cell", () => {
      const text = ['## Errors', '', '| Status | Condition | text |', '|---|---|---|', '| 404 | gone | a \\| b |', '| 404 | hidden | c |', '| 422 | bad | d |', '| string\\|null | e | f |', '', '1. A rule.'].join('\n');
      expect(contractRows(text)).toEqual([
        { heading: 'Errors', key: '404 · gone' },
        { heading: 'Errors', key: '404 · hidden' },
        { heading: 'Errors', key: '422' },
        { heading: 'Errors', key: 'string|null' },
        { heading: 'Errors', key: 'rule 1' },
      ]);
    });
  });
});

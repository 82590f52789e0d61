import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLAUSES } from '../judge/clauses.ts';
import { SETTINGS } from '../talk/config.ts';
import { anchorsOf, brokenLinks, GENERATED_MARK, generatedPages, headingAnchor, relativeLinks, ROOT, stalePages } from './docs.ts';
import { FIGURES_PAGE, figuresPage, fullRunFigures, misstatedFigures } from './figures.ts';

describe('documentation', () => {
  it('should have every generated page as npm run docs makes it', () => {
    expect(stalePages(), 'these generated pages differ from the code: refresh them with npm run docs').toEqual([]);
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
});

// The reports and the CI gate, as a user meets them: runs of the real command against the reference server
// with a fault, the four report files, report.html in a real browser (Debian's chromium through
// playwright-core), the expectations file, GitHub Actions output, the matrix and the merge of shards.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { isFault } from '../../fixtures/reference-server/faults.ts';
import { startReferenceServer, type ReferenceServer } from '../../fixtures/reference-server/server.ts';
import { mergeShards } from '../support/report/matrix.ts';
import { reportHtml } from '../support/report/report-html.ts';
import { REPLAY_SAID, type RunResults } from '../support/report/results.ts';
import { rankRootCauses } from '../support/report/root-causes.ts';
import { sampleCheck, sampleResults } from '../support/report/sample-results.ts';
import { ROOT, runCli, serverEnv, type CliRun } from './run-cli.ts';

const FAULT = 'APPS-VERIFY-2';
const GROUP = 'client-registration';
const SKIPPED = 'APPS-REGISTER-2';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Flags that let Debian's chromium run as root in a container without reaching the network; playwright adds
// --headless and the --user-data-dir of the fresh profile itself.
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
// Only the GitHub run of these tests may write GitHub output, and never into the job summary of a real workflow.
const NOT_GITHUB = { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '' };

const work = mkdtempSync(join(tmpdir(), 'conformance-report-test-'));
const expectationsFile = join(work, 'expectations.json');
const stepSummary = join(work, 'step-summary.md');

let faulty: CliRun;
let expected: CliRun;
let fixed: CliRun;
let allowed: CliRun;
/** A fault that takes away the precondition of many checks: one failure, the rest blocked by it. */
let blocking: CliRun;
/** Only a blocked check selected: its root cause is not in the run, and the group judged nothing. */
let blockedOnly: CliRun;
const BLOCKING_FAULT = 'STATUS-CREATE-4';
/** Two root causes: the blocking fault, and one that blocks nothing but is a clause of ownership, ranked first. */
let ranked: CliRun;
const LONE_FAULT = 'STATUS-DELETE-3';
/**
 * A run whose token of A is one character ("x"): too short to be replaced wherever it appears, it is written by its
 * variable where it stands (Bearer $CONFORMANCE_TOKEN_A). The fault fails a deletion of a status the run created: its
 * replay creates one first.
 */
let shortToken: CliRun;
let shortTokenServer: ReferenceServer;

/** A reference server with the fault, where A's token is also "x". */
async function serverWithShortToken(): Promise<ReferenceServer> {
  const server = await startReferenceServer({ faults: [LONE_FAULT].filter(isFault) });
  const seeded = server.context.store.tokens.get(server.users.a.token);
  if (!seeded) throw new Error("the reference server seeded no token of A's");
  server.context.store.issueToken(seeded.appId, seeded.accountId, seeded.scopes, 'x');
  return server;
}

function results(run: CliRun): RunResults {
  if (!run.results) throw new Error(`the run wrote no results.json (exit ${run.code}): ${run.stderr.slice(0, 500)}`);
  return run.results;
}

const checkOf = (run: CliRun, clause: string) => results(run).checks.find((c) => c.clause === clause);

beforeAll(async () => {
  writeFileSync(
    expectationsFile,
    JSON.stringify({
      expectations: [
        { check: FAULT, expect: 'fail', reason: 'known defect (issue 12)' },
        { check: SKIPPED, expect: 'skip', reason: 'websites are not stored by this server' },
      ],
    }),
  );
  writeFileSync(stepSummary, '# earlier step\n');
  shortTokenServer = await serverWithShortToken();
  [faulty, expected, fixed, allowed, blocking, blockedOnly, ranked, shortToken] = await Promise.all([
    runCli(['--group', GROUP, '--fault', FAULT], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary }),
    runCli(['--group', GROUP, '--fault', FAULT, '--expectations', expectationsFile], NOT_GITHUB),
    runCli(['--group', GROUP, '--expectations', expectationsFile], NOT_GITHUB),
    runCli(['--group', GROUP, '--expectations', expectationsFile, '--allow-unexpected-pass'], NOT_GITHUB),
    runCli(['--group', 'statuses', '--fault', BLOCKING_FAULT], NOT_GITHUB),
    runCli(['--group', 'statuses', '--only', 'STATUS-CONTEXT-2', '--fault', 'STATUS-CREATE-6'], NOT_GITHUB),
    runCli(['--group', 'statuses', '--fault', `${LONE_FAULT},${BLOCKING_FAULT}`], NOT_GITHUB),
    runCli(['--group', 'statuses', '--group', 'access', '--only', LONE_FAULT], { ...NOT_GITHUB, ...serverEnv(shortTokenServer), CONFORMANCE_TOKEN_A: 'x' }),
  ]);
});

afterAll(async () => {
  for (const run of [faulty, expected, fixed, allowed, blocking, blockedOnly, ranked, shortToken]) if (run) rmSync(run.reportDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
  await shortTokenServer?.close();
});

describe('reports', () => {
  it('should write report.html, results.json, junit.xml and summary.md for a run with a fault', () => {
    expect(faulty.code).toBe(1);
    expect(Object.keys(faulty.reports).sort()).toEqual(expect.arrayContaining(['junit.xml', 'report.html', 'results.json', 'summary.md']));
    const check = checkOf(faulty, FAULT);
    expect(check).toMatchObject({ status: 'failed', outcome: 'failed', failedClause: FAULT, severity: 'MUST', file: `suites/${GROUP}.test.ts` });
    expect(check?.line).toBeGreaterThan(0);
    expect(results(faulty)).toMatchObject({ verdict: 'FAIL', server: { embedded: true, version: '3.2.0', faults: [FAULT] } });
    expect(results(faulty).counts.total).toBeGreaterThan(0);
  });

  it('should give every failure a request, a response and a ready-to-paste curl line without secrets', () => {
    const check = checkOf(faulty, FAULT);
    expect(check?.message).toMatch(/request: {2}GET \/api\/v1\/apps\/verify_credentials/);
    expect(check?.message).toMatch(/response: 200/);
    expect(check?.reproduce).toMatch(/^curl .*"\$CONFORMANCE_BASE_URL"'\/api\/v1\/apps\/verify_credentials'/);
    for (const [name, text] of Object.entries(faulty.reports)) expect(text, name).not.toMatch(/Bearer (?!\$)[A-Za-z0-9_-]{16,}/);
  });

  it('should name the clause in every JUnit testcase, in one testsuite per endpoint group', () => {
    const junit = faulty.reports['junit.xml'] ?? '';
    expect(junit).toMatch(new RegExp(`<testsuite name="Client registration" tests="${results(faulty).totals.checks}" failures="1"`));
    expect(junit).toMatch(new RegExp(`<testcase classname="Client registration" name="${FAULT} [^"]*"[^>]*>\\s*<failure [^>]*type="${FAULT}"`));
  });

  it('should sum up the run in Markdown: totals, failures by clause, skipped with reasons', () => {
    const summary = faulty.reports['summary.md'] ?? '';
    expect(summary).toMatch(/^# Conformance: FAIL/);
    const t = results(faulty).totals;
    expect(summary).toContain(`| ${t.checks} | ${t.checks - 1} | 1 | 0 | 0 | 0 | 0 |`);
    expect(summary).toMatch(new RegExp(`## Failures by clause[\\s\\S]*### ${FAULT}: `));
    expect(expected.reports['summary.md']).toMatch(new RegExp(`## Skipped\\s+- ${SKIPPED} [^\\n]*: expectations file: websites are not stored`));
  });

  it('should print a progress line per group, then its line as the reports count it, and the summary at the end', () => {
    const t = results(faulty).totals;
    const runWide = results(faulty).checks.filter((c) => c.title.endsWith('(run-wide)')).length;
    // The group's end: no verdict yet, its run-wide results are judged when every group has ended.
    expect(faulty.stdout).toMatch(new RegExp(`^Client registration: ended \\(${t.checks - runWide} checks, \\d+\\.\\d s\\)$`, 'm'));
    // Its line once the run is judged: summary.md's, the run-wide results in it.
    expect(faulty.stdout).toMatch(new RegExp(`^✗ Client registration: ${t.passed} passed, 1 failed, 0 skipped \\(\\d+\\.\\d s\\)$`, 'm'));
    expect(faulty.reports['summary.md']).toContain(`- ✗ Client registration: ${t.passed} passed, 1 failed, 0 skipped\n`);
    expect(faulty.stdout).toMatch(new RegExp(`^Conformance: FAIL: ${t.checks} checks, ${t.passed} passed, 1 failed, 0 skipped; \\d+ requests`, 'm'));
  });

  it('should annotate failures and append the summary to the job summary under GitHub Actions', () => {
    expect(faulty.stdout).toMatch(new RegExp(`^::error file=suites/${GROUP}\\.test\\.ts,line=\\d+,title=${FAULT}::${FAULT} .*%0A.*reproduce: curl`, 'm'));
    expect(readFileSync(stepSummary, 'utf8')).toMatch(/^# earlier step\n# Conformance: FAIL\n/);
    expect(expected.stdout).not.toMatch(/^::/m);
  });
});

describe('blocked checks', () => {
  it('should count blocked checks apart and name their root cause with its exchange in results.json', () => {
    const r = results(blocking);
    const blocked = r.checks.filter((c) => c.status === 'blocked');
    expect(blocked.length).toBeGreaterThan(3);
    expect(r.totals.blocked).toBe(blocked.length);
    expect(r.checks.filter((c) => c.outcome === 'failed').map((c) => c.failedClause)).toEqual([BLOCKING_FAULT]);
    for (const c of blocked) expect(c).toMatchObject({ outcome: 'blocked', blockedBy: { clause: BLOCKING_FAULT, exchange: expect.stringMatching(/request: {2}POST \/api\/v1\/statuses/) } });
  });

  it('should group them under their root cause in the terminal, summary.md, junit.xml and report.html', () => {
    const t = results(blocking).totals;
    expect(blocking.stdout).toMatch(new RegExp(`^Conformance: FAIL: ${t.checks} checks, ${t.passed} passed, 1 failed, ${t.blocked} blocked, ${t.skipped} skipped;`, 'm'));
    expect(blocking.stdout).toMatch(new RegExp(`^Blocked: \\d+ checks by ${BLOCKING_FAULT} \\(a status created with visibility `, 'm'));
    const summary = blocking.reports['summary.md'] ?? '';
    expect(summary).toMatch(new RegExp(`## Blocked \\(cannot judge\\)[\\s\\S]*### \\d+ checks blocked by ${BLOCKING_FAULT} \\(`));
    const failures = summary.split('## Failures by clause')[1]?.split('\n## ')[0] ?? '';
    expect(failures.match(/^### .*/gm)).toEqual([expect.stringMatching(new RegExp(`^### ${BLOCKING_FAULT}: `))]);
    const junit = blocking.reports['junit.xml'] ?? '';
    expect(junit).toMatch(new RegExp(`<testcase [^>]*name="STATUS-READ-3 [^"]*"[^>]*>\\s*<skipped message="blocked by ${BLOCKING_FAULT} \\(`));
    expect(junit).toMatch(new RegExp(`<testsuite name="Statuses" [^>]*failures="1"[^>]*skipped="${t.blocked + t.skipped}"`));
    expect(blocking.reports['report.html']).toMatch(new RegExp(`<details class="blocked-cause" data-cause="${BLOCKING_FAULT} \\(`));
  });

  it('should not fail the run by themselves', () => {
    expect(blockedOnly.code).toBe(0);
    expect(results(blockedOnly)).toMatchObject({ verdict: 'PASS', totals: { failed: 0, blocked: 1 } });
    expect(checkOf(blockedOnly, 'STATUS-CONTEXT-2')).toMatchObject({ status: 'blocked', blockedBy: { clause: 'STATUS-CREATE-6' } });
  });
});

describe('root causes first', () => {
  // The deletion names a status the run created, and deleted since, and the reply names its parent: the curl lines of
  // each are the replay that creates first what the request names.
  it('should rank the failed clauses in results.json, ownership first, then by the checks they block, with evidence and curl line', () => {
    const r = results(ranked);
    const blocked = r.checks.filter((c) => c.status === 'blocked').length;
    expect(blocked).toBeGreaterThan(3);
    expect(r.rootCauses).toEqual([
      { clause: LONE_FAULT, label: LONE_FAULT, outcome: 'failed', blocks: 0, guards: 'ownership', evidence: expect.any(String), reproduce: expect.stringMatching(/^STATUS_1=\$\(curl -sS -X POST .*\ncurl -sS -i -X DELETE .*\/api\/v1\/statuses\/\$STATUS_1"/) },
      { clause: BLOCKING_FAULT, label: BLOCKING_FAULT, outcome: 'failed', blocks: blocked, evidence: expect.stringMatching(/^expected visibility .*; actual visibility .*"public"/), reproduce: expect.stringMatching(/^STATUS_1=\$\(curl .*\ncurl -sS -i -X POST .*'\/api\/v1\/statuses' .*in_reply_to_id=\$STATUS_1/) },
    ]);
  });

  it('should open the terminal summary, summary.md and report.html with them in the same order: ownership first, then the cause that blocks most', () => {
    const blocked = results(ranked).totals.blocked;
    const summary = ranked.stdout.slice(ranked.stdout.indexOf('\nConformance: FAIL'));
    expect(summary).toMatch(new RegExp(`^Root causes, access control, visibility and ownership first, then the one that blocks most checks:\n  1\\. ${LONE_FAULT} \\(failed, ownership\\), blocks 0 checks: .*\n     replay, to paste into sh .*:\n     STATUS_1=\\$\\(curl .*\n     curl -sS -i -X DELETE .*\n  2\\. ${BLOCKING_FAULT} \\(failed\\), blocks ${blocked} checks: expected .*\n     replay, to paste into sh .*:\n     STATUS_1=\\$\\(curl .*\n     curl -sS -i -X POST .*\nFailures by clause:`, 'm'));
    const md = ranked.reports['summary.md'] ?? '';
    expect(md.indexOf(`1. **${LONE_FAULT}** (failed, ownership), blocks 0 checks`)).toBeGreaterThan(md.indexOf('## Root causes'));
    expect(md.indexOf(`2. **${BLOCKING_FAULT}** (failed), blocks ${blocked} checks`)).toBeLessThan(md.indexOf('## Failures by clause'));
    const html = ranked.reports['report.html'] ?? '';
    expect([...html.matchAll(/<li data-cause="([^"]+)"/g)].map((m) => m[1])).toEqual([LONE_FAULT, BLOCKING_FAULT]);
  });
});

describe('a group that judged nothing', () => {
  it('should be marked apart, never with a tick, in the terminal, summary.md and report.html', () => {
    const t = results(blockedOnly).groups[0];
    expect(t).toMatchObject({ name: 'Statuses', passed: 0, failed: 0, blocked: 1 });
    expect(blockedOnly.stdout).toMatch(/^○ Statuses: 0 passed, 0 failed, 1 blocked, \d+ skipped: nothing judged \(\d+\.\d s\)$/m);
    expect(blockedOnly.reports['summary.md']).toMatch(/^- ○ Statuses: 0 passed, 0 failed, 1 blocked, \d+ skipped: nothing judged$/m);
    expect(blockedOnly.reports['report.html']).toMatch(/<li class="g-nothing-judged" data-group="Statuses" data-mark="○">/);
    expect(blocking.stdout).toMatch(/^✗ Statuses: /m);
  });
});

/** Opens a run's report.html in headless Chromium; nothing may be fetched. Skips (outside CI) without a browser. */
async function inBrowser(context: TestContext, run: CliRun, use: (page: Page) => Promise<void>): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    // CI installs Debian's chromium (.ci/run); elsewhere a missing browser skips rather than fails.
    if (process.env.CI) throw new Error(`no browser at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
    context.skip(`needs Chromium: no browser at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  }
  expect(run.reports['report.html'] ?? '', 'self-contained: nothing to fetch').not.toMatch(/(?:src|href)=["']?(?:https?:)?\/\//i);
  const profile = mkdtempSync(join(tmpdir(), 'conformance-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(request.url()));
    const reportUrl = pathToFileURL(join(run.reportDir, 'report.html')).href;
    await page.goto(reportUrl);
    await use(page);
    expect(fetched.filter((url) => url !== reportUrl)).toEqual([]);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The computed style of the first element a CSS selector finds (an expression: the project's TypeScript has no DOM library). */
const styleOf = (page: Page, selector: string, property: string) => page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)}))[${JSON.stringify(property)}]`);
const rgb = (colour: string) => (colour.match(/\d+/g) ?? []).map(Number);

describe('report.html in headless Chromium', () => {
  it('should show the totals and the failing clause in red, each failure expandable to its exchange, and save a screenshot', (context) =>
    inBrowser(context, faulty, async (page) => {
      expect(await page.textContent('#verdict')).toBe('FAIL');
      const t = results(faulty).totals;
      expect(await page.textContent('[data-total="checks"] .n')).toBe(String(t.checks));
      expect(await page.textContent('[data-total="failed"] .n')).toBe('1');
      expect(await page.textContent('[data-total="passed"] .n')).toBe(String(t.passed));
      const background = (clause: string) => styleOf(page, `#matrix a.tile[data-clause="${clause}"]`, 'backgroundColor');
      const [r = 0, g = 0, b = 0] = rgb(await background(FAULT));
      expect(r > 150 && g < 90 && b < 90, `the failing clause's tile is red, got rgb(${r}, ${g}, ${b})`).toBe(true);
      expect(await background('APPS-VERIFY-1'), 'a passing clause is not red').not.toBe(await background(FAULT));
      const failure = page.locator(`details.failure[data-clause="${FAULT}"]`);
      expect(await failure.getAttribute('open')).toBeNull();
      const tile = page.locator(`#matrix a.tile[data-clause="${FAULT}"]`);
      await tile.click();
      expect(await failure.getAttribute('open')).not.toBeNull();
      await failure.locator('summary').click();
      expect(await failure.getAttribute('open'), 'closed by its summary').toBeNull();
      await tile.click();
      expect(await failure.getAttribute('open'), 'a second click on the tile opens it again').not.toBeNull();
      const shown = await failure.innerText();
      expect(shown).toMatch(/request: {2}GET \/api\/v1\/apps\/verify_credentials/);
      expect(shown).toMatch(/response: 200/);
      expect(shown).toMatch(/curl -sS -i -X GET/);
      const screenshot = join(faulty.reportDir, 'report.png');
      await page.screenshot({ path: screenshot, fullPage: false });
      expect(statSync(screenshot).size).toBeGreaterThan(10_000);
    }));

  it('should open with the root causes ranked, mark a root cause on its tile, and say what a tile means in the legend', (context) =>
    inBrowser(context, ranked, async (page) => {
      const blocked = results(ranked).totals.blocked;
      const headings = await page.locator('h2').allInnerTexts();
      expect(headings.slice(0, 2)).toEqual(['Root causes (2)', 'Groups']);
      const causes = await page.locator('#root-causes li').allInnerTexts();
      // A clause of ownership leads, whatever it blocks.
      expect(causes[0]).toMatch(new RegExp(`^${LONE_FAULT} failed ownership: blocks 0 checks`));
      // The cause's evidence, then its replay: a line that says how to paste it, a Copy button per curl line, one for all.
      expect(causes[1]).toMatch(new RegExp(`^${BLOCKING_FAULT} failed: blocks ${blocked} checks\\s+expected visibility [^\\n]*\\s+Replay, to paste into sh[^\\n]*\\s+(?:[^\\n]*curl -sS [^\\n]*\\s+Copy\\s+)+Copy all curl lines$`));
      const tile = `#matrix a.tile[data-clause="${BLOCKING_FAULT}"]`;
      expect(await page.getAttribute(tile, 'data-blocks')).toBe(String(blocked));
      expect(await page.textContent(`${tile} .blocks`)).toBe(String(blocked));
      expect(await styleOf(page, tile, 'boxShadow'), 'a root cause is framed').not.toBe('none');
      expect(await styleOf(page, `#matrix a.tile[data-clause="${LONE_FAULT}"]`, 'boxShadow'), 'a failure that blocks nothing is not').toBe('none');
      expect(await page.getAttribute(tile, 'title')).toMatch(new RegExp(`cause of ${blocked} blocked checks`));
      const legend = await page.innerText('#tile-meaning');
      expect(legend).toMatch(/worst outcome of the clause's own checks, a failure that a check of another clause filed under this clause counted here as well/);
      expect(legend).toMatch(/framed, with a number: a cause of blocks, it keeps n checks from being judged/);
      await page.locator(`#root-causes a:has-text("${BLOCKING_FAULT}")`).click();
      expect(await page.locator(`details.failure[data-clause="${BLOCKING_FAULT}"]`).getAttribute('open')).not.toBeNull();
    }));

  it('should mark a group that judged nothing apart, not green', (context) =>
    inBrowser(context, blockedOnly, async (page) => {
      const group = '#groups li[data-group="Statuses"]';
      expect(await page.innerText(group)).toMatch(/^○\s*Statuses: 0 passed, 0 failed, 1 blocked, \d+ skipped: nothing judged$/);
      const [r = 0, g = 0, b = 0] = rgb(await styleOf(page, `${group} .mark`, 'color'));
      expect(g > r + 40 && g > b + 40, `the mark is not green, got rgb(${r}, ${g}, ${b})`).toBe(false);
    }));
});

describe('report.html with the evidence of a root cause in one long JSON string', () => {
  it('should wrap it, so that the page is no wider than a 1,400 px window', async (context) => {
    const body = JSON.stringify({ id: '1', content: 'x'.repeat(300), account: { id: '2', note: 'y'.repeat(300) }, media_attachments: [] }).replace(/[ ,]/g, '');
    const failed = sampleCheck('STATUS-READ-1', 'failed', { failure: { clause: 'STATUS-READ-1', expected: 'HTTP 404', actual: `HTTP 200 ${body}` } });
    const results = sampleResults([failed]);
    const dir = mkdtempSync(join(tmpdir(), 'conformance-wide-'));
    writeFileSync(join(dir, 'report.html'), reportHtml({ ...results, rootCauses: rankRootCauses(results.checks) }));
    const run: CliRun = { code: 1, stdout: '', stderr: '', reportDir: dir, reports: { 'report.html': readFileSync(join(dir, 'report.html'), 'utf8') }, ms: 0 };
    try {
      await inBrowser(context, run, async (page) => {
        await page.setViewportSize({ width: 1400, height: 900 });
        expect(await page.innerText('#root-causes')).toContain('x'.repeat(100));
        expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1400);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('report.html with a one-character token', () => {
  it('should render its markup whole, keep the titles as written, and fold the clause table but for the sections with failures', () => {
    const html = shortToken.reports['report.html'] ?? '';
    expect(checkOf(shortToken, LONE_FAULT)).toMatchObject({ outcome: 'failed' });
    expect(html).not.toMatch(/\[redacted\]&#39;<\/code>|&lt;button|Bearer \[redacted\] (?:is|token)/);
    expect(html).toContain('as Bearer is taken');
    expect(shortToken.reports['junit.xml']).toContain('as Bearer is taken');
    expect(html.match(/<details class="clause-section" data-section="[^"]*" open>/g)).toEqual(['<details class="clause-section" data-section="Statuses" open>']);
  });

  it('should give the failure its replay in results.json and summary.md: the status created first, its id in STATUS_1', () => {
    const replay = checkOf(shortToken, LONE_FAULT)?.failure?.replay ?? [];
    expect(replay.map((step) => step.captures)).toEqual(['STATUS_1', undefined]);
    expect(shortToken.reports['summary.md']).toContain(`${REPLAY_SAID}\n\n\`\`\`\n${replay.map((step) => step.curl).join('\n')}\n\`\`\``);
  });

  it('should give every Copy button of the page its curl lines in Chromium, the replay of the failure whole under Copy all, and scroll no table past a 1,400 px window', (context) =>
    inBrowser(context, shortToken, async (page) => {
      await page.setViewportSize({ width: 1400, height: 900 });
      // The clipboard as the page's script sees it, recording what it is given (headless Chromium has none to read back).
      await page.evaluate(`window.copied = []; Object.defineProperty(navigator, 'clipboard', { value: { writeText: (text) => { window.copied.push(text); return Promise.resolve(); } } });
        document.querySelectorAll('details').forEach((d) => { d.open = true; });`);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1400);
      expect(await page.innerText('body')).not.toMatch(/copyCurl|type="button"/);
      const buttons = page.locator('button[data-copy]');
      const count = await buttons.count();
      expect(count).toBeGreaterThan(2);
      for (let i = 0; i < count; i++) {
        const button = buttons.nth(i);
        const scope = (await button.getAttribute('data-copy')) === 'all' ? 'reproduce' : 'step';
        const shown = await button.locator(`xpath=ancestor::div[contains(concat(' ', @class, ' '), ' ${scope} ')][1]//code`).allTextContents();
        await button.click();
        expect(await page.evaluate<string>('window.copied[window.copied.length - 1]')).toBe(shown.join('\n'));
        expect(await button.innerText()).toBe('Copied');
      }
      const replay = await page.locator(`details.failure[data-clause="${LONE_FAULT}"] .reproduce code`).allTextContents();
      expect(replay).toEqual([expect.stringMatching(/^STATUS_1=\$\(curl -sS -X POST .*'\/api\/v1\/statuses' .*Bearer \$CONFORMANCE_TOKEN_A.* \| grep -o /), expect.stringMatching(/^curl -sS -i -X DELETE "\$CONFORMANCE_BASE_URL""\/api\/v1\/statuses\/\$STATUS_1" .*Bearer \$CONFORMANCE_TOKEN_B/)]);
    }));
});

describe('expectations file', () => {
  it('should turn the run green when it lists the failing clause', () => {
    expect(expected.code).toBe(0);
    expect(checkOf(expected, FAULT)).toMatchObject({ status: 'failed', outcome: 'expected-failure', expectation: { reason: 'known defect (issue 12)' } });
    expect(results(expected).expectations.entries).toContainEqual(expect.objectContaining({ check: FAULT, state: 'failing as expected' }));
    expect(expected.reports['junit.xml']).toMatch(/failures="0"/);
  });

  it('should skip the checks it skips, with its reason', () => {
    expect(checkOf(expected, SKIPPED)).toMatchObject({ status: 'skipped', outcome: 'skipped', skipReason: 'expectations file: websites are not stored by this server' });
  });

  it('should fail a run whose expected failure now passes, as unexpectedly passing', () => {
    expect(fixed.code).toBe(1);
    expect(checkOf(fixed, FAULT)).toMatchObject({ status: 'passed', outcome: 'unexpectedly-passing' });
    expect(results(fixed)).toMatchObject({ verdict: 'FAIL', totals: { failed: 0, unexpectedPasses: 1 } });
    expect(fixed.stdout).toMatch(new RegExp(`Unexpectedly passing: ${FAULT}: the expectations file says it fails`));
  });

  it('should let --allow-unexpected-pass keep such a run green, still reporting it', () => {
    expect(allowed.code).toBe(0);
    expect(results(allowed)).toMatchObject({ verdict: 'PASS', totals: { unexpectedPasses: 1 }, expectations: { allowUnexpectedPass: true } });
    expect(allowed.stdout).toMatch(new RegExp(`Unexpectedly passing \\(allowed\\): ${FAULT}`));
  });

  it('should refuse a malformed file before running anything, with exit code 2', async () => {
    const bad = join(work, 'bad.json');
    writeFileSync(bad, JSON.stringify({ expectations: [{ check: 'NO-SUCH-CLAUSE-1', expect: 'fail', reason: 'x' }] }));
    const run = await runCli(['--expectations', bad], NOT_GITHUB);
    rmSync(run.reportDir, { recursive: true, force: true });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/NO-SUCH-CLAUSE-1" names no clause of the catalogue/);
  });
});

const runMatrix = promisify(execFile);

describe('matrix and shards', () => {
  it('should merge the results of several servers into one self-contained page, clauses as rows and servers as columns', async () => {
    const out = join(work, 'matrix.html');
    await runMatrix(process.execPath, ['--import', 'tsx', 'suites/support/report/matrix.ts', '--out', out, `faulty=${join(faulty.reportDir, 'results.json')}`, `fixed=${join(fixed.reportDir, 'results.json')}`], { cwd: ROOT });
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/<span class="verdict FAIL">faulty<\/span>/);
    expect(html).toMatch(/<span class="verdict FAIL">fixed<\/span>/);
    expect(html).toMatch(new RegExp(`data-column="0" data-clause="${FAULT}" data-result="failed"`));
    expect(html).toMatch(new RegExp(`data-column="1" data-clause="${FAULT}" data-result="unexpectedly-passing"`));
    expect(html).toMatch(/data-column="1" data-clause="APPS-VERIFY-1" data-result="passed"/);
    expect(html).not.toMatch(/(?:src|href)=["']?(?:https?:)?\/\//i);
  });

  it('should run one slice of the suite per --shard and merge the slices into one run', async () => {
    const groups = ['--group', GROUP, '--group', 'account-relations'];
    const shards = await Promise.all(['1/2', '2/2'].map((shard) => runCli([...groups, '--shard', shard], NOT_GITHUB)));
    const files = shards.map((run) => results(run).groups.map((g) => g.file));
    expect(files.map((f) => f.length)).toEqual([1, 1]);
    const merged = mergeShards(shards.map(results));
    expect(merged.groups.map((g) => g.file).sort()).toEqual(['suites/account-relations.test.ts', `suites/${GROUP}.test.ts`]);
    expect(merged.totals.checks).toBe(shards.reduce((n, run) => n + results(run).totals.checks, 0));
    expect(merged.counts.total).toBe(shards.reduce((n, run) => n + results(run).counts.total, 0));
    expect(merged.verdict).toBe(shards.every((run) => results(run).verdict === 'PASS') ? 'PASS' : 'FAIL');
    for (const run of shards) rmSync(run.reportDir, { recursive: true, force: true });
  });
});

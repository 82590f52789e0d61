// The layers of the support layer (docs/architecture.md), held by dependency-cruiser with the rules of
// .dependency-cruiser.cjs: imports go one way, run -> report -> judge -> talk; the support layer imports neither the
// suites nor our own tests; no module imports itself back through others. The rules are shown to fire, each on a
// small tree that breaks it, so that a layer rule that cannot fail is not taken for one that holds.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCommand } from './run-cli.ts';

const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/** dependency-cruiser over `paths` of the tree at `cwd`, with the project's rules: its exit code and its report. */
async function cruise(cwd: string, paths: string[]): Promise<{ code: number | null; report: string }> {
  const run = await runCommand(process.execPath, [DEPCRUISE, '--config', CONFIG, '--output-type', 'err', ...paths], {}, 60_000, cwd);
  return { code: run.code, report: `${run.stdout}${run.stderr}` };
}

describe('the layers of the support layer', () => {
  const broken = mkdtempSync(join(tmpdir(), 'layers-'));
  afterAll(() => rmSync(broken, { recursive: true, force: true }));

  it('should hold in the suites, the support layer and the reference server: every import one way, and no cycle', async () => {
    const { code, report } = await cruise(ROOT, ['suites', 'fixtures', 'vitest.config.ts']);
    expect(report).toMatch(/no dependency violations found/);
    expect(code).toBe(0);
  });

  it('should fail a tree with an import from a lower folder to a higher one, a cycle, loose modules, a judge that imports an actor and an import of a suite', async () => {
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }),
      'suites/statuses.test.ts': "export const suite = 'statuses';\n",
      'suites/support/talk/http.ts': "import { verdict } from '../judge/verify.ts';\nexport const send = () => verdict;\n",
      'suites/support/judge/verify.ts': "import { send } from '../talk/http.ts';\nexport const verdict = () => send;\n",
      'suites/support/report/results.ts': "import { suite } from '../../statuses.test.ts';\nexport const results = suite;\n",
      'suites/support/loose.ts': "import { results } from './report/results.ts';\nexport const loose = results;\n",
      'suites/support/helper.ts': "export const helper = 1;\n",
      'suites/support/run/cli.ts': "import { helper } from '../helper.ts';\nexport const cli = helper;\n",
      'suites/support/act/actors.ts': "export const actors = () => 'A';\n",
      'suites/support/judge/sends.ts': "import { actors } from '../act/actors.ts';\nexport const judged = actors;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(broken, path)), { recursive: true });
      writeFileSync(join(broken, path), text);
    }
    const { code, report } = await cruise(broken, ['suites']);
    expect(code).not.toBe(0);
    for (const rule of ['no-talk-to-higher', 'no-circular', 'no-support-to-suites']) expect(report).toContain(rule);
    expect(report).toMatch(/no-judge-sends: suites\/support\/judge\/sends\.ts → suites\/support\/act\/actors\.ts/);
    // A loose module that imports, and one that only is imported.
    expect(report).toMatch(/no-loose-support-modules: suites\/support\/loose\.ts →/);
    expect(report).toMatch(/no-loose-support-modules: suites\/support\/run\/cli\.ts → suites\/support\/helper\.ts/);
  });
});

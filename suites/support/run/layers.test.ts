// The layers of the support layer (docs/architecture.md), held by dependency-cruiser with the rules of
// .dependency-cruiser.cjs: imports go one way through its five folders, run -> report -> judge -> act -> talk; the
// support layer imports neither the suites nor our own tests; fixtures/ reaches only talk/ and the clause catalogue,
// and only run/ the reference server; no module imports itself back through others. dependency-cruiser runs in this
// process (no child process: the unit lane's rule). The rules are shown to fire, each on a small tree that breaks it,
// so that a layer rule that cannot fail is not taken for one that holds.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = resolve(import.meta.dirname, '../../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/** dependency-cruiser over `paths` of the tree at `root`, with the project's rules: its exit code and its report. */
async function cruised(root: string, paths: string[]): Promise<{ code: number; report: string }> {
  const options = await extractDepcruiseOptions(CONFIG);
  const tsConfig = join(root, 'tsconfig.json');
  const result = await cruise(paths, { ...options, outputType: 'err', baseDir: root, tsConfig: { fileName: tsConfig } }, undefined, { tsConfig: extractTSConfig(tsConfig) });
  return { code: result.exitCode, report: String(result.output) };
}

describe('the layers of the support layer', () => {
  const broken = mkdtempSync(join(tmpdir(), 'layers-'));
  afterAll(() => rmSync(broken, { recursive: true, force: true }));

  it('should hold in the suites, the support layer and the reference server: every import one way, and no cycle', async () => {
    const { code, report } = await cruised(ROOT, ['suites', 'fixtures', 'vitest.config.ts']);
    expect(report).toMatch(/no dependency violations found/);
    expect(code).toBe(0);
  }, 120_000);

  it('should fail a tree with an import from a lower folder to a higher one, a cycle, loose modules, a judge that imports a move or names a type of what sends, an import of a suite, and fixtures reaching above talk/', async () => {
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', allowImportingTsExtensions: true, noEmit: true } }),
      'suites/statuses.test.ts': "export const suite = 'statuses';\n",
      'suites/support/talk/http.ts': "import { verdict } from '../judge/verify.ts';\nexport const send = () => verdict;\n",
      'suites/support/judge/verify.ts': "import { send } from '../talk/http.ts';\nexport const verdict = () => send;\n",
      'suites/support/report/results.ts': "import { suite } from '../../statuses.test.ts';\nexport const results = suite;\n",
      'suites/support/act/actors.ts': "import { server } from '../../../fixtures/reference-server/server.ts';\nexport const actors = server;\n",
      'suites/support/loose.ts': "import { results } from './report/results.ts';\nexport const loose = results;\n",
      'suites/support/helper.ts': 'export const helper = 1;\n',
      'suites/support/run/cli.ts': "import { helper } from '../helper.ts';\nexport const cli = helper;\n",
      'suites/support/act/moves.ts': "export const moves = () => 'A';\n",
      'suites/support/judge/sends.ts': "import { moves } from '../act/moves.ts';\nexport const judged = moves;\n",
      'suites/support/act/explore-part-model.ts': "export const COVERING = ['own'];\n",
      'suites/support/act/explore-part.ts': "import { COVERING } from './explore-part-model.ts';\nexport const sendPart = () => COVERING;\n",
      'suites/support/judge/part-oracle.ts': "import { COVERING } from '../act/explore-part-model.ts';\nimport { sendPart } from '../act/explore-part.ts';\nexport const judged = [COVERING, sendPart];\n",
      'suites/support/act/sequence.ts': 'export class Sequencer {}\n',
      'suites/support/judge/sequence-judge.ts': "import type { Sequencer } from '../act/sequence.ts';\nexport const judged = (sequencer: Sequencer) => sequencer;\n",
      'fixtures/reference-server/server.ts': "import { verdict } from '../../suites/support/judge/verify.ts';\nexport const server = verdict;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(broken, path)), { recursive: true });
      writeFileSync(join(broken, path), text);
    }
    const { code, report } = await cruised(broken, ['suites', 'fixtures']);
    expect(code).not.toBe(0);
    for (const rule of ['no-talk-to-higher', 'no-circular', 'no-support-to-suites', 'no-fixtures-to-higher', 'no-reference-server-below-run']) expect(report).toContain(rule);
    expect(report).toMatch(/no-judge-sends: suites\/support\/judge\/sends\.ts → suites\/support\/act\/moves\.ts/);
    // Of an explored part, a judge may read the model, not the module that sends.
    expect(report).toMatch(/no-judge-to-sending-act: suites\/support\/judge\/part-oracle\.ts → suites\/support\/act\/explore-part\.ts/);
    expect(report).not.toMatch(/judge\/part-oracle\.ts → suites\/support\/act\/explore-part-model\.ts/);
    // Nor a type of one: a judge handed a Sequencer could send.
    expect(report).toMatch(/no-judge-to-sending-act: suites\/support\/judge\/sequence-judge\.ts → suites\/support\/act\/sequence\.ts/);
    // A loose module that imports, and one that only is imported.
    expect(report).toMatch(/no-loose-support-modules: suites\/support\/loose\.ts →/);
    expect(report).toMatch(/no-loose-support-modules: suites\/support\/run\/cli\.ts → suites\/support\/helper\.ts/);
  }, 120_000);
});

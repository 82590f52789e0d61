// Results of several runs in one place (`npm run matrix -- ...`): the compatibility matrix of several
// servers, and the merge of the shards of one run. Usage in HELP below.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { addCounts, emptyCounts } from '../talk/counts.ts';
import { ExpectationsError, judgeRun, loadExpectations, writeUpdatedExpectations, type Expectation } from './expectations.ts';
import { matrixHtml, type MatrixColumn } from './report-html.ts';
import { writeReports } from './reporter.ts';
import { rankRootCauses } from './root-causes.ts';
import { runVerdict, totalsOf, withRunTotals, type RunResults } from './results.ts';
import { withSuiteErrors } from './blocks.ts';

const EXIT = { passed: 0, failed: 1, usage: 2 } as const;

const HELP = `Usage:
  npm run matrix -- [--out matrix.html] [LABEL=]a/results.json [LABEL=]b/results.json ...
      The compatibility matrix of several servers (or releases of one): one self-contained HTML page,
      clauses as rows and servers as columns. A column is named LABEL, else after the directory of its
      results.json. Without --out the page goes to standard output.

  npm run matrix -- --merge shard1/results.json shard2/results.json ... [--out DIR] [--write-expectations FILE]
      The shards of one run (--shard I/N on several CI machines) as one run: with --out, the four report
      files in DIR; without it, the merged results.json on standard output. Exit code 0 when the merged
      run passes, 1 when it fails, 2 on a usage error, like the conformance command.
      --write-expectations FILE writes the ratchet's file for the whole run, as the conformance command's
      option of that name does for an unsharded one: the entries the shards ran with (else those of FILE,
      where it exists) kept, each expected failure that now passes in any shard widened to ["fail", "pass"]
      (never dropped), and an entry added for each shard's failures and blocked checks that no entry
      covers. A shard's own --write-expectations sees only its slice.`;

export class MatrixUsageError extends Error {
  override name = 'MatrixUsageError';
}

/** A results.json written by the conformance command (or a merge); anything else is a usage error. */
export function readResults(file: string): RunResults {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new MatrixUsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const results = parsed as Partial<RunResults> | null;
  if (!results || !Array.isArray(results.checks) || !results.server || !results.totals || !results.counts) {
    throw new MatrixUsageError(`${file} is not a results.json written by the conformance command`);
  }
  return results as RunResults;
}

/**
 * One run made of its shards: checks, groups, counts and leftovers added up, and every check judged again
 * against the expectations, since an expected failure may fail in one shard and pass in another.
 */
export function mergeShards(shards: readonly RunResults[]): RunResults {
  const first = shards[0];
  if (!first) throw new MatrixUsageError('--merge needs at least one results.json');
  const checks = withSuiteErrors(shards.flatMap((s) => s.checks).sort((x, y) => x.file.localeCompare(y.file)));
  const expectations = new Map<string, Expectation>();
  for (const shard of shards) for (const { check, expect, reason } of shard.expectations?.entries ?? []) expectations.set(check, { check, expect, reason });
  const entries = judgeRun(checks, [...expectations.values()]);
  const groups = withRunTotals(shards.flatMap((s) => s.groups), checks);
  const starts = shards.map((s) => Date.parse(s.startedAt));
  const ends = shards.map((s) => Date.parse(s.startedAt) + s.durationMs);
  const merged: Omit<RunResults, 'verdict'> = {
    // Shards of one run test one server; embedded shards each start their own, so the first one's address stands.
    server: { ...first.server, faults: [...new Set(shards.flatMap((s) => s.server.faults))] },
    startedAt: new Date(Math.min(...starts)).toISOString(),
    durationMs: Math.max(...ends) - Math.min(...starts),
    totals: totalsOf(checks),
    rootCauses: rankRootCauses(checks),
    groups,
    checks,
    expectations: {
      ...(first.expectations?.file ? { file: first.expectations.file } : {}),
      allowUnexpectedPass: shards.some((s) => s.expectations?.allowUnexpectedPass),
      entries,
    },
    counts: shards.reduce((sum, s) => addCounts(sum, s.counts), emptyCounts()),
    leftovers: shards.flatMap((s) => s.leftovers),
    errors: shards.flatMap((s) => s.errors),
  };
  return { verdict: runVerdict(merged), ...merged };
}

/** What the ratchet updates: the expectations the shards ran with, else the file it writes, where it exists. */
function expectationsToUpdate(merged: RunResults, file: string): Expectation[] {
  const ranWith = merged.expectations.entries.map(({ check, expect, reason }) => ({ check, expect, reason }));
  if (merged.expectations.file || ranWith.length > 0 || !existsSync(file)) return ranWith;
  try {
    return loadExpectations(file);
  } catch (error) {
    if (error instanceof ExpectationsError) throw new MatrixUsageError(error.message);
    throw error;
  }
}

/** `LABEL=path` or a path, whose column is named after its directory (reports/mastodon-4.2/results.json). */
export function columnsOf(args: readonly string[]): MatrixColumn[] {
  const columns = args.map((arg) => {
    const labelled = !existsSync(arg) ? /^([^=]+)=(.+)$/.exec(arg) : null;
    const file = labelled?.[2] ?? arg;
    const results = readResults(file);
    const label = labelled?.[1] ?? (basename(dirname(resolve(file))) || `${results.server.baseUrl} ${results.server.version}`);
    return { label, results };
  });
  const seen = new Map<string, number>();
  return columns.map((c) => {
    const n = (seen.get(c.label) ?? 0) + 1;
    seen.set(c.label, n);
    return n > 1 ? { ...c, label: `${c.label} (${n})` } : c;
  });
}

function main(argv: string[]): number {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { merge: { type: 'boolean' }, out: { type: 'string' }, 'write-expectations': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help || positionals.length === 0) {
    (values.help ? process.stdout : process.stderr).write(`${HELP}\n`);
    return values.help ? EXIT.passed : EXIT.usage;
  }
  const writeTo = values['write-expectations'];
  if (writeTo !== undefined && !values.merge) throw new MatrixUsageError('--write-expectations goes with --merge');
  if (values.merge) {
    const merged = mergeShards(positionals.map(readResults));
    // Read before anything is written, so that a mistake in the file stops the merge with one line.
    const toUpdate = writeTo === undefined ? [] : expectationsToUpdate(merged, writeTo);
    if (values.out) {
      writeReports(values.out, merged);
      process.stdout.write(`Merged ${positionals.length} shards: ${merged.verdict}; reports in ${values.out}/\n`);
    } else {
      process.stdout.write(`${JSON.stringify(merged, null, 2)}\n`);
    }
    // Beside the merged results.json on standard output, the line goes to standard error.
    if (writeTo !== undefined) (values.out ? process.stdout : process.stderr).write(`${writeUpdatedExpectations(writeTo, toUpdate, merged.checks)}\n`);
    return merged.verdict === 'PASS' ? EXIT.passed : EXIT.failed;
  }
  const html = matrixHtml(columnsOf(positionals));
  if (values.out) writeFileSync(values.out, html);
  else process.stdout.write(html);
  return EXIT.passed;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    const usage = error instanceof MatrixUsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`matrix: ${(error as Error).message}\n`);
    process.exitCode = usage ? EXIT.usage : EXIT.failed;
  }
}

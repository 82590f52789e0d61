// The command line: `npm run conformance -- [options]`. Settings come from flags, the environment and .env
// (in that order of precedence). Exit codes: 0 every check passed, 1 some check failed, 2 usage or configuration error.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { config as loadDotenv } from 'dotenv';
import { startVitest } from 'vitest/node';
import { ConfigError, configFromEnv, SETTINGS } from './config.ts';
import ConformanceReporter from './reporter.ts';
import type { RunResults } from './results.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EXIT = { passed: 0, failed: 1, usage: 2 } as const;

const HELP = `Usage: social-api-conformance [options]

Runs the conformance suites against CONFORMANCE_BASE_URL, or against the embedded reference server when
it is unset, and writes junit.xml, results.json and summary.md to the report directory.

Selection:
  --group NAME        run one endpoint group (a suite file name such as statuses or oauth); repeatable
  --only PREFIX       run the checks whose clause id starts with PREFIX (STATUS-READ, OAUTH-); repeatable
  -h, --help          show this help

Settings (each also read from the environment variable named, or from .env):
${SETTINGS.map((s) => `  ${`${s.flag}${s.kind === 'boolean' ? '' : ' VALUE'}`.padEnd(22)}${s.env}: ${s.description}`).join('\n')}

Exit codes: 0 every check passed, 1 some check failed, 2 usage or configuration error.`;

function usageError(message: string): never {
  process.stderr.write(`social-api-conformance: ${message}\n`);
  process.exit(EXIT.usage);
}

function parseCommandLine(argv: string[]) {
  const options: ParseArgsConfig['options'] = {
    help: { type: 'boolean', short: 'h' },
    group: { type: 'string', multiple: true },
    only: { type: 'string', multiple: true },
  };
  for (const s of SETTINGS) {
    options[s.flag.slice(2)] = s.env === 'CONFORMANCE_FAULTS' ? { type: 'string', multiple: true } : { type: s.kind === 'boolean' ? 'boolean' : 'string' };
  }
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    usageError(`${(error as Error).message.split('\n')[0]} (see --help)`);
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function main(): Promise<number> {
  const flags = parseCommandLine(process.argv.slice(2));
  if (flags.help) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.passed;
  }
  loadDotenv({ quiet: true });
  for (const s of SETTINGS) {
    const value = flags[s.flag.slice(2)];
    if (value === undefined) continue;
    process.env[s.env] = Array.isArray(value) ? value.join(',') : value === true ? '1' : String(value);
  }
  let config;
  try {
    config = configFromEnv(process.env);
  } catch (error) {
    if (error instanceof ConfigError) usageError(error.message);
    throw error;
  }
  process.env.CONFORMANCE_REPORT_DIR = resolve(config.reportDir);

  const groups = (flags.group as string[] | undefined) ?? [];
  const files = groups.map((g) => `suites/${g.replace(/\.test\.ts$/, '')}.test.ts`);
  for (const file of files) if (!existsSync(resolve(ROOT, file))) usageError(`unknown group "${file.slice(7, -8)}": no ${file}`);
  const prefixes = (flags.only as string[] | undefined) ?? [];
  const testNamePattern = prefixes.length ? new RegExp(`(^| )(${prefixes.map(escapeRegExp).join("|")})`) : undefined;

  const vitest = await startVitest('test', files, {
    root: ROOT,
    config: resolve(ROOT, 'vitest.config.ts'),
    project: ['conformance'],
    watch: false,
    reporters: [new ConformanceReporter()],
    ...(testNamePattern ? { testNamePattern } : {}),
  });
  await vitest?.close();
  const resultsFile = resolve(process.env.CONFORMANCE_REPORT_DIR, 'results.json');
  if (!existsSync(resultsFile)) return EXIT.failed;
  const results = JSON.parse(readFileSync(resultsFile, 'utf8')) as RunResults;
  const failed = results.totals.failed > 0 || results.errors.length > 0 || results.groups.some((g) => g.errors.length > 0);
  return failed ? EXIT.failed : EXIT.passed;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`social-api-conformance: ${(error as Error).message ?? String(error)}\n`);
    process.exit(EXIT.failed);
  },
);

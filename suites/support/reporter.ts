// The conformance reporter: a progress line per group as it finishes, the summary at the end, and the
// report files in CONFORMANCE_REPORT_DIR. Every text it writes passes through redact().
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule, TestRunEndReason } from 'vitest/node';
import { configFromEnv } from './config.ts';
import { addCounts, emptyCounts } from './counts.ts';
import { redact } from './redact.ts';
import {
  clauseOfTitle,
  failedClauseOf,
  junitXml,
  summaryMarkdown,
  totalsOf,
  type CheckResult,
  type GroupResult,
  type RunResults,
} from './results.ts';

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

function errorText(error: SerializedError | undefined): string {
  if (!error) return 'failed';
  const message = stripAnsi(error.message ?? String(error));
  // Our own failures say everything in their message; anything else is a defect worth its stack.
  return redact(error.name === 'ClauseFailure' ? message : `${error.name ?? 'Error'}: ${message}${error.stack ? `\n${stripAnsi(error.stack).split('\n').slice(1, 4).join('\n')}` : ''}`);
}

function groupName(module: TestModule): string {
  for (const child of module.children) if (child.type === 'suite') return child.name;
  return module.moduleId.split('/').pop() ?? module.moduleId;
}

function checkOf(test: TestCase, group: string, file: string): CheckResult {
  const result = test.result();
  const status = result.state === 'failed' ? 'failed' : result.state === 'passed' ? 'passed' : 'skipped';
  const message = status === 'failed' ? result.errors?.map(errorText).join('\n\n') : undefined;
  return {
    clause: clauseOfTitle(test.name),
    title: test.name,
    group,
    file,
    status,
    durationMs: Math.round(test.diagnostic()?.duration ?? 0),
    ...(message ? { message, failedClause: failedClauseOf(message) ?? clauseOfTitle(test.name) } : {}),
    ...(status === 'skipped' ? { skipReason: (result.state === 'skipped' && result.note) || 'skipped' } : {}),
    observations: test.annotations().filter((a) => a.type === 'observation').map((a) => redact(a.message)),
  };
}

export default class ConformanceReporter implements Reporter {
  private startedAt = new Date();
  private readonly groups: GroupResult[] = [];
  private readonly checks: CheckResult[] = [];

  onInit(): void {
    this.startedAt = new Date();
  }

  onTestModuleEnd(module: TestModule): void {
    const file = relative(process.cwd(), module.moduleId);
    const name = groupName(module);
    const checks = [...module.children.allTests()].map((t) => checkOf(t, name, file));
    const errors = module.errors().map(errorText);
    const group: GroupResult = {
      name,
      file,
      durationMs: Math.round(module.diagnostic().duration),
      ...totalsOf(checks),
      errors,
    };
    this.groups.push(group);
    this.checks.push(...checks);
    const mark = group.failed > 0 || errors.length > 0 ? '✗' : '✓';
    const extra = errors.length ? `, ${errors.length} error${errors.length > 1 ? 's' : ''}` : '';
    process.stdout.write(`${mark} ${name}: ${group.passed} passed, ${group.failed} failed, ${group.skipped} skipped${extra} (${(group.durationMs / 1000).toFixed(1)} s)\n`);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, _reason: TestRunEndReason): void {
    const config = configFromEnv(process.env);
    const counts = emptyCounts();
    const leftovers: string[] = [];
    for (const module of modules) {
      const meta = module.meta();
      if (meta.counts) addCounts(counts, meta.counts);
      leftovers.push(...(meta.leftovers ?? []));
    }
    const results: RunResults = {
      server: {
        baseUrl: config.baseUrl || process.env.CONFORMANCE_RESOLVED_BASE_URL || '',
        embedded: config.embedded,
        version: config.serverVersion,
        faults: config.faults,
      },
      startedAt: this.startedAt.toISOString(),
      durationMs: Date.now() - this.startedAt.getTime(),
      totals: totalsOf(this.checks),
      groups: [...this.groups].sort((x, y) => x.file.localeCompare(y.file)),
      checks: [...this.checks].sort((x, y) => x.file.localeCompare(y.file)),
      counts,
      leftovers,
      errors: unhandledErrors.map(errorText),
    };
    mkdirSync(config.reportDir, { recursive: true });
    writeFileSync(join(config.reportDir, 'results.json'), redact(JSON.stringify(results, null, 2)));
    writeFileSync(join(config.reportDir, 'junit.xml'), junitXml(results));
    const summary = summaryMarkdown(results);
    writeFileSync(join(config.reportDir, 'summary.md'), summary);
    for (const check of results.checks.filter((c) => c.status === 'failed')) {
      process.stdout.write(`\n✗ ${check.title}\n${check.message}\n`);
    }
    process.stdout.write(`\n${summary}\nReports: ${config.reportDir}/ (results.json, junit.xml, summary.md)\n`);
  }
}

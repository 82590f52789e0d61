// A check that cannot fail is a defect, and one deviation is one failure. Every reference-server fault breaks one
// clause (faults.ts names each by it): run the suite against the server with that fault and prove that the failed
// clauses are exactly {that clause} (or what faults.ts ALSO_FAILS declares, with the reason), and that every check
// it makes unjudgeable is blocked naming it (or a clause faults.ts BLOCKS declares). Real servers deviate in many
// places at once: each compound profile (faults.ts PROFILES) fails exactly the union of its faults' clauses, every
// other check passing or blocked naming one of them, and the checks it names as once hidden judged, not blocked.
// Which files a fault can change is measured, not guessed: a first run of each suite file against a plain server
// (and again under each setting a fault needs: the exploration, whitelist mode, an older release) records which faults
// the server was asked about; a file whose requests never ask about a fault runs exactly as it does without it, so each
// fault run takes only the files that reach its line under its settings, whole (a profile: its faults' files, every
// file where it also switches a variation on), and of the exploration only the parts that reach it (measured so too).
// All runs share one vitest process (suite-runner.ts), one project and one embedded server per run.
// The faults are shared between two test files that vitest runs side by side: those that need no setting
// (fault-exactness.test.ts) and those that need one (FAULT_SETTINGS, fault-exactness-settings.test.ts), each file with
// the plain runs its faults are measured on and the profiles of its faults (those with a variation, which take every
// file, with the second). One file took them one phase after the
// other: its plain runs under every setting, then every fault run, the lane's longest chain (536 s of a 600 s npm
// test on a quiet machine, 2026-12-07).
import { beforeAll, describe, expect, it } from 'vitest';
import { faultClause, FAULTS, PROFILES, type Fault } from '../../fixtures/reference-server/faults.ts';
import { catchable, exactnessProblems, failedClauses, hiddenProblems, FAULT_SETTINGS, faultEnv, NARROWED, RUNNER_TIMEOUTS, settingsEnv, SUITE_FILES } from './fault-runs.ts';
import { runSuites, type SuiteRuns } from './run-cli.ts';
import { declarations } from '../support/report/declared-checks.ts';
import { EXPLORE_PARTS, type ExplorePart } from '../support/talk/config.ts';
import type { SuiteRun } from './suite-runner.ts';

/**
 * The runner is stopped after this long, a guard against a hang only; the test waits a little longer, to report what
 * it got. Its 940 file runs (1,109 before the settings were measured) take about 4 minutes beside the rest of `npm
 * test`, 10 at a load of 40 (2026-12-06), and more than 20 at a load of 50 (2026-12-07): a bound a busy machine
 * reaches is no verdict.
 */
const RUNNER_TIMEOUT_MS = 2_400_000;

/** The run-wide clauses: judged over every file of a run (report/run-wide-results.ts). */
const RUN_WIDE = new Set(declarations().runWide.map((clause) => clause.id));

/** Which faults a file of fault runs takes: those that need no setting, or those that need one (FAULT_SETTINGS). */
export type FaultShare = 'no setting' | 'a setting';
const needsSetting = (fault: Fault) => FAULT_SETTINGS[fault] !== undefined;
const shareOf = (faults: readonly Fault[]): FaultShare => (faults.some(needsSetting) ? 'a setting' : 'no setting');
/**
 * A profile's share is its faults', but a profile with a variation takes every file and needs no plain run to choose
 * them: those six (66 file runs) go with the faults that need a setting, whose file had the fewer fault runs (172
 * against 801; 900 s against 974 s in one npm test, 2026-12-07).
 */
const profileShare = ({ faults, variations = [] }: (typeof PROFILES)[string]): FaultShare => (variations.length > 0 ? 'a setting' : shareOf(faults));
/** The settings a share's plain runs are made under: none, or each that a fault needs (its line is reached only there). */
const settingsOf = (share: FaultShare): Record<string, string>[] => (share === 'no setting' ? [{}] : [...new Map(Object.values(FAULT_SETTINGS).map((s) => [JSON.stringify(s), s])).values()]);
const plainName = (file: string, settings: Record<string, string> = {}) => `plain ${file}${Object.keys(settings).length ? ` with ${JSON.stringify(settings)}` : ''}`;
const EXPLORE_FILE = 'suites/explore.test.ts';
/** The plain runs of the exploration one part at a time, under each setting that explores: where an explored fault's line is met. */
const partName = (settings: Record<string, string>, part: ExplorePart) => `${plainName(EXPLORE_FILE, settings)} sending ${part} alone`;
const partRuns = (settings: Record<string, string>[]) => (SUITE_FILES.includes(EXPLORE_FILE) ? settings.filter((s) => s.CONFORMANCE_EXPLORE).flatMap((s) => EXPLORE_PARTS.map((part) => ({ settings: s, part }))) : []);
const profileName = (name: string) => `profile ${name}`;

/** What went wrong in a run of the runner as a whole, for the message of a failed expectation. */
const runnerTrouble = ({ code, stdout, stderr }: SuiteRuns) => (code === 0 ? '' : `\nthe fault runner exited with ${code}:\n${(stdout + stderr).slice(-3000)}`);

/** The fault runs of one share: its plain runs, every single fault of it and every profile of it (profileShare). */
export function faultExactness(share: FaultShare): void {
  const plainSettings = settingsOf(share);
  const partRunsOfShare = partRuns(plainSettings);
  const profilesOfShare = Object.entries(PROFILES).filter(([, profile]) => profileShare(profile) === share);
  describe(`fault exactness: the faults that need ${share}`, () => {
    let faults: Fault[] = [];
    let unreached: Fault[] = [];
    let singles: SuiteRun[] = [];
    let plainProblems: string[] = [];
    let runs: SuiteRuns | undefined;

    beforeAll(async () => {
      // Each file alone against a plain server with the fault runs' settings: as most fault runs have them (the share of
      // no setting), or under each setting some fault needs (FAULT_SETTINGS: the exploration, whitelist mode, an older
      // release): a fault's files are measured under its own settings, where its line is reached, not taken whole for
      // want of a measure.
      const plain = await runSuites(
        [
          ...plainSettings.flatMap((settings) => SUITE_FILES.map((file) => ({ name: plainName(file, settings), files: [file], env: { ...faultEnv([]), ...settingsEnv(settings), ...RUNNER_TIMEOUTS } }))),
          ...partRunsOfShare.map(({ settings, part }) => ({ name: partName(settings, part), files: [EXPLORE_FILE], env: { ...faultEnv([]), ...settingsEnv(settings), ...RUNNER_TIMEOUTS, CONFORMANCE_EXPLORE_PARTS: part } })),
        ],
        RUNNER_TIMEOUT_MS,
      );
      plainProblems = [...plain.outcomes.flatMap((o) => exactnessProblems(o, []).map((p) => `${o.name}: ${p}`)), ...(runnerTrouble(plain) ? [runnerTrouble(plain)] : [])];
      const plainOf = (file: string, fault: Fault) => plain.outcomes.find((o) => o.name === plainName(file, FAULT_SETTINGS[fault]));
      const reaching = (fault: Fault) => SUITE_FILES.filter((file) => plainOf(file, fault)?.consulted.includes(fault));
      // The files that judge a run-wide clause (RESOURCE-STATUS-1) run with its faults too: it is owned by one file and
      // judged over every file of the run, whichever file met the deviation. Another clause's check judges what its own
      // file met: in a file whose requests never reach the fault, it passes as in the plain run (the explored faults'
      // clauses have checks in the groups, each a run of its own under --explore, that the explored inputs alone reach).
      const judging = (fault: Fault) => (RUN_WIDE.has(faultClause(fault)) ? SUITE_FILES.filter((file) => plainOf(file, fault)?.checks.some((c) => c.clause === faultClause(fault))) : []);
      const filesOf = (fault: Fault) => SUITE_FILES.filter((file) => reaching(fault).includes(file) || judging(fault).includes(file));
      faults = (Object.keys(FAULTS) as Fault[]).filter((f) => shareOf([f]) === share && (!NARROWED || (reaching(f).length > 0 && catchable(f))));
      unreached = faults.filter((f) => reaching(f).length === 0);
      // Each file run is expected to take what the file took in its plain run under the same settings: the runner starts the longest first.
      const expectedMs = (files: string[], faults: readonly Fault[]) => {
        const settings = Object.assign({}, ...faults.map((f) => FAULT_SETTINGS[f] ?? {})) as Record<string, string>;
        return Object.fromEntries(files.map((file) => [file, (plain.outcomes.find((o) => o.name === plainName(file, settings)) ?? plain.outcomes.find((o) => o.name === plainName(file)))?.ms ?? 0]));
      };
      // The exploration sends only the parts whose requests reach the fault, measured as the files are (config.ts exploreParts):
      // the others would run as they do without it. A fault met in every part, or in none of them alone, gets them all.
      const partsOf = (fault: Fault): Record<string, string> => {
        const settings = FAULT_SETTINGS[fault] ?? {};
        const parts = EXPLORE_PARTS.filter((part) => plain.outcomes.find((o) => o.name === partName(settings, part))?.consulted.includes(fault));
        return parts.length > 0 && parts.length < EXPLORE_PARTS.length ? { CONFORMANCE_EXPLORE_PARTS: parts.join(',') } : {};
      };
      singles = faults.filter((f) => !unreached.includes(f)).map((f) => ({ name: f, files: filesOf(f), env: { ...faultEnv([f]), ...RUNNER_TIMEOUTS, ...partsOf(f) }, expectedMs: expectedMs(filesOf(f), [f]) }));
      // A profile takes the files its faults reach or judge, as a single fault does; a variation may change any file, and
      // so may the settings of one fault where another of the profile was measured without them.
      const profileFiles = ({ faults, variations = [] }: (typeof PROFILES)[string]) =>
        variations.length > 0 || faults.some((f) => FAULT_SETTINGS[f]) ? SUITE_FILES : SUITE_FILES.filter((file) => faults.some((f) => filesOf(f).includes(file)));
      const profiles = profilesOfShare.map(([name, profile]) => ({ name: profileName(name), files: profileFiles(profile), env: { ...faultEnv(profile.faults, profile.variations), ...RUNNER_TIMEOUTS }, expectedMs: expectedMs(profileFiles(profile), profile.faults) }));
      runs = await runSuites([...singles, ...profiles], RUNNER_TIMEOUT_MS);
      const fileRuns = [...singles, ...profiles].reduce((n, r) => n + r.files.length, 0);
      console.log(`${singles.length} single faults and ${profiles.length} profiles: ${fileRuns} file runs in ${(runs.ms / 1000).toFixed(1)} s`);
    }, 2 * RUNNER_TIMEOUT_MS + 30_000);

    it('should pass every check against the plain server', () => {
      expect(plainProblems).toEqual([]);
    });

    it('should fail exactly the broken clause for every single fault, and block only what it makes unjudgeable', () => {
      const outcomes = new Map(runs?.outcomes.map((o) => [o.name, o]));
      const problems = [
        ...unreached.map((f) => `${f}: no suite file's requests reach the line of this fault`),
        ...singles.flatMap((r) => exactnessProblems(outcomes.get(r.name), [r.name as Fault]).map((p) => `${r.name}: ${p}`)),
      ];
      const inexact = new Set(problems.map((p) => p.split(':')[0]));
      const blocked = singles.reduce((n, r) => n + (outcomes.get(r.name)?.checks.filter((c) => c.status === 'blocked').length ?? 0), 0);
      console.log(`single faults exact ${faults.length - inexact.size}/${faults.length}, ${blocked} checks blocked in all`);
      expect(problems, runs ? runnerTrouble(runs) : 'no fault runs').toEqual([]);
    });

    it('should fail exactly the union of the faults\' clauses for every compound profile', () => {
      const outcomes = new Map(runs?.outcomes.map((o) => [o.name, o]));
      const problems = profilesOfShare.flatMap(([name, profile]) => {
        const outcome = outcomes.get(profileName(name));
        return [...exactnessProblems(outcome, profile.faults), ...hiddenProblems(outcome, profile.judged ?? [])].map((p) => `profile ${name}: ${p}`);
      });
      for (const [name, profile] of profilesOfShare) {
        const o = outcomes.get(profileName(name));
        const count = (status: string) => o?.checks.filter((c) => c.status === status).length ?? 0;
        console.log(`profile ${name}: ${profile.faults.length} faults, ${o ? failedClauses(o).size : 0} failed clauses, ${count('blocked')} checks blocked, ${count('passed')} passed`);
      }
      expect(problems, runs ? runnerTrouble(runs) : 'no fault runs').toEqual([]);
    });
  });
}

import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../talk/config.ts';
import { ROOT } from './docs.ts';
import { commandCallsOf, exploreShareOf, IP_ACCESS_LINE, plannedConfiguration, planLine, planOfRun } from './run-plan.ts';
import { asPlanned, fullRunConfig } from './declarations.ts';
import { prepareRun } from './global-setup.ts';
import { declarations } from '../report/declared-checks.ts';
import { EXPLORE_FILE, selectedOf, selectionOf } from './selection.ts';

const FILES = ['suites/account-relations.test.ts', 'suites/client-registration.test.ts'];
const config = configFromEnv({});

describe("the run's plan", () => {
  it("should add up, before any request, what the steps of every check of the groups cost, by path", async () => {
    const plan = await planOfRun(ROOT, FILES, config);
    expect(plan.groups.map(({ heading, cost }) => [heading, cost])).toEqual([
      ['Account relations', { api: 7, oauth: 3, files: 0, streams: 0 }],
      ['Client registration', { api: 7, oauth: 7, files: 0, streams: 0 }],
    ]);
    expect(planLine(plan)).toBe('24 requests (14 /api, 10 /oauth, 0 files) and 0 stream connections');
  });

  it('should count only the steps of the checks the selection keeps, each once', async () => {
    const plan = await planOfRun(ROOT, FILES, config, (name) => /APPS-VERIFY-1/.test(name));
    // The application (its read by the ledger, which the earliest-declared registration's step pays), its token
    // (revoked and read by the ledger) and the read with it: 6 requests, as the run sends.
    expect(plan.groups.map(({ checks, cost }) => [checks, cost])).toEqual([
      [0, { api: 0, oauth: 0, files: 0, streams: 0 }],
      [1, { api: 3, oauth: 3, files: 0, streams: 0 }],
    ]);
  });

  it("should give the exploration's default share what the other groups leave of the IP access line, and plan it so", async () => {
    const others = [...new Set(selectedOf(ROOT, selectionOf({})).checks.map((check) => check.file))].filter((file) => file !== EXPLORE_FILE);
    const { total } = await planOfRun(ROOT, others, config);
    const share = await exploreShareOf(ROOT, config);
    expect(share).toBe(Math.max(0, IP_ACCESS_LINE - total.api - total.streams));
    // The exploration's own plan spends exactly that share: the run's IP access calls reach the line.
    const explore = await planOfRun(ROOT, [EXPLORE_FILE], config);
    expect(explore.total).toEqual({ api: share, oauth: 0, files: 0, streams: 0 });
  });

  it("should read the default run's share from the declared checks, as the command and the run's workers configure it", async () => {
    // The command plans before the embedded server starts (asPlanned); the workers are given the server's address, A's
    // id and the accounts it made: the one plan must be found for both, not an address the next run will not have.
    const server = await prepareRun({});
    try {
      const keys = declarations(ROOT).plans.map((plan) => plan.configuration);
      expect(keys).toContainEqual(plannedConfiguration(server.config));
      expect(keys).toContainEqual(plannedConfiguration(asPlanned(configFromEnv({}))));
    } finally {
      await server.close?.();
    }
    // What the file says the other groups cost (docs.test holds it equal to what they declare), not loaded again.
    const [plan] = declarations(ROOT).plans;
    const others = Object.entries(plan?.costs ?? {}).filter(([file]) => file !== EXPLORE_FILE);
    const ipAccess = others.reduce((sum, [, cost]) => sum + cost.api + cost.streams, 0);
    expect(await exploreShareOf(ROOT, fullRunConfig())).toBe(Math.max(0, IP_ACCESS_LINE - ipAccess));
  });

  it("should leave in the line the command's own calls against a configured server: the budget's read and a verify_credentials per token", () => {
    expect(commandCallsOf(config)).toBe(0);
    expect(commandCallsOf(configFromEnv({ CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_TOKEN_A: 'token-of-a' }))).toBe(2);
    expect(commandCallsOf(configFromEnv({ CONFORMANCE_BASE_URL: 'http://127.0.0.1:9', CONFORMANCE_TOKEN_A: 'token-of-a', CONFORMANCE_TOKEN_B: 'token-of-b' }))).toBe(3);
  });
});

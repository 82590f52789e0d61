// Reads the configuration and, when no server URL is configured, starts the embedded reference server (with
// CONFORMANCE_FAULTS and CONFORMANCE_VARIATIONS switched on) and points the run at it: prepareRun. The conformance
// command (cli.ts) and our runner of many runs call it themselves; vitest calls the default export once per run of
// the conformance project (npx vitest --project conformance, as npm test runs it).
import type { TestProject } from 'vitest/node';
import { isFault } from '../../../fixtures/reference-server/faults.ts';
import { startReferenceServer } from '../../../fixtures/reference-server/server.ts';
import { variationsOf } from '../../../fixtures/reference-server/variations.ts';
import { configFromEnv, EXPLORE_PARTS, PREFLIGHT_ACCOUNT_A, type Config, type ExplorePart } from '../talk/config.ts';
import { bucketTurnsMemory } from '../talk/bucket-turns.ts';
import { inFlightCount } from '../talk/in-flight.ts';
import { runReading } from '../talk/pacing.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    config: Config;
    /** Our own runner's runs, each against its own server (suites/self/suite-runner.ts): run name -> configuration. */
    runs?: Record<string, Config>;
  }
}

/** The run's configuration; with no server URL, it points at an embedded reference server started here. */
export async function prepareRun(
  env: Record<string, string | undefined>,
): Promise<{ config: Config; close?: () => Promise<void>; consultedFaults?: () => string[] }> {
  const accountIdA = env[PREFLIGHT_ACCOUNT_A];
  // Our own fault runs only (suites/self/fault-exactness.test.ts): the parts of the exploration where a fault's line is
  // met, and a stream window shorter than the requests' timeout.
  const exploreParts = env.CONFORMANCE_EXPLORE_PARTS?.split(',').filter((part): part is ExplorePart => (EXPLORE_PARTS as readonly string[]).includes(part));
  const config: Config = { ...configFromEnv(env), inFlight: inFlightCount(), rateReading: runReading(), bucketTurns: bucketTurnsMemory(), ...(accountIdA ? { accountIdA } : {}), ...(exploreParts ? { exploreParts } : {}), ...(Number(env.CONFORMANCE_STREAM_WINDOW_MS) > 0 ? { streamWindowMs: Number(env.CONFORMANCE_STREAM_WINDOW_MS) } : {}) };
  if (!config.embedded) return { config };
  const unknown = config.faults.filter((f) => !isFault(f));
  if (unknown.length) throw new Error(`unknown reference-server fault ${unknown.join(', ')}`);
  const server = await startReferenceServer({
    faults: config.faults.filter(isFault),
    variations: variationsOf(env.CONFORMANCE_VARIATIONS),
    release: config.serverVersion,
    whitelistMode: config.whitelistMode,
    // Our own fault runs only (suites/self/fault-runs.ts): a shorter period of the access buckets (context.ts).
    ...(Number(env.CONFORMANCE_ACCESS_PERIOD_MS) > 0 ? { accessPeriodMs: Number(env.CONFORMANCE_ACCESS_PERIOD_MS) } : {}),
  });
  const resolved: Config = {
    ...config,
    baseUrl: server.url,
    streamingUrl: server.url,
    tokenA: server.users.a.token,
    tokenB: server.users.b.token,
    usernameA: server.users.a.account.username,
    passwordA: server.users.a.password,
    usernameB: server.users.b.account.username,
    passwordB: server.users.b.password,
    listId: server.listId,
    accountIdA: server.users.a.account.id,
  };
  return { config: resolved, close: () => server.close(), consultedFaults: () => server.context.faults.consulted() };
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  // A project's own env (our self tests run many projects in one process, each with its fault) wins.
  const { config, close } = await prepareRun({ ...process.env, ...project.config.env });
  // The checks and the reporter (which names the server in the reports) read the configuration as resolved here.
  project.provide('config', config);
  return close;
}

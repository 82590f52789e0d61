// Runs once per conformance run, before any suite: reads the configuration and, when no server URL is
// configured, starts the embedded reference server and points the run at it.
import type { TestProject } from 'vitest/node';
import { isFault } from '../../fixtures/reference-server/faults.ts';
import { startReferenceServer } from '../../fixtures/reference-server/server.ts';
import { configFromEnv, type Config } from './config.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    config: Config;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const config = configFromEnv(process.env);
  if (!config.embedded) {
    project.provide('config', config);
    return;
  }
  const unknown = config.faults.filter((f) => !isFault(f));
  if (unknown.length) throw new Error(`unknown reference-server fault ${unknown.join(', ')}`);
  const server = await startReferenceServer({
    faults: config.faults.filter(isFault),
    release: config.serverVersion,
    whitelistMode: config.whitelistMode,
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
  };
  // The reporter runs in this process and names the server in the reports.
  process.env.CONFORMANCE_RESOLVED_BASE_URL = server.url;
  project.provide('config', resolved);
  return () => server.close();
}

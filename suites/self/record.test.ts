// --record FILE.har, as a user meets it: a run against a reference server whose every issued secret this test can
// read (tokens, client secrets, authorization codes, sessions, passwords) records every exchange as HAR 1.2 that
// validates against the HAR 1.2 JSON schema (har-schema), and holds none of those secrets.
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv, type AnySchemaObject } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../fixtures/reference-server/server.ts';
import type { Har } from '../support/talk/har.ts';
import { runCli, serverEnv, type CliRun } from './run-cli.ts';

const require = createRequire(import.meta.url);
/** har-schema's schemas, one per HAR object, each with its own $id ("entry.json#"); har.json is the document's. */
const HAR_SCHEMAS = require('har-schema') as Record<string, AnySchemaObject>;

let server: ReferenceServer;
let run: CliRun;
let harText: string;

beforeAll(async () => {
  server = await startReferenceServer();
  const harFile = join(process.env.TMPDIR ?? '/tmp', `conformance-record-${process.pid}.har`);
  // OAuth and client registration obtain tokens, codes, client secrets and a web session; media uploads files.
  run = await runCli(['--group', 'oauth', '--group', 'client-registration', '--group', 'media', '--record', harFile], serverEnv(server));
  harText = readFileSync(harFile, 'utf8');
  rmSync(harFile);
});

afterAll(async () => {
  rmSync(run.reportDir, { recursive: true, force: true });
  await server.close();
});

describe('--record FILE.har', () => {
  it('should record every exchange of the run as HAR 1.2 that the HAR 1.2 JSON schema accepts', () => {
    expect(run.stdout).toMatch(/^Recording: .*\.har \(HAR 1\.2, every exchange of the run, redacted\)$/m);
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as AnySchemaObject);
    addFormats.default(ajv);
    for (const [name, schema] of Object.entries(HAR_SCHEMAS)) if (name !== 'har') ajv.addSchema(schema);
    const validate = ajv.compile(HAR_SCHEMAS.har as AnySchemaObject);
    const har = JSON.parse(harText) as Har;
    expect(validate(har), ajv.errorsText(validate.errors)).toBe(true);
    // The command's own requests (its preflight, its budget read) go before the groups, which record.
    const counts = run.results?.counts;
    expect(har.log.entries).toHaveLength(counts ? counts.total - counts.commandRequests : -1);
    const sent = har.log.entries.map((e) => e.startedDateTime);
    expect(sent, 'in the order sent').toEqual([...sent].sort());
    expect(har.log.entries.some((e) => e.request.url.endsWith('/oauth/token'))).toBe(true);
    expect(har.log.entries.some((e) => e.request.postData?.params?.some((p) => 'fileName' in p))).toBe(true);
  });

  it('should hold no token, code, password, client secret or session the server issued', () => {
    const store = server.context.store;
    const secrets = [
      ...store.tokens.keys(),
      ...store.authCodes.keys(),
      ...store.sessions.keys(),
      ...[...store.apps.values()].map((app) => app.clientSecret),
      server.users.a.password,
      server.users.b.password,
    ];
    expect(store.authCodes.size, 'the run obtained codes').toBeGreaterThan(0);
    expect(store.tokens.size, 'and tokens beyond the two configured').toBeGreaterThan(2);
    expect(secrets.filter((secret) => harText.includes(secret) || harText.includes(encodeURIComponent(secret)))).toEqual([]);
  });
});

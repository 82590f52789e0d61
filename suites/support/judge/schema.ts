// The one module that validates payloads against the JSON Schemas in schemas/ (draft 2020-12).
// Every worker of a run validates, and compiling the schemas was a large part of each worker's start-up: they are
// compiled once (Ajv's standalone code) into a module cached under node_modules/.cache, named by a hash of the
// schemas, the options and the versions of Ajv, and each worker only imports it. Where that directory cannot be
// written, they are compiled in memory.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

export type ResourceName =
  | 'Status' | 'Account' | 'Field' | 'Application' | 'Token' | 'Error'
  | 'Context' | 'Card' | 'Poll' | 'ScheduledStatus' | 'Attachment';

export interface SchemaMismatch { pointer: string; expected: string; actual: string }

const SCHEMA_DIR = new URL('../../../schemas/', import.meta.url);
const CACHE_DIR = new URL('../../../node_modules/.cache/social-api-conformance/', import.meta.url);
const require = createRequire(import.meta.url);

const schemaTexts = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.json')).sort().map((f) => readFileSync(new URL(f, SCHEMA_DIR), 'utf8'));

const AJV_OPTIONS = { allErrors: true, strict: true };

/** An Ajv holding every schema; each is compiled on first use. */
async function ajvOf(options: { standalone: boolean }) {
  const [{ Ajv2020 }, formats] = await Promise.all([import('ajv/dist/2020.js'), import('ajv-formats')]);
  const ajv = new Ajv2020({ ...AJV_OPTIONS, ...(options.standalone ? { code: { source: true, esm: true } } : {}) });
  formats.default.default(ajv); // CJS module under NodeNext: the plugin is module.exports.default
  for (const text of schemaTexts) ajv.addSchema(JSON.parse(text) as AnySchemaObject);
  return ajv;
}

/** The validators of every schema, by $id: imported from the cache, which the first run on this machine writes. */
async function loadValidators(): Promise<(resource: ResourceName) => ValidateFunction | undefined> {
  // Whatever changes the compiled code names another file: the schemas, the options, Ajv's and its formats' versions.
  const versions = ['ajv', 'ajv-formats'].map((name) => (require(`${name}/package.json`) as { version: string }).version);
  const hash = createHash('sha256').update(JSON.stringify([versions, AJV_OPTIONS, schemaTexts])).digest('hex').slice(0, 16);
  const file = new URL(`validators-${hash}.mjs`, CACHE_DIR);
  try {
    if (!existsSync(file)) {
      const ajv = await ajvOf({ standalone: true });
      const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
      // The standalone module requires its format checks; as ESM it needs a require of its own.
      const code = `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${standaloneCode.default(ajv)}`;
      mkdirSync(CACHE_DIR, { recursive: true });
      // Written whole, then renamed: a worker compiling at the same moment never imports half a file.
      const partial = new URL(`validators-${hash}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`, CACHE_DIR);
      writeFileSync(partial, code);
      renameSync(partial, file);
    }
    const compiled = (await import(file.href)) as Record<string, ValidateFunction>;
    return (resource) => compiled[resource];
  } catch {
    const ajv = await ajvOf({ standalone: false });
    return (resource) => ajv.getSchema(resource);
  }
}

const validatorOf = await loadValidators();

const escape = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');
function valueAt(root: unknown, pointer: string): unknown {
  let value = root;
  for (const key of pointer.split('/').slice(1).map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'))) {
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}
function excerpt(value: unknown): string {
  const text = value === undefined ? 'missing' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
function expectation(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': return `required property ${JSON.stringify(p['missingProperty'])}`;
    case 'type': return `type ${String(p['type']).split(',').join(' or ')}`;
    case 'enum': return `one of ${(p['allowedValues'] as unknown[]).map(String).join(', ')}`;
    case 'format': return `format ${String(p['format'])}`;
    case 'pattern': return `pattern ${String(p['pattern'])}`;
    case 'minimum': case 'maximum': return `${String(p['comparison'])} ${String(p['limit'])}`;
    default: return e.message ?? e.keyword;
  }
}

/** Mismatches of `value` against the schema of `resource`; empty when valid. */
export function schemaMismatches(resource: ResourceName, value: unknown): SchemaMismatch[] {
  const validate = validatorOf(resource);
  if (!validate) throw new Error(`no schema with $id ${resource} in ${SCHEMA_DIR.pathname}`);
  if (validate(value)) return [];
  // Drop noise: the null branch of "X|null" unions, and combinator summaries (anyOf/oneOf/if)
  // when a more specific error exists at or below the same location.
  const all = validate.errors ?? [];
  const summary = (e: ErrorObject): boolean => ['anyOf', 'oneOf', 'if'].includes(e.keyword);
  const within = (o: ErrorObject, e: ErrorObject): boolean =>
    o.instancePath === e.instancePath || o.instancePath.startsWith(`${e.instancePath}/`);
  const errors = all.filter((e) => !(e.keyword === 'type' && e.params['type'] === 'null') &&
    !(summary(e) && all.some((o) => !summary(o) && within(o, e))));
  return errors.map((e) => {
    const path = e.keyword === 'required' ? `${e.instancePath}/${escape(String(e.params['missingProperty']))}` : e.instancePath;
    return { pointer: path === '' ? '/' : path, expected: expectation(e), actual: excerpt(valueAt(value, path)) };
  });
}

/** One line per mismatch, e.g. `Status /account/id: expected type string, got 123`. */
export function describeMismatches(resource: ResourceName, mismatches: readonly SchemaMismatch[]): string {
  return mismatches.map((m) => `${resource} ${m.pointer}: expected ${m.expected}, got ${m.actual}`).join('\n');
}

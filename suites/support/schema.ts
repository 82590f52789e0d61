// The one module that validates payloads against the JSON Schemas in schemas/ (draft 2020-12).
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnySchemaObject, ErrorObject } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

export type ResourceName =
  | 'Status' | 'Account' | 'Field' | 'Application' | 'Token' | 'Error'
  | 'Context' | 'Card' | 'Poll' | 'ScheduledStatus' | 'Attachment';

export interface SchemaMismatch { pointer: string; expected: string; actual: string }

const SCHEMA_DIR = new URL('../../schemas/', import.meta.url);
const ajv = new Ajv2020({ allErrors: true, strict: true });
formatsModule.default(ajv); // CJS module under NodeNext: the plugin is module.exports.default
for (const file of readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.json')).sort()) {
  ajv.addSchema(JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), 'utf8')) as AnySchemaObject);
}

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
  const validate = ajv.getSchema(resource); // compiled on first use, then cached by Ajv
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

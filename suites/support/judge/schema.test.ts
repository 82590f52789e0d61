import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeMismatches, schemaMismatches } from './schema.js';
import type { ResourceName } from './schema.js';
import { SAMPLES } from './schema-samples.js';

interface SchemaNode {
  $schema?: string;
  $id?: string;
  title?: string;
  type?: string | string[];
  anyOf?: SchemaNode[];
  $ref?: string;
  required?: string[];
  properties?: Record<string, SchemaNode>;
}

const SCHEMA_DIR = new URL('../../../schemas/', import.meta.url);
const SCHEMA_FILES = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.json'));
const SCHEMAS = new Map<string, SchemaNode>(
  SCHEMA_FILES.map((f) => {
    const schema = JSON.parse(readFileSync(new URL(f, SCHEMA_DIR), 'utf8')) as SchemaNode;
    return [schema.$id ?? f, schema];
  }),
);
const RESOURCES = Object.keys(SAMPLES) as ResourceName[];

const clone = (resource: ResourceName): Record<string, unknown> =>
  structuredClone(SAMPLES[resource]) as Record<string, unknown>;
const pointers = (resource: ResourceName, value: unknown): string[] =>
  schemaMismatches(resource, value).map((m) => m.pointer);

/** Every object gets unknown fields (first and last) and its own keys in reverse order, recursively. */
function withExtrasReordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withExtrasReordered);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).reverse().map(([k, v]) => [k, withExtrasReordered(v)] as const);
  return Object.fromEntries([['x_vendor_extension', { nested: [1, 'two'] }], ...entries, ['zz_unknown', null]]);
}

/** JSON types a property schema accepts; a $ref always names a resource, and every resource is an object. */
function acceptedTypes(node: SchemaNode): Set<string> {
  if (node.$ref !== undefined) return new Set(['object']);
  if (node.anyOf) return new Set(node.anyOf.flatMap((n) => [...acceptedTypes(n)]));
  const types = node.type === undefined ? [] : [node.type].flat();
  return new Set(types.includes('integer') ? [...types, 'number'] : types);
}

type Corruption = { kind: 'delete' } | { kind: 'replace'; type: string; value: unknown };
const REPLACEMENTS: Corruption[] = [
  { kind: 'replace', type: 'number', value: 12345 },
  { kind: 'replace', type: 'string', value: 'not-the-right-type' },
  { kind: 'replace', type: 'boolean', value: true },
  { kind: 'replace', type: 'object', value: { unexpected: true } },
  { kind: 'replace', type: 'array', value: [] },
  { kind: 'replace', type: 'null', value: null },
];
function corruptionsFor(node: SchemaNode): Corruption[] {
  const accepted = acceptedTypes(node);
  return [{ kind: 'delete' }, ...REPLACEMENTS.filter((c) => c.kind === 'replace' && !accepted.has(c.type))];
}

describe('schemas/', () => {
  it('holds one draft 2020-12 schema per resource, with $id equal to the resource name', () => {
    expect([...SCHEMAS.keys()].sort()).toEqual([...RESOURCES].sort());
    for (const [id, schema] of SCHEMAS) {
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.title, id).toBeTypeOf('string');
    }
    expect(SCHEMA_FILES.sort()).toEqual([
      'account.json', 'application.json', 'attachment.json', 'card.json', 'context.json', 'error.json',
      'field.json', 'poll.json', 'scheduled-status.json', 'status.json', 'token.json',
    ]);
  });
});

describe.each(RESOURCES)('%s schema', (resource) => {
  const schema = SCHEMAS.get(resource) ?? {};
  const required = schema.required ?? [];

  it('accepts the hand-written sample', () => {
    expect(describeMismatches(resource, schemaMismatches(resource, SAMPLES[resource]))).toBe('');
  });

  it('accepts the sample with unknown extra fields and reordered keys', () => {
    const variant = withExtrasReordered(SAMPLES[resource]);
    expect(describeMismatches(resource, schemaMismatches(resource, variant))).toBe('');
  });

  it('declares required fields that the sample has', () => {
    expect(required.length).toBeGreaterThan(0);
    for (const field of required) expect(SAMPLES[resource]).toHaveProperty([field]);
  });

  it('rejects a removed or wrongly typed required field, naming its pointer', () => {
    const arbitrary = fc
      .constantFrom(...required)
      .chain((field) => fc.tuple(fc.constant(field), fc.constantFrom(...corruptionsFor(schema.properties?.[field] ?? {}))));
    fc.assert(
      fc.property(arbitrary, ([field, corruption]) => {
        const instance = clone(resource);
        if (corruption.kind === 'delete') delete instance[field];
        else instance[field] = structuredClone(corruption.value);
        const mismatches = schemaMismatches(resource, instance);
        expect(mismatches.length).toBeGreaterThan(0);
        expect(mismatches.map((m) => m.pointer), describeMismatches(resource, mismatches)).toContain(`/${field}`);
      }),
      { numRuns: 50 },
    );
  });
});

describe('schemaMismatches', () => {
  it('follows reblog recursively and reports pointers under /reblog/', () => {
    const inner = { ...clone('Status'), id: 123, account: { ...clone('Account'), id: 456 } };
    const found = pointers('Status', { ...clone('Status'), reblog: inner });
    expect(found).toEqual(expect.arrayContaining(['/reblog/id', '/reblog/account/id']));
    expect(found.every((p) => p.startsWith('/reblog/'))).toBe(true);
    expect(schemaMismatches('Status', { ...clone('Status'), reblog: clone('Status') })).toEqual([]);
  });

  it('formats mismatches as one line each', () => {
    const status = clone('Status');
    status['account'] = { ...clone('Account'), id: 123 };
    delete status['visibility'];
    const mismatches = schemaMismatches('Status', status);
    expect(mismatches).toContainEqual({ pointer: '/account/id', expected: 'type string', actual: '123' });
    expect(mismatches).toContainEqual({ pointer: '/visibility', expected: 'required property "visibility"', actual: 'missing' });
    expect(describeMismatches('Status', mismatches).split('\n')).toContain('Status /account/id: expected type string, got 123');
  });

  it('shows the root as "/" and truncates long values', () => {
    expect(schemaMismatches('Error', 'Record not found')).toEqual([
      { pointer: '/', expected: 'type object', actual: '"Record not found"' },
    ]);
    const [mismatch] = schemaMismatches('Error', { error: 'x'.repeat(500).split('') });
    expect(mismatch?.pointer).toBe('/error');
    expect(mismatch?.actual.length).toBeLessThanOrEqual(80);
  });

  it('checks enumerations, formats, nullability and nested unions', () => {
    const status = { ...clone('Status'), visibility: 'friends', created_at: 'yesterday', language: null, card: 7 };
    expect(schemaMismatches('Status', status)).toEqual(
      expect.arrayContaining([
        { pointer: '/visibility', expected: 'one of public, unlisted, private, direct, limited', actual: '"friends"' },
        { pointer: '/created_at', expected: 'format date-time', actual: '"yesterday"' },
        { pointer: '/card', expected: 'type object', actual: '7' },
      ]),
    );
    expect(pointers('Status', { ...clone('Status'), visibility: 'limited', poll: SAMPLES.Poll })).toEqual([]);
    expect(pointers('Status', { ...clone('Status'), application: { name: 'Web' } })).toEqual(['/application/website']);
    expect(pointers('Account', { ...clone('Account'), fields: [{ name: 'a', value: 'b', verified_at: 5 }] })).toEqual([
      '/fields/0/verified_at',
    ]);
  });

  it('accepts the delete response (text in place of content) but not a Status with neither', () => {
    const deleted = clone('Status');
    delete deleted['content'];
    expect(pointers('Status', deleted)).toEqual(['/content']);
    expect(pointers('Status', { ...deleted, text: 'plain source text' })).toEqual([]);
    expect(pointers('Status', { ...clone('Status'), text: 5 })).toEqual(['/text']);
    expect(pointers('Status', { ...clone('Status'), pinned: 'yes' })).toEqual(['/pinned']);
  });

  it('keeps Attachment lenient where the contract is open and strict where it is not', () => {
    const processing = { ...clone('Attachment'), type: 'video', url: null, meta: { focus: { x: 0, y: 0 } }, blurhash: null };
    expect(pointers('Attachment', processing)).toEqual([]);
    expect(pointers('Attachment', { ...clone('Attachment'), url: '/relative/path.png', preview_url: '' })).toEqual([]);
    const bad = clone('Attachment');
    bad['meta'] = { original: { width: 1.5, height: 480, size: '640 by 480', aspect: 1 }, focus: { x: 1.2, y: -1 } };
    expect(pointers('Attachment', bad).sort()).toEqual(['/meta/focus/x', '/meta/original/size', '/meta/original/width']);
  });

  it('requires only name on Application and type-checks the registration fields', () => {
    expect(pointers('Application', { name: 'app' })).toEqual([]);
    expect(pointers('Application', { name: 'app', website: 3, client_id: null })).toEqual(['/website', '/client_id']);
  });

  it('type-checks ScheduledStatus params without requiring them', () => {
    expect(pointers('ScheduledStatus', { ...clone('ScheduledStatus'), params: {} })).toEqual([]);
    const params = { text: 1, media_ids: ['1', 2], application_id: null, scheduled_at: 'soon' };
    expect(pointers('ScheduledStatus', { ...clone('ScheduledStatus'), params }).sort()).toEqual([
      '/params/application_id', '/params/media_ids/1', '/params/scheduled_at', '/params/text',
    ]);
  });
});

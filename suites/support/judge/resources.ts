// The resource schemas as run-wide clauses: every instance of a resource that a check or a preparation step reads
// is judged against schemas/ here, and each distinct mismatch is kept once with the first exchange that showed it.
// The RESOURCE-* checks report them; no other check fails because a Status it read has a schema gap.
import type { Exchange } from '../talk/http.ts';
import { caseMet, expectCase, judgedOnce, observeMismatch } from './run-wide.ts';
import { schemaMismatches, type ResourceName } from './schema.ts';
import { onCreation } from '../act/creations.ts';

/** Which resource a nested field holds: a mismatch breaks the clause of the innermost resource on its path. */
const NESTED: Record<string, ResourceName> = {
  account: 'Account',
  reblog: 'Status',
  ancestors: 'Status',
  descendants: 'Status',
  media_attachments: 'Attachment',
  poll: 'Poll',
  card: 'Card',
  fields: 'Field',
};

/** The clause of each resource's table. Error bodies are judged by expectError (ERRORS-BODY-1), not here. */
const RESOURCE_CLAUSE: Record<Exclude<ResourceName, 'Error'>, string> = {
  Status: 'RESOURCE-STATUS-1',
  Account: 'RESOURCE-ACCOUNT-1',
  Field: 'RESOURCE-ACCOUNT-1',
  Application: 'RESOURCE-APPLICATION-1',
  Token: 'RESOURCE-TOKEN-1',
  Context: 'RESOURCE-CONTEXT-1',
  Card: 'RESOURCE-CARD-1',
  Poll: 'RESOURCE-POLL-1',
  ScheduledStatus: 'RESOURCE-SCHEDULED-1',
  Attachment: 'RESOURCE-ATTACHMENT-1',
};

type Resource = Exclude<ResourceName, 'Error'>;

/**
 * The cases the contract's types name where servers deviate, each an instance the run should meet: a run that met
 * none says so in its clause's result, rather than passing the clause as if the case had been judged.
 */
const CASES: ReadonlyArray<{ resource: Resource; words: string; is: (instance: Record<string, unknown>, exchange?: Exchange) => boolean }> = [
  { resource: 'Account', words: 'an Account with no status yet (statuses_count 0), whose last_status_at is a datetime all the same', is: (account) => account.statuses_count === 0 },
  // Only the delete answers text at all; its text empty, null or left out, the case is met (and judged by the schema).
  { resource: 'Status', words: 'a Status without text (the DELETE answer of a status with media only), whose text is a string all the same', is: (status, exchange) => exchange?.method === 'DELETE' && !status.text },
];
for (const { resource, words } of CASES) expectCase(RESOURCE_CLAUSE[resource], words);

/** The innermost resource on a mismatch's path and the pointer inside it: "/account/fields/0/name" is Field "/name". */
function innermost(resource: ResourceName, pointer: string): { resource: ResourceName; pointer: string } {
  let found = resource;
  let inner: string[] = [];
  const segments = pointer.split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const nested = NESTED[segment];
    if (nested && i < segments.length - 1) {
      found = nested;
      inner = [];
      // An array of resources: the index says which element, not where in it.
      if (/^\d+$/.test(segments[i + 1] ?? '')) i += 1;
    } else {
      inner.push(/^\d+$/.test(segment) ? '*' : segment);
    }
  }
  return { resource: found, pointer: `/${inner.join('/')}` };
}

/** Counts the instance and the resources nested in it, each for its own clause. */
function countInstances(resource: Resource, value: unknown, exchange?: Exchange): void {
  if (typeof value !== 'object' || value === null) return;
  judgedOnce(RESOURCE_CLAUSE[resource]);
  for (const { resource: of, words, is } of CASES) if (of === resource && is(value as Record<string, unknown>, exchange)) caseMet(RESOURCE_CLAUSE[resource], words);
  // A nested resource is not the operation's answer: no case of the exchange's operation holds of it.
  for (const [field, nested] of Object.entries(NESTED)) {
    const inner = (value as Record<string, unknown>)[field];
    for (const item of Array.isArray(inner) ? inner : [inner]) countInstances(nested as Exclude<ResourceName, 'Error'>, item);
  }
}

/** Every instance the run reads passes here: its mismatches are kept for the RESOURCE-* clauses. */
export function observeResource(resource: Exclude<ResourceName, 'Error'>, value: unknown, exchange?: Exchange): void {
  countInstances(resource, value, exchange);
  for (const mismatch of schemaMismatches(resource, value)) {
    const at = innermost(resource, mismatch.pointer);
    const clauseId = RESOURCE_CLAUSE[at.resource as Exclude<ResourceName, 'Error'>] ?? RESOURCE_CLAUSE[resource];
    observeMismatch(clauseId, `${at.resource} ${at.pointer} ${mismatch.expected}`, `${at.resource} ${at.pointer}: ${mismatch.expected}`, `${at.resource} ${at.pointer}: ${mismatch.actual} (at ${resource} ${mismatch.pointer})`, exchange);
  }
}

// Every object a creation of the run answered is an instance of its resource.
onCreation(observeResource);

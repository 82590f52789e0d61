// What the streaming checks look for in an event: the status it names, the kind of event about it, and whether its
// payload is JSON. Which stream carries which event, and a Notification's fields, are not shown: the matchers are
// lenient where the contract is.
import type { StreamEvent } from '../talk/streams.ts';

export type Json = { ok: true; value: unknown } | { ok: false; reason: string };

export function parseJson(text: string): Json {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `not JSON (${(error as Error).message})` };
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The status a payload is, when it is one: a JSON object whose id is the status's. */
export function statusPayload(data: string, id: string): Record<string, unknown> | undefined {
  const payload = parseJson(data);
  return payload.ok && isObject(payload.value) && payload.value.id === id ? payload.value : undefined;
}

/** Whether a payload (or a WebSocket message) names the status: its id at the top, or in an object it wraps. */
export function names(text: string | undefined, id: string): boolean {
  const parsed = text === undefined ? undefined : parseJson(text);
  if (!parsed?.ok || !isObject(parsed.value)) return false;
  return parsed.value.id === id || Object.values(parsed.value).some((inner) => isObject(inner) && inner.id === id);
}

/** Any event but a delete that names this status: what absence is judged by, whatever its frame. */
export const carriesStatus = (id: string) => (event: StreamEvent) => event.event !== 'delete' && (names(event.data, id) || names(event.message, id));

/** An update about this status; the shape of its payload is EVENTS-UPDATE-1's to judge. */
export const updateAbout = (id: string) => (event: StreamEvent) => event.event === 'update' && names(event.data, id);

/**
 * The id a delete payload names, compared as text: parsing a bare snowflake as a JSON number would lose digits.
 * Both a bare id (what Mastodon sends) and a JSON string (the contract's "JSON-encoded") name it.
 */
export function deletedIdOf(data: string): string {
  const text = data.trim();
  if (!text.startsWith('"')) return text;
  const parsed = parseJson(text);
  return parsed.ok && typeof parsed.value === 'string' ? parsed.value : text;
}

export const deleteOf = (id: string) => (event: StreamEvent) => event.event === 'delete' && deletedIdOf(event.data) === id;

/**
 * A notification that names this status and none of the others. The Notification's fields are not shown, so
 * the status is looked for anywhere in the payload's text, not at a field.
 */
export function notificationAbout(id: string, others: readonly string[] = []): (event: StreamEvent) => boolean {
  return (event) => event.event === 'notification' && event.data.includes(id) && !others.some((other) => event.data.includes(other));
}

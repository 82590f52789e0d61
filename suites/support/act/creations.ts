// What the run's creations answered, announced to whoever judges it: every Status, Attachment, Application and Token a
// creation answered is judged against its resource's schema run-wide (judge/resources.ts listens), without the
// acting layer importing the judging one above it.
import type { Exchange } from '../talk/http.ts';

export type CreatedResource = 'Status' | 'Attachment' | 'Application' | 'Token';
type Listener = (resource: CreatedResource, value: unknown, exchange: Exchange) => void;

const listeners = new Set<Listener>();

export function onCreation(listener: Listener): void {
  listeners.add(listener);
}

/** An object a creation answered: each listener sees it once. */
export function announceCreation(resource: CreatedResource, value: unknown, exchange: Exchange): void {
  for (const listener of listeners) listener(resource, value, exchange);
}

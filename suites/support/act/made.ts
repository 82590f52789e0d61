// What the run's actions made, handed to whoever judges it: every Status, Attachment, Application and Token a
// creation answered is judged against its resource's schema run-wide (judge/resources.ts listens), without the
// acting layer importing the judging one above it.
import type { Exchange } from '../talk/http.ts';

export type MadeResource = 'Status' | 'Attachment' | 'Application' | 'Token';
type Listener = (resource: MadeResource, value: unknown, exchange: Exchange) => void;

const listeners = new Set<Listener>();

export function onMade(listener: Listener): void {
  listeners.add(listener);
}

/** An object a creation answered: each listener sees it once. */
export function made(resource: MadeResource, value: unknown, exchange: Exchange): void {
  for (const listener of listeners) listener(resource, value, exchange);
}

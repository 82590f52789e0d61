// Failures that replay: a failing request often names objects the run created (a status, an attachment) and has
// since deleted, so its curl line alone answers 404 for another reason. The exchange that created each id is
// remembered here, and a failure's replay creates what the failing request names first, each new id captured into
// a shell variable (STATUS_1=$(curl ... | sed ...)), then sends the failing request with "$STATUS_1" in its place.
// POSIX sh, curl, grep and sed: no jq.
import { perFile } from './file-state.ts';
import { createdObject, curlOf, type Exchange, idInParams, idInPath, onExchange } from './http.ts';

/** One line of a replay: a creation whose new id goes into `captures`, or (the last) the failing request. */
export interface ReplayStep {
  curl: string;
  /** The shell variable the step sets to the id of the object its answer carries. */
  captures?: string;
}

/** The first "id" of a JSON answer (a created object's own comes first), read by grep and sed. */
const ID_OF_ANSWER = `grep -o '"id" *: *"[^"]*"' | head -n 1 | sed 's/.*"\\([^"]*\\)"$/\\1/'`;

/** This file's created objects: id -> the POST whose answer first carried it. */
const creators = new Map<string, Exchange>();
/** The DELETEs that removed a created object (answered 2xx): id -> the DELETE, and each exchange's place in the file's order. */
const deletions = new Map<string, Exchange>();
const places = new WeakMap<Exchange, number>();
let nextPlace = 0;
perFile(() => {
  creators.clear();
  deletions.clear();
});
/** Requests sent at the same moment as the one after them in a replay's `before` (a move asked twice at once). */
const together = new WeakMap<Exchange, Exchange>();

/** `first` and `second` were sent at the same moment: a replay that sends both sends the first in the background. */
export function sentTogether(first: Exchange, second: Exchange): void {
  together.set(first, second);
}

onExchange((exchange) => {
  places.set(exchange, nextPlace++);
  if (exchange.method === 'DELETE' && exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300) {
    const [path = ''] = exchange.path.split('?');
    for (const id of creators.keys()) if (!deletions.has(id) && idInPath(id).test(path)) deletions.set(id, exchange);
  }
  if (exchange.method !== 'POST') return;
  const id = createdObject(exchange)?.id;
  // The first answer that carries an id made it: a later POST that answers the same object (a favourite) did not.
  if (typeof id === 'string' && id !== '' && !creators.has(id)) creators.set(id, exchange);
});

/** The ids of created objects that a request names in its path or in a parameter named for ids. */
function idsNamedBy(exchange: Exchange): string[] {
  const [path = '', query = ''] = exchange.path.split(/\?(.*)/s);
  const params = `${query}&${exchange.requestBody ?? ''}`;
  return [...creators.keys()].filter((id) => creators.get(id) !== exchange && (idInPath(id).test(path) || idInParams(id).test(params)));
}

/** STATUS for /api/v1/statuses, MEDIA for /api/v2/media, REBLOG for /api/v1/statuses/1/reblog: a variable's name. */
export function kindOf(path: string): string {
  const segment = path.split('?')[0]?.split('/').filter((s) => s && !/^v\d+$/.test(s) && !/\d/.test(s)).pop() ?? 'object';
  const singular = segment.endsWith('uses') ? segment.slice(0, -2) : segment.endsWith('s') ? segment.slice(0, -1) : segment;
  return singular.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

/**
 * The steps that replay a failing request from nothing: the creation of every object it names (and of what those
 * name in turn) first, then the requests `before` it that made the state it met (a sequence of moves), then the
 * request itself, with the request `alongside` it sent at the same moment where there was one (in the background,
 * waited for after it). Empty when it names nothing the run created and follows nothing: its curl line stands alone.
 */
export function replayOf(failing: Exchange, before: readonly Exchange[] = [], alongside?: Exchange): ReplayStep[] {
  const variables = new Map<string, string>();
  const perKind = new Map<string, number>();
  const steps: ReplayStep[] = [];
  const createNamed = (exchange: Exchange): void => {
    for (const id of idsNamedBy(exchange)) {
      const creator = creators.get(id);
      if (!creator || variables.has(id)) continue;
      createNamed(creator);
      const kind = kindOf(creator.path);
      const n = (perKind.get(kind) ?? 0) + 1;
      perKind.set(kind, n);
      const variable = `${kind}_${n}`;
      // Without its Idempotency-Key: pasted again, the creation makes a new object, not the answer of the first paste.
      const { 'idempotency-key': _key, ...requestHeaders } = creator.requestHeaders;
      const curl = curlOf({ ...creator, requestHeaders }, { ids: variables, bodyOnly: true });
      steps.push({ curl: `${variable}=$(${curl} | ${ID_OF_ANSWER})`, captures: variable });
      variables.set(id, variable);
      // An object the run deleted before the failing request (a deleted status it was sent on) is deleted again here.
      const deletion = deletions.get(id);
      if (deletion && deletion !== alongside && (places.get(deletion) ?? Infinity) < (places.get(failing) ?? -Infinity)) steps.push({ curl: curlOf(deletion, { ids: variables }) });
    }
  };
  for (const exchange of [...before, failing]) createNamed(exchange);
  const sent: ReplayStep[] = [];
  const all = [...before, failing];
  all.forEach((exchange, i) => {
    const background = i < all.length - 1 && together.get(exchange) === all[i + 1];
    sent.push({ curl: `${curlOf(exchange, { ids: variables })}${background ? ' &' : ''}` });
    if (i > 0 && together.get(all[i - 1] as Exchange) === exchange) sent.push({ curl: 'wait' });
  });
  if (alongside) return [...steps, ...sent.slice(0, -1), { curl: `${curlOf(alongside, { ids: variables })} &` }, ...sent.slice(-1), { curl: 'wait' }];
  return steps.length || before.length ? [...steps, ...sent] : [];
}

/**
 * The curl lines that reproduce a failing request, one per line: its replay where it names objects the run created
 * (pasted after the run, its own curl line would meet them deleted), else its curl line alone.
 */
export function reproductionOf(failing: Exchange): string {
  const replay = replayOf(failing);
  return replay.length ? replay.map((step) => step.curl).join('\n') : curlOf(failing);
}

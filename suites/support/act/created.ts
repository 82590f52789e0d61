// What a creation made, as a step of preparation: lenient (an answer 2xx with an id is enough to go on), and for a
// status, each parameter the checks rely on that it came without, with the clause that says so, so that a check
// that needs only some of them judges the status all the same.
import type { FormParams } from '../talk/form.ts';
import { createdObject, type Exchange } from '../talk/http.ts';
import { type RootCause, answerOf, causeOf, failed, succeeded, type Step } from './steps.ts';
import { announceCreation } from './creations.ts';

export interface Status {
  id: string;
  visibility: string;
  text?: string;
  account: { id: string; username: string; acct: string };
  reblog: Status | null;
  [field: string]: unknown;
}

/**
 * The clause of a field of a status's author that the run cannot read: the Status's where it carries no account
 * object, else the Account's (an account without its id or acct is the Account table's gap, not the Status's).
 */
export function authorGap(status: { account?: unknown } | null | undefined, field: string, exchange?: Exchange): RootCause {
  const account = status?.account;
  if (typeof account !== 'object' || account === null) return causeOf('RESOURCE-STATUS-1', `a Status carries no account (its ${field} needed)`, exchange);
  return causeOf('RESOURCE-ACCOUNT-1', `a Status's account carries no ${field}`, exchange);
}

export interface Attachment {
  id: string;
  type: string;
  url: string | null;
  preview_url: string;
  description: string;
  blurhash: string | null;
  meta: {
    original?: { width: number; height: number; size: string; aspect: number };
    small?: { width: number; height: number; size: string; aspect: number };
    focus?: { x: number; y: number };
  };
  [field: string]: unknown;
}

/** The id of the object a successful (2xx) answer carries, whatever else is wrong with it. */
export function createdId(exchange: Exchange): string | undefined {
  const id = createdObject(exchange)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** A step of preparation that made something; the ledger undoes it unless a check undid it and settled it. */
export type Created<T> = Step<T> & { settle: () => void };

/**
 * Lenient: an answer that is 2xx with an object carrying a string id is enough to go on (its schema is observed for
 * the resource's clause, not judged); otherwise the step fails with `clause` as its cause.
 */
export function createdStep<T>(exchange: Exchange, resource: 'Status' | 'Attachment' | 'Application', clause: string, what: string): Step<T> {
  const body = createdObject(exchange);
  if (!body || typeof body.id !== 'string') return failed(causeOf(clause, `${what} answered ${answerOf(exchange)}${body ? ' without an id' : ''}`, exchange), exchange);
  announceCreation(resource, body, exchange);
  return succeeded(body as T, exchange);
}

/** A parameter a creation asked for that the status it answered does not carry as asked, and the clause that says so. */
export interface Off {
  param: string;
  clause: string;
  summary: string;
}

const idsOf = (media: unknown) => (Array.isArray(media) ? media.map((m: unknown) => (typeof m === 'object' && m !== null ? (m as { id?: unknown }).id : m)) : []);
const sameSet = (x: unknown[], y: unknown[]) => JSON.stringify(x.map(String).sort()) === JSON.stringify(y.map(String).sort());

/** Every parameter a creation asked for that the status it answered does not reflect (its text is rendered as HTML, so it is not compared). */
function offFields(status: Status, params: FormParams): Off[] {
  const shown = (value: unknown) => JSON.stringify(value);
  const off: (Off | false)[] = [
    typeof params.visibility === 'string' && status.visibility !== params.visibility && {
      param: 'visibility', clause: 'STATUS-CREATE-4', summary: `a status created with visibility ${params.visibility} answered visibility ${shown(status.visibility)}`,
    },
    typeof params.in_reply_to_id === 'string' && status.in_reply_to_id !== params.in_reply_to_id && {
      param: 'in_reply_to_id', clause: 'STATUS-CREATE-6', summary: `a reply to ${params.in_reply_to_id} answered in_reply_to_id ${shown(status.in_reply_to_id)}`,
    },
    params.poll !== undefined && (typeof status.poll !== 'object' || status.poll === null) && {
      param: 'poll', clause: 'STATUS-POLL-1', summary: `a status created with poll[options][] answered poll ${shown(status.poll)}`,
    },
    typeof params.spoiler_text === 'string' && status.spoiler_text !== params.spoiler_text && {
      param: 'spoiler_text', clause: 'STATUS-CREATE-2', summary: `a status created with spoiler_text answered spoiler_text ${shown(status.spoiler_text)}`,
    },
    params.sensitive === true && status.sensitive !== true && {
      param: 'sensitive',
      clause: params.spoiler_text ? 'STATUS-CREATE-3' : 'STATUS-CREATE-7',
      summary: `a status created sensitive${params.spoiler_text ? '' : ' without spoiler_text'} answered sensitive ${shown(status.sensitive)}`,
    },
    typeof params.language === 'string' && status.language !== params.language && {
      param: 'language', clause: 'STATUS-CREATE-5', summary: `a status created with language ${params.language} answered language ${shown(status.language)}`,
    },
    Array.isArray(params.media_ids) && !sameSet(idsOf(status.media_attachments), params.media_ids) && {
      param: 'media_ids', clause: 'MEDIA-ATTACH-1', summary: `a status created with media_ids[] answered media_attachments ${shown(idsOf(status.media_attachments))}`,
    },
  ];
  return off.filter((o): o is Off => o !== false);
}

/** What the checks of a prepared status rely on: its visibility, what it replies to and its poll; the rest they judge themselves. */
const RELIED_ON = new Set(['visibility', 'in_reply_to_id', 'poll']);
export type Relied = 'visibility' | 'in_reply_to_id' | 'poll';

/**
 * A prepared status. Its step fails on the first relied-on parameter it came without; `unkept` names each of them
 * with its cause, so that a check needing only some of them judges the status all the same (madeWith).
 */
export type PreparedStatus = Created<Status> & { unkept: readonly { param: string; cause: RootCause }[] };

/** The status a creation made, whatever it came without of what it asked for; a creation that made none keeps its cause. */
export function madeStep(created: Step<Status>): Step<Status> {
  const body = created.exchange ? createdObject(created.exchange) : undefined;
  return typeof body?.id === 'string' && created.exchange ? succeeded(body as Status, created.exchange) : created;
}

/** The relied-on parameters a creation that made a status came without, each with its cause. */
export function unkeptOf(exchange: Exchange, off: readonly Off[]): PreparedStatus['unkept'] {
  return off.filter((o) => RELIED_ON.has(o.param)).map((o) => ({ param: o.param, cause: causeOf(o.clause, o.summary, exchange) }));
}

/** What a creation answered off what it asked for; a creation that made nothing is off in every parameter. */
export function offOf(exchange: Exchange, params: FormParams): Off[] {
  const body = createdObject(exchange);
  if (typeof body?.id === 'string') return offFields(body as Status, params);
  return Object.keys(params).map((param) => ({ param, clause: 'STATUS-CREATE-1', summary: 'no status was made' }));
}

export function statusStep(exchange: Exchange, off: readonly Off[]): Step<Status> {
  const step = createdStep<Status>(exchange, 'Status', 'STATUS-CREATE-1', 'creating a status');
  const [unkept] = unkeptOf(exchange, off);
  return step.ok && unkept ? failed(unkept.cause, exchange) : step;
}

// The model of POST /api/v1/statuses's parameter table, its rows, forms, rulings and costs, and the types of what was
// sent. explore-create.ts sends the rows; this module holds no request, so that the oracle
// (judge/explore-create-oracle.ts) reads it without importing what sends.
import fc from 'fast-check';
import type { FormParams, FormValue } from '../talk/form.ts';
import type { Exchange } from '../talk/http.ts';

/** A class of a parameter's values, as the issue names them. */
export type ValueKind = 'absent' | 'valid' | 'edge' | 'past the edge' | 'wrong type' | 'missing';

/** What the run gives a value: another account's attachment, the moment of sending, and the value drawn from the seed. */
export interface ValueContext {
  anothersAttachment?: string;
  now: number;
  drawn: string;
}

export interface Choice {
  /** How the value reads in a finding and in --list. */
  name: string;
  kind: ValueKind;
  /** The value sent; undefined: the parameter is left out. */
  value?: (context: ValueContext) => FormValue;
  /** Where the contract leaves the answer open: why (then only a server error is judged, ERRORS-5XX-1). */
  open?: string;
  /** The clause by which the contract refuses the value, whatever else is sent. */
  refused?: string;
  /** The id of another account's attachment: the row is sent only where the run holds one. */
  needsAttachment?: boolean;
}

export interface CreateParameter {
  /** The parameter as the table names it. */
  name: string;
  choices: readonly Choice[];
  /** A poll's own parameter: sent only with a poll. */
  ofPoll?: boolean;
  /** The clause of the catalogue whose release brought the parameter (the Versioning table): its `since` gates it. */
  releasedWith?: string;
}

const MINUTE_MS = 60_000;
/** A moment `minutes` ahead, in whole seconds: what a server keeps of it is judged to the second. */
const ahead = (now: number, minutes: number) => new Date(Math.ceil(now / 1000) * 1000 + minutes * MINUTE_MS).toISOString();
const text = (length: number) => 'conformance probe, an explored text. '.repeat(Math.ceil(length / 37)).slice(0, length);
const absent: Choice = { name: 'absent', kind: 'absent' };
const notShown = (what: string) => `${what}: not shown`;

/**
 * The table's parameters (Idempotency-Key and in_reply_to_id aside: their own checks, and the id inputs, send them).
 * media_ids[] has no valid class here: an attachment of the caller's is attached once and costs an upload (the
 * Uploading bucket), and MEDIA-ATTACH-1 sends one.
 */
export const CREATE_PARAMETERS: readonly CreateParameter[] = [
  {
    name: 'status',
    choices: [
      { name: 'a short text', kind: 'valid', value: () => 'conformance probe: an explored status' },
      { name: 'missing', kind: 'missing' },
      { name: '500 characters', kind: 'edge', value: () => text(500), open: notShown('maximum status length') },
      { name: '5000 characters', kind: 'past the edge', value: () => text(5000), open: notShown('maximum status length') },
      { name: 'a list of two strings', kind: 'wrong type', value: () => ['conformance probe', 'an explored list'], open: 'a list where the table says string: what it answers is not shown' },
    ],
  },
  {
    name: 'media_ids[]',
    choices: [
      absent,
      { name: "another account's attachment", kind: 'past the edge', value: (c) => [c.anothersAttachment ?? ''], refused: 'MEDIA-ATTACH-3', needsAttachment: true },
      { name: 'an id that never named anything', kind: 'past the edge', value: (c) => [c.drawn], open: notShown('the answer for an attachment id that names nothing') },
      { name: 'a malformed id', kind: 'wrong type', value: () => ['not-an-id'], open: notShown('the answer for a malformed attachment id') },
    ],
  },
  {
    name: 'poll',
    releasedWith: 'STATUS-POLL-1',
    choices: [
      absent,
      { name: 'two options, open an hour', kind: 'valid', value: () => ({ options: ['yes', 'no'], expires_in: 3600 }) },
      { name: 'one option', kind: 'edge', value: () => ({ options: ['only'], expires_in: 3600 }), open: notShown('poll option count bounds') },
      { name: 'ten options', kind: 'past the edge', value: () => ({ options: Array.from({ length: 10 }, (_, i) => `option ${i + 1}`), expires_in: 3600 }), open: notShown('poll option count bounds') },
      { name: 'options without poll[expires_in]', kind: 'missing', value: () => ({ options: ['yes', 'no'] }), refused: 'STATUS-POLL-5' },
      { name: 'poll[expires_in] not a number', kind: 'wrong type', value: () => ({ options: ['yes', 'no'], expires_in: 'soon' }), open: 'a text where the table says number: what it answers is not shown' },
    ],
  },
  {
    name: 'poll[multiple]',
    ofPoll: true,
    releasedWith: 'STATUS-POLL-1',
    choices: [absent, { name: 'true', kind: 'valid', value: () => true }, { name: 'false', kind: 'valid', value: () => false }, { name: '"maybe"', kind: 'wrong type', value: () => 'maybe', open: 'a text where the table says boolean: what it answers is not shown' }],
  },
  {
    name: 'poll[hide_totals]',
    ofPoll: true,
    releasedWith: 'STATUS-POLL-1',
    choices: [absent, { name: 'true', kind: 'valid', value: () => true }, { name: '"maybe"', kind: 'wrong type', value: () => 'maybe', open: 'a text where the table says boolean: what it answers is not shown' }],
  },
  {
    name: 'sensitive',
    choices: [absent, { name: 'true', kind: 'valid', value: () => true }, { name: 'false', kind: 'valid', value: () => false }, { name: '"maybe"', kind: 'wrong type', value: () => 'maybe', open: 'a text where the table says boolean: what it answers is not shown' }],
  },
  {
    name: 'spoiler_text',
    choices: [
      absent,
      { name: 'a warning', kind: 'valid', value: () => 'conformance probe: an explored warning' },
      { name: 'the empty string', kind: 'edge', value: () => '' },
      { name: '600 characters', kind: 'past the edge', value: () => text(600), open: notShown('maximum status length (text and warning)') },
      { name: 'a list of two strings', kind: 'wrong type', value: () => ['a', 'b'], open: 'a list where the table says string: what it answers is not shown' },
    ],
  },
  {
    name: 'visibility',
    choices: [
      absent,
      { name: 'public', kind: 'valid', value: () => 'public' },
      { name: 'unlisted', kind: 'valid', value: () => 'unlisted' },
      { name: 'private', kind: 'valid', value: () => 'private' },
      { name: 'direct', kind: 'valid', value: () => 'direct' },
      { name: 'limited', kind: 'edge', value: () => 'limited', open: 'limited is named as a visibility, not as one of the parameter\'s: what it answers is not shown' },
      { name: '"everyone"', kind: 'wrong type', value: () => 'everyone', open: 'a value outside "one of public, unlisted, private, direct": what it answers is not shown' },
    ],
  },
  {
    name: 'language',
    choices: [absent, { name: 'en', kind: 'valid', value: () => 'en' }, { name: '"not a language"', kind: 'wrong type', value: () => 'not a language', open: 'a text that is no ISO 639 code: what it answers is not shown' }],
  },
  {
    name: 'scheduled_at',
    releasedWith: 'STATUS-SCHEDULED-1',
    choices: [
      absent,
      { name: '10 minutes ahead', kind: 'valid', value: (c) => ahead(c.now, 10) },
      { name: '2 minutes ahead', kind: 'past the edge', value: (c) => ahead(c.now, 2), refused: 'STATUS-SCHEDULED-3' },
      { name: '"tomorrow"', kind: 'wrong type', value: () => 'tomorrow', open: 'a text that is no ISO 8601 datetime: what it answers is not shown' },
    ],
  },
];

/** A row of the model: the choice of each parameter, by name; a parameter not named is absent. */
export type CreateRow = Readonly<Record<string, string>>;

export const parameterNamed = (name: string): CreateParameter => CREATE_PARAMETERS.find((p) => p.name === name) as CreateParameter;
export const choiceOf = (row: CreateRow, parameter: CreateParameter): Choice => parameter.choices.find((c) => c.name === row[parameter.name]) ?? absent;

/** The row a class is tried on alone: a valid creation (a short text), its deviation the class's own. */
export const BASE_ROW: CreateRow = { status: 'a short text' };

/** The parameters the server's release takes (`released`: whether it has a clause): those the Versioning table gives it. */
export function parametersOf(released: (clause: string) => boolean): CreateParameter[] {
  return CREATE_PARAMETERS.filter((p) => !p.releasedWith || released(p.releasedWith));
}

const allowed = (c: Choice) => !c.open && !c.refused && c.kind !== 'missing';

/** Pairs of values whose meeting the contract tells apart: sensitive with and without a spoiler_text (STATUS-CREATE-3, -7). */
const MUST_MEET = new Set(['spoiler_text=absent&sensitive=true', 'spoiler_text=a warning&sensitive=true']);

/**
 * The covering set: the valid classes (absent included where the parameter is optional) combined in rows, each
 * parameter rotated by its place so that the pairs vary; scheduled_at, whose answer is a ScheduledStatus, in a row of
 * its own; then each other class alone on BASE_ROW (a poll's own parameter with a valid poll; the status missing is
 * the condition "neither status nor media_ids"), and the condition between a poll and media_ids.
 */
export function createCovering(parameters: readonly CreateParameter[]): CreateRow[] {
  const combined = parameters.filter((p) => p.name !== 'scheduled_at');
  const hasPoll = parameters.some((p) => p.name === 'poll');
  const validOf = (p: CreateParameter) => p.choices.filter((c) => allowed(c) && (p.name !== 'media_ids[]' || c.kind === 'absent'));
  // As many rows as the parameter of the most valid values has values sent: each parameter left out is every other
  // row's (the rows of one class on a valid creation), so the combined rows need not spend a row on it.
  const width = Math.max(...combined.map((p) => validOf(p).filter((c) => c.kind !== 'absent').length));
  const rows: CreateRow[] = [];
  // Greedy, as pairwise generators build rows: each parameter in turn takes a value not yet sent (one sent before
  // leaving it out), else the one that meets the most values of the row's earlier parameters it never met.
  const met = new Set<string>();
  const sentOnce = new Set<string>();
  for (let i = 0; i < width; i++) {
    const chosen: string[] = [];
    // The poll is sent in every row but the last, so that its own parameters' classes meet it.
    const withPoll = i < width - 1;
    // From the table's end: a parameter whose effect depends on another's (sensitive on spoiler_text) chooses after it.
    for (const p of [...combined].reverse()) {
      if (p.ofPoll && !withPoll) continue;
      const valid = validOf(p).filter((c) => p.name !== 'poll' || (c.kind === 'absent') !== withPoll);
      const unsent = (c: Choice) => (sentOnce.has(`${p.name}=${c.name}`) ? 0 : c.kind === 'absent' ? 500 : 1000);
      const unmet = (c: Choice) => chosen.filter((other) => !met.has(`${other}&${p.name}=${c.name}`));
      const score = (c: Choice) => unsent(c) + unmet(c).length + 1000 * unmet(c).filter((other) => MUST_MEET.has(`${other}&${p.name}=${c.name}`)).length;
      const best = valid.reduce((a, c) => (score(c) > score(a) ? c : a));
      chosen.push(`${p.name}=${best.name}`);
    }
    for (const a of chosen) for (const b of chosen) met.add(`${a}&${b}`);
    for (const c of chosen) sentOnce.add(c);
    const row = Object.fromEntries(chosen.map((c) => c.split('=') as [string, string]).filter(([name, choice]) => choiceOf({ [name]: choice }, parameterNamed(name)).kind !== 'absent'));
    rows.push(withPollRule(row));
  }
  const scheduled = parameters.find((p) => p.name === 'scheduled_at');
  if (scheduled) rows.push({ ...BASE_ROW, visibility: 'unlisted', scheduled_at: '10 minutes ahead' });
  for (const p of parameters) {
    for (const c of p.choices) {
      if (allowed(c) || c.kind === 'absent') continue;
      rows.push({ ...BASE_ROW, ...(p.ofPoll ? { poll: 'two options, open an hour' } : {}), [p.name]: c.name });
    }
  }
  if (hasPoll) rows.push({ ...BASE_ROW, poll: 'two options, open an hour', 'media_ids[]': 'an id that never named anything' });
  return rows;
}

/** A poll's own parameters go only with a poll. */
function withPollRule(row: Record<string, string>): CreateRow {
  if (row.poll) return row;
  const kept = { ...row };
  for (const p of CREATE_PARAMETERS) if (p.ofPoll) delete kept[p.name];
  return kept;
}

/** A random row, seeded: each parameter's class drawn, the status kept valid half the time so that effects are judged. */
export function randomRows(parameters: readonly CreateParameter[], seed: number, count: number): CreateRow[] {
  if (count <= 0) return [];
  const row = fc.record(Object.fromEntries(parameters.map((p) => [p.name, fc.constantFrom(...p.choices.map((c) => c.name))])) as Record<string, fc.Arbitrary<string>>);
  return fc.sample(row, { seed, numRuns: count }).map((drawn) => {
    const kept: Record<string, string> = {};
    for (const [name, choice] of Object.entries(drawn)) if (choice !== 'absent') kept[name] = choice;
    return withPollRule(kept);
  });
}

/** The form a row sends, its values made for this moment and this run. */
export function formOf(row: CreateRow, context: ValueContext): FormParams {
  const form: FormParams = {};
  const poll: Record<string, FormValue> = {};
  for (const p of CREATE_PARAMETERS) {
    const value = choiceOf(row, p).value?.(context);
    if (value === undefined) continue;
    if (p.name === 'poll') Object.assign(poll, value as Record<string, FormValue>);
    else if (p.ofPoll) poll[p.name.slice('poll['.length, -1)] = value;
    else form[p.name.replace('[]', '')] = value;
  }
  if (Object.keys(poll).length > 0) form.poll = poll;
  return form;
}

/** How a row reads: each parameter sent and its class. */
export const describeRow = (row: CreateRow): string => {
  const sent = CREATE_PARAMETERS.filter((p) => row[p.name] !== undefined).map((p) => `${p.name} ${row[p.name]}`);
  return `a creation with ${sent.length ? sent.join(', ') : 'no parameter'}`;
};

/** A row the run sends, and how it was drawn. */
export interface CreateInput {
  row: CreateRow;
  drawnBy: 'covering' | 'random';
  /** The id drawn for "an id that never named anything", from the input's own stream of the seed. */
  drawn: string;
}

/** What the creation of a row sent and got: the answer, and for a status made, the reads by its owner and by another account. */
export interface SentCreation {
  input: CreateInput;
  form: FormParams;
  exchange: Exchange;
  ownerRead?: Exchange;
  otherRead?: Exchange;
}

/** What the contract says of a row: refused by a rule's clause (any 4xx), left open, or a success (a ScheduledStatus with scheduled_at). */
export type Ruling = { kind: 'refused'; clause: string } | { kind: 'open'; why: string } | { kind: 'answers'; scheduled: boolean };

const sends = (row: CreateRow, name: string) => choiceOf(row, parameterNamed(name)).value !== undefined;

/** The ruling of a row: the first rule that refuses it, in the table's order; else open where one of its classes is; else a success. */
export function rulingOf(row: CreateRow): Ruling {
  if (!sends(row, 'status') && !sends(row, 'media_ids[]')) return { kind: 'refused', clause: 'STATUS-PARAMS-1' };
  if (sends(row, 'poll') && sends(row, 'media_ids[]')) return { kind: 'refused', clause: 'STATUS-POLL-6' };
  const choices = CREATE_PARAMETERS.map((p) => choiceOf(row, p));
  const refused = choices.find((c) => c.refused)?.refused;
  if (refused) return { kind: 'refused', clause: refused };
  const open = choices.find((c) => c.open)?.open;
  if (open) return { kind: 'open', why: open };
  return { kind: 'answers', scheduled: sends(row, 'scheduled_at') };
}

/**
 * What a row costs: a refusal, its request; a status made, its creation, its reads by its owner and by another account,
 * and the ledger's deletion and read that shows it gone (a deletion of the caller's); a scheduled one, its creation,
 * and the ledger's cancellation and read. An open row is counted as made, unread (its effects are judged on the
 * answer): the most it may cost. Its deletion is not planned (a server that answers as the contract allows may refuse
 * it); the sender counts what is made.
 */
export function creationCost(row: CreateRow): { requests: number; deletions: number } {
  const ruling = rulingOf(row);
  if (ruling.kind === 'refused') return { requests: 1, deletions: 0 };
  if (ruling.kind === 'answers' && ruling.scheduled) return { requests: 3, deletions: 0 };
  return ruling.kind === 'answers' ? { requests: 5, deletions: 1 } : { requests: 3, deletions: 0 };
}

/** The rows a run sent, and those it did not send: their class needs an object the run lacks, or `share` was spent. */
export interface CreationsSent {
  sent: SentCreation[];
  notSent: { input: CreateInput; why: 'no object of its class' | 'deletions spent' }[];
}

/** The most requests shrinking one creation finding may send. */
export const CREATE_SHRINK_REQUESTS = 4;

/**
 * The smaller rows of a finding, smallest first. With `keep` (the parameters whose effect broke): the row cut to them
 * on BASE_ROW, then that with each other parameter of the row back, one at a time (an effect lost only beside
 * another parameter). Without (a refusal of valid parameters): BASE_ROW, then each parameter that differs from it
 * alone on it. A poll's own parameter goes with the row's poll. The shrinker keeps the first that still breaks.
 */
export function smallerRows(row: CreateRow, keep: readonly string[] = []): CreateRow[] {
  const key = (r: CreateRow) => JSON.stringify(Object.entries(r).sort());
  const changed = CREATE_PARAMETERS.filter((p) => row[p.name] !== undefined && row[p.name] !== BASE_ROW[p.name]);
  const on = (base: CreateRow, p: CreateParameter) => withPollRule({ ...base, ...(p.ofPoll && row.poll ? { poll: row.poll } : {}), [p.name]: row[p.name] as string });
  const core = changed.filter((p) => keep.includes(p.name)).reduce<CreateRow>((r, p) => on(r, p), BASE_ROW);
  const candidates = keep.length ? [core, ...changed.filter((p) => core[p.name] === undefined).map((p) => on(core, p))] : [BASE_ROW, ...changed.map((p) => on(BASE_ROW, p))];
  const seen = new Set([key(row)]);
  return candidates.filter((r) => !seen.has(key(r)) && seen.add(key(r)));
}

/**
 * The reblog's visibility parameter ("Other operation parameters"), its effect read later: a boost of each visibility
 * other than public, read by its booster and, where it is unlisted, by another account (what a private boost shows to
 * another account the contract leaves to its visibility rules), undone at once (an unreblog: a deletion of the booster's).
 */
export const BOOST_VISIBILITIES = ['unlisted', 'private'] as const;
/** The requests the boosts cost: each its reblog, its booster's read and its unreblog; the unlisted one, another account's read. */
export const BOOST_REQUESTS = BOOST_VISIBILITIES.length * 3 + 1;

export interface SentBoost {
  visibility: (typeof BOOST_VISIBILITIES)[number];
  boost: Exchange;
  ownerRead?: Exchange;
  otherRead?: Exchange;
}

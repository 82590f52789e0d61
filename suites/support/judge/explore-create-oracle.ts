// The oracle of the explored creations (docs/exploring.md): for a row of POST /api/v1/statuses's parameters, what the
// contract says its answer is. A row a rule refuses (neither status nor media_ids, a poll with media_ids, a poll
// without poll[expires_in], a scheduled_at too soon, another account's attachment) must be refused, any 4xx ("Error
// bodies for failed POST /api/v1/statuses calls: not shown"); a row of valid classes must answer 200 and the Status
// (a ScheduledStatus with scheduled_at), then show each parameter's effect on the answer, on its owner's read and on
// another account's; where the contract leaves the answer open (a bound not shown, a value of the wrong type), a
// refusal is as good as a success, whose effects are judged, and a server error is ERRORS-5XX-1's warning, run-wide.
import { BASE_ROW, choiceOf, CREATE_PARAMETERS, describeRow, rulingOf, type CreateRow, type SentBoost, type SentCreation } from '../act/explore-create-model.ts';
import { createdObject, type Exchange } from '../talk/http.ts';
import { findClause } from './clauses.ts';

/** The clause a refusal of a row of valid classes breaks: the effect of its first parameter that BASE_ROW does not send. */
const LEAD_CLAUSE: Record<string, string> = {
  poll: 'STATUS-POLL-1',
  'poll[multiple]': 'STATUS-POLL-3',
  'poll[hide_totals]': 'STATUS-POLL-4',
  sensitive: 'STATUS-CREATE-3',
  spoiler_text: 'STATUS-CREATE-2',
  visibility: 'STATUS-CREATE-4',
  language: 'STATUS-CREATE-5',
  scheduled_at: 'STATUS-SCHEDULED-1',
};
export function leadClause(row: CreateRow): string {
  const lead = CREATE_PARAMETERS.find((p) => row[p.name] !== undefined && row[p.name] !== BASE_ROW[p.name] && LEAD_CLAUSE[p.name]);
  return lead ? (LEAD_CLAUSE[lead.name] as string) : 'STATUS-CREATE-1';
}

/** The parameters whose effect each clause judges: what a shrunk row keeps of a finding that broke it. */
const CONCERNS: Record<string, readonly string[]> = {
  'STATUS-CREATE-2': ['spoiler_text'],
  'STATUS-CREATE-3': ['sensitive', 'spoiler_text'],
  'STATUS-CREATE-7': ['sensitive'],
  'STATUS-CREATE-4': ['visibility'],
  'STATUS-CREATE-5': ['language'],
  'STATUS-POLL-1': ['poll'],
  'STATUS-POLL-2': ['poll'],
  'STATUS-POLL-3': ['poll', 'poll[multiple]'],
  'STATUS-POLL-4': ['poll', 'poll[hide_totals]'],
  'STATUS-EFFECT-1': ['poll', 'poll[hide_totals]', 'visibility'],
  'STATUS-EFFECT-2': ['spoiler_text', 'sensitive', 'language', 'visibility'],
  'STATUS-EFFECT-3': ['poll', 'poll[multiple]', 'visibility'],
  'STATUS-EFFECT-7': ['visibility'],
  'STATUS-READ-1': ['visibility'],
  'STATUS-READ-2': ['visibility'],
  'STATUS-READ-3': ['visibility'],
  'STATUS-VIS-1': ['visibility'],
  'STATUS-VIS-6': ['visibility'],
  'STATUS-VIS-7': ['visibility'],
  'STATUS-SCHEDULED-1': ['scheduled_at'],
  'STATUS-SCHEDULED-2': ['scheduled_at', 'visibility'],
};
/** What a shrunk row keeps of a finding: the parameters its broken effects concern (none for a refusal: every parameter is tried alone). */
export const concernsOf = (instances: readonly CreateInstance[]): string[] => [...new Set(instances.filter((i) => !i.holds && i.breaks === i.clause).flatMap((i) => CONCERNS[i.clause] ?? []))];

/** One judged answer of a creation: the clause, whether it holds, what the contract wants, and the answer shown. */
export interface CreateInstance {
  clause: string;
  holds: boolean;
  expected: string;
  exchange: Exchange;
  what: string;
  /** What the shrinker keeps: the clause, or for a refusal of valid parameters, that it is one (its clause is the smallest row's). */
  breaks: string;
}

const ok2xx = (e: Exchange | undefined) => e?.status !== undefined && e.status >= 200 && e.status < 300;
const refusal = (e: Exchange) => e.status !== undefined && e.status >= 400 && e.status < 500;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const form = (s: SentCreation) => s.form as Record<string, unknown>;
const pollSent = (s: SentCreation) => form(s).poll as Record<string, unknown> | undefined;

/** The effects a row's valid parameters must show on a Status: [clause, field words, holds] for each parameter sent. */
function effectsOn(s: SentCreation, status: Record<string, unknown>, where: 'answer' | 'owner' | 'other'): [string, string, boolean][] {
  const row = s.input.row;
  const valid = (name: string) => {
    const choice = choiceOf(row, CREATE_PARAMETERS.find((p) => p.name === name) as (typeof CREATE_PARAMETERS)[number]);
    return choice.value !== undefined && !choice.open && !choice.refused;
  };
  const effects: [string, string, boolean][] = [];
  const marked = (clause: string) => (where === 'answer' ? clause : 'STATUS-EFFECT-2');
  if (valid('spoiler_text')) effects.push([marked('STATUS-CREATE-2'), `spoiler_text ${JSON.stringify(form(s).spoiler_text)}`, status.spoiler_text === form(s).spoiler_text]);
  if (valid('sensitive') && form(s).sensitive === true) effects.push([marked(valid('spoiler_text') && form(s).spoiler_text !== '' ? 'STATUS-CREATE-3' : 'STATUS-CREATE-7'), 'sensitive true', status.sensitive === true]);
  if (valid('language')) effects.push([marked('STATUS-CREATE-5'), `language ${JSON.stringify(form(s).language)}`, status.language === form(s).language]);
  if (valid('visibility') && where !== 'other') effects.push([where === 'answer' ? 'STATUS-CREATE-4' : 'STATUS-EFFECT-7', `visibility ${JSON.stringify(form(s).visibility)}`, status.visibility === form(s).visibility]);
  const asked = pollSent(s);
  const poll = status.poll as Record<string, unknown> | null | undefined;
  if (asked && Array.isArray(asked.options) && where !== 'owner') {
    const titles = Array.isArray(poll?.options) ? (poll.options as Record<string, unknown>[]).map((o) => o?.title) : undefined;
    const byOther = where === 'other';
    effects.push([byOther ? 'STATUS-EFFECT-3' : 'STATUS-POLL-1', `poll options ${JSON.stringify(asked.options)}, in order`, same(titles, asked.options)]);
    if (typeof asked.multiple === 'boolean') effects.push([byOther ? 'STATUS-EFFECT-3' : 'STATUS-POLL-3', `poll multiple ${asked.multiple}`, poll?.multiple === asked.multiple]);
    if (!byOther && typeof asked.expires_in === 'number') {
      const open = (Date.parse(String(poll?.expires_at)) - Date.parse(String(status.created_at))) / 1000;
      effects.push(['STATUS-POLL-2', `expires_at - created_at = ${asked.expires_in} s (within a minute)`, Math.abs(open - asked.expires_in) <= 60]);
    }
    if (asked.hide_totals === true && !byOther) effects.push(['STATUS-POLL-4', 'the status with its Poll', Boolean(poll)]);
    const counts = Array.isArray(poll?.options) ? (poll.options as Record<string, unknown>[]).map((o) => o?.votes_count) : [];
    if (asked.hide_totals === true && byOther && poll?.expired !== true) effects.push(['STATUS-EFFECT-1', 'no votes_count of an option (null or absent)', counts.every((c) => c === null || c === undefined)]);
  }
  return effects;
}

/** What a read of the status made must answer, by the visibility sent: [clause, status] (undefined: not shown). */
function readRule(visibility: unknown, by: 'owner' | 'other'): [string, number] | undefined {
  if (by === 'owner') return visibility === 'private' ? ['STATUS-READ-2', 200] : visibility === 'direct' ? ['STATUS-VIS-6', 200] : ['STATUS-READ-1', 200];
  if (visibility === 'public' || visibility === 'unlisted') return ['STATUS-VIS-1', 200];
  if (visibility === 'private') return ['STATUS-READ-3', 404];
  if (visibility === 'direct') return ['STATUS-VIS-7', 404];
  return undefined;
}

/**
 * Every judged answer of one creation. `smallest`: the row it shrank to, where it broke; a refusal of a row of valid
 * classes is reported under the effect of the smallest row's first parameter (its cause), STATUS-CREATE-1 for the bare
 * text.
 */
export function createInstances(s: SentCreation, smallest: SentCreation = s): CreateInstance[] {
  const expectation = rulingOf(s.input.row);
  const what = describeRow(s.input.row);
  const { exchange } = s;
  if (expectation.kind === 'refused') return [{ clause: expectation.clause, breaks: expectation.clause, holds: refusal(exchange), expected: 'a refusal (HTTP 4xx)', exchange, what }];
  if (!ok2xx(exchange)) {
    if (expectation.kind === 'open') return [];
    const answer = expectation.scheduled ? 'a ScheduledStatus' : 'the Status';
    return [{ clause: leadClause(smallest.input.row), breaks: 'a refusal of valid parameters', holds: false, expected: `HTTP 200 with ${answer}`, exchange, what }];
  }
  const body = createdObject(exchange) ?? {};
  if ('scheduled_at' in body || (expectation.kind === 'answers' && expectation.scheduled)) {
    if (expectation.kind !== 'answers') return [];
    const at = form(s).scheduled_at;
    const params = body.params as Record<string, unknown> | undefined;
    return [
      { clause: 'STATUS-SCHEDULED-1', breaks: 'STATUS-SCHEDULED-1', holds: exchange.status === 200 && Date.parse(String(body.scheduled_at)) === Date.parse(String(at)), expected: `HTTP 200 with a ScheduledStatus, scheduled_at ${String(at)}`, exchange, what },
      { clause: 'STATUS-SCHEDULED-2', breaks: 'STATUS-SCHEDULED-2', holds: params?.text === form(s).status && (form(s).visibility === undefined || params?.visibility === form(s).visibility), expected: 'params.text and params.visibility as sent', exchange, what },
    ];
  }
  const instances: Omit<CreateInstance, 'breaks'>[] = [];
  if (expectation.kind === 'answers') instances.push({ clause: 'STATUS-CREATE-1', holds: exchange.status === 200, expected: 'HTTP 200 with the Status', exchange, what });
  const onAnswer = effectsOn(s, body, 'answer');
  for (const [clause, words, holds] of onAnswer) instances.push({ clause, holds, expected: `the Status with ${words}`, exchange, what });
  // A read is judged on what the answer showed: an effect the answer lacks already broke its own clause.
  const unshown = new Set(onAnswer.filter(([, , holds]) => !holds).map(([, words]) => words));
  const visibilityShown = body.visibility === form(s).visibility;
  for (const [by, read] of [['owner', s.ownerRead], ['other', s.otherRead]] as const) {
    if (!read) continue;
    const whose = by === 'owner' ? "its owner's read" : "another account's read";
    const rule = visibilityShown || form(s).visibility === undefined ? readRule(form(s).visibility, by) : undefined;
    if (rule) instances.push({ clause: rule[0], holds: read.status === rule[1], expected: `${whose} answers HTTP ${rule[1]}`, exchange: read, what: `${whose} of ${what}` });
    const shown = createdObject(read);
    if (!shown) continue;
    for (const [clause, words, holds] of effectsOn(s, shown, by)) if (!unshown.has(words)) instances.push({ clause, holds, expected: `${whose} shows ${words}`, exchange: read, what: `${whose} of ${what}` });
  }
  return instances.map((instance) => ({ ...instance, breaks: instance.clause }));
}

/**
 * The judged answers of a boost with the visibility parameter: the boost's visibility on its answer, and on the later
 * reads that answer it (its booster's; another account's of an unlisted one), judged where the answer showed it.
 */
export function boostInstances(s: SentBoost): CreateInstance[] {
  const what = `a reblog with visibility ${s.visibility}`;
  const shown = createdObject(s.boost);
  if (!shown) return [];
  const expected = (whose: string) => `${whose} shows the boost with visibility ${JSON.stringify(s.visibility)}`;
  const instances: CreateInstance[] = [{ clause: 'STATUS-REBLOG-2', breaks: 'STATUS-REBLOG-2', holds: shown.visibility === s.visibility, expected: expected('the answer'), exchange: s.boost, what }];
  if (shown.visibility !== s.visibility) return instances;
  for (const [whose, read] of [["its booster's read", s.ownerRead], ["another account's read", s.otherRead]] as const) {
    const body = read && createdObject(read);
    if (read && body) instances.push({ clause: 'STATUS-REBLOG-2', breaks: 'STATUS-REBLOG-2', holds: body.visibility === s.visibility, expected: expected(whose), exchange: read, what: `${whose} of ${what}` });
  }
  return instances;
}

/** The clauses an explored creation may be judged under, for the checks of the explore group. */
export const CREATE_CLAUSES = [
  'STATUS-CREATE-1', 'STATUS-CREATE-2', 'STATUS-CREATE-3', 'STATUS-CREATE-4', 'STATUS-CREATE-5', 'STATUS-CREATE-7',
  'STATUS-PARAMS-1', 'STATUS-POLL-1', 'STATUS-POLL-2', 'STATUS-POLL-3', 'STATUS-POLL-4', 'STATUS-POLL-5', 'STATUS-POLL-6',
  'STATUS-SCHEDULED-1', 'STATUS-SCHEDULED-2', 'STATUS-SCHEDULED-3', 'MEDIA-ATTACH-3',
  'STATUS-READ-1', 'STATUS-READ-2', 'STATUS-READ-3', 'STATUS-VIS-1', 'STATUS-VIS-6', 'STATUS-VIS-7',
  'STATUS-EFFECT-1', 'STATUS-EFFECT-2', 'STATUS-EFFECT-3', 'STATUS-EFFECT-7', 'STATUS-REBLOG-2',
] as const;

/** The release that brought an operation or a parameter, as --list shows it: the catalogue's `since` of its clause. */
export const releaseWords = (clause: string | undefined): string => (clause ? `, since ${findClause(clause)?.since ?? '?'} (${clause})` : '');

/** The model as --list shows it: each parameter, each class and what the contract says of it alone. */
export function createModelLines(): string[] {
  const lines = ['create (POST /api/v1/statuses, as B; a status made costs one of B\'s deletions)'];
  for (const p of CREATE_PARAMETERS) {
    lines.push(`  ${p.name}${p.ofPoll ? ' (with a poll)' : ''}${releaseWords(p.releasedWith)}`);
    for (const c of p.choices) {
      const ruling = c.refused ? `refused, any 4xx (${c.refused})` : c.open ? `open: ${c.open}; a 5xx is ERRORS-5XX-1's warning` : c.kind === 'missing' ? 'refused without media_ids[] (STATUS-PARAMS-1)' : 'its effect shown on the answer and the reads';
      lines.push(`    ${`${c.kind}: ${c.name}`.padEnd(44)} ${ruling}`);
    }
  }
  lines.push('  conditions: neither status nor media_ids[]: refused (STATUS-PARAMS-1); a poll with media_ids[]: refused (STATUS-POLL-6)');
  return lines;
}

import { describe, expect, it } from 'vitest';
import { createCovering, CREATE_PARAMETERS, creationCost, randomRows, rulingOf, smallerRows, BASE_ROW, formOf } from './explore-create.ts';
import { drawExploration, EXPLORE_DELETIONS, scopeOf } from './explore-inputs.ts';

/** A release that has every clause the exploration is gated by, as 3.2.0 has. */
const settings = (explore?: number, withB = true) => ({ ...(explore === undefined ? {} : { explore }), share: 2, released: () => true, withB });

describe('the explored creations', () => {
  it('should send every class of every parameter in the covering set, each class that is no success alone on a valid creation', () => {
    const rows = createCovering(CREATE_PARAMETERS);
    for (const p of CREATE_PARAMETERS) {
      for (const choice of p.choices.filter((c) => c.kind !== 'absent')) expect(rows.some((row) => row[p.name] === choice.name), `${p.name} ${choice.name}`).toBe(true);
    }
    const deviations = rows.filter((row) => rulingOf(row).kind !== 'answers');
    for (const row of deviations) {
      const differs = CREATE_PARAMETERS.filter((p) => row[p.name] !== undefined && row[p.name] !== BASE_ROW[p.name] && !(p.name === 'poll' && row[p.name] === 'two options, open an hour'));
      expect(differs.length, JSON.stringify(row)).toBeLessThanOrEqual(2);
    }
  });

  it('should take the rules of the table: neither status nor media, a poll with media, a poll without expires_in, a scheduled_at too soon', () => {
    expect(rulingOf({})).toEqual({ kind: 'refused', clause: 'STATUS-PARAMS-1' });
    expect(rulingOf({ ...BASE_ROW, poll: 'two options, open an hour', 'media_ids[]': 'an id that never named anything' })).toMatchObject({ clause: 'STATUS-POLL-6' });
    expect(rulingOf({ ...BASE_ROW, poll: 'options without poll[expires_in]' })).toMatchObject({ clause: 'STATUS-POLL-5' });
    expect(rulingOf({ ...BASE_ROW, scheduled_at: '2 minutes ahead' })).toMatchObject({ clause: 'STATUS-SCHEDULED-3' });
    expect(rulingOf({ ...BASE_ROW, poll: 'one option' }).kind).toBe('open');
    expect(rulingOf({ ...BASE_ROW, spoiler_text: 'the empty string', visibility: 'direct' })).toEqual({ kind: 'answers', scheduled: false });
    expect(creationCost({})).toEqual({ requests: 1, deletions: 0 });
  });

  it('should send a poll\'s own parameters only with a poll, and the form as the table names it', () => {
    for (const row of randomRows(CREATE_PARAMETERS, 3, 50)) if (!row.poll) expect(row['poll[multiple]'] ?? row['poll[hide_totals]']).toBeUndefined();
    const form = formOf({ ...BASE_ROW, poll: 'two options, open an hour', 'poll[multiple]': 'false', visibility: 'private' }, { now: 0, drawn: '9' });
    expect(form).toEqual({ status: 'conformance probe: an explored status', poll: { options: ['yes', 'no'], expires_in: 3600, multiple: false }, visibility: 'private' });
  });

  it('should shrink a row to the valid creation, then to each of its parameters alone', () => {
    const smaller = smallerRows({ ...BASE_ROW, poll: 'two options, open an hour', 'poll[multiple]': 'false', language: 'en' });
    expect(smaller[0]).toEqual(BASE_ROW);
    expect(smaller).toContainEqual({ ...BASE_ROW, poll: 'two options, open an hour', 'poll[multiple]': 'false' });
    expect(smaller).toContainEqual({ ...BASE_ROW, language: 'en' });
    const kept = smallerRows({ ...BASE_ROW, poll: 'two options, open an hour', spoiler_text: 'a warning', language: 'en' }, ['spoiler_text']);
    expect(kept.slice(0, 2)).toEqual([{ ...BASE_ROW, spoiler_text: 'a warning' }, { ...BASE_ROW, spoiler_text: 'a warning', poll: 'two options, open an hour' }]);
  });

  it('should make creations only under --explore N with B, within B\'s deletions, the same for one seed', () => {
    expect(drawExploration(scopeOf(settings()), 1).creations).toEqual([]);
    expect(drawExploration(scopeOf(settings(200, false)), 1).creations).toEqual([]);
    const scope = scopeOf(settings(1000));
    const { creations } = drawExploration(scope, 1);
    expect(drawExploration(scope, 1)).toEqual(drawExploration(scope, 1));
    expect(creations.reduce((sum, c) => sum + creationCost(c.row).deletions, 0)).toBeLessThanOrEqual(EXPLORE_DELETIONS.B.creations);
    expect(creations.some((c) => c.drawnBy === 'random')).toBe(true);
  });
});

// The cleanup's order is the one the run decided, never the order answers came in: a step that makes two objects at
// once (two uploads, say) gets their answers in either order, and the first undo of a kind carries the read that shows
// one there, which each run must count in the same step's cost (budget.test saw two file reads swapped on CI).
import { describe, expect, it } from 'vitest';
import type { Actor } from '../act/actors.ts';
import { remember } from '../act/ledger.ts';
import { moves } from '../act/moves.ts';
import { inPart } from '../talk/counts.ts';
import { startFile } from '../talk/file-state.ts';
import { HttpClient, plannedCall, type Exchange } from '../talk/http.ts';
import { leftovers, undoAll } from './cleanup.ts';

type AnswerOrder = 'as issued' | 'reversed';

const client = new HttpClient('http://server.invalid', 'A', undefined, 1_000, 'conformance-test');

/** A request a step issues, built and never sent: it takes its place in the order the run issues requests. */
const issue = async (path: string): Promise<Exchange> => (await plannedCall(() => client.send('POST', path))) as Exchange;

/** The answers to `issued`, in `order`. */
const answered = <T>(issued: readonly T[], order: AnswerOrder): T[] => (order === 'as issued' ? [...issued] : [...issued].reverse());

/** Makes what two steps made, their answers in `order`, then undoes it all: the names in the order the undos went. */
async function undoOrder(order: AnswerOrder): Promise<{ undone: string[]; listed: string[] }> {
  startFile();
  const undone: string[] = [];
  // The cleanup builds each undo once without sending it (to read what it undoes), then calls it: the second call is the undo.
  const calls = new Map<string, number>();
  const undo = (name: string) => async (): Promise<Exchange> => {
    calls.set(name, (calls.get(name) ?? 0) + 1);
    if (calls.get(name) === 2) undone.push(name);
    return { method: 'DELETE', url: `http://server.invalid/${name}`, path: `/${name}`, actor: 'A', requestHeaders: {}, status: 200, headers: {}, text: '', truncated: false, ms: 0 };
  };
  const makeTwo = (step: string) => async () => {
    const names = [`${step}: first`, `${step}: second`];
    const issued = await Promise.all(names.map((name) => issue(`/api/v1/media?${name}`)));
    for (const i of answered([0, 1], order)) remember(names[i] as string, undo(names[i] as string), { made: issued[i] });
  };
  // The step declared later answers first, as steps side by side may.
  await inPart('declared second', {}, makeTwo('declared second'), { order: 2 });
  await inPart('declared first', {}, makeTwo('declared first'), { order: 1 });
  await undoAll();
  return { undone, listed: leftovers().map((left) => left.id) };
}

describe("the cleanup's order", () => {
  it('should undo newest first by the order of declaration, then by the order each step issued its requests, whatever order the answers came in', async () => {
    const asIssued = await undoOrder('as issued');
    expect(asIssued.undone).toEqual(['declared second: second', 'declared second: first', 'declared first: second', 'declared first: first']);
    expect(await undoOrder('reversed')).toEqual(asIssued);
  });
});

describe('the answer of a move made twice at once', () => {
  /** B favourites a status twice at the same moment; the answers come in `order`: the one `standing` gives. */
  async function standingAnswer(order: AnswerOrder): Promise<string | undefined> {
    startFile();
    const release: (() => void)[] = [];
    let sent = 0;
    const post = async (path: string): Promise<Exchange> => {
      const exchange = await issue(path);
      Object.assign(exchange, { status: 200, error: undefined, text: `answer ${++sent}` });
      return new Promise((resolve) => release.push(() => resolve(exchange)));
    };
    const actor = { name: 'B', post } as unknown as Actor;
    const both = Promise.all([1, 2].map(() => moves.move(actor, '7', 'favourite', 'unfavourite')));
    // Both are issued and wait for their answers (every pending job run: a turn of the event loop), which then come in the order asked.
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    while (release.length < 2) await turn();
    await turn();
    for (const answer of answered(release, order)) answer();
    await both;
    return moves.standing(actor, '7', 'unfavourite')?.text;
  }

  it('should be the answer of the one issued first, whichever came first', async () => {
    expect(await standingAnswer('as issued')).toBe('answer 1');
    expect(await standingAnswer('reversed')).toBe('answer 1');
  });
});

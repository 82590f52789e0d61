// A sequence's reads of one state go together, and their answers come in either order; the judging walks the record in
// order, and the first read that fails or blocks is its verdict: the record keeps them in the order asked.
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../talk/http.ts';
import type { Actor } from './actors.ts';
import { readState, Sequencer } from './sequence.ts';
import type { SequenceRecord, SentRead } from './sequence-model.ts';

type AnswerOrder = 'as asked' | 'reversed';

const answer = (who: string): Exchange => ({
  method: 'GET',
  url: 'http://server.invalid/api/v1/statuses/1',
  path: '/api/v1/statuses/1',
  actor: who,
  requestHeaders: {},
  status: 200,
  headers: { 'content-type': 'application/json' },
  text: '{"id":"1"}',
  truncated: false,
  ms: 1,
});

/** A and B read the state together, their answers come in `order`: who the record names, in its order. */
async function readersRecorded(order: AnswerOrder): Promise<string[]> {
  const waiting: (() => void)[] = [];
  const reader = (name: string) => ({ name, get: () => new Promise<Exchange>((resolve) => waiting.push(() => resolve(answer(name)))) }) as unknown as Actor;
  const sequencer = new Sequencer({ A: reader('A'), B: reader('B') }, () => Promise.reject(new Error('no move in this test')));
  const record: SequenceRecord = { statusId: '1', ownerId: '9', base: { favourites: 0, reblogs: 0 }, sent: [] };
  const reading = readState(sequencer, record, ['A', 'B'], () => () => true);
  // Both are asked and wait for their answers (every pending job run: a turn of the event loop).
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  while (waiting.length < 2) await turn();
  for (const release of order === 'as asked' ? waiting : [...waiting].reverse()) release();
  await reading;
  return record.sent.map((sent) => (sent as SentRead).who);
}

describe("a sequence's reads sent together", () => {
  it('should stay in the record in the order asked, whichever answer came first', async () => {
    expect(await readersRecorded('as asked')).toEqual(['A', 'B']);
    expect(await readersRecorded('reversed')).toEqual(['A', 'B']);
  });
});

// What the contract says an explored answer is (judge/explore-oracle.ts, judge/explore-matrix-oracle.ts): a success
// (the resource, its flag), a refusal (the Errors table's rows), or open, where only a server error is judged.
import type { ResourceName } from './schema.ts';

export type Expectation =
  | {
      kind: 'answers';
      clause: string;
      status: readonly number[];
      resource: Exclude<ResourceName, 'Error'>;
      list?: boolean;
      flag?: { field: string; value: boolean };
      /** The field that carries the id sent (a reply's in_reply_to_id). */
      field?: string;
    }
  | { kind: 'refused'; clause: string; rows: readonly { status: number; text: string }[] }
  | { kind: 'open'; why: string };

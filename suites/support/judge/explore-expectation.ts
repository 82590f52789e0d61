// What the contract says an explored answer is (judge/explore-oracle.ts, judge/explore-matrix-oracle.ts): a success
// (the resource, its flag), a refusal (the Errors table's rows), or open, where only a server error is judged; and
// an answer as judged, which the oracles of the media and streams hand back too.
import type { SentCell } from '../act/explore-matrix-model.ts';
import type { Exchange } from '../talk/http.ts';
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

/** An explored answer judged: whether it holds, what the contract wants, and where it broke, the answer to report (its smallest input's). */
export interface Judged {
  holds: boolean;
  expected: string;
  exchange: Exchange;
  what: string;
  /** What a holding answer is observed for besides (the error body, the resource's schema). */
  observe?: () => void;
  /** The smallest input's answer and how it shrank, where it did. */
  smallest?: { exchange: Exchange; expected: string; words: string };
  /** A cell of the access matrix: its table is shown with a finding. */
  cell?: SentCell;
  /** Whether the answer expected is the token's refusal (401): then a 401 or 403 is no "token refused" but the verdict. */
  onToken?: boolean;
}

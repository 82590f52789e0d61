// What the streaming scenario's moves bring (stream-moves.ts), as the judges read it (judge/stream-scenario.ts):
// types only, so that judge/ names what a move made without importing what sends.
import type { EventStream } from '../talk/streams.ts';
import type { PreparedStatus, Status } from './created.ts';
import type { LedgerEntry } from './ledger.ts';
import type { Step } from './steps.ts';
import type { StreamKey } from './stream-keys.ts';

/** Every stream of one transport as it was opened; the list stream only with CONFORMANCE_LIST_ID. */
export interface OpenedStreams {
  streams: Record<StreamKey, EventStream | undefined>;
  /** Whether B posts (its own user stream is then the author's): without B, A posts and mentions nobody. */
  withB: boolean;
}

/** A status the scenario posted, and when its answer came: a wait for its events lasts at most the timeout from then. */
export interface Posted {
  status: Status;
  at: number;
}

/** The public status, with the ledger's hold on it (the scenario deletes it) and A's acct it was written with. */
export interface PostedPublic extends Posted {
  created: PreparedStatus;
  /** A's acct, read from the direct message's answer: the mention that notifies A. */
  mention: Step<string>;
}

/** A reply in the thread, as its creation came (an absence check needs of it only its visibility), and when. */
export interface PostedReply {
  created: PreparedStatus;
  at: number;
}

/** A's mute of the thread, and the ledger's unmute of it, which the unmute settles. */
export interface Muted {
  moved: Step<string>;
  undo?: LedgerEntry;
}

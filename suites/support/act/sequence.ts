// A sequence of moves on one status, sent and recorded: each move by its account (twice at the same moment where
// asked), and the reads that show its state. The record is what judge/state-machine.ts judges against the model;
// nothing here decides what a move must answer.
import type { Exchange } from '../talk/http.ts';
import { sentTogether } from '../talk/replay.ts';
import type { Actor } from './actors.ts';
import { now, settle } from './settle.ts';

/** A's, the owner, and B's moves, by the names of judge/status-model.ts. */
type Who = 'A' | 'B';

/** One move of a sequence as sent: its answers (two where it was sent twice at the same moment). */
export interface SentMove {
  kind: 'move';
  who: Who;
  name: string;
  atOnce?: boolean;
  answers: Exchange[];
}

/** A read of the status by `who`, or of one of its accounts lists. */
export interface SentRead {
  kind: 'read';
  who: Who;
  exchange: Exchange;
}

export interface SentList {
  kind: 'list';
  list: 'favourited_by' | 'reblogged_by';
  exchange: Exchange;
}

export type Sent = SentMove | SentRead | SentList;

/** A sequence on one status: the status, its owner's account id, its counts when it began, and what was sent. */
export interface SequenceRecord {
  statusId: string;
  ownerId: string;
  base: { favourites: number; reblogs: number };
  /** A's flags when it began, as a read showed them (what the moves before it left); B's are all unset. */
  owner?: Partial<Record<'favourited' | 'reblogged' | 'bookmarked' | 'muted' | 'pinned', boolean>>;
  sent: Sent[];
  /** The moves and undos sent on the status before this sequence (earlier sequences' of an exploration): its replay sends them first. */
  prelude?: Exchange[];
}

/**
 * How a move reaches the server: the suite's own, which puts what it makes on the ledger and settles its undo;
 * `atOnce`: one of two sent at the same moment.
 */
export type SendMove = (actor: Actor, statusId: string, name: string, atOnce?: boolean) => Promise<Exchange>;

/** Sends a sequence's moves and reads on one status, recording each, and counting the requests it sent. */
export class Sequencer {
  requests = 0;

  /**
   * `gone`: told of each read of a status that answered 404, where a move of the sequence may have deleted it (what
   * a read shows gone, the ledger need not delete again).
   */
  constructor(
    readonly actors: Partial<Record<Who, Actor>>,
    readonly send: SendMove,
    readonly gone: (statusId: string) => void = () => {},
  ) {}

  actor(who: Who): Actor {
    const actor = this.actors[who];
    if (!actor) throw new Error(`a sequence move by ${who}, who is not configured`);
    return actor;
  }

  async move(record: SequenceRecord, who: Who, name: string, atOnce = false): Promise<SentMove> {
    const actor = this.actor(who);
    const answers = await Promise.all((atOnce ? [1, 2] : [1]).map(() => this.send(actor, record.statusId, name, atOnce)));
    this.requests += answers.length;
    // A replay of what came after sends the two at the same moment again: a race shows only so.
    const [first, second] = answers;
    if (first && second) sentTogether(first, second);
    const sent: SentMove = { kind: 'move', who, name, ...(atOnce ? { atOnce } : {}), answers };
    record.sent.push(sent);
    return sent;
  }

  /** A read by `who`, read again within the settle window (since `since`) while it does not show what `shows` wants. */
  async read(record: SequenceRecord, who: Who, shows: (exchange: Exchange) => boolean, since = now()): Promise<SentRead> {
    const actor = this.actor(who);
    const settled = await settle(
      () => {
        this.requests += 1;
        return actor.get(`/api/v1/statuses/${record.statusId}`);
      },
      shows,
      since,
    );
    if (settled.exchange.status === 404) this.gone(record.statusId);
    const sent: SentRead = { kind: 'read', who, exchange: settled.exchange };
    record.sent.push(sent);
    return sent;
  }

  /** An accounts list read by the owner, read again within the settle window while it does not show what `shows` wants. */
  async list(record: SequenceRecord, list: SentList['list'], shows: (exchange: Exchange) => boolean, since = now()): Promise<SentList> {
    const actor = this.actor('A');
    const settled = await settle(
      () => {
        this.requests += 1;
        return actor.get(`/api/v1/statuses/${record.statusId}/${list}`);
      },
      shows,
      since,
    );
    const sent: SentList = { kind: 'list', list, exchange: settled.exchange };
    record.sent.push(sent);
    return sent;
  }
}

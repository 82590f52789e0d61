// What a part of the exploration may still spend of an account's Deletion bucket (act/explore-inputs.ts EXPLORE_DELETIONS).
/**
 * What a part of EXPLORE_DELETIONS may still spend of its account's Deletion bucket, kept while the run sends: a
 * request that may spend a deletion, whatever the contract says the server answers (a DELETE or an unreblog, a
 * creation the ledger then deletes, a move whose undo is an unreblog), takes one before it is sent, and is not sent
 * where none is left; one its answer shows was not spent (no status made, no move taken) is given back. A server that
 * makes what it should refuse thus spends what the part would have sent later, never more than the part announced.
 */
export class DeletionShare {
  constructor(private left: number) {}
  take(): boolean {
    if (this.left < 1) return false;
    this.left -= 1;
    return true;
  }
  giveBack(): void {
    this.left += 1;
  }
  get remaining(): number {
    return this.left;
  }
}

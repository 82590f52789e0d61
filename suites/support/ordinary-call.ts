// An ordinary /api/* call, for the checks that judge what any call reports (the Limits section's "any method,
// /api/*" rows): a read of a status, which every server of the contract serves. apps/verify_credentials is
// not one: some servers do not have it.
import type { Actor } from './actors.ts';
import type { Exchange } from './http.ts';

// An id no server has given out: far above any snowflake of this century.
const MISSING_ID = '999999999999999999';

/**
 * GET /api/v1/statuses/:id of a status of the actor's own, posted for it (direct, so that no one else sees it;
 * the ledger deletes it). Should the server not take the status, the read of a status that does not exist
 * stands in: it is still an ordinary call, and judging the creation is another check's business.
 */
export async function ordinaryCall(actor: Actor): Promise<Exchange> {
  const posted = await actor.createStatus({ status: 'conformance probe: a status to read', visibility: 'direct' });
  return actor.get(`/api/v1/statuses/${posted.ok ? posted.value.id : MISSING_ID}`);
}

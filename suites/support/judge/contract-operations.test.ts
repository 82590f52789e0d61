// The operations the contract shows: what a run-wide rule may take as evidence, and what is the run's housekeeping.
import { describe, expect, it } from 'vitest';
import { operationOf, shownByContract } from './contract-operations.ts';

const exchange = (method: string, path: string) => ({ method, path });

describe('the operations the contract shows', () => {
  it('should name an operation by method and path, ids as :id, without the query', () => {
    expect(operationOf(exchange('POST', '/api/v1/statuses/117692263241154561/favourite'))).toBe('POST /api/v1/statuses/:id/favourite');
    expect(operationOf(exchange('GET', '/api/v1/accounts/01HZXB7Q3K9W2M8N4P6R5T1V0Y/following?limit=1'))).toBe('GET /api/v1/accounts/:id/following');
    expect(operationOf(exchange('GET', '/api/v2/media'))).toBe('GET /api/v2/media');
  });

  it("should take the contract's operations, the attachment's read and update on Mastodon's path among them", () => {
    for (const [method, path] of [
      ['POST', '/api/v1/apps'],
      ['POST', '/oauth/revoke'],
      ['GET', '/api/v1/statuses/12/favourited_by'],
      ['POST', '/api/v1/statuses/12/unpin'],
      ['DELETE', '/api/v1/statuses/12'],
      ['PUT', '/api/v1/media/12'],
      ['GET', '/api/v1/streaming/hashtag/local?tag=probe'],
      ['GET', '/api/v1/streaming?stream=user'],
    ]) {
      expect(shownByContract(exchange(method as string, path as string)), `${method} ${path}`).toBe(true);
    }
  });

  it("should leave out the run's housekeeping: undos through Mastodon's paths, the account id, sign-in pages and files", () => {
    for (const [method, path] of [
      ['DELETE', '/api/v1/media/12'],
      ['DELETE', '/api/v1/scheduled_statuses/12'],
      ['GET', '/api/v1/accounts/verify_credentials'],
      ['POST', '/auth/sign_in'],
      ['GET', '/system/media_attachments/files/12/original/probe.png'],
    ]) {
      expect(shownByContract(exchange(method as string, path as string)), `${method} ${path}`).toBe(false);
    }
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceServer } from '../../../fixtures/reference-server/server.ts';
import { reportedVersion, versionHint } from './version-hint.ts';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function serve(status: number, body: string): Promise<{ url: string; agents: (string | undefined)[] }> {
  const agents: (string | undefined)[] = [];
  server = createServer((req, res) => {
    agents.push(req.headers['user-agent']);
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, agents };
}

describe('the version hint', () => {
  it('should read the version /api/v1/instance reports, sending the User-Agent', async () => {
    const { url, agents } = await serve(200, JSON.stringify({ uri: 'akkoma.example', version: '2.7.2 (compatible; Akkoma 3.13.2)' }));
    expect(await reportedVersion(url, 'conformance-test/1.0', 2000)).toBe('2.7.2 (compatible; Akkoma 3.13.2)');
    expect(agents).toEqual(['conformance-test/1.0']);
  });

  it('should read the release the reference server is configured for, as from any server', async () => {
    const reference = await startReferenceServer({ release: '2.9.0' });
    try {
      expect(await reportedVersion(reference.url, 'conformance-test/1.0', 2000)).toBe('2.9.0');
    } finally {
      await reference.close();
    }
  });

  it('should give nothing for a server without it', async () => {
    const { url } = await serve(404, '{"error":"Record not found"}');
    expect(await reportedVersion(url, 'conformance-test/1.0', 2000)).toBeUndefined();
  });

  it('should name the API release a compatible server reports, or warn of a number that cannot be one, in one line', () => {
    expect(versionHint('2.7.2 (compatible; Akkoma 3.13.2)', '3.2.0', false)).toBe(
      'Hint (outside the contract, does not change the run): GET /api/v1/instance reports version "2.7.2 (compatible; Akkoma 3.13.2)", which names API release 2.7.2; this run checks release 3.2.0 (CONFORMANCE_SERVER_VERSION unset: the newest release the contract names).',
    );
    expect(versionHint('0.17.0', '3.2.0', true)).toBe(
      `Hint (outside the contract, does not change the run): GET /api/v1/instance reports version "0.17.0", which cannot be a release of this API (below 1.0.0): the server's own release number, most likely; this run checks release 3.2.0 (CONFORMANCE_SERVER_VERSION).`,
    );
    expect(versionHint('4.2.10', '4.2.0', true)).toBe('Hint (outside the contract, does not change the run): GET /api/v1/instance reports version "4.2.10"; this run checks release 4.2.0 (CONFORMANCE_SERVER_VERSION).');
  });
});

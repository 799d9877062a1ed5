/**
 * The credential's optional limiter host, on n8n-core's WorkflowExecute (n8n's own HTTP helpers), a real host on a
 * socket and the emulator: queue-mode workers that name one host share one line per API key (bench row n8n-5t
 * measures two worker processes; here, what one process sends and what it does when the host is missing or wrong).
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorServer, type EmulatorServer } from '../../emulator/server.ts';
import { serveLimiterHost, type ServedLimiterHost } from '../support/limiter-host.ts';
import { outputJson, runChain, type StoredCredential } from './support/workflow-harness.ts';

const TOKEN = 'limiter-host-token-for-tests';
let server: EmulatorServer;
let host: ServedLimiterHost;

function credential(client: number, limiter: { limiterUrl?: string; limiterToken?: string }): StoredCredential {
  const sandbox = server.emulator.partners(server.origin)[0]!.environments.sandbox;
  return {
    tokenRequests: 0,
    data: {
      tokenUrl: sandbox.tokenUrl, baseUrl: sandbox.baseUrl, clientId: sandbox.clients[client]!.clientId,
      clientSecret: sandbox.clients[client]!.clientSecret, apiKey: sandbox.apiKey, scope: 'readWrite', accessToken: '', ...limiter,
    },
  };
}

const register = (prefix: string) => ({
  name: 'Register',
  onError: 'continueRegularOutput' as const,
  parameters: {
    resource: 'user', operation: 'register', email: `={{ '${prefix}.' + $json.i + '@example.com' }}`, firstName: 'Host',
    lastName: '={{ String($json.i) }}', organizationId: { __rl: true, mode: 'id', value: '1' }, additionalFields: {},
  },
});

/** Waits until `ready` holds (a success's outcome is reported without holding up the call). */
async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

beforeAll(async () => {
  server = await startEmulatorServer({ port: 0 });
  host = await serveLimiterHost({ token: TOKEN }, true);
});
afterAll(async () => {
  await host.close();
  await server.close();
});

describe('the credential names a limiter host', () => {
  it('each call waits for its turn at the host and reports how it ended; the host sees the key only as its hash', async () => {
    const stored = credential(0, { limiterUrl: host.url, limiterToken: TOKEN });
    const run = await runChain(stored, [register('host.shared')], 3);
    expect(run.data.resultData.error).toBeUndefined();
    expect(outputJson(run, 'Register').map((item) => typeof item.uuid)).toEqual(['string', 'string', 'string']);
    const turns = host.requests.filter((r) => r.route === 'turn');
    await until(() => host.requests.filter((r) => r.route === 'outcome').length >= turns.length);
    const apiKey = String(stored.data.apiKey);
    const hash = createHash('sha256').update(apiKey).digest('hex');
    expect(turns).toHaveLength(3);
    const asked = turns.map((r) => JSON.parse(r.body) as { ticket: string });
    expect(asked).toEqual(Array(3).fill({ key: hash, rate: 'adaptive', ticket: expect.stringMatching(/^[0-9a-f-]{36}$/), holdMs: 15_000 }));
    expect(new Set(asked.map((a) => a.ticket)).size).toBe(3); // a place in line each
    const outcomes = host.requests.filter((r) => r.route === 'outcome').map((r) => JSON.parse(r.body).outcome);
    expect(outcomes).toEqual(['success', 'success', 'success']);
    expect(host.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(host.requests.some((r) => r.body.includes(apiKey))).toBe(false);
  });

  it('a host that cannot be reached, or refuses the token, slows nothing and fails no item', async () => {
    const closed = await serveLimiterHost();
    const gone = closed.url;
    await closed.close();
    const unreachable = await runChain(credential(0, { limiterUrl: gone }), [register('host.gone')], 2);
    expect(outputJson(unreachable, 'Register').map((item) => typeof item.uuid)).toEqual(['string', 'string']);
    const before = host.requests.length;
    const refused = await runChain(credential(0, { limiterUrl: host.url, limiterToken: 'not-the-token' }), [register('host.refused')], 2);
    expect(outputJson(refused, 'Register').map((item) => typeof item.uuid)).toEqual(['string', 'string']);
    // Refused once (401), then the process paced alone until the host is tried again (5 s later).
    expect(host.requests.slice(before).map((r) => r.route)).toEqual(['turn']);
  });

  it('a host that accepts and never answers holds the first item at most 25 s, through n8n\'s helper, and fails none', async () => {
    // A wedged host: the connection is taken, the request read, and nothing ever answered.
    const sockets: Socket[] = [];
    const wedged = createServer((socket) => { sockets.push(socket); });
    wedged.listen(0, '127.0.0.1');
    await once(wedged, 'listening');
    const { port } = wedged.address() as AddressInfo;
    try {
      // Without a bound on the ask, n8n's httpRequest would wait on the host for minutes, and this test's 60 s run out.
      const run = await runChain(credential(0, { limiterUrl: `http://127.0.0.1:${port}/limits/` }), [register('host.wedged')], 2);
      expect(outputJson(run, 'Register').map((item) => typeof item.uuid)).toEqual(['string', 'string']);
      // The first item's ask was given up after its hold (15 s) and 10 s more, n8n's httpRequest aborted by the signal,
      // and the item went on alone; the second paced alone at once (the host is left alone 5 s after a failure).
      expect(sockets).toHaveLength(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      wedged.close();
    }
  }, 60_000);

  it('a URL that is not http(s) fails the node with the field to fix, before anything is sent', async () => {
    const stored = credential(0, { limiterUrl: 'ftp://limiter.internal/' });
    const run = await runChain(stored, [{ ...register('host.bad'), onError: undefined }], 1);
    const error = run.data.resultData.error;
    expect(error?.message).toMatch(/Limiter Host URL is not usable: url must be http or https \(got ftp:\)/);
    expect(error?.description).toMatch(/leave it empty to pace each worker alone/);
    expect(stored.tokenRequests).toBe(0);
  });

  it('an empty Limiter Host URL (and credentials saved before the field existed) pace the worker alone', async () => {
    const before = host.requests.length;
    const run = await runChain(credential(0, { limiterUrl: '  ' }), [register('host.none')], 2);
    expect(outputJson(run, 'Register').map((item) => typeof item.uuid)).toEqual(['string', 'string']);
    expect(host.requests.length).toBe(before);
  });
});

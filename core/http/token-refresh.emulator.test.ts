/**
 * Token refresh under load, against the emulator: with `shareInFlight: false` (the Workers default), 1,000
 * concurrent calls that all carry a token the service rejects make at most 5 token requests, and calls queued
 * behind the refresh read the new token after their throttling wait instead of spending a 401 each.
 */
import { describe, it, expect } from 'vitest';
import { createEmulator } from '../../emulator/index.ts';
import { createTransport } from './ky-transport.ts';
import { normalizeOptions } from '../options.ts';
import { MemoryTokenStore } from '../auth/memory-token-store.ts';
import { tokenCacheKey } from '../auth/token-provider.ts';
import { manualClock } from '../../test/support/fake-clock.ts';
import { fakeAccessToken } from '../../test/support/fake-tokens.ts';

const origin = 'http://emulator.test';

/** An emulator whose plan does not throttle, a client whose cached token the service rejects, and its log. */
async function setup(rateLimit: { requestsPerSecond: number; burst: number }, barrier = 0) {
  const clock = manualClock();
  const emulator = createEmulator({ seed: 23, now: clock.now });
  const sandbox = emulator.partners(origin)[0]?.environments.sandbox;
  const client = sandbox?.clients[0];
  if (!sandbox || !client) throw new Error('no seed partner');
  const plan = await emulator.fetch(new Request(`${origin}/_emulator/usage-plans/${sandbox.apiKey}`, {
    method: 'PUT', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ratePerSecond: 10_000, burst: 10_000, dailyQuota: 1_000_000 }),
  }));
  expect(plan.status).toBe(200);
  let inFlight = 0;
  // Holds the first `barrier` API requests until all of them are on the wire, so they all carry the rejected token.
  let arrived = 0;
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    inFlight += 1;
    try {
      const request = new Request(input, init);
      if (!request.url.endsWith('/oauth2/token') && arrived < barrier) {
        arrived += 1;
        if (arrived === barrier) open();
        await opened;
      }
      return await emulator.fetch(request);
    } finally {
      inFlight -= 1;
    }
  };
  const options = normalizeOptions({
    tokenUrl: sandbox.tokenUrl, baseUrl: sandbox.baseUrl, clientId: client.clientId, clientSecret: client.clientSecret,
    apiKey: sandbox.apiKey, fetch: fetchFn as typeof fetch, now: clock.now, sleep: clock.sleep,
    tokenStore: new MemoryTokenStore(), shareInFlight: false, rateLimit,
  });
  // A token the client believes fresh but the service rejects (signed by no one): every call carrying it meets a 401.
  await options.tokenStore.set(await tokenCacheKey(options), {
    accessToken: fakeAccessToken({}, clock.now()), expiresAt: clock.now() + 3_600_000, scope: 'partner-api/read partner-api/write',
  });
  const transport = createTransport(options);
  const run = async (count: number): Promise<unknown[]> => {
    const calls = Array.from({ length: count }, () =>
      transport.request({ method: 'GET', path: '/organizations' }).then((r) => r.status, (e: unknown) => e));
    return clock.run(Promise.all(calls), { busy: () => inFlight > (arrived < barrier ? arrived : 0) });
  };
  const log = async (): Promise<{ path: string; status: number }[]> =>
    (await (await emulator.fetch(new Request(`${origin}/_emulator/requests`))).json()) as { path: string; status: number }[];
  return { run, log };
}

describe('token refresh against the emulator (shareInFlight false)', () => {
  it('1,000 concurrent calls that all meet a 401 make at most 5 token requests', async () => {
    const { run, log } = await setup({ requestsPerSecond: 10_000, burst: 1000 }, 1000);
    const results = await run(1000);
    expect(results.filter((r) => r !== 200)).toEqual([]);
    const entries = await log();
    expect(entries.filter((e) => e.status === 401)).toHaveLength(1000); // they all did meet one
    const tokenRequests = entries.filter((e) => e.path.endsWith('/oauth2/token'));
    expect(tokenRequests.length).toBeGreaterThanOrEqual(1);
    expect(tokenRequests.length).toBeLessThanOrEqual(5);
  }, 60_000);

  it('calls queued behind the refresh read the new token after the throttling wait', async () => {
    const { run, log } = await setup({ requestsPerSecond: 200, burst: 10 });
    const results = await run(200);
    expect(results.filter((r) => r !== 200)).toEqual([]);
    const unauthorized = (await log()).filter((e) => e.status === 401);
    // Only calls already released by the limiter when the first 401 came back can spend one.
    expect(unauthorized.length, `${unauthorized.length} of 200 calls spent a 401`).toBeLessThan(50);
  }, 60_000);
});

import { describe, it, expect } from 'vitest';
import { createEmulator } from '../../emulator/index.ts';
import { createTransport } from './ky-transport.ts';
import { normalizeOptions } from '../options.ts';
import { MemoryTokenStore } from '../auth/memory-token-store.ts';
import { manualClock } from '../../test/support/fake-clock.ts';
import { ThrottledError } from '../errors/index.ts';

const origin = 'http://emulator.test';

describe('transport against the emulator', () => {
  it('adaptive limiter: 100 concurrent calls on a 5 req/s, burst 5 plan all succeed with under 10% 429s', async () => {
    const clock = manualClock();
    const emulator = createEmulator({ seed: 11, now: clock.now });
    const sandbox = emulator.partners(origin)[0]?.environments.sandbox;
    if (!sandbox) throw new Error('no seed partner');
    const client = sandbox.clients[0];
    if (!client) throw new Error('no seed client');
    const plan = await emulator.fetch(new Request(`${origin}/_emulator/usage-plans/${sandbox.apiKey}`, {
      method: 'PUT', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ratePerSecond: 5, burst: 5, dailyQuota: 100_000 }),
    }));
    expect(plan.status).toBe(200);

    let inFlight = 0;
    let apiCalls = 0;
    let throttled = 0;
    const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      inFlight += 1;
      try {
        const response = await emulator.fetch(new Request(input, init));
        if (!new URL(response.url || String(input instanceof Request ? input.url : input)).pathname.endsWith('/oauth2/token')) {
          apiCalls += 1;
          if (response.status === 429) throttled += 1;
        }
        return response;
      } finally {
        inFlight -= 1;
      }
    };
    const transport = createTransport(normalizeOptions({
      tokenUrl: sandbox.tokenUrl, baseUrl: sandbox.baseUrl, clientId: client.clientId, clientSecret: client.clientSecret,
      apiKey: sandbox.apiKey, fetch: fetchFn as typeof fetch, now: clock.now, sleep: clock.sleep,
      tokenStore: new MemoryTokenStore(),
    }));

    const calls = Array.from({ length: 100 }, () =>
      transport.request({ method: 'GET', path: '/organizations' }).then((r) => r.status, (e: unknown) => e));
    const results = await clock.run(Promise.all(calls), { busy: () => inFlight > 0 });

    const failures = results.filter((r) => r !== 200);
    expect(failures.filter((f) => f instanceof ThrottledError)).toHaveLength(0);
    expect(failures).toHaveLength(0);
    expect(apiCalls).toBeGreaterThanOrEqual(100);
    expect(throttled, `${throttled} of ${apiCalls} API calls were 429s`).toBeLessThan(apiCalls * 0.1);
  }, 60_000);
});

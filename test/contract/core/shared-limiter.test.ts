/**
 * Over real sockets: two clients that stand for two processes of one API key (each its own limiter object, token
 * store and connections), sharing a limiter host served by `@hono/node-server`, against the emulator. On a one-call
 * bucket, each told the plan's rate, alone they collide at once; through the host they take turns. Real time, a few
 * seconds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLimiter, createSharedLimiter, MemoryTokenStore } from '../../../core/index.ts';
import { defaultNow, defaultSleep } from '../../../core/runtime.ts';
import { startOverSockets, type Harness } from '../../support/core-harness.ts';
import { apiRequests } from '../../support/core-control.ts';
import { serveLimiterHost, type ServedLimiterHost } from '../../support/limiter-host.ts';


describe('processes sharing a limiter host, over real sockets', () => {
  let h: Harness | undefined;
  let host: ServedLimiterHost | undefined;

  afterEach(async () => {
    await h?.close();
    await host?.close();
    h = undefined;
    host = undefined;
  });

  it('two processes each told the rate of a one-call plan take turns through the host, where alone they collide', async () => {
    h = await startOverSockets({ clock: 'real' });
    host = await serveLimiterHost({ token: 'host-secret' });
    const c = h.creds();
    // A little under the plan (1.8 of 2 req/s), so loopback jitter cannot make a spaced call early.
    const rateLimit = { requestsPerSecond: 1.8, burst: 1 };
    const errors: Error[] = [];
    // Each "process" its own limiter (in one process, clients of a key would share the process's).
    const process = (shared: boolean) => h!.client({
      now: undefined, sleep: undefined, tokenStore: new MemoryTokenStore(),
      limiter: shared
        ? createSharedLimiter({ url: host!.url, apiKey: c.apiKey, token: 'host-secret', rateLimit, onHostError: (e) => errors.push(e) })
        : createLimiter({ now: defaultNow, sleep: defaultSleep, rateLimit }),
    });
    const organizationId = (await h.client({ now: undefined, sleep: undefined }).organizations.list({ pageSize: 1 }).toArray({ max: 1 }))[0]!.id;
    const three = (client: ReturnType<typeof process>) => Array.from({ length: 3 }, () => client.organizations.get(organizationId));

    // Alone: both send their first call at once; a bucket of one call admits one of them.
    const [a, b] = [process(false), process(false)];
    await Promise.all([a.organizations.get(organizationId), b.organizations.get(organizationId)]); // tokens, before the plan
    await h.control.setUsagePlan(c.apiKey, { ratePerSecond: 2, burst: 1, dailyQuota: 1_000_000 });
    await h.control.clearRequests();
    await Promise.all([...three(a), ...three(b)]);
    expect(apiRequests(await h.control.requests()).filter((r) => r.status === 429).length).toBeGreaterThan(0);

    // Through the host: one line for the key, so the six calls are spaced as one process's.
    const [x, y] = [process(true), process(true)];
    await Promise.all([x.organizations.get(organizationId), y.organizations.get(organizationId)]);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the bucket refills
    await h.control.clearRequests();
    await Promise.all([...three(x), ...three(y)]);
    const api = apiRequests(await h.control.requests());
    expect(api.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(errors).toEqual([]);
  }, 30_000);
});

/**
 * Over real sockets: dropped connections are retried, and the adaptive rate limiter keeps 100 concurrent calls
 * within a usage plan of 5 requests per second (real time, about 20 s).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startOverSockets } from '../../support/core-harness.ts';
import type { Harness } from '../../support/core-harness.ts';
import { apiRequests, requestsTo } from '../../support/core-control.ts';

describe('over real sockets', () => {
  let h: Harness | undefined;

  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a dropped connection (fault status 0) is retried and the call succeeds', async () => {
    h = await startOverSockets();
    const harness = h;
    const client = h.client();
    await client.courses.list().toArray({ max: 1 });
    await h.control.setFaults({ rate: 1, statuses: [0], pathPattern: 'categories' });
    harness.clock.onSleep = async () => {
      if (harness.wire.calls.filter((c) => c.url.includes('/categories')).length >= 2) {
        harness.clock.onSleep = undefined;
        await harness.control.clearFaults();
      }
    };
    const categories = await client.categories.list().toArray({ max: 1 });
    expect(categories).toHaveLength(1);
    const attempts = harness.wire.calls.filter((c) => c.url.includes('/categories'));
    expect(attempts).toHaveLength(3);
    // Two attempts got no answer at all; the third got the 200.
    expect(harness.wire.responses.filter((r) => r.url.includes('/categories')).map((r) => r.status)).toEqual([200]);
    expect(requestsTo(await h.control.requests(), /\/v1\/categories$/).at(-1)?.status).toBe(200);
  });

  it(
    'adaptive rate: 100 concurrent calls on a 5 req/s, burst 5 plan all succeed with under 10 % 429s',
    async () => {
      h = await startOverSockets({ clock: 'real' });
      const c = h.creds();
      // Real time on both sides: the client's own clock and sleep.
      const client = h.client({ now: undefined, sleep: undefined });
      const organizationId = (await client.organizations.list({ pageSize: 1 }).toArray({ max: 1 }))[0]!.id;
      // The plan is set after the setup call: a new plan starts with a full bucket, so the 100 calls meet all of it.
      await h.control.setUsagePlan(c.apiKey, { ratePerSecond: 5, burst: 5, dailyQuota: 1_000_000 });
      await h.control.clearRequests();
      const results = await Promise.all(Array.from({ length: 100 }, () => client.organizations.get(organizationId)));
      expect(results.every((o) => o.id === organizationId)).toBe(true);
      const api = apiRequests(await h.control.requests());
      expect(api.filter((r) => r.status === 200)).toHaveLength(100);
      const throttled = api.filter((r) => r.status === 429).length;
      expect(throttled).toBeLessThan(10);
    },
    60_000,
  );
});

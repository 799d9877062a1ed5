/**
 * Over real sockets: two clients that stand for two processes of one API key (each its own limiter object, token
 * store and connections), sharing a limiter host served by `@hono/node-server`, against the emulator. On a one-call
 * bucket, each told the plan's rate, alone they collide at once; through the host they take turns. Real time, a few
 * seconds.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createLimiter, createSharedLimiter, MemoryTokenStore } from '../../../core/index.ts';
import { defaultNow, defaultSleep } from '../../../core/runtime.ts';
import { startOverSockets, type Harness } from '../../support/core-harness.ts';
import { apiRequests } from '../../support/core-control.ts';
import { serveCuttingProxy, type CuttingProxy } from '../../support/cutting-proxy.ts';
import { serveLimiterHost, type ServedLimiterHost } from '../../support/limiter-host.ts';


describe('processes sharing a limiter host, over real sockets', () => {
  let h: Harness | undefined;
  let host: ServedLimiterHost | undefined;
  let proxy: CuttingProxy | undefined;

  afterEach(async () => {
    await h?.close();
    await proxy?.close();
    await host?.close();
    h = undefined;
    host = undefined;
    proxy = undefined;
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

  it('behind a proxy that cuts answers after 1 s, waits in line of several seconds are held and asked again: one line, no host error', async () => {
    h = await startOverSockets({ clock: 'real' });
    const c = h.creds();
    const rateLimit = { requestsPerSecond: 1.8, burst: 1 };
    const organizationId = (await h.client({ now: undefined, sleep: undefined }).organizations.list({ pageSize: 1 }).toArray({ max: 1 }))[0]!.id;
    /** Two processes through the proxy to `served`, four calls each at once (the last waits about 4 s in line). */
    const eightCalls = async (served: ServedLimiterHost, errors: Error[]) => {
      proxy = await serveCuttingProxy(served.url, 1000);
      const [x, y] = [0, 1].map(() => h!.client({
        now: undefined, sleep: undefined, tokenStore: new MemoryTokenStore(),
        limiter: createSharedLimiter({ url: proxy!.url, apiKey: c.apiKey, rateLimit, onHostError: (e) => errors.push(e) }),
      }));
      await Promise.all([x!.organizations.get(organizationId), y!.organizations.get(organizationId)]); // tokens, before the plan
      await h!.control.setUsagePlan(c.apiKey, { ratePerSecond: 2, burst: 1, dailyQuota: 1_000_000 }); // a full bucket
      await h!.control.clearRequests();
      await Promise.all([x!, y!].flatMap((client) => Array.from({ length: 4 }, () => client.organizations.get(organizationId))));
      return apiRequests(await h!.control.requests()).map((r) => r.status);
    };

    // The host holds each ask 400 ms, well under the proxy's second: nothing is cut, and the eight go one line.
    host = await serveLimiterHost({ holdMs: 400 }, true);
    const errors: Error[] = [];
    expect(await eightCalls(host, errors)).toEqual(Array.from({ length: 8 }, () => 200));
    expect([errors, proxy!.cuts]).toEqual([[], 0]);
    const tickets = host.requests.filter((r) => r.route === 'turn').map((r) => (JSON.parse(r.body) as { ticket: string }).ticket);
    expect(Math.max(...tickets.map((t) => tickets.filter((u) => u === t).length))).toBeGreaterThanOrEqual(5); // asked again

    // Held past the proxy's read timeout (a host that holds 20 s, the default, behind a proxy that cuts at 1 s): the
    // proxy cuts the long waits, and each process is told and paces alone a while.
    await proxy!.close();
    await host.close();
    await h.control.setUsagePlan(c.apiKey, { ratePerSecond: 1000, burst: 1000, dailyQuota: 1_000_000 });
    host = await serveLimiterHost();
    const cut: Error[] = [];
    await eightCalls(host, cut);
    expect(proxy!.cuts).toBeGreaterThan(0);
    expect(cut.map((e) => e.message)).toContainEqual(expect.stringMatching(/answered 504 to turn/));
  }, 60_000);

  it('a Perl backend speaking the wire shares the line with a Node process: on a one-call plan every call is admitted', async () => {
    h = await startOverSockets({ clock: 'real' });
    // Held 300 ms, so the Perl worker's turns are asked for again under their tickets.
    host = await serveLimiterHost({ token: 'host-secret', holdMs: 300 }, true);
    const c = h.creds();
    const rateLimit = { requestsPerSecond: 1.8, burst: 1 };
    const node = h.client({
      now: undefined, sleep: undefined, tokenStore: new MemoryTokenStore(),
      limiter: createSharedLimiter({ url: host.url, apiKey: c.apiKey, token: 'host-secret', rateLimit }),
    });
    const organizationId = (await node.organizations.list({ pageSize: 1 }).toArray({ max: 1 }))[0]!.id;
    await h.control.setUsagePlan(c.apiKey, { ratePerSecond: 2, burst: 1, dailyQuota: 1_000_000 }); // a full bucket
    await h.control.clearRequests();
    const perl = promisify(execFile)('perl', [
      join(import.meta.dirname, 'perl', 'limiter-worker.pl'), host.url, c.tokenUrl, c.baseUrl, c.clientId, String(organizationId), '5', String(rateLimit.requestsPerSecond),
    ], { timeout: 60_000, env: { ...process.env, PL_CLIENT_SECRET: c.clientSecret, PL_API_KEY: c.apiKey, LIMITER_TOKEN: 'host-secret' } });
    await Promise.all(Array.from({ length: 5 }, () => node.organizations.get(organizationId)));
    const worker = JSON.parse((await perl).stdout) as { statuses: number[]; asks: number };
    expect(worker.statuses).toEqual([200, 200, 200, 200, 200]);
    // Ten calls in one line at 1.8 req/s: the last waits about 5 s, asked for again every 300 ms.
    expect(worker.asks).toBeGreaterThan(5);
    const api = apiRequests(await h.control.requests()).filter((r) => !r.path.endsWith('/oauth2/token'));
    expect(api.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    const hash = createHash('sha256').update(c.apiKey).digest('hex');
    const turns = host.requests.filter((r) => r.route === 'turn').map((r) => JSON.parse(r.body) as { key: string; ticket: string });
    expect(new Set(turns.map((t) => t.key))).toEqual(new Set([hash]));
    expect(new Set(turns.map((t) => t.ticket.startsWith('perl-')))).toEqual(new Set([true, false])); // both asked
  }, 60_000);
});

/**
 * Benchmark 5: the default rate (no `rateLimit` given) where nothing is wrong and where the plan is tight.
 *
 * - 5a: 50 concurrent registrations against a plan that never throttles (in-process emulator), the default against a
 *   client told a rate the plan allows; the median of the ratios of back-to-back pairs (so the load of a shared
 *   machine falls on both runs of a pair alike), each run on a fresh emulator (fresh API key: the default starts
 *   cold).
 * - 5b: 100 concurrent calls on a 5 req/s plan (burst 5) over real sockets, real time: every call must succeed with
 *   under 10 % of them meeting a 429.
 * (The steady 20 req/s row is 3b, in `throughput.ts`.)
 */
import { MemoryTokenStore, createClient, type ClientOptions } from '../core/index.ts';
import { startEmulatorServer } from '../emulator/server.ts';
import { inProcessEmulator } from './in-process.ts';
import { clientOptions, control, fixed, median, putUsagePlan, requestLog, sandboxOf, type BenchResult, type Partner } from './support.ts';

const registrations = 50;
/** Measured pairs (default, configured), after {@link warmupPairs} that warm the JIT and are not counted. */
const runs = 31;
const warmupPairs = 5;
/** A rate the generous in-process plan allows: what a partner who knows the plan would configure. */
const configured = { requestsPerSecond: 10_000, burst: 10_000 };

async function registerConcurrently(seed: number, rateLimit: ClientOptions['rateLimit']): Promise<number> {
  const { fetch: fetchImpl, partner } = await inProcessEmulator(seed);
  const client = createClient(clientOptions(partner, fetchImpl, { tokenStore: new MemoryTokenStore(), rateLimit }));
  const organizationId = await firstOrganizationId(fetchImpl, partner);
  const started = performance.now();
  await Promise.all(Array.from({ length: registrations }, (_, i) => client.users.register({
    email: `learner-${seed}-${i}@example.com`, firstName: 'Bench', lastName: `Learner ${i}`, organizationId,
  })));
  return performance.now() - started;
}

/** An organization id, read by a separate client on a fixed rate so the measured client's limiter stays cold. */
async function firstOrganizationId(fetchImpl: typeof fetch, partner: Partner | undefined): Promise<number> {
  const reader = createClient(clientOptions(partner, fetchImpl, { tokenStore: new MemoryTokenStore(), rateLimit: configured }));
  const [organization] = await reader.organizations.list({ pageSize: 1 }).toArray({ max: 1 });
  if (!organization) throw new Error('the emulator lists no organization');
  return organization.id;
}

interface TightRun {
  succeeded: number;
  failed: number;
  apiCalls: number;
  throttled: number;
  elapsedMs: number;
}

export async function tightPlan(seed: number): Promise<TightRun> {
  const server = await startEmulatorServer({ port: 0, seed });
  try {
    const origin = server.origin;
    const partner = server.emulator.partners(origin)[0] as Partner | undefined;
    const organizationId = await firstOrganizationId(fetch, partner);
    await putUsagePlan(fetch, origin, sandboxOf(partner).apiKey, { ratePerSecond: 5, burst: 5, dailyQuota: 1_000_000 });
    await control(fetch, origin, 'DELETE', '/_emulator/requests');
    // Let the bucket fill: the reader's call above took a token.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const client = createClient(clientOptions(partner, fetch, { tokenStore: new MemoryTokenStore() }));
    const started = performance.now();
    const settled = await Promise.allSettled(Array.from({ length: 100 }, () => client.organizations.get(organizationId)));
    const elapsedMs = performance.now() - started;
    const api = (await requestLog(fetch, origin)).filter((r) => r.path.includes('/v1/'));
    return {
      succeeded: settled.filter((s) => s.status === 'fulfilled').length,
      failed: settled.filter((s) => s.status === 'rejected').length,
      apiCalls: api.length,
      throttled: api.filter((r) => r.status === 429).length,
      elapsedMs,
    };
  } finally {
    await server.close();
  }
}

/**
 * Runs 5a (pairs of a default and a configured run) and 5b.
 *
 * @returns Two table rows.
 */
export async function rateBench(): Promise<BenchResult[]> {
  const learned: number[] = [];
  const told: number[] = [];
  const ratios: number[] = [];
  for (let run = -warmupPairs; run < runs; run++) {
    // Alternate which goes first, so warm-up and GC fall on both alike.
    const seed = 1000 + (run + warmupPairs) * 2;
    const first = run % 2 === 0;
    const a = first ? await registerConcurrently(seed, undefined) : 0;
    const b = await registerConcurrently(seed + 1, configured);
    const d = first ? a : await registerConcurrently(seed, undefined);
    if (run < 0) continue;
    learned.push(d);
    told.push(b);
    ratios.push(d / b);
  }
  const ratio = median(ratios);
  const tight = await tightPlan(600);
  const share = tight.throttled / 100;
  return [
    {
      id: '5a',
      name: `${registrations} concurrent registrations, plan that never throttles (in-process): default vs rateLimit 10,000 req/s`,
      result: `${fixed(ratio)}x (median of ${runs} back-to-back pairs; medians: default ${fixed(median(learned), 1)} ms, configured ${fixed(median(told), 1)} ms)`,
      target: '<= 1.3x',
      met: ratio <= 1.3,
      details: { registrations, runs, warmupPairs, learned, told, ratios, ratio },
    },
    {
      id: '5b',
      name: '100 concurrent calls on a 5 req/s plan (burst 5), default, sockets',
      result: `${tight.succeeded} succeeded, ${tight.failed} failed; ${tight.throttled} 429s (${fixed(share * 100, 0)}% of calls); ${fixed(tight.elapsedMs / 1000, 1)} s (${fixed(tight.succeeded / (tight.elapsedMs / 1000))} req/s)`,
      target: 'all succeed, 429s < 10% of calls',
      met: tight.failed === 0 && tight.succeeded === 100 && share < 0.1,
      details: { ...tight },
    },
  ];
}

/**
 * Benchmark 1: concurrent calls on a fresh client must share one token request (single-flight). Also reports how
 * long the default rate (no `rateLimit`) takes to let a cold burst through a generous plan (no target).
 */
import { MemoryTokenStore, createClient, type ClientOptions } from '../core/index.ts';
import { inProcessEmulator, inProcessOrigin } from './in-process.ts';
import { clientOptions, fixed, publishedCourseId, requestLog, type BenchResult } from './support.ts';

interface ColdRun {
  calls: number;
  tokenRequests: number;
  failed: number;
  elapsedMs: number;
}

async function coldCalls(seed: number, calls: number, rateLimit: ClientOptions['rateLimit']): Promise<ColdRun> {
  const { fetch: fetchImpl, partner } = await inProcessEmulator(seed);
  const courseId = await publishedCourseId(fetchImpl, inProcessOrigin);
  const client = createClient(clientOptions(partner, fetchImpl, { tokenStore: new MemoryTokenStore(), rateLimit }));
  const started = performance.now();
  const settled = await Promise.allSettled(Array.from({ length: calls }, () => client.courses.get(courseId)));
  const elapsedMs = performance.now() - started;
  const log = await requestLog(fetchImpl, inProcessOrigin);
  return {
    calls,
    tokenRequests: log.filter((r) => r.path.endsWith('/oauth2/token')).length,
    failed: settled.filter((s) => s.status === 'rejected').length,
    elapsedMs,
  };
}

/**
 * Runs `Promise.all` of 1,000 `client.courses.get(id)` on a client with an empty token store (fixed high rate, so
 * the limiter does not stretch the run) and counts token-endpoint requests in the emulator's request log; then 100
 * cold calls with the default rate.
 *
 * @returns Two table rows.
 */
export async function tokenRequestsBench(): Promise<BenchResult[]> {
  const run = await coldCalls(101, 1000, { requestsPerSecond: 10_000 });
  const adaptive = await coldCalls(106, 100, undefined);
  const rate = (r: ColdRun): number => r.calls / (r.elapsedMs / 1000);
  return [
    {
      id: '1',
      name: 'Token requests for 1,000 concurrent cold calls (rateLimit 10,000 req/s)',
      result: `${run.tokenRequests} token request(s); ${run.failed} failed calls; ${fixed(run.elapsedMs, 0)} ms`,
      target: 'exactly 1',
      met: run.tokenRequests === 1 && run.failed === 0,
      details: { ...run },
    },
    {
      id: '1b',
      name: '100 concurrent cold calls, default rate (no rateLimit), plan 1,000,000 req/s',
      result: `${fixed(adaptive.elapsedMs / 1000, 1)} s (${fixed(rate(adaptive), 1)} req/s); ${adaptive.tokenRequests} token request(s); ${adaptive.failed} failed`,
      target: 'report only',
      met: null,
      details: { ...adaptive },
    },
  ];
}

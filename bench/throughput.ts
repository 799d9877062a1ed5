/**
 * Benchmark 3: throughput against a usage plan of 20 requests/second (burst 20) over real sockets, with the client
 * told the rate, and with the default that has to learn it from 429s (run longer: its 429s while it learns are
 * counted apart from the steady state).
 */
import { MemoryTokenStore, createClient, type ClientOptions } from '../core/index.ts';
import { startEmulatorServer } from '../emulator/server.ts';
import { clientOptions, fixed, publishedCourseId, putUsagePlan, requestLog, sandboxOf, type BenchResult, type Partner } from './support.ts';

const planRate = 20;
const durationMs = 10_000;
/** The first seconds include the burst and (adaptive) the learning phase; steady state starts after them. */
const warmupMs = 2_000;
/** The default learns the plan from its first 429s: a longer run, so the steady state is more than a few seconds. */
const learnedDurationMs = 30_000;
/** More callers than the rate, so the client's limiter, not the callers, sets the pace. */
const concurrency = 40;

interface RunStats {
  steadyRate: number;
  steadyCompleted: number;
  completed: number;
  failed: number;
  steady429: number;
  total429: number;
  /** API requests the emulator logged (429s included). */
  apiCalls: number;
}

async function measure(seed: number, rateLimit: ClientOptions['rateLimit'], runMs = durationMs): Promise<RunStats> {
  const server = await startEmulatorServer({ port: 0, seed });
  try {
    const origin = server.origin;
    const partner = server.emulator.partners(origin)[0] as Partner | undefined;
    await putUsagePlan(fetch, origin, sandboxOf(partner).apiKey, { ratePerSecond: planRate, burst: planRate, dailyQuota: 1_000_000 });
    const courseId = await publishedCourseId(fetch, origin);
    const client = createClient(clientOptions(partner, fetch, { tokenStore: new MemoryTokenStore(), rateLimit }));
    const started = Date.now();
    const steadyFrom = started + warmupMs;
    const deadline = started + runMs;
    let completed = 0;
    let steadyCompleted = 0;
    let failed = 0;
    const worker = async (): Promise<void> => {
      while (Date.now() < deadline) {
        try {
          await client.courses.get(courseId);
          const at = Date.now();
          completed += 1;
          if (at >= steadyFrom && at <= deadline) steadyCompleted += 1;
        } catch {
          failed += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const api = (await requestLog(fetch, origin)).filter((r) => r.path.includes('/v1/'));
    const throttled = api.filter((r) => r.status === 429);
    const steady429 = throttled.filter((r) => {
      const at = Date.parse(r.at);
      return at >= steadyFrom && at <= deadline;
    }).length;
    return {
      steadyRate: steadyCompleted / ((deadline - steadyFrom) / 1000),
      steadyCompleted,
      completed,
      failed,
      steady429,
      total429: throttled.length,
      apiCalls: api.length,
    };
  } finally {
    await server.close();
  }
}

/**
 * Runs the fixed-rate client for 10 s, then the default for 30 s, each against its own emulator.
 *
 * @returns Two table rows: fixed and default.
 */
export async function throughputBench(): Promise<BenchResult[]> {
  const fixedRun = await measure(103, { requestsPerSecond: planRate });
  const adaptiveRun = await measure(104, undefined, learnedDurationMs);
  const row = (run: RunStats): string =>
    `${fixed((run.steadyRate / planRate) * 100, 1)}% of plan (${fixed(run.steadyRate)} req/s steady); ` +
    `429s: ${run.steady429} steady, ${run.total429} total; ${run.failed} failed calls`;
  return [
    {
      id: '3a',
      name: `Throughput, rateLimit ${planRate} req/s vs plan ${planRate} req/s burst ${planRate} (${durationMs / 1000} s, sockets)`,
      result: row(fixedRun),
      target: '>= 95% of plan, 0 steady-state 429s',
      met: fixedRun.steadyRate / planRate >= 0.95 && fixedRun.steady429 === 0 && fixedRun.failed === 0,
      details: { planRate, durationMs, warmupMs, concurrency, ...fixedRun },
    },
    {
      id: '3b',
      name: `Throughput, default (no rateLimit) vs the same plan (${learnedDurationMs / 1000} s, sockets)`,
      result: `${row(adaptiveRun)}; 429s ${fixed((adaptiveRun.steady429 / Math.max(1, adaptiveRun.steadyCompleted)) * 100, 1)}% of steady calls, ${fixed((adaptiveRun.total429 / Math.max(1, adaptiveRun.apiCalls)) * 100, 1)}% of all`,
      target: '>= 90% of plan, 429s < 1% of calls (steady state)',
      met: adaptiveRun.steadyRate / planRate >= 0.9 && adaptiveRun.steady429 < 0.01 * adaptiveRun.steadyCompleted && adaptiveRun.failed === 0,
      details: { planRate, durationMs: learnedDurationMs, warmupMs, concurrency, ...adaptiveRun },
    },
  ];
}

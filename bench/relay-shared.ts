/**
 * Row R7: two relay processes (two workerd instances, as two Worker isolates are) on one KV namespace (the same
 * persisted folder), 200 learners calling `GET /v1/me` through either for 30 s, against one 20 req/s plan. Each
 * relay has its own limiter and learns its share of the plan from 429s; the token is shared through KV. Reported:
 * the share of the plan used in the steady state (after 10 s), 429s among the service's answers, token requests.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleRelay, startRelayWorker } from '../scripts/relay-worker.ts';
import { BENCH_LEARNER_SECRET, relayBenchUpstream } from './relay-setup.ts';
import { fixed, learnersWithTokens, putUsagePlan, requestLog, type BenchResult } from './support.ts';

const LEARNERS = 200;
const RATE = 20;
const SECONDS = 30;
const STEADY_FROM_S = 10;

/** @returns One table row. */
export async function relaySharedKeyBench(): Promise<BenchResult> {
  const upstream = await relayBenchUpstream();
  const { server, env, direct, settings } = upstream;
  const kvDir = await mkdtemp(join(tmpdir(), 'relay-shared-kv-'));
  const scriptPath = await bundleRelay();
  const relays = [
    await startRelayWorker({ settings, scriptPath, kvPersist: kvDir, onLine: () => undefined }),
    await startRelayWorker({ settings, scriptPath, kvPersist: kvDir, onLine: () => undefined }),
  ];
  try {
    const { tokens } = await learnersWithTokens(direct, LEARNERS, 'bench-shared', BENCH_LEARNER_SECRET);
    await putUsagePlan(fetch, server.origin, env.apiKey, { ratePerSecond: RATE, burst: RATE, dailyQuota: 100_000_000 });
    await fetch(`${server.origin}/_emulator/requests`, { method: 'DELETE' });
    const statuses: Record<number, number> = {};
    const started = Date.now();
    const end = started + SECONDS * 1000;
    await Promise.all(tokens.map(async (token, learner) => {
      const origin = relays[learner % relays.length]!.origin;
      while (Date.now() < end) {
        const res = await fetch(`${origin}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        await res.arrayBuffer();
      }
    }));
    const log = await requestLog(fetch, server.origin);
    const api = log.filter((r) => r.path.includes('/v1/'));
    const window = api.filter((r) => {
      const at = (Date.parse(r.at) - started) / 1000;
      return at >= STEADY_FROM_S && at < SECONDS;
    });
    const ok = window.filter((r) => r.status === 200).length;
    const share = ok / (RATE * (SECONDS - STEADY_FROM_S));
    const throttled = window.length ? window.filter((r) => r.status === 429).length / window.length : 0;
    const tokenRequests = log.filter((r) => r.path.endsWith('/oauth2/token')).length;
    return {
      id: 'R7',
      name: `Two relay processes on one KV namespace, ${LEARNERS} learners (GET /v1/me, ${SECONDS} s), one ${RATE} req/s plan`,
      result: `${fixed(share * 100, 0)} % of the plan (steady, after ${STEADY_FROM_S} s); 429s ${fixed(throttled * 100, 1)} % of the service's answers; ${tokenRequests} token request(s); relay answers ${Object.entries(statuses).map(([s, n]) => `${n}×${s}`).join(', ')}`,
      target: '>= 85 %, 429s < 3 %, at most 1 token request per relay process',
      met: share >= 0.85 && throttled < 0.03 && tokenRequests <= relays.length,
      details: { share, throttled, tokenRequests, statuses, learners: LEARNERS },
    };
  } finally {
    await Promise.all(relays.map((r) => r.dispose()));
    await server.close();
    await rm(kvDir, { recursive: true, force: true });
  }
}

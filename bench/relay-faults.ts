/**
 * The relay under faults, and the floor it should be judged against (issue 15), both in workerd (Miniflare) on
 * loopback in front of the emulator:
 *
 * - R4: 200 learners at once, 5 sequential `GET /v1/me` each, with 10 % of upstream requests failing (500 or 503,
 *   the emulator's fault injection): p50 and p99 answer time, the share answered within the relay's deadline, and
 *   how many calls got no HTTP answer at all (lost);
 * - R5: the same load without faults through the relay and through a bare Hono pass-through proxy in the same
 *   workerd (`bench/workers/passthrough.js`, forwarding the caller's headers as sent): throughput and p50/p99 of the
 *   relay as a ratio to that floor.
 */
import { fileURLToPath } from 'node:url';
import { DEFAULT_DEADLINE_MS } from '../edge/config.ts';
import { BENCH_LEARNER_SECRET, relayBenchUpstream } from './relay-setup.ts';
import { bundleRelay, bundleWorker, startRelayWorker } from '../scripts/relay-worker.ts';
import { control, fixed, percentile, learnersWithTokens, loadRound, type BenchResult, type LoadRound } from './support.ts';

const LEARNERS = 200;
const CALLS_EACH = 5;

/** A call that got no HTTP answer. */
const LOST = 'lost';

/** Every learner makes CALLS_EACH sequential calls, all learners at once; each call ends as its status, or lost. */
const round = (call: (learner: number) => Promise<Response>): Promise<LoadRound> => loadRound(LEARNERS, CALLS_EACH, async (learner) => {
  try {
    const res = await call(learner);
    await res.arrayBuffer();
    return String(res.status);
  } catch {
    return LOST;
  }
});

const throughput = (r: LoadRound): number => (LEARNERS * CALLS_EACH) / (r.wallMs / 1000);

/** @returns Rows R4 (faults) and R5 (the pass-through floor). */
export async function relayFaultsBench(): Promise<BenchResult[]> {
  const { server, env, client: rw, direct, settings } = await relayBenchUpstream();
  const relay = await startRelayWorker({
    settings,
    scriptPath: await bundleRelay(),
    onLine: () => undefined,
  });
  const upstreamBase = env.baseUrl.replace(/\/v1$/, '');
  const floor = await startRelayWorker({
    settings: { UPSTREAM: upstreamBase },
    scriptPath: await bundleWorker(fileURLToPath(new URL('./workers/passthrough.js', import.meta.url)), 'passthrough-worker.mjs'),
    onLine: () => undefined,
  });
  try {
    const { uuids, tokens } = await learnersWithTokens(direct, LEARNERS, 'faults', BENCH_LEARNER_SECRET);
    // The floor forwards what it is given: the caller brings the service's own credentials.
    const answer = await fetch(env.tokenUrl, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${rw.clientId}:${rw.clientSecret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&scope=partner-api%2Fread+partner-api%2Fwrite',
    });
    const bearer = ((await answer.json()) as { access_token: string }).access_token;
    const viaRelay = (learner: number) => fetch(`${relay.origin}/v1/me`, { headers: { authorization: `Bearer ${tokens[learner]}` } });
    const viaFloor = (learner: number) => fetch(`${floor.origin}/v1/users/${uuids[learner]}`, {
      headers: { authorization: `Bearer ${bearer}`, 'x-api-key': env.apiKey, accept: 'application/ld+json' },
    });

    // R5: warm both, then alternate two rounds each.
    await round(viaRelay);
    await round(viaFloor);
    const relayRounds: LoadRound[] = [];
    const floorRounds: LoadRound[] = [];
    for (let i = 0; i < 2; i += 1) {
      relayRounds.push(await round(viaRelay));
      floorRounds.push(await round(viaFloor));
    }
    const all = (rounds: LoadRound[]) => rounds.flatMap((r) => r.latencies);
    const tp = (rounds: LoadRound[]) => rounds.reduce((sum, r) => sum + throughput(r), 0) / rounds.length;
    const tpRatio = tp(relayRounds) / tp(floorRounds);

    // R4: 10 % of upstream requests fail with 500 or 503.
    await control(fetch, server.origin, 'POST', '/_emulator/faults', { rate: 0.1, statuses: [500, 503], seed: 7 });
    const faulty = await round(viaRelay);
    await control(fetch, server.origin, 'DELETE', '/_emulator/faults');
    const within = faulty.latencies.filter((ms) => ms <= DEFAULT_DEADLINE_MS + 1000).length / faulty.latencies.length;
    const lost = faulty.outcomes.get(LOST) ?? 0;
    const answered = [...faulty.outcomes].filter(([s]) => s !== LOST).sort(([a], [b]) => Number(a) - Number(b));
    const statuses = answered.map(([s, n]) => `${n}×${s}`).join(', ');
    const total = LEARNERS * CALLS_EACH;

    return [
      {
        id: 'R4',
        name: `Relay under 10 % injected upstream faults (500/503), ${LEARNERS} learners × ${CALLS_EACH} calls (workerd, loopback)`,
        result: `p50 ${fixed(percentile(faulty.latencies, 50), 0)} ms, p99 ${fixed(percentile(faulty.latencies, 99), 0)} ms; ${fixed(within * 100, 1)} % answered within the ${DEFAULT_DEADLINE_MS / 1000} s deadline; answers ${statuses}; ${lost} of ${total} lost; ${fixed(throughput(faulty), 1)} calls/s`,
        target: 'every call answered within the deadline, none lost',
        met: within === 1 && lost === 0,
        details: { p50: percentile(faulty.latencies, 50), p99: percentile(faulty.latencies, 99), within, lost, statuses: Object.fromEntries(answered) },
      },
      {
        id: 'R5',
        name: `Relay vs a bare Hono pass-through proxy in the same workerd, ${LEARNERS} learners × ${CALLS_EACH} calls, 2 rounds each`,
        result: `throughput ${fixed(tp(relayRounds), 0)} vs ${fixed(tp(floorRounds), 0)} calls/s (${fixed(tpRatio, 2)}x); p50 ${fixed(percentile(all(relayRounds), 50), 1)} vs ${fixed(percentile(all(floorRounds), 50), 1)} ms; p99 ${fixed(percentile(all(relayRounds), 99), 1)} vs ${fixed(percentile(all(floorRounds), 99), 1)} ms`,
        target: '>= 0.7x the floor\'s throughput',
        met: tpRatio >= 0.7,
        details: {
          relay: { throughput: tp(relayRounds), p50: percentile(all(relayRounds), 50), p99: percentile(all(relayRounds), 99) },
          floor: { throughput: tp(floorRounds), p50: percentile(all(floorRounds), 50), p99: percentile(all(floorRounds), 99) },
          ratio: tpRatio,
        },
      },
    ];
  } finally {
    await relay.dispose();
    await floor.dispose();
    await server.close();
  }
}

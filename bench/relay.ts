/**
 * Edge relay benchmark: the relay in workerd (Miniflare, loopback) in front of the emulator (loopback socket),
 * against the core client calling the same emulator directly. Ratios come from one run on one machine.
 *
 * - latency: 200 learners at once, each making 5 sequential calls of `GET /v1/me` (relay, learner token) versus
 *   `client.users.get(uuid)` (direct), after a warm-up round, 3 alternating rounds; p50 and p99 of every call;
 * - token requests: upstream token requests of one isolate over those 4,000 relay calls, then of a new isolate on the
 *   same KV namespace over 1,000 more;
 * - what the hop costs without queueing: one call at a time (a backend's `GET /v1/organizations/1` against
 *   `client.organizations.get(1)`), median of 200 each; and the wall time of the 200 × 5 calls of one latency round
 *   through each path (throughput under that load, which p50/p99 of queued calls do not show).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, MemoryTokenStore } from '../core/index.ts';
import { mintLearnerToken } from '../edge/learner-token.ts';
import { startEmulatorServer } from '../emulator/server.ts';
import { bundleRelay, startRelayWorker } from '../scripts/relay-worker.ts';
import { fixed, generousPlan, putUsagePlan, percentile, type BenchResult } from './support.ts';

const LEARNERS = 200;
const CALLS_EACH = 5;
const ROUNDS = 3;
const RELAY_KEY = 'bench-relay-key-0123456789abcdefghijklmnopqrstuv';
const SECRET = 'bench-learner-secret-0123456789abcdefghijklmnop';

/** Runs `call` CALLS_EACH times in a row for every learner, all learners at once; returns every call's latency. */
async function timed(learners: number, call: (learner: number) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(Array.from({ length: learners }, async (_, learner) => {
    for (let i = 0; i < CALLS_EACH; i += 1) {
      const started = performance.now();
      await call(learner);
      latencies.push(performance.now() - started);
    }
  }));
  return latencies;
}

/**
 * @returns Three table rows: latency ratio, token requests of one isolate, token requests after a restart.
 */
export async function relayBench(): Promise<BenchResult[]> {
  const server = await startEmulatorServer({ port: 0 });
  const kvDir = await mkdtemp(join(tmpdir(), 'relay-bench-kv-'));
  const env = server.emulator.partners(server.origin)[0]?.environments.sandbox;
  const rw = env?.clients[0];
  if (!env || !rw) throw new Error('the emulator listed no sandbox partner');
  await putUsagePlan(fetch, server.origin, env.apiKey, generousPlan);
  const options = { tokenUrl: env.tokenUrl, baseUrl: env.baseUrl, clientId: rw.clientId, clientSecret: rw.clientSecret, apiKey: env.apiKey };
  const direct = createClient({ ...options, tokenStore: new MemoryTokenStore() });
  const settings = {
    PARTNER_LEARNING_TOKEN_URL: env.tokenUrl, PARTNER_LEARNING_BASE_URL: env.baseUrl, PARTNER_LEARNING_CLIENT_ID: rw.clientId,
    PARTNER_LEARNING_CLIENT_SECRET: rw.clientSecret, PARTNER_LEARNING_API_KEY: env.apiKey, RELAY_KEYS: RELAY_KEY,
    LEARNER_TOKEN_SECRET: SECRET, ALLOWED_ORIGINS: '', RELAY_LOG_LEVEL: 'warn',
  };
  const scriptPath = await bundleRelay();
  let relay = await startRelayWorker({ settings, scriptPath, kvPersist: kvDir, onLine: () => undefined });
  const tokenRequests = async (): Promise<number> => {
    const log = (await (await fetch(`${server.origin}/_emulator/requests`)).json()) as { path: string }[];
    return log.filter((r) => r.path.endsWith('/oauth2/token')).length;
  };
  try {
    const key = new TextEncoder().encode(SECRET);
    const uuids: string[] = [];
    for (let i = 0; i < LEARNERS; i += 1) {
      uuids.push((await direct.users.register({ email: `bench-${i}@example.com`, firstName: 'B', lastName: `L${i}`, organizationId: 1 })).uuid);
    }
    const tokens = await Promise.all(uuids.map(async (uuid) => (await mintLearnerToken(key, uuid, 3600, Date.now())).token));
    await fetch(`${server.origin}/_emulator/requests`, { method: 'DELETE' });
    const me = async (learner: number): Promise<void> => {
      const res = await fetch(`${relay.origin}/v1/me`, { headers: { authorization: `Bearer ${tokens[learner]}` } });
      if (res.status !== 200) throw new Error(`relay answered ${res.status}`);
      await res.arrayBuffer();
    };
    const get = async (learner: number): Promise<void> => {
      await direct.users.get(uuids[learner] ?? '');
    };

    // Both sides warm (token cached, adaptive rate past slow start) before anything is timed; then rounds alternate
    // so a burst of load from elsewhere on the machine hits both sides alike.
    await timed(LEARNERS, me);
    await timed(LEARNERS, get);
    const viaRelay: number[] = [];
    const viaClient: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      viaRelay.push(...(await timed(LEARNERS, me)));
      viaClient.push(...(await timed(LEARNERS, get)));
    }
    const oneIsolate = await tokenRequests();

    // The hop alone, one call at a time, then the wall time of one round of the latency load through each path.
    const org = async (): Promise<void> => {
      const res = await fetch(`${relay.origin}/v1/organizations/1`, { headers: { 'x-relay-key': RELAY_KEY } });
      if (res.status !== 200) throw new Error(`relay answered ${res.status}`);
      await res.arrayBuffer();
    };
    const directOrg = async (): Promise<void> => {
      await direct.organizations.get(1);
    };
    const oneAtATime = async (call: () => Promise<void>): Promise<number[]> => {
      const latencies: number[] = [];
      for (let i = 0; i < 200; i += 1) {
        const started = performance.now();
        await call();
        latencies.push(performance.now() - started);
      }
      return latencies;
    };
    await oneAtATime(org);
    const sequentialRelay = percentile(await oneAtATime(org), 50);
    const sequentialDirect = percentile(await oneAtATime(directOrg), 50);
    const wall = async (call: (learner: number) => Promise<void>): Promise<number> => {
      const started = performance.now();
      await timed(LEARNERS, call);
      return performance.now() - started;
    };
    const wallRelay = await wall(me);
    const wallDirect = await wall(get);

    await relay.dispose();
    relay = await startRelayWorker({ settings, scriptPath, kvPersist: kvDir, onLine: () => undefined });
    await fetch(`${server.origin}/_emulator/requests`, { method: 'DELETE' });
    await timed(LEARNERS, me);
    const restarted = await tokenRequests();

    const p = (values: number[], q: number) => percentile(values, q);
    const ratio50 = p(viaRelay, 50) / p(viaClient, 50);
    const ratio99 = p(viaRelay, 99) / p(viaClient, 99);
    return [
      {
        id: 'R1',
        name: `Relay round trip vs direct client, ${LEARNERS} concurrent learners × ${CALLS_EACH} calls × ${ROUNDS} rounds (workerd, loopback)`,
        result: `p50 ${fixed(p(viaRelay, 50), 1)} vs ${fixed(p(viaClient, 50), 1)} ms (${fixed(ratio50, 2)}x); p99 ${fixed(p(viaRelay, 99), 1)} vs ${fixed(p(viaClient, 99), 1)} ms (${fixed(ratio99, 2)}x)`,
        target: '≤ 2x at p50 and p99',
        met: ratio50 <= 2 && ratio99 <= 2,
        details: { relay: { p50: p(viaRelay, 50), p99: p(viaRelay, 99) }, direct: { p50: p(viaClient, 50), p99: p(viaClient, 99) }, ratio50, ratio99 },
      },
      {
        id: 'R1b',
        name: 'Relay vs direct client, one call at a time (backend GET /v1/organizations/1, median of 200)',
        result: `${fixed(sequentialRelay, 2)} vs ${fixed(sequentialDirect, 2)} ms (${fixed(sequentialRelay / sequentialDirect, 2)}x)`,
        target: 'report only',
        met: null,
        details: { relay: sequentialRelay, direct: sequentialDirect },
      },
      {
        id: 'R1c',
        name: `Relay vs direct client, wall time of ${LEARNERS} concurrent learners × ${CALLS_EACH} calls`,
        result: `${fixed(wallRelay, 0)} vs ${fixed(wallDirect, 0)} ms (${fixed(wallRelay / wallDirect, 2)}x)`,
        target: 'report only',
        met: null,
        details: { relay: wallRelay, direct: wallDirect },
      },
      {
        id: 'R2',
        name: `Upstream token requests over ${(ROUNDS + 1) * LEARNERS * CALLS_EACH} relay calls, one isolate`,
        result: `${oneIsolate}`,
        target: 'exactly 1',
        met: oneIsolate === 1,
        details: { tokenRequests: oneIsolate },
      },
      {
        id: 'R3',
        name: `Upstream token requests after an isolate restart with the same KV (${LEARNERS * CALLS_EACH} calls)`,
        result: `${restarted}`,
        target: '0',
        met: restarted === 0,
        details: { tokenRequests: restarted },
      },
    ];
  } finally {
    await relay.dispose();
    await server.close();
    await rm(kvDir, { recursive: true, force: true });
  }
}

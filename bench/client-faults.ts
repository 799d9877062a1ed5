/**
 * Row F1: the core client alone (no relay) against a service that fails one call in ten, over sockets in Node: 200
 * callers at once, 5 calls each in turn (R4's load), default rate, each call's deadline 15 s (the relay's). Against
 * the same load with no fault, run first in the same process: how much of its throughput the spec's key-wide pause
 * after each 5xx leaves, and whether any call ran out of time (as R4 asks of the relay). A call may still end in a
 * `server_error` after five 5xx in a row, the service's "about 5 tries": rare at one fault in ten, not impossible
 * (1 of 5,000 calls in five runs on 2026-12-07).
 */
import { createClient, isPartnerLearningError, MemoryTokenStore } from '../core/index.ts';
import { startEmulatorServer } from '../emulator/server.ts';
import { control, fixed, generousPlan, learnersWithTokens, loadRound, percentile, putUsagePlan, type BenchResult, type LoadRound } from './support.ts';

const CALLERS = 200;
const CALLS_EACH = 5;
const DEADLINE_MS = 15_000;

/** How a call that succeeded ends. */
const OK = 'ok';

/** @returns Row F1. */
export async function clientFaultsBench(): Promise<BenchResult> {
  const server = await startEmulatorServer({ port: 0 });
  try {
    const env = server.emulator.partners(server.origin)[0]?.environments['sandbox'];
    const rw = env?.clients[0];
    if (!env || !rw) throw new Error('the emulator listed no sandbox partner');
    await putUsagePlan(fetch, server.origin, env.apiKey, generousPlan);
    const options = { tokenUrl: env.tokenUrl, baseUrl: env.baseUrl, clientId: rw.clientId, clientSecret: rw.clientSecret, apiKey: env.apiKey };
    const { uuids } = await learnersWithTokens(createClient({ ...options, tokenStore: new MemoryTokenStore() }), CALLERS, 'client-faults', 'client-faults-secret-0123456789abcdefghij');
    const round = async (): Promise<LoadRound> => {
      // A client of its own each round: its pace learnt nothing from the round before.
      const client = createClient({ ...options, tokenStore: new MemoryTokenStore(), deadlineMs: DEADLINE_MS });
      await client.users.get(uuids[0]!); // the token, before the clock starts
      return loadRound(CALLERS, CALLS_EACH, async (caller) => {
        try {
          await client.users.get(uuids[caller]!);
          return OK;
        } catch (error) {
          return isPartnerLearningError(error) ? error.code : String(error);
        }
      });
    };
    const clean = await round();
    await control(fetch, server.origin, 'POST', '/_emulator/faults', { rate: 0.1, statuses: [500, 503], seed: 7 });
    const faulty = await round();
    await control(fetch, server.origin, 'DELETE', '/_emulator/faults');
    const calls = CALLERS * CALLS_EACH;
    const perSecond = (r: LoadRound) => calls / (r.wallMs / 1000);
    const failedBy = [...faulty.outcomes].filter(([outcome]) => outcome !== OK);
    const late = faulty.outcomes.get('deadline_exceeded') ?? 0;
    const failures = failedBy.map(([code, n]) => `${n} ${code}`).join(', ') || 'none';
    return {
      id: 'F1',
      name: `Core client under 10 % injected 5xx (500/503), ${CALLERS} callers × ${CALLS_EACH} calls, default rate, deadline ${DEADLINE_MS / 1000} s (Node, sockets)`,
      result: `${fixed(perSecond(faulty), 1)} vs ${fixed(perSecond(clean), 1)} calls/s without faults (${fixed(perSecond(faulty) / perSecond(clean), 2)}x); p50 ${fixed(percentile(faulty.latencies, 50), 0)} ms, p99 ${fixed(percentile(faulty.latencies, 99), 0)} ms; failed: ${failures}`,
      target: 'every call ends before its deadline',
      met: late === 0,
      details: {
        faulty: { perSecond: perSecond(faulty), p50: percentile(faulty.latencies, 50), p99: percentile(faulty.latencies, 99), failures: Object.fromEntries(failedBy) },
        clean: { perSecond: perSecond(clean), p50: percentile(clean.latencies, 50), p99: percentile(clean.latencies, 99) },
      },
    };
  } finally {
    await server.close();
  }
}

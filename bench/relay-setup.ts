/**
 * What the relay benchmarks share: the emulator on loopback with a plan that never throttles, its first partner's
 * sandbox, a direct client on it, and the relay's settings for that partner.
 */
import { createClient, MemoryTokenStore, type PartnerLearningClient } from '../core/index.ts';
import { startEmulatorServer, type EmulatorServer } from '../emulator/server.ts';
import { generousPlan, putUsagePlan } from './support.ts';

export const BENCH_RELAY_KEY = 'bench-relay-key-0123456789abcdefghijklmnopqrstuv';
export const BENCH_LEARNER_SECRET = 'bench-learner-secret-0123456789abcdefghijklmnop';

/** The upstream of a relay benchmark. */
export interface RelayBenchUpstream {
  server: EmulatorServer;
  env: { tokenUrl: string; baseUrl: string; apiKey: string };
  client: { clientId: string; clientSecret: string };
  /** A client calling the emulator directly. */
  direct: PartnerLearningClient;
  /** The relay's settings for this partner (errors only in its log). */
  settings: Record<string, string>;
}

/** @returns The emulator and everything a relay benchmark needs around it. */
export async function relayBenchUpstream(): Promise<RelayBenchUpstream> {
  const server = await startEmulatorServer({ port: 0 });
  const env = server.emulator.partners(server.origin)[0]?.environments.sandbox;
  const rw = env?.clients[0];
  if (!env || !rw) throw new Error('the emulator listed no sandbox partner');
  await putUsagePlan(fetch, server.origin, env.apiKey, generousPlan);
  const direct = createClient({
    tokenUrl: env.tokenUrl, baseUrl: env.baseUrl, clientId: rw.clientId, clientSecret: rw.clientSecret, apiKey: env.apiKey,
    tokenStore: new MemoryTokenStore(),
  });
  const settings = {
    PARTNER_LEARNING_TOKEN_URL: env.tokenUrl, PARTNER_LEARNING_BASE_URL: env.baseUrl, PARTNER_LEARNING_CLIENT_ID: rw.clientId,
    PARTNER_LEARNING_CLIENT_SECRET: rw.clientSecret, PARTNER_LEARNING_API_KEY: env.apiKey, RELAY_KEYS: BENCH_RELAY_KEY,
    LEARNER_TOKEN_SECRET: BENCH_LEARNER_SECRET, ALLOWED_ORIGINS: '', RELAY_LOG_LEVEL: 'error',
  };
  return { server, env, client: rw, direct, settings };
}

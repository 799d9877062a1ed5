/**
 * Worker entry for the workerd test over a real socket: the core client in the Worker calls an emulator listening
 * in the Node test process, with its access token cached in Workers KV. Credentials arrive as bindings, as a
 * deployed Worker would get them from its secrets.
 */
import { kvTokenStore, type KvLike, type KvStoreStats } from './runtime-kv-token-store.ts';
import { runScenario } from './runtime-scenario.ts';

interface Env {
  TOKENS: KvLike;
  TOKEN_URL: string;
  BASE_URL: string;
  CLIENT_ID: string;
  CLIENT_SECRET: string;
  API_KEY: string;
}

export default {
  /**
   * @param _request - Ignored: every request runs the whole scenario.
   * @param env - Bindings: the KV namespace and the emulator's sandbox credentials.
   * @returns The scenario report plus the KV store counters, as JSON.
   */
  async fetch(_request: Request, env: Env): Promise<Response> {
    const kv: KvStoreStats = { hits: 0, misses: 0, writes: 0, deletes: 0 };
    const options = {
      tokenUrl: env.TOKEN_URL,
      baseUrl: env.BASE_URL,
      clientId: env.CLIENT_ID,
      clientSecret: env.CLIENT_SECRET,
      apiKey: env.API_KEY,
      environment: 'sandbox',
      // Bound per request: the global fetch of this request's context.
      fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
    };
    const report = await runScenario(options, kvTokenStore(env.TOKENS, kv));
    return Response.json({ ...report, kv });
  },
};

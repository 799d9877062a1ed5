/**
 * Cloudflare Workers entry (`wrangler.jsonc`): the token cache is the `TOKEN_CACHE` KV namespace, learners are
 * limited by the `LEARNER_RATE_LIMIT` binding, settings come from vars and secrets. One relay per isolate, built on
 * its first request (bindings arrive with the request); only resolved values live in it across requests.
 */
import type { Hono } from 'hono';
import { createRelay } from './app.ts';
import { consoleLogger } from './console-logger.ts';
import type { RelayEnv } from './route-types.ts';
import { bindingRateLimiter, type RateLimitBinding } from './learner-limit.ts';
import { kvTokenStore, type KvNamespaceLike } from './token-store.ts';

interface WorkerEnv {
  TOKEN_CACHE?: KvNamespaceLike;
  LEARNER_RATE_LIMIT?: RateLimitBinding;
  [name: string]: unknown;
}

let relay: Hono<RelayEnv> | undefined;

export default {
  fetch(request: Request, env: WorkerEnv, ctx: unknown): Response | Promise<Response> {
    relay ??= createRelay({
      settings: env,
      tokenStore: env.TOKEN_CACHE ? kvTokenStore(env.TOKEN_CACHE) : undefined,
      requiredTokenStore: 'TOKEN_CACHE',
      rateLimiter: env.LEARNER_RATE_LIMIT ? bindingRateLimiter(env.LEARNER_RATE_LIMIT) : undefined,
      logger: consoleLogger(env['RELAY_LOG_LEVEL']),
      // Looked up per call: the fetch of the request being served.
      fetch: (input, init) => fetch(input, init),
    });
    return relay.fetch(request, env, ctx as never);
  },
};

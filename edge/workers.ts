/**
 * Cloudflare Workers entry (`wrangler.jsonc`): the token cache is the `TOKEN_CACHE` KV namespace, learners are
 * limited by the `LEARNER_RATE_LIMIT` binding, settings come from vars and secrets. One relay per isolate, built on
 * its first request (bindings arrive with the request); only resolved values live in it across requests.
 */
import type { Hono } from 'hono';
import { createRelay } from './app.ts';
import { consoleLogger, logLevelOf } from './console-logger.ts';
import type { RelayEnv } from './route-types.ts';
import { bindingRateLimiter, type RateLimitBinding } from './learner-limit.ts';
import { kvTokenStore, type KvNamespaceLike } from './token-store.ts';
import { upstreamLimiter, type DurableObjectNamespaceLike } from './upstream-limiter.ts';

export { UpstreamLimiter } from './upstream-limiter.ts';

interface WorkerEnv {
  TOKEN_CACHE?: KvNamespaceLike;
  LEARNER_RATE_LIMIT?: RateLimitBinding;
  /** Opt-in: every isolate in one line to the service (`upstream-limiter.ts`). */
  UPSTREAM_LIMITER?: DurableObjectNamespaceLike;
  [name: string]: unknown;
}

let relay: Hono<RelayEnv> | undefined;

export default {
  fetch(request: Request, env: WorkerEnv, ctx: unknown): Response | Promise<Response> {
    relay ??= build(env);
    return relay.fetch(request, env, ctx as never);
  },
};

function build(env: WorkerEnv): Hono<RelayEnv> {
  const logLevel = logLevelOf(env['RELAY_LOG_LEVEL']);
  const logger = consoleLogger(logLevel);
  // The message names the object and what went wrong, never a secret.
  const limiter = env.UPSTREAM_LIMITER
    ? upstreamLimiter(env.UPSTREAM_LIMITER, env['PARTNER_LEARNING_API_KEY'], (error) => logger('warn', error.message, { event: 'upstream_limiter_unreachable' }))
    : undefined;
  return createRelay({
    settings: env,
    tokenStore: env.TOKEN_CACHE ? kvTokenStore(env.TOKEN_CACHE) : undefined,
    requiredTokenStore: 'TOKEN_CACHE',
    rateLimiter: env.LEARNER_RATE_LIMIT ? bindingRateLimiter(env.LEARNER_RATE_LIMIT) : undefined,
    logger,
    logLevel,
    ...(limiter ? { limiter } : {}),
    // Looked up per call: the fetch of the request being served.
    fetch: (input, init) => fetch(input, init),
  });
}

import type { Context, MiddlewareHandler } from 'hono';
import { asApiPlatform } from './api-docs.ts';
import type { AppEnv, EmulatorContext } from './context.ts';
import { emptyForbidden, gatewayMessage, hydraError, notFound } from './hydra.ts';
import { verifyAccessToken } from './oauth.ts';
import { isEnvName, SCOPE_READ, SCOPE_WRITE } from './types.ts';
import { consume, freshCounters } from './usage-plan.ts';

const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

/**
 * The API gateway in front of `/{env}/v1/*`, in the order the spec fixes:
 * 1. API key (`x-api-key`): missing, unknown, disabled or of another environment -> 403, empty body;
 * 2. the key's usage plan: 429 `Too Many Requests` (rate/burst) or `Limit Exceeded` (daily quota);
 *    `/ping` stops here (any method);
 * 3. JWT (`Authorization: Bearer <jwt>` exactly): 401 `{"message":"Unauthorized"}`; a token of a client of
 *    another partner than the key's -> 403, empty body (like a key the token does not belong with);
 * 4. scope: GET, HEAD and OPTIONS need `partner-api/read`, other methods `partner-api/write` -> 403 hydra:Error
 *    naming the scope.
 * @param ctx the emulator context.
 * @returns the middleware.
 */
export function gateway(ctx: EmulatorContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const env = c.req.param('env');
    if (!isEnvName(env)) return notFound();
    c.set('env', env);
    const apiKey = c.req.header('x-api-key');
    const key = apiKey ? ctx.state.apiKeys.get(apiKey) : undefined;
    if (!key || !key.enabled || key.env !== env) return emptyForbidden();
    c.set('partnerId', key.partnerId);

    const now = ctx.clock.now();
    let counters = ctx.state.usage.get(key.key);
    if (!counters) ctx.state.usage.set(key.key, (counters = freshCounters(key.plan, now)));
    const verdict = consume(key.plan, counters, now);
    if (verdict === 'throttled') return gatewayMessage(429, 'Too Many Requests');
    if (verdict === 'quota') return gatewayMessage(429, 'Limit Exceeded');

    // The ping resource is API-key-only for every method (HEAD answers like GET; others get 405 without a token).
    if (c.req.path === `/${env}/v1/ping`) {
      await next();
      return;
    }
    const token = BEARER.exec(c.req.header('authorization') ?? '')?.[1];
    const verified = token ? await verifyAccessToken(ctx, env, new URL(c.req.url).origin, token) : null;
    const client = verified ? ctx.state.clients.get(verified.clientId) : undefined;
    if (!verified || !client || client.env !== env) return gatewayMessage(401, 'Unauthorized');
    if (client.partnerId !== key.partnerId) return emptyForbidden();

    const needed = requiredScope(c);
    // API Platform's own refusal (not the gateway's), so it carries the documentation Link like other app answers.
    if (!verified.scopes.includes(needed)) return asApiPlatform(hydraError(403, `This action requires the scope "${needed}".`), new URL(c.req.url).origin, env);
    c.set('scopes', verified.scopes);
    await next();
  };
}

// Safe methods (OPTIONS only describes a route) need read; everything that could change state needs write.
function requiredScope(c: Context<AppEnv>): string {
  return c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS' ? SCOPE_READ : SCOPE_WRITE;
}

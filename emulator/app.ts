import { Hono } from 'hono';
import type { MiddlewareHandler } from 'hono';
import { apiPlatformResponses, entrypoint, registerApiDocs } from './api-docs.ts';
import { iso } from './clock.ts';
import type { AppEnv, EmulatorContext } from './context.ts';
import { registerControl } from './control.ts';
import { DROP_HEADER, decideFault, faultResponse } from './faults.ts';
import { gateway } from './gateway.ts';
import { hydraError, json, jsonLd } from './hydra.ts';
import { answerUnrouted } from './methods.ts';
import { registerOAuth } from './oauth.ts';
import { registerCatalog } from './routes/catalog.ts';
import { registerContent } from './routes/content.ts';
import { registerLearning } from './routes/learning.ts';
import { registerPdf } from './routes/pdf.ts';
import { registerUsers } from './routes/users.ts';
import { isEnvName } from './types.ts';

/**
 * Builds the emulator's Hono app: control interface, token endpoint, JWKS and discovery, content URLs, the Hydra
 * documentation and contexts, and the API under `/{env}/v1` (entrypoint included) behind the gateway. Web
 * standards only, so it runs on Node, workerd and Deno.
 * @param ctx the emulator context.
 * @returns the app.
 */
export function createApp(ctx: EmulatorContext): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requestIdAndLog(ctx));
  app.use('*', faults(ctx));
  registerControl(app, ctx);
  registerOAuth(app, ctx);
  registerApiDocs(app);
  app.use('/:env/v1/*', gateway(ctx));
  app.use('/:env/v1/*', apiPlatformResponses());
  app.get('/:env/v1', (c) => jsonLd(entrypoint(c.get('env'))));
  app.get('/:env/v1/ping', () =>
    json({ status: 'healthy', checks: { database: 'ok', cache: 'ok', contentStorage: 'ok', identityProvider: 'ok' }, version: 'v1', time: iso(ctx.clock.now()) }),
  );
  registerCatalog(app, ctx);
  registerUsers(app, ctx);
  registerContent(app, ctx);
  registerLearning(app, ctx);
  registerPdf(app, ctx);
  app.notFound((c) => answerUnrouted(app, c));
  // Never echo the error: it could carry request data.
  app.onError(() => hydraError(500, 'Internal Server Error'));
  return app;
}

/** Gives every response a unique `x-request-id` and logs every non-control request. */
function requestIdAndLog(ctx: EmulatorContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = crypto.randomUUID();
    const at = iso(ctx.clock.now());
    await next();
    try {
      c.res.headers.set('x-request-id', id);
    } catch {
      const copy = new Response(c.res.body, c.res);
      copy.headers.set('x-request-id', id);
      c.res = undefined;
      c.res = copy;
    }
    const url = new URL(c.req.url);
    // The router's decoded path: `/%5Femulator/...` is a control call too, and is not logged either.
    if (c.req.path.startsWith('/_emulator/')) return;
    const env = url.pathname.split('/')[1];
    ctx.log.add({
      method: c.req.method,
      path: url.pathname,
      query: url.search.replace(/^\?/, ''),
      status: c.res.headers.has(DROP_HEADER) ? 0 : c.res.status,
      env: isEnvName(env) ? env : null,
      at,
    });
  };
}

/** Injected faults (POST /_emulator/faults) on the API and the token endpoint. */
function faults(ctx: EmulatorContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const decision = decideFault(ctx.faults, new URL(c.req.url).pathname);
    if (!decision) return next();
    if (decision.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, decision.latencyMs));
    if (decision.status === null) return next();
    if (!decision.afterCommit) return faultResponse(decision.status);
    await next();
    await c.res.body?.cancel();
    // Clear first: Hono's setter would otherwise copy the replaced response's headers onto the fault.
    c.res = undefined;
    c.res = faultResponse(decision.status);
  };
}

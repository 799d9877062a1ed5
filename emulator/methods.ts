import type { Context, Hono } from 'hono';
import type { AppEnv } from './context.ts';
import { hydraError, json, notFound } from './hydra.ts';
import { isEnvName } from './types.ts';

/** A registered route as Hono lists it in `app.routes`. */
interface RouteEntry {
  method: string;
  path: string;
}

/** Hono path pattern (`/:env/v1/users/:uuid`, `*`) to an anchored regular expression. */
function patternOf(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * The methods the app answers on a path, read from its own route table so it cannot drift from the routes.
 * Middleware (`ALL`) does not count. GET implies HEAD, and OPTIONS is always answered (see {@link answerUnrouted}).
 * @param routes the app's routes (`app.routes`).
 * @param pathname the request's URL pathname.
 * @returns the allowed methods, sorted; empty when no route has that path.
 */
export function allowedMethods(routes: readonly RouteEntry[], pathname: string): string[] {
  const methods = new Set<string>();
  for (const route of routes) {
    if (route.method === 'ALL') continue;
    if (patternOf(route.path).test(pathname)) methods.add(route.method);
  }
  if (methods.size === 0) return [];
  if (methods.has('GET')) methods.add('HEAD');
  methods.add('OPTIONS');
  return [...methods].sort();
}

/**
 * Answers a request no handler took: 404 for an unknown path; for a known path, OPTIONS gives 204 with `Allow`
 * and any other method 405 with `Allow` (API Platform answers a known route with another method 405, not 404).
 * The body follows the area: hydra:Error under `/{env}/v1`, an OAuth2 `{"error"}` at the token endpoint,
 * `{"error"}` elsewhere. API requests get here only after the gateway, so credentials are checked first.
 * @param app the app (its route table).
 * @param c the request context.
 * @returns the response.
 */
export function answerUnrouted(app: Hono<AppEnv>, c: Context<AppEnv>): Response {
  const { pathname } = new URL(c.req.url);
  const area = pathname.split('/')[1];
  const allowed = area === '_emulator' || isEnvName(area) ? allowedMethods(app.routes, pathname) : [];
  if (allowed.length === 0) return notFound('No route found for this request.');
  const allow = allowed.join(', ');
  if (c.req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow } });
  const message = `Method ${c.req.method} is not allowed here (allowed: ${allow}).`;
  let res: Response;
  if (pathname.startsWith(`/${area}/v1/`)) res = hydraError(405, message);
  else if (pathname === `/${area}/oauth2/token`) {
    res = json({ error: 'invalid_request' }, 405);
    res.headers.set('cache-control', 'no-store');
  } else res = json({ error: message }, 405);
  res.headers.set('allow', allow);
  return res;
}

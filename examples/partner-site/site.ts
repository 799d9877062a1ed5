/**
 * The demo partner site: the static page (public/) plus the small backend a partner would write. The backend holds
 * the relay key, registers (or finds) the demo learner and hands the browser a short-lived learner token; the
 * browser then calls the relay itself with that token. A real site would mint tokens for its own signed-in user.
 */
import { readFile } from 'node:fs/promises';
import { Hono } from 'hono';
import { mintLearnerToken, registerLearner, RelayCallError, serviceTime } from './relay-client.ts';
import type { DemoLearner, RelayAccess } from './relay-client.ts';

/** Who the page acts for unless told otherwise. */
export const defaultLearner: DemoLearner = { email: 'demo.learner@partner.example', firstName: 'Zoë', lastName: 'Ångström' };

/** Options of {@link createPartnerSite}. */
export interface PartnerSiteOptions {
  /** The relay; may also be given later with `setRelay` (the stack starts the page before the relay). */
  relay?: RelayAccess;
  /** The demo learner; default {@link defaultLearner}. */
  learner?: DemoLearner;
  /** Lifetime of the learner tokens handed to the browser, 60..3600 s; default 900. */
  tokenTtlSeconds?: number;
}

/** The site's Hono app and a way to point it at its relay. */
export interface PartnerSite {
  app: Hono;
  setRelay(relay: RelayAccess): void;
}

const files: Record<string, string> = { '/': 'index.html', '/app.js': 'app.js', '/style.css': 'style.css' };
const types: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

function problem(status: number, code: string, detail: string): Response {
  return new Response(JSON.stringify({ type: 'about:blank', title: 'Partner site error', status, code, detail }), {
    status,
    headers: { 'content-type': 'application/problem+json', 'cache-control': 'no-store' },
  });
}

/**
 * @param options relay access, demo learner and token lifetime.
 * @returns the site (static page + `/api/session` + `/api/service-time`).
 * @throws TypeError when `tokenTtlSeconds` is outside 60..3600.
 */
export async function createPartnerSite(options: PartnerSiteOptions = {}): Promise<PartnerSite> {
  const ttl = options.tokenTtlSeconds ?? 900;
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > 3600) throw new TypeError(`tokenTtlSeconds must be an integer from 60 to 3600, got ${ttl}`);
  const learner = options.learner ?? defaultLearner;
  let relay = options.relay;
  let learnerId: string | undefined;
  const assets = new Map<string, string>();
  for (const [path, file] of Object.entries(files)) assets.set(path, await readFile(new URL(`./public/${file}`, import.meta.url), 'utf8'));

  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
  });
  app.get('/:file{(app\\.js|style\\.css)?}', (c) => {
    const path = new URL(c.req.url).pathname;
    const body = assets.get(path);
    if (body === undefined) return c.notFound();
    const csp = [
      "default-src 'self'", `connect-src 'self' ${relay?.origin ?? ''}`.trim(), 'frame-src http: https:', 'media-src http: https:',
      "img-src 'self' data:", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
    ].join('; ');
    return c.body(body, 200, { 'content-type': types[path.split('.').pop() === 'js' ? 'js' : path.endsWith('.css') ? 'css' : 'html']!, 'content-security-policy': csp, 'cache-control': 'no-cache' });
  });

  app.post('/api/session', async (c) => {
    if (!relay) return problem(503, 'relay_not_ready', 'The relay is still starting; try again in a moment.');
    try {
      learnerId ??= await registerLearner(relay, learner);
      const minted = await mintLearnerToken(relay, learnerId, ttl);
      return c.json({ token: minted.token, expiresAt: minted.expiresAt, userId: minted.userId, relay: relay.origin }, 200, { 'cache-control': 'no-store' });
    } catch (error) {
      // A learner erased upstream since: register again on the next visit.
      if (error instanceof RelayCallError && error.status === 404) learnerId = undefined;
      const e = error instanceof RelayCallError ? error : new RelayCallError(500, 'internal', 'unexpected error in the partner site');
      return problem(502, e.code, e.message);
    }
  });

  app.get('/api/service-time', async (c) => {
    const now = relay ? await serviceTime(relay) : Date.now();
    return c.json({ now: new Date(now).toISOString() }, 200, { 'cache-control': 'no-store' });
  });

  return {
    app,
    setRelay(next) {
      relay = next;
    },
  };
}

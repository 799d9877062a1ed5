/**
 * The interactive API reference (issue 18): Scalar's page over the relay's own document, at `/v1/reference`, served
 * only when `RELAY_API_REFERENCE` is `on` (off by default: a production relay need not advertise itself; `npm start`
 * turns it on and prints its URL). The page loads Scalar's browser bundle, pinned, from `RELAY_API_REFERENCE_SCRIPT`
 * (default jsDelivr); its content security policy allows that script's origin, inline styles and calls to the relay
 * itself, nothing else.
 */
import { Scalar } from '@scalar/hono-api-reference';
import type { MiddlewareHandler } from 'hono';
import type { RelaySettings } from './config.ts';

/** Scalar's standalone browser bundle, pinned so the page does not change under the relay. */
export const SCALAR_SCRIPT = 'https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.72.1/dist/browser/standalone.js';
export const REFERENCE_PATH = '/v1/reference';

/**
 * @param settings The relay's settings.
 * @returns Whether to serve the reference, and from which script; `undefined` when off.
 */
export function referenceSettings(settings: RelaySettings): { script: string } | undefined {
  const on = String(settings['RELAY_API_REFERENCE'] ?? '').trim().toLowerCase();
  if (!['on', 'true', '1', 'yes'].includes(on)) return undefined;
  const script = settings['RELAY_API_REFERENCE_SCRIPT'];
  return { script: typeof script === 'string' && /^https?:\/\//.test(script) ? script : SCALAR_SCRIPT };
}

/**
 * @param script The Scalar bundle's URL.
 * @returns The page's handler.
 */
export function apiReference(script: string): MiddlewareHandler {
  const page = Scalar({ url: '/v1/openapi.json', cdn: script, pageTitle: 'Partner Learning relay API', withDefaultFonts: false, hideClientButton: true, defaultOpenAllTags: true });
  const scriptOrigin = new URL(script).origin;
  return async (c, next) => {
    const res = (await page(c, next)) ?? c.res;
    res.headers.set('content-security-policy', [
      "default-src 'none'", `script-src 'unsafe-inline' ${scriptOrigin}`, `style-src 'unsafe-inline' ${scriptOrigin}`,
      "connect-src 'self'", "img-src 'self' data:", "font-src data:", "frame-ancestors 'none'",
    ].join('; '));
    return res;
  };
}

/**
 * The outermost middleware after `hono/request-id`: notes the request's arrival, and on the way out keeps only the
 * response headers the relay contract allows, lets the partner origins frame PDFs, and logs one line per request.
 */
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../core/index.ts';
import type { RelayEnv } from './route-types.ts';

/** Response headers the relay may send (relay contract, "Headers"); CORS headers are matched by prefix. */
const ALLOWED_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-disposition',
  'cache-control',
  'x-request-id',
  'retry-after',
  'allow',
  'vary',
  'www-authenticate',
  'x-content-type-options',
  'referrer-policy',
  'content-security-policy',
  'strict-transport-security',
  'x-frame-options',
]);

/**
 * @param log The relay's logger.
 * @param frameOrigins Origins that may frame PDFs (`ALLOWED_ORIGINS`).
 * @param now The relay's clock (the deadline counts from the request's arrival).
 * @returns The middleware.
 */
export function finishResponse(log: Logger, frameOrigins: readonly string[], now: () => number): MiddlewareHandler<RelayEnv> {
  const pdfPolicy = `default-src 'none'; frame-ancestors ${frameOrigins.length ? frameOrigins.join(' ') : "'none'"}`;
  return async (c, next) => {
    const started = Date.now();
    c.set('arrivedAt', now());
    await next();
    const requestId = c.get('requestId');
    const headers = c.res.headers;
    for (const name of [...headers.keys()]) {
      if (!ALLOWED_HEADERS.has(name) && !name.startsWith('access-control-')) headers.delete(name);
    }
    if (!headers.has('x-request-id')) headers.set('x-request-id', requestId);
    headers.set('cache-control', 'no-store');
    // Also on preflights, which the CORS middleware answers before the security headers run.
    headers.set('x-content-type-options', 'nosniff');
    headers.set('referrer-policy', 'no-referrer');
    if ((headers.get('content-type') ?? '').startsWith('application/pdf')) {
      headers.set('content-security-policy', pdfPolicy);
      headers.delete('x-frame-options');
    }
    log('info', 'relayed', {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Date.now() - started,
    });
  };
}

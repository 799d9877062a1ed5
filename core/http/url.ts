/**
 * Where a request goes: a path under the base URL, or a link the service returned, which must resolve under the
 * base URL (same origin, same path prefix) so a hostile link can never receive the credentials.
 */
import type { ApiRequest } from '../transport.ts';
import { ApplicationError } from '../errors/application-error.ts';
import { ConfigurationError } from '../errors/configuration-error.ts';

function isUnder(url: URL, base: URL): boolean {
  const prefix = base.pathname.replace(/\/+$/, '');
  return url.origin === base.origin && (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`));
}

/**
 * Builds the absolute URL of a request.
 *
 * @param baseUrl Normalized base URL (no trailing slash, ends in `/v1`).
 * @param request `path` (+ `query`) or `link`.
 * @returns The absolute URL.
 * @throws {ConfigurationError} Neither `path` nor `link`, or a `path` that does not start with `/` or leaves the
 *   base URL (`/../`).
 * @throws {ApplicationError} A `link` that resolves outside the base URL (another origin or path prefix).
 * @example
 * resolveRequestUrl('https://api.example.com/sandbox/v1', { method: 'GET', link: '/sandbox/v1/courses?page=2' });
 * // 'https://api.example.com/sandbox/v1/courses?page=2'
 */
export function resolveRequestUrl(baseUrl: string, request: Pick<ApiRequest, 'path' | 'link' | 'query' | 'method'>): string {
  const base = new URL(baseUrl);
  if (request.link !== undefined) {
    let url: URL;
    try {
      url = new URL(request.link, base.origin);
    } catch {
      url = new URL('invalid:');
    }
    if (!isUnder(url, base)) {
      throw new ApplicationError({
        origin: 'api', method: request.method, url: baseUrl,
        message: 'The service returned a link outside the configured base URL; it was not followed, so no credentials were sent there',
      });
    }
    return url.toString();
  }
  const path = request.path;
  if (path === undefined || !path.startsWith('/') || path.startsWith('//')) {
    throw new ConfigurationError({ origin: 'client', message: 'An API request needs a path starting with a single "/" or a link' });
  }
  const url = new URL(`${base.origin}${base.pathname.replace(/\/+$/, '')}${path}`);
  if (!isUnder(url, base)) {
    throw new ConfigurationError({ origin: 'client', message: 'An API request path must stay under the base URL' });
  }
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.append(key, String(value));
  }
  return url.toString();
}

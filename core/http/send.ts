/**
 * One HTTP attempt through ky, with ky's own retry and status handling switched off (our retry loop and limiter
 * own those) and redirects never followed (`fetch` would forward `x-api-key` to whatever origin `Location` names).
 * Failures without an HTTP answer become `NetworkError` / `TimeoutError`, a 3xx a `RedirectError`; an abort
 * rethrows the signal's reason untouched.
 */
import ky, { isTimeoutError, isNetworkError, type KyInstance } from 'ky';
import { NetworkError } from '../errors/network-error.ts';
import { RedirectError } from '../errors/redirect-error.ts';
import { TimeoutError } from '../errors/timeout-error.ts';
import type { Redactor } from '../redact.ts';
import { abortReason, raceAbort } from '../signal.ts';

/**
 * Creates the ky instance for one client (`ky.create` once).
 *
 * @param fetchFn The injected fetch.
 * @returns A ky instance that never retries, never follows a redirect and never throws for HTTP statuses.
 */
export function createHttp(fetchFn: typeof fetch): KyInstance {
  return ky.create({ retry: 0, throwHttpErrors: false, redirect: 'manual', fetch: fetchFn });
}

/** One attempt. Headers are built from scratch by the caller. */
export interface SendInit {
  method: string;
  url: string;
  headers: Headers;
  body?: string;
  /** Absent: the caller's `signal` bounds the attempt with a timer of its own, and ky sets none. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** What the error says was called (a redacted URL is derived from `url`). */
  origin: 'api' | 'token-endpoint';
  /** The client's redactor, for the errors built here. */
  redactor?: Redactor;
}

/**
 * Sends one request and returns the response whatever its status (except a redirect).
 *
 * @param http From {@link createHttp}.
 * @param init Method, URL, headers, body, per-attempt timeout, signal.
 * @returns The response, body unread.
 * @throws {RedirectError} A 3xx answer (not followed).
 * @throws {TimeoutError} No answer within `timeoutMs`.
 * @throws {NetworkError} No HTTP answer at all.
 * @throws The signal's reason when the caller aborted.
 */
export async function sendOnce(http: KyInstance, init: SendInit): Promise<Response> {
  const where = init.origin === 'token-endpoint' ? 'The token endpoint' : 'The service';
  let response: Response;
  try {
    const sent = http(init.url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      timeout: init.timeoutMs ?? false,
      signal: init.signal,
      redirect: 'manual',
    });
    // Without ky's timer, the signal alone ends the wait, even with an injected fetch that ignores it; an answer
    // that comes after is cancelled unread.
    response = init.timeoutMs === undefined ? await raceAbort(sent, init.signal).catch((error: unknown) => {
      void sent.then((late) => late.body?.cancel(), () => undefined);
      throw error;
    }) : await sent;
  } catch (error) {
    if (init.signal?.aborted) throw abortReason(init.signal);
    const context = { method: init.method, url: init.url, origin: 'network' as const, redactor: init.redactor };
    if (isTimeoutError(error)) {
      return Promise.reject(new TimeoutError({
        ...context,
        message: `${where} did not answer within ${init.timeoutMs} ms`,
        hint: 'It is retried with backoff; raise timeoutMs if the service is just slow',
      }));
    }
    const cause = isNetworkError(error) ? error.cause : error;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return Promise.reject(new NetworkError({
      ...context,
      cause,
      message: `Could not reach ${where.toLowerCase()}${detail}`,
      hint: 'Check the URL, DNS and network connectivity',
    }));
  }
  if (isRedirect(response)) {
    await response.body?.cancel();
    throw redirectError(response, init, where);
  }
  return response;
}

/** A 3xx, or a browser's opaque redirect (status 0, headers hidden). */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

function redirectError(response: Response, init: SendInit, where: string): RedirectError {
  const location = response.headers.get('location');
  let locationOrigin: string | undefined;
  try {
    // Origin only: the path and query of a redirect target may carry tokens.
    if (location !== null) locationOrigin = new URL(location, init.url).origin;
  } catch {
    locationOrigin = undefined;
  }
  const to = locationOrigin && locationOrigin !== 'null' ? ` to ${locationOrigin}` : '';
  const option = init.origin === 'token-endpoint' ? 'tokenUrl' : 'baseUrl';
  return new RedirectError({
    origin: init.origin === 'token-endpoint' ? 'token-endpoint' : 'api',
    status: response.status || undefined,
    requestId: response.headers.get('x-request-id') ?? undefined,
    method: init.method,
    url: init.url,
    redactor: init.redactor,
    locationOrigin: to ? locationOrigin : undefined,
    message: `${where} answered with a redirect${response.status ? ` (${response.status})` : ''}${to}; the request was not repeated there`,
    hint: `Redirects are never followed, so credentials stay with the configured address: set ${option} to the address that answers directly`,
  });
}

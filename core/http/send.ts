/**
 * One HTTP attempt through ky, with ky's own retry and status handling switched off (our retry loop and limiter
 * own those). Failures without an HTTP answer become `NetworkError` / `TimeoutError`; an abort rethrows the
 * signal's reason untouched.
 */
import ky, { isTimeoutError, isNetworkError, type KyInstance } from 'ky';
import { NetworkError } from '../errors/network-error.ts';
import { TimeoutError } from '../errors/timeout-error.ts';
import { abortReason } from '../runtime.ts';

/**
 * Creates the ky instance for one client (`ky.create` once).
 *
 * @param fetchFn The injected fetch.
 * @returns A ky instance that never retries and never throws for HTTP statuses.
 */
export function createHttp(fetchFn: typeof fetch): KyInstance {
  return ky.create({ retry: 0, throwHttpErrors: false, fetch: fetchFn });
}

/** One attempt. Headers are built from scratch by the caller. */
export interface SendInit {
  method: string;
  url: string;
  headers: Headers;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** What the error says was called (a redacted URL is derived from `url`). */
  origin: 'api' | 'token-endpoint';
}

/**
 * Sends one request and returns the response whatever its status.
 *
 * @param http From {@link createHttp}.
 * @param init Method, URL, headers, body, per-attempt timeout, signal.
 * @returns The response, body unread.
 * @throws {TimeoutError} No answer within `timeoutMs`.
 * @throws {NetworkError} No HTTP answer at all.
 * @throws The signal's reason when the caller aborted.
 */
export async function sendOnce(http: KyInstance, init: SendInit): Promise<Response> {
  try {
    return await http(init.url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      timeout: init.timeoutMs,
      signal: init.signal,
    });
  } catch (error) {
    if (init.signal?.aborted) throw abortReason(init.signal);
    const context = { method: init.method, url: init.url, origin: 'network' as const };
    const where = init.origin === 'token-endpoint' ? 'the token endpoint' : 'the service';
    if (isTimeoutError(error)) {
      return Promise.reject(new TimeoutError({
        ...context,
        message: `No answer from ${where} within ${init.timeoutMs} ms; it is retried with backoff, raise timeoutMs if the service is just slow`,
      }));
    }
    const cause = isNetworkError(error) ? error.cause : error;
    const detail = cause instanceof Error ? `: ${cause.message}` : '';
    return Promise.reject(new NetworkError({
      ...context,
      cause,
      message: `Could not reach ${where}${detail}. Check the URL, DNS and network connectivity`,
    }));
  }
}

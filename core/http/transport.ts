/**
 * The HTTP pipeline behind every resource call: URL, headers built from scratch per attempt, bearer token, shared
 * throttling, one ky attempt, error mapping, backoff, and one retry with a fresh token after a 401.
 */
import type { KyInstance } from 'ky';
import type { ApiRequest, ApiResponse, Transport } from '../transport.ts';
import { TokenProvider } from '../auth/token-provider.ts';
import type { PartnerLearningError } from '../errors/base.ts';
import { ApplicationError } from '../errors/application-error.ts';
import { errorFromResponse } from '../errors/factory.ts';
import { scrubError } from '../errors/scrub.ts';
import { ServerError } from '../errors/server-error.ts';
import { ThrottledError } from '../errors/throttled-error.ts';
import { createLog, type Log } from '../log.ts';
import type { NormalizedOptions } from '../options.ts';
import { createRedactor } from '../redact.ts';
import { abortReason } from '../runtime.ts';
import { limiterFor, type Limiter, type Outcome } from './limiter.ts';
import { backoffDelay, isRetryable, retryDelay } from './retry.ts';
import { createHttp, sendOnce } from './send.ts';
import { resolveRequestUrl } from './url.ts';

const JSON_ACCEPT = 'application/ld+json, application/json';

/** Extra hooks for tests and the edge relay; none is needed in normal use. */
export interface TransportExtras {
  /** Jitter source, uniform in [0, 1) (default `Math.random`). */
  random?: () => number;
}

/**
 * Creates the transport the resource groups call.
 *
 * @param options From `normalizeOptions`.
 * @param extras Optional hooks.
 * @returns A {@link Transport}.
 * @example
 * const transport = createTransport(normalizeOptions(options));
 * const { data } = await transport.request<User>({ method: 'GET', path: `/users/${uuid}` });
 */
export function createTransport(options: NormalizedOptions, extras: TransportExtras = {}): Transport {
  const http = createHttp(options.fetch);
  const redactor = createRedactor([options.clientSecret, options.apiKey]);
  const log = createLog(options.logger, redactor);
  const tokens = new TokenProvider({ ...options, http, log });
  const limiter = limiterFor(options);
  const pipeline = { options, http, log, tokens, limiter, random: extras.random ?? Math.random };
  return {
    baseUrl: options.baseUrl,
    now: () => options.now(),
    sleep: (ms, signal) => options.sleep(ms, signal),
    // Every error leaves through here, so the exact secret values are stripped from it once.
    request: <T>(request: ApiRequest) => send<T>(pipeline, request).catch((error: unknown) => {
      throw scrubError(error, redactor);
    }),
  };
}

interface Pipeline {
  options: NormalizedOptions;
  http: KyInstance;
  log: Log;
  tokens: TokenProvider;
  limiter: Limiter;
  random: () => number;
}

function buildHeaders(request: ApiRequest, apiKey: string, accessToken: string | undefined): Headers {
  const headers = new Headers();
  headers.set('Accept', request.responseType === 'stream' ? 'application/pdf' : JSON_ACCEPT);
  headers.set('x-api-key', apiKey);
  if (accessToken !== undefined) headers.set('Authorization', `Bearer ${accessToken}`);
  if (request.userId !== undefined) headers.set('X-User-ID', request.userId);
  if (request.json !== undefined) headers.set('Content-Type', 'application/json');
  else if (request.mergePatch !== undefined) headers.set('Content-Type', 'application/merge-patch+json');
  return headers;
}

function outcomeOf(status: number): Outcome {
  if (status >= 200 && status < 300) return 'success';
  if (status === 429) return 'throttled';
  return status >= 500 ? 'server-error' : 'other';
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function send<T>(p: Pipeline, request: ApiRequest): Promise<ApiResponse<T>> {
  const { options, log, limiter, signal } = { ...p, signal: request.signal };
  const url = resolveRequestUrl(options.baseUrl, request);
  const body = request.json !== undefined ? JSON.stringify(request.json)
    : request.mergePatch !== undefined ? JSON.stringify(request.mergePatch) : undefined;
  const bearer = (request.auth ?? 'bearer') === 'bearer';
  let attempt = 0;
  let refreshedAfter401 = false;
  let mayHaveReached = false;

  for (;;) {
    if (signal?.aborted) throw abortReason(signal);
    attempt += 1;
    let accessToken: string | undefined;
    let failure: unknown;
    let response: Response | undefined;
    let acquired = false;
    try {
      accessToken = bearer ? (await p.tokens.getToken(signal)).accessToken : undefined;
      await limiter.acquire(signal);
      acquired = true;
      log.debug('request', { method: request.method, url, attempt });
      const started = options.now();
      response = await sendOnce(p.http, {
        method: request.method, url, headers: buildHeaders(request, options.apiKey, accessToken), body,
        timeoutMs: options.timeoutMs, signal, origin: 'api',
      });
      log.debug('response', {
        method: request.method, url, attempt, status: response.status,
        requestId: response.headers.get('x-request-id') ?? undefined, ms: options.now() - started,
      });
    } catch (error) {
      if (acquired && !response) limiter.record('no-answer');
      if (signal?.aborted) throw abortReason(signal);
      failure = error;
    }

    if (response) {
      const outcome = outcomeOf(response.status);
      limiter.record(outcome);
      const requestId = response.headers.get('x-request-id') ?? undefined;
      if (outcome === 'success') return { status: response.status, headers: response.headers, requestId, data: (await readData(response, request, url)) as T };
      if (response.status === 404 && request.notFoundAfterRetryIsSuccess && mayHaveReached) {
        await response.body?.cancel();
        log.info('404 on retry of a call that may already have succeeded: treated as done', { method: request.method, url });
        return { status: 404, headers: response.headers, requestId, data: undefined as T };
      }
      const error = errorFromResponse({
        status: response.status, body: await readBody(response), headers: response.headers, origin: 'api',
        method: request.method, url, now: options.now(),
      });
      if (response.status === 401 && bearer && accessToken !== undefined && !refreshedAfter401) {
        refreshedAfter401 = true;
        attempt -= 1; // the 401 retry is extra, not one of maxAttempts
        log.warn('401: discarding the cached token and retrying once with a fresh one', { method: request.method, url });
        await p.tokens.invalidate(accessToken);
        continue;
      }
      failure = error;
      if (outcome === 'throttled' || outcome === 'server-error') {
        // One 429 or 5xx slows every call with this API key: pause them all (Retry-After when given).
        const retryAfterMs = error instanceof ThrottledError || error instanceof ServerError ? error.retryAfterMs : undefined;
        limiter.cooldown(retryAfterMs ?? backoffDelay(limiter.failureStreak, options.retry, p.random));
      }
    }

    const delay = retryDelay(failure, attempt, options.retry, p.random);
    if (delay === undefined) throw failure;
    // Only an attempt that was sent can have reached the service (not a failed token request before it).
    if (acquired && isRetryable(failure) && (failure.origin === 'network' || (failure.status ?? 0) >= 500)) mayHaveReached = true;
    // One sleep: this call's backoff or the rest of the key-wide pause, whichever is longer, counted by the limiter
    // as time passed so its gate does not make the call sleep a second time.
    const wait = Math.max(delay, limiter.pauseRemaining());
    log.warn('retrying', { method: request.method, url, attempt, delayMs: wait, code: (failure as PartnerLearningError).code, status: (failure as PartnerLearningError).status });
    await limiter.wait(wait, signal);
  }
}

async function readData(response: Response, request: ApiRequest, url: string): Promise<unknown> {
  const type = request.responseType ?? 'json';
  if (type === 'stream') return response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  if (type === 'none') {
    await response.body?.cancel();
    return undefined;
  }
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApplicationError({
      origin: 'api', status: response.status, method: request.method, url,
      requestId: response.headers.get('x-request-id') ?? undefined,
      message: 'The service answered with a body that is not JSON; check that baseUrl points at the Partner Learning API',
    });
  }
}

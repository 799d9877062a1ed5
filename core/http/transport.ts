/**
 * The HTTP pipeline behind every resource call: URL, headers built from scratch per attempt, shared throttling, the
 * bearer token (read after the throttling wait, so a call queued behind a refresh sends the new one), one ky
 * attempt, error mapping, and `nextStep` deciding what follows a failed attempt.
 */
import type { KyInstance } from 'ky';
import type { ApiRequest, ApiResponse, Transport } from '../transport.ts';
import { TokenProvider } from '../auth/token-provider.ts';
import { isPartnerLearningError, withAttempts } from '../errors/base.ts';
import { ApplicationError } from '../errors/application-error.ts';
import { errorFromResponse } from '../errors/factory.ts';
import { RedirectError } from '../errors/redirect-error.ts';
import { createLog, type Log } from '../log.ts';
import type { NormalizedOptions } from '../options.ts';
import { createRedactor, type Redactor } from '../redact.ts';
import { abortReason, checkSignal } from '../signal.ts';
import { limiterFor, type Limiter, type Outcome } from './limiter.ts';
import { nextStep } from './next-step.ts';
import { parseBody, readJsonOrText } from './read-body.ts';
import { callPolicy } from './retry.ts';
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
  // The one redactor: errors, logs and the token request all use it, so every text is redacted once.
  const redactor = createRedactor([options.clientSecret, options.apiKey]);
  const log = createLog(options.logger, redactor);
  const tokens = new TokenProvider({ ...options, http, log, redactor });
  const limiter = limiterFor(options);
  const pipeline: Pipeline = { options, http, log, tokens, limiter, redactor, random: extras.random ?? Math.random };
  return {
    baseUrl: options.baseUrl,
    now: () => options.now(),
    sleep: (ms, signal) => options.sleep(ms, signal),
    // Every resource method comes through here, so a bad signal is refused for all of them before any work.
    request: async <T>(request: ApiRequest) => {
      checkSignal(request.signal);
      return send<T>(pipeline, request);
    },
  };
}

interface Pipeline {
  options: NormalizedOptions;
  http: KyInstance;
  log: Log;
  tokens: TokenProvider;
  limiter: Limiter;
  redactor: Redactor;
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

/** What one attempt gave: an answer, or what was thrown; whether a request went out; the token it carried. */
interface Attempt {
  response?: Response;
  error?: unknown;
  sent: boolean;
  accessToken?: string;
}

interface CallContext {
  request: ApiRequest;
  url: string;
  body: string | undefined;
  bearer: boolean;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/**
 * One attempt: limiter slot, then the token (after the wait), then the request. Every `acquire` is followed by
 * exactly one `record`: `not-sent` when the call failed before going out (token request failed, aborted).
 */
async function attemptOnce(p: Pipeline, call: CallContext, number: number): Promise<Attempt> {
  const { options, log, limiter } = p;
  const { request, url, signal } = call;
  await limiter.acquire(signal);
  let accessToken: string | undefined;
  try {
    accessToken = call.bearer ? (await p.tokens.getToken(signal)).accessToken : undefined;
  } catch (error) {
    limiter.record('not-sent');
    return { error, sent: false };
  }
  let headers: Headers;
  try {
    if (signal?.aborted) throw abortReason(signal);
    headers = buildHeaders(request, options.apiKey, accessToken);
  } catch (error) {
    limiter.record('not-sent');
    return { error, sent: false };
  }
  log.debug('request', { method: request.method, url, attempt: number });
  const started = options.now();
  let response: Response;
  try {
    response = await sendOnce(p.http, {
      method: request.method, url, headers, body: call.body,
      timeoutMs: call.timeoutMs, signal, origin: 'api', redactor: p.redactor,
    });
  } catch (error) {
    limiter.record(error instanceof RedirectError ? 'other' : 'no-answer');
    return { error, sent: true, accessToken };
  }
  limiter.record(outcomeOf(response.status));
  log.debug('response', {
    method: request.method, url, attempt: number, status: response.status,
    requestId: response.headers.get('x-request-id') ?? undefined, ms: options.now() - started,
  });
  return { response, sent: true, accessToken };
}

async function send<T>(p: Pipeline, request: ApiRequest): Promise<ApiResponse<T>> {
  const { options, log, limiter } = p;
  const signal = request.signal;
  const policy = callPolicy(options.retry, request.retry);
  const call: CallContext = {
    request, signal,
    url: resolveRequestUrl(options.baseUrl, request),
    body: request.json !== undefined ? JSON.stringify(request.json)
      : request.mergePatch !== undefined ? JSON.stringify(request.mergePatch) : undefined,
    bearer: (request.auth ?? 'bearer') === 'bearer',
    timeoutMs: request.timeoutMs ?? options.timeoutMs,
  };
  const { url } = call;
  let tries = 1;
  let sent = 0;
  let refreshed = false;

  for (;;) {
    if (signal?.aborted) throw abortReason(signal);
    const attempt = await attemptOnce(p, call, sent + 1);
    if (attempt.sent) sent += 1;
    const { response } = attempt;
    if (response && response.ok) {
      const requestId = response.headers.get('x-request-id') ?? undefined;
      const data = await readData(response, request, url, p.redactor).catch((error: unknown) => {
        throw isPartnerLearningError(error) ? withAttempts(error, sent) : error;
      });
      return { status: response.status, headers: response.headers, requestId, data: data as T };
    }
    if (signal?.aborted) {
      await response?.body?.cancel().catch(() => undefined);
      throw abortReason(signal);
    }
    const error = response
      ? errorFromResponse({
        status: response.status, body: await readJsonOrText(response), headers: response.headers, origin: 'api',
        method: request.method, url, now: options.now(), redactor: p.redactor,
      })
      : attempt.error;
    const step = nextStep({
      error, status: response?.status, tries, refreshed, bearerSent: attempt.accessToken !== undefined, policy,
      failureStreak: limiter.failureStreak, pauseRemainingMs: limiter.pauseRemaining(), random: p.random,
    });
    // One 429 or 5xx slows every call with this API key: pause them all (Retry-After when given).
    if (step.action !== 'refresh-token' && step.pauseKeyMs !== undefined) limiter.cooldown(step.pauseKeyMs);
    if (step.action === 'fail') throw isPartnerLearningError(error) ? withAttempts(error, sent) : error;
    if (step.action === 'refresh-token') {
      refreshed = true;
      log.warn('401: discarding the cached token and retrying once with a fresh one', { method: request.method, url });
      if (attempt.accessToken !== undefined) await p.tokens.invalidate(attempt.accessToken);
      continue;
    }
    log.warn('retrying', {
      method: request.method, url, attempt: tries, delayMs: step.waitMs,
      code: isPartnerLearningError(error) ? error.code : undefined, status: response?.status,
    });
    tries += 1;
    // Counted by the limiter as time passed, so its gate does not make the call sleep a second time.
    await limiter.wait(step.waitMs, signal);
  }
}

async function readData(response: Response, request: ApiRequest, url: string, redactor: Redactor): Promise<unknown> {
  const type = request.responseType ?? 'json';
  if (type === 'stream') return response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  if (type === 'none') {
    await response.body?.cancel();
    return undefined;
  }
  const parsed = parseBody(await response.text());
  if (parsed.ok) return parsed.value;
  throw new ApplicationError({
    origin: 'api', status: response.status, method: request.method, url, redactor,
    requestId: response.headers.get('x-request-id') ?? undefined,
    message: 'The service answered with a body that is not JSON',
    hint: 'Check that baseUrl points at the Partner Learning API',
  });
}

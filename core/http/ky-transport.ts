/**
 * The HTTP pipeline behind every resource call: URL, headers built from scratch per attempt, shared throttling, the
 * bearer token (read after the throttling wait, so a call queued behind a refresh sends the new one), one ky
 * attempt, error mapping, and `nextStep` deciding what follows a failed attempt.
 */
import type { KyInstance } from 'ky';
import type { ApiRequest, ApiResponse, Transport } from '../transport.ts';
import type { StoredToken } from '../types/options.ts';
import { TokenProvider } from '../auth/token-provider.ts';
import { isPartnerLearningError, withAttempts } from '../errors/base.ts';
import { DeadlineError } from '../errors/deadline-error.ts';
import { errorFromResponse } from '../errors/factory.ts';
import { InvalidResponseError } from '../errors/invalid-response-error.ts';
import { RedirectError } from '../errors/redirect-error.ts';
import { TimeoutError } from '../errors/timeout-error.ts';
import { createLog, type Log } from '../log.ts';
import type { NormalizedOptions } from '../options.ts';
import { basicCredential, createRedactor, type Redactor } from '../redact.ts';
import { abortReason, checkSignal } from '../signal.ts';
import { limiterFor, type Limiter, type Outcome } from './key-limiters.ts';
import { nextStep } from './next-step.ts';
import { abortAfter, anySignal } from './deadline.ts';
import { BodyTooLargeError, MAX_JSON_DEPTH, parseBody, readJsonOrText, readText } from './read-body.ts';
import { callPolicy } from './retry.ts';
import { createHttp, sendOnce } from './send.ts';
import { resolveRequestUrl } from './url.ts';

const JSON_ACCEPT = 'application/ld+json, application/json';

/** Extra hooks for tests and the edge relay; none is needed in normal use. */
export interface TransportExtras {
  /** Jitter source, uniform in [0, 1) (default `Math.random`). */
  random?: () => number;
}

/** The ky driver's transport: a {@link Transport} that also hands out its access token (`verifyCredentials`). */
export interface KyTransport extends Transport {
  /** The token this transport sends, fetched when none is cached. */
  token(signal?: AbortSignal): Promise<StoredToken>;
}

/**
 * Creates the transport the resource groups call.
 *
 * @param options From `normalizeOptions`.
 * @param extras Optional hooks.
 * @returns A {@link KyTransport}.
 * @example
 * const transport = createTransport(normalizeOptions(options));
 * const { data } = await transport.request<User>({ method: 'GET', path: `/users/${uuid}` });
 */
export function createTransport(options: NormalizedOptions, extras: TransportExtras = {}): KyTransport {
  const http = createHttp(options.fetch);
  // The one redactor: errors, logs and the token request all use it, so every text is redacted once.
  // The Basic credential decodes to the secret: a token endpoint that echoes it in an error must not show it either.
  const redactor = createRedactor([options.clientSecret, options.apiKey, basicCredential(options.clientId, options.clientSecret)]);
  const log = createLog(options.logger, redactor);
  const tokens = new TokenProvider({ ...options, http, log, redactor });
  const limiter = limiterFor(options);
  const pipeline: Pipeline = { options, http, log, tokens, limiter, redactor, random: extras.random ?? Math.random };
  return {
    baseUrl: options.baseUrl,
    token: (signal) => tokens.getToken(signal),
    now: () => options.now(),
    sleep: (ms, signal) => options.sleep(ms, signal),
    // Every resource method comes through here, so a bad signal is refused for all of them before any work.
    request: async <T>(request: ApiRequest) => {
      checkSignal(request.signal);
      return runCall<T>(pipeline, request);
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

/** What one attempt gave: an answer (its JSON read), or what was thrown; whether a request went out; its token. */
interface Attempt {
  response?: Response;
  /** The answer's data, for a success (parsed JSON, the PDF stream, or nothing). */
  data?: unknown;
  /** The answer's body, for a failure status (JSON or text, at most 64 KiB; none when it could not be read). */
  errorBody?: unknown;
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
  /** The caller's signal and the call's deadline together. */
  signal: AbortSignal;
  /** The caller's own signal: its abort is the caller's, not a timeout. */
  callerSignal: AbortSignal | undefined;
}

/**
 * One attempt: limiter slot, then the token (after the wait), then the request and, for a success, its body, all
 * within `timeoutMs` (a PDF: until the headers). Every `acquire` is followed by exactly one `record`: `not-sent`
 * when the call failed before going out (token request failed, aborted).
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
    if (signal.aborted) throw abortReason(signal);
    headers = buildHeaders(request, options.apiKey, accessToken);
  } catch (error) {
    limiter.record('not-sent');
    return { error, sent: false };
  }
  log.debug('request', { method: request.method, url, attempt: number });
  const started = options.now();
  const timer = abortAfter(call.timeoutMs, () => new TimeoutError({
    method: request.method, url, origin: 'network', redactor: p.redactor,
    message: `The service did not answer within ${call.timeoutMs} ms`,
    hint: 'It is retried with backoff; raise timeoutMs if the service is just slow',
  }));
  try {
    let response: Response;
    try {
      response = await sendOnce(p.http, {
        method: request.method, url, headers, body: call.body,
        timeoutMs: call.timeoutMs, signal: anySignal(signal, timer.signal), origin: 'api', redactor: p.redactor,
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
    if (!response.ok) {
      // Read within this attempt's timeout too: an error body that drips must not hold the call until its deadline.
      const errorBody = await readJsonOrText(response).catch(() => undefined);
      return { response, errorBody, sent: true, accessToken };
    }
    try {
      const data = await readData(response, request, url, p);
      return { response, data, sent: true, accessToken };
    } catch (error) {
      return { response, error: bodyFailure(error, response, request, url, p), sent: true, accessToken };
    }
  } finally {
    timer.clear();
  }
}

/** One call: attempts, retries and waits within the call's deadline (the ky driver's retry loop). */
async function runCall<T>(p: Pipeline, request: ApiRequest): Promise<ApiResponse<T>> {
  const { options, log, limiter } = p;
  const policy = callPolicy(options.retry, request.retry);
  const deadlineMs = request.deadlineMs ?? options.deadlineMs;
  const url = resolveRequestUrl(options.baseUrl, request);
  let sent = 0;
  let lastError: unknown;
  const deadline = abortAfter(deadlineMs, () => new DeadlineError({
    method: request.method, url, origin: 'client', redactor: p.redactor, cause: lastError,
    message: `The call did not finish within its deadline of ${deadlineMs} ms${sent > 0 ? ` (${sent} request${sent === 1 ? '' : 's'} sent)` : ''}`,
    hint: 'The request under way was cancelled. Raise deadlineMs if the service is just slow; otherwise retry later',
  }));
  const call: CallContext = {
    request, url, callerSignal: request.signal,
    signal: anySignal(request.signal, deadline.signal),
    body: request.json !== undefined ? JSON.stringify(request.json)
      : request.mergePatch !== undefined ? JSON.stringify(request.mergePatch) : undefined,
    bearer: (request.auth ?? 'bearer') === 'bearer',
    timeoutMs: request.timeoutMs ?? options.timeoutMs,
  };
  const { signal } = call;
  let tries = 1;
  let refreshed = false;

  try {
    for (;;) {
      if (signal.aborted) throw abortReason(signal);
      const attempt = await attemptOnce(p, call, sent + 1);
      if (attempt.sent) sent += 1;
      const { response } = attempt;
      if (response?.ok && attempt.error === undefined) {
        const requestId = response.headers.get('x-request-id') ?? undefined;
        return { status: response.status, headers: response.headers, requestId, data: attempt.data as T };
      }
      if (signal.aborted) {
        await response?.body?.cancel().catch(() => undefined);
        throw abortReason(signal);
      }
      const error = response && !response.ok
        ? errorFromResponse({
          status: response.status, body: attempt.errorBody, headers: response.headers, origin: 'api',
          method: request.method, url, now: options.now(), redactor: p.redactor,
        })
        : attempt.error;
      lastError = error;
      const step = nextStep({
        error, status: response?.ok ? undefined : response?.status, tries, refreshed,
        bearerSent: attempt.accessToken !== undefined, policy,
        failureStreak: limiter.failureStreak, pauseRemainingMs: limiter.pauseRemaining(), random: p.random,
      });
      // One 429 or 5xx slows every call with this API key: pause them all (Retry-After when given).
      if (step.action !== 'refresh-token' && step.pauseKeyMs !== undefined) limiter.cooldown(step.pauseKeyMs);
      if (step.action === 'fail') throw error;
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
  } catch (error) {
    // The deadline's abort carries the DeadlineError itself; the caller's abort stays the caller's reason.
    const final = deadline.fired() && !call.callerSignal?.aborted ? abortReason(deadline.signal) : error;
    throw isPartnerLearningError(final) ? withAttempts(final, sent) : final;
  } finally {
    // A PDF stream flows on after this: bounded by the caller's signal only, never cut by a deadline of the past.
    deadline.clear();
  }
}

/** Reads a success's body as the request wants it: JSON (capped, a record), the PDF stream, or nothing. */
async function readData(response: Response, request: ApiRequest, url: string, p: Pipeline): Promise<unknown> {
  const type = request.responseType ?? 'json';
  if (type === 'stream') return response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  if (type === 'none') {
    await response.body?.cancel();
    return undefined;
  }
  const parsed = parseBody(await readText(response, { maxBytes: p.options.maxResponseBytes }));
  const invalid = (message: string, hint: string) => new InvalidResponseError({
    origin: 'api', status: response.status, method: request.method, url, redactor: p.redactor,
    requestId: response.headers.get('x-request-id') ?? undefined, message, hint,
  });
  if (!parsed.ok && parsed.reason === 'too-deep') {
    throw invalid(`The service answered with JSON nested deeper than ${MAX_JSON_DEPTH} levels`, 'No record of the service nests so deep: check that baseUrl points at the Partner Learning API');
  }
  if (!parsed.ok) throw invalid('The service answered with a body that is not JSON', 'Check that baseUrl points at the Partner Learning API');
  const value = parsed.value;
  // Every JSON endpoint answers a record or a collection, which are objects: anything else is not the service's.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const got = value === undefined ? 'an empty body' : value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw invalid(`The service answered ${response.status} with ${got} where a JSON object was expected`, 'Check that baseUrl points at the Partner Learning API; a proxy in between may be answering instead');
  }
  return value;
}

/** Maps what reading a success's body threw: over the cap, cut off mid-body, or a timer/caller abort (kept). */
function bodyFailure(error: unknown, response: Response, request: ApiRequest, url: string, p: Pipeline): unknown {
  if (isPartnerLearningError(error)) return error;
  const context = {
    method: request.method, url, redactor: p.redactor, status: response.status,
    requestId: response.headers.get('x-request-id') ?? undefined,
  };
  if (error instanceof BodyTooLargeError) {
    return new InvalidResponseError({
      ...context, origin: 'api',
      message: `The service's answer is larger than maxResponseBytes (${error.maxBytes} bytes); it was not read further`,
      hint: 'No page of the service is that large: check baseUrl, or raise maxResponseBytes if you asked for huge pages',
    });
  }
  // An abort (a timer of this call, or the caller) rejects with its own reason: leave it for the loop to judge.
  if (error instanceof DOMException && error.name === 'AbortError') return error;
  // Cut off mid-body (a dropped connection, a Content-Length that lies): the answer is unusable, but sending again
  // may well work, so it is retried like a network failure.
  const cause = error instanceof Error ? error : undefined;
  return new InvalidResponseError({
    ...context, origin: 'network', cause, retryable: true,
    message: `The connection broke while the service's answer was being read${cause ? `: ${cause.message}` : ''}`,
    hint: 'It is retried with backoff like any network failure',
  });
}

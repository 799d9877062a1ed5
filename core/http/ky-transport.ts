/**
 * The ky driver's attempt: headers built from scratch, the bearer token (read once the call's turn has come, so a
 * call queued behind a refresh sends the new one), one ky request within the attempt's timeout, and the body read
 * as the request wants it. The loop around it (limiter, retries, the 401 refresh, the deadline) is `run-call.ts`,
 * shared with every driver.
 */
import type { KyInstance } from 'ky';
import type { ApiRequest, ApiResponse, Transport } from '../transport.ts';
import type { StoredToken } from '../types/options.ts';
import { TokenProvider } from '../auth/token-provider.ts';
import { isPartnerLearningError } from '../errors/base.ts';
import { InvalidResponseError } from '../errors/invalid-response-error.ts';
import { TimeoutError } from '../errors/timeout-error.ts';
import { createLog, type Log } from '../log.ts';
import type { NormalizedOptions } from '../options.ts';
import { basicCredential, createRedactor, type Redactor } from '../redact.ts';
import { abortReason, checkSignal } from '../signal.ts';
import { limiterFor } from './key-limiters.ts';
import { abortAfter, anySignal } from './deadline.ts';
import { BodyTooLargeError, MAX_JSON_DEPTH, parseBody, readJsonOrText, readText } from './read-body.ts';
import { runCall, type Attempt, type AttemptInput, type CallSettings } from './run-call.ts';
import { createHttp, sendOnce } from './send.ts';

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
  const log = createLog(options.logger, redactor, options.logLevel);
  const tokens = new TokenProvider({ ...options, http, log, redactor });
  const driver: Driver = { options, http, log, tokens, redactor };
  const settings: CallSettings = {
    baseUrl: options.baseUrl, limiter: limiterFor(options), retry: options.retry, timeoutMs: options.timeoutMs,
    deadlineMs: options.deadlineMs, now: options.now, redactor, log, random: extras.random ?? Math.random, abortAfter,
  };
  const calls = {
    attempt: (input: AttemptInput) => attemptOnce(driver, input),
    invalidate: (accessToken: string) => tokens.invalidate(accessToken),
  };
  return {
    baseUrl: options.baseUrl,
    token: (signal) => tokens.getToken(signal),
    now: () => options.now(),
    sleep: (ms, signal) => options.sleep(ms, signal),
    // Every resource method comes through here, so a bad signal is refused for all of them before any work.
    request: async <T>(request: ApiRequest): Promise<ApiResponse<T>> => {
      checkSignal(request.signal);
      return runCall<T>(request, settings, calls);
    },
  };
}

interface Driver {
  options: NormalizedOptions;
  http: KyInstance;
  log: Log;
  tokens: TokenProvider;
  redactor: Redactor;
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

/**
 * One attempt: the token, then the request and, for a success, its body, all within `timeoutMs` (a PDF: until the
 * headers). Never throws.
 */
async function attemptOnce(p: Driver, call: AttemptInput): Promise<Attempt> {
  const { options, log } = p;
  const { request, url, signal } = call;
  let accessToken: string | undefined;
  let headers: Headers;
  try {
    accessToken = (request.auth ?? 'bearer') === 'bearer' ? (await p.tokens.getToken(signal)).accessToken : undefined;
    if (signal.aborted) throw abortReason(signal);
    headers = buildHeaders(request, options.apiKey, accessToken);
  } catch (error) {
    return { error, sent: false };
  }
  log.debug('request', { method: request.method, url, attempt: call.number });
  const started = options.now();
  // One timer bounds the attempt, headers and body: this one, or the call's deadline when it comes first. ky's own
  // is off (sendOnce without timeoutMs); a timer per attempt showed in the relay's profile.
  const timer = call.deadlineFirst ? undefined : abortAfter(call.timeoutMs, () => new TimeoutError({
    method: request.method, url, origin: 'network', redactor: p.redactor,
    message: `The service did not answer within ${call.timeoutMs} ms`,
    hint: 'It is retried with backoff; raise timeoutMs if the service is just slow',
  }));
  try {
    let response: Response;
    try {
      response = await sendOnce(p.http, {
        method: request.method, url, headers, body: call.body,
        signal: anySignal(signal, timer?.signal), origin: 'api', redactor: p.redactor,
      });
    } catch (error) {
      return { error, sent: true, accessToken };
    }
    const answer = { status: response.status, headers: response.headers, sent: true, accessToken };
    log.debug('response', {
      method: request.method, url, attempt: call.number, status: response.status,
      requestId: response.headers.get('x-request-id') ?? undefined, ms: options.now() - started,
    });
    if (!response.ok) {
      // Read within this attempt's timeout too: an error body that drips must not hold the call until its deadline.
      return { ...answer, errorBody: await readJsonOrText(response).catch(() => undefined) };
    }
    try {
      return { ...answer, data: await readData(response, request, url, p) };
    } catch (error) {
      return { ...answer, error: bodyFailure(error, response, request, url, p) };
    }
  } finally {
    timer?.clear();
  }
}

/** Reads a success's body as the request wants it: JSON (capped, a record), the PDF stream, or nothing. */
async function readData(response: Response, request: ApiRequest, url: string, p: Driver): Promise<unknown> {
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
function bodyFailure(error: unknown, response: Response, request: ApiRequest, url: string, p: Driver): unknown {
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

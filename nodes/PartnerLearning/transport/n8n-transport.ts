/**
 * The n8n driver: the core's `Transport` on n8n's own `httpRequestWithAuthentication`, so n8n's proxy settings, SSRF
 * policy, allowed domains, execution cancellation and the token cached in the credential apply. Paths, headers,
 * bodies, validation, pagination and the mapping of answers to errors stay the core's; this file only sends and
 * retries by the core's policy, behind the core's limiter of the API key (which waits with n8n's `sleep`).
 */
import type { IExecuteFunctions, IHttpRequestOptions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import {
  ApplicationError,
  callPolicy,
  createRedactor,
  errorFromResponse,
  isPartnerLearningError,
  NetworkError,
  nextStep,
  parseJsonOrText,
  resolveRequestUrl,
  TimeoutError,
  withAttempts,
  type ApiRequest,
  type ApiResponse,
  type Outcome,
  type Redactor,
  type RetryPolicy,
  type Transport,
} from '../../../core/protocol.ts';
import { limiterForKey, PROCESS_CLOCK, type LimiterClock } from './key-limiter.ts';
import { sendAttempt, type FullResponse } from './n8n-attempt.ts';
import { asPartnerLearningError, responseOf } from './n8n-errors.ts';

/** The credential type every request authenticates with. */
export const CREDENTIAL_TYPE = 'partnerLearningApi';

/** The core client's defaults (DESIGN: 1, 2, 4, 8 … s capped at 30 s, about 5 tries). */
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000 };
const TIMEOUT_MS = 30_000;
const JSON_ACCEPT = 'application/ld+json, application/json';

/** The n8n contexts that may send requests. */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** What {@link createN8nTransport} needs besides the context. */
export interface N8nTransportInit {
  /** The credential's base URL (`…/v1`, no trailing slash). */
  baseUrl: string;
  /** The credential's API key: only its hash keys the shared limiter (n8n itself adds the header). */
  apiKey: string;
  retry?: RetryPolicy;
  /** Jitter source, uniform in [0, 1). */
  random?: () => number;
  /**
   * `Date.now` and n8n's `sleep` by default (no timers of our own). Transports share a key's limiter only when they
   * share the clock object.
   */
  clock?: LimiterClock;
}

/** What one attempt gave: an answer or what was thrown, and what the limiter learns from it. */
type Attempt = { response: FullResponse; outcome: Outcome } | { error: unknown; outcome: Outcome };

function outcomeOf(status: number): Outcome {
  if (status >= 200 && status < 300) return 'success';
  if (status === 429) return 'throttled';
  return status >= 500 ? 'server-error' : 'other';
}

/** A failure of the token request (n8n's `preAuthentication`) means the API call never went out. */
function failureOutcome(thrown: unknown): Outcome {
  const known = asPartnerLearningError(thrown) as { origin?: unknown; status?: number } | undefined;
  if (known?.origin === 'token-endpoint') return 'not-sent';
  const status = responseOf(thrown)?.status ?? known?.status;
  return status === undefined ? 'no-answer' : outcomeOf(status);
}

function optionsFor(request: ApiRequest, url: string): IHttpRequestOptions {
  const stream = request.responseType === 'stream';
  const headers: Record<string, string> = { Accept: stream ? 'application/pdf' : JSON_ACCEPT };
  if (request.userId !== undefined) headers['X-User-ID'] = request.userId;
  let body: string | undefined;
  if (request.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.mergePatch !== undefined) {
    headers['Content-Type'] = 'application/merge-patch+json';
    body = JSON.stringify(request.mergePatch);
  }
  return {
    method: request.method,
    url,
    headers,
    body,
    json: false,
    // JSON, not text: n8n 1.x keeps an error answer's body only when it is a parsed object (see n8n-attempt.ts).
    encoding: stream ? 'stream' : 'json',
    // Every status comes back as an answer for the core's error factory (sendAttempt reads a non-2xx one back from
    // n8n's error, after n8n has fetched a fresh token and sent once more on a 401).
    returnFullResponse: true,
    // fetch-style redirects would forward x-api-key to whatever origin a 3xx names: a 3xx is an answer.
    disableFollowRedirect: true,
    timeout: request.timeoutMs ?? TIMEOUT_MS,
  };
}

/**
 * Creates the transport for one node run (one execution's context; the limiter is shared beyond it).
 *
 * @param ctx The node's `this`.
 * @param init Base URL, API key and optional hooks.
 * @returns A core `Transport`: pass it to `clientOnTransport`.
 */
export function createN8nTransport(ctx: RequestContext, init: N8nTransportInit): Transport {
  const baseUrl = init.baseUrl.replace(/\/+$/, '');
  const clock = init.clock ?? PROCESS_CLOCK;
  const now = clock.now;
  const policy = init.retry ?? DEFAULT_RETRY;
  const random = init.random ?? Math.random;
  const limiter = limiterForKey(init.apiKey, clock);
  // n8n adds the credentials itself; the API key is the one this driver knows, so a service that echoes it in an
  // error text never puts it into an n8n output (the client secret never reaches the API: n8n sends it only to the
  // token endpoint, from the credential).
  const redactor = createRedactor([init.apiKey]);

  // Never throws: the caller records the outcome exactly once per acquired slot.
  const attemptOnce = async (request: ApiRequest, url: string): Promise<Attempt> => {
    let options: IHttpRequestOptions;
    try {
      options = optionsFor(request, url);
    } catch (error) {
      return { error, outcome: 'not-sent' };
    }
    const sent = await sendAttempt(ctx, CREDENTIAL_TYPE, options);
    if ('response' in sent) return { response: sent.response, outcome: outcomeOf(sent.response.statusCode) };
    const error = await failureOf(sent.thrown, request, url, now(), redactor).catch(() => sent.thrown);
    return { error, outcome: failureOutcome(sent.thrown) };
  };

  return {
    baseUrl,
    now: () => now(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    async request<T>(request: ApiRequest): Promise<ApiResponse<T>> {
      const url = resolveRequestUrl(baseUrl, request);
      const callRetry = callPolicy(policy, request.retry);
      let tries = 1;
      let sent = 0;
      for (;;) {
        await limiter.acquire(request.signal);
        const attempt = await attemptOnce(request, url);
        limiter.record(attempt.outcome);
        if (attempt.outcome !== 'not-sent') sent += 1;
        let error: unknown;
        let status: number | undefined;
        if ('response' in attempt) {
          try {
            const response = attempt.response;
            const headers = toHeaders(response.headers);
            status = response.statusCode;
            const requestId = headers.get('x-request-id') ?? undefined;
            if (status >= 200 && status < 300) {
              return { status, headers, requestId, data: (await readData(response, request, url)) as T };
            }
            error = errorFromResponse({
              status, body: await readText(response.body), headers, origin: 'api', method: request.method, url, now: now(), redactor,
            });
          } catch (thrown) {
            error = thrown;
          }
        } else {
          error = attempt.error;
          status = (asPartnerLearningError(error) as { status?: number } | undefined)?.status;
        }
        // n8n has already fetched a fresh token and retried once when a 401 reaches us: never refresh again here.
        const step = nextStep({
          error, status, tries, refreshed: true, bearerSent: true, policy: callRetry,
          failureStreak: limiter.failureStreak, pauseRemainingMs: limiter.pauseRemaining(), random,
        });
        // One 429 or 5xx slows every call with this API key: pause them all (Retry-After when given).
        if (step.action !== 'refresh-token' && step.pauseKeyMs !== undefined) limiter.cooldown(step.pauseKeyMs);
        if (step.action !== 'retry') throw isPartnerLearningError(error) ? withAttempts(error, sent) : error;
        tries += 1;
        // Counted by the limiter as time passed, so its gate does not make the call sleep a second time.
        await limiter.wait(step.waitMs, request.signal);
      }
    },
  };
}

/** Turns what `httpRequestWithAuthentication` threw into the core's error (401, token endpoint, network, timeout). */
async function failureOf(error: unknown, request: ApiRequest, url: string, now: number, redactor: Redactor): Promise<unknown> {
  const known = asPartnerLearningError(error);
  if (known) return known;
  const answer = responseOf(error);
  if (answer) {
    return errorFromResponse({
      status: answer.status, body: await readText(answer.data), headers: toHeaders(answer.headers ?? {}),
      origin: 'api', method: request.method, url, now, redactor,
    });
  }
  const code = codeOf(error);
  const context = { method: request.method, url, origin: 'network' as const, redactor };
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(messageOf(error))) {
    return new TimeoutError({
      ...context,
      message: `No answer from the service within ${TIMEOUT_MS} ms; it is retried with backoff`,
    });
  }
  return new NetworkError({
    ...context,
    message: `Could not reach the service${code ? ` (${code})` : ''}. Check the base URL in the credential, DNS and network connectivity, and that n8n's allowed domains include the API host`,
  });
}

function codeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : '';
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  return headers;
}

interface NodeStream {
  destroy(): void;
  [Symbol.asyncIterator](): AsyncIterator<unknown>;
}

function isStream(value: unknown): value is NodeStream {
  return typeof value === 'object' && value !== null && typeof (value as NodeStream).destroy === 'function'
    && typeof (value as NodeStream)[Symbol.asyncIterator] === 'function';
}

/** The body as text (an error answer to a PDF request arrives as a stream). */
async function readText(body: unknown): Promise<unknown> {
  if (isStream(body)) {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return parseJsonOrText(Buffer.concat(chunks).toString('utf8'));
  }
  if (Buffer.isBuffer(body)) return parseJsonOrText(body.toString('utf8'));
  return typeof body === 'string' ? parseJsonOrText(body) : body;
}

async function readData(response: FullResponse, request: ApiRequest, url: string): Promise<unknown> {
  const type = request.responseType ?? 'json';
  if (type === 'stream') {
    // n8n's binary helpers stream a Node Readable to disk; the core only needs `cancel()` on a body it refuses.
    const body = response.body;
    if (isStream(body)) Object.assign(body, { cancel: async () => body.destroy() });
    return body;
  }
  if (type === 'none') return undefined;
  const parsed = await readText(response.body);
  if (typeof parsed === 'string') {
    throw new ApplicationError({
      origin: 'api', status: response.statusCode, method: request.method, url,
      message: 'The service answered with a body that is not JSON; check that the base URL in the credential points at the Partner Learning API',
    });
  }
  return parsed;
}

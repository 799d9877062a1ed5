/**
 * The n8n driver: the core's `Transport` on n8n's own `httpRequestWithAuthentication`, so n8n's proxy settings, SSRF
 * policy, allowed domains, execution cancellation and the token cached in the credential apply. Paths, headers,
 * bodies, validation, pagination, the retry loop and the mapping of answers to errors stay the core's (`runCall`,
 * behind the core's limiter of the API key, which waits with n8n's `sleep`); this file supplies only the attempt.
 */
import type { IExecuteFunctions, IHttpRequestOptions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import {
  ApplicationError,
  CALL_DEFAULTS,
  createRedactor,
  NetworkError,
  parseJsonOrText,
  runCall,
  TimeoutError,
  type ApiRequest,
  type Attempt,
  type AttemptInput,
  type CallSettings,
  type Redactor,
  type RetryPolicy,
  type Transport,
} from '../../../core/protocol.ts';
import { helperFetch, limiterForKey, PROCESS_CLOCK, type LimiterClock } from './key-limiter.ts';
import { sendAttempt, type FullResponse } from './n8n-attempt.ts';
import { asPartnerLearningError } from './n8n-errors.ts';

/** The credential type every request authenticates with. */
export const CREDENTIAL_TYPE = 'partnerLearningApi';

const JSON_ACCEPT = 'application/ld+json, application/json';

/** The n8n contexts that may send requests. */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** What {@link createN8nTransport} needs besides the context. */
export interface N8nTransportInit {
  /** The credential's base URL (`…/v1`, no trailing slash). */
  baseUrl: string;
  /** The credential's API key: only its hash keys the shared limiter (n8n itself adds the header). */
  apiKey: string;
  /** The credential's limiter host, if it names one: the key's line is then shared with every process using it. */
  limiterHost?: { url: string; token?: string | undefined } | undefined;
  /** Over the core's default policy. */
  retry?: RetryPolicy;
  /** Jitter source, uniform in [0, 1). */
  random?: () => number;
  /**
   * `Date.now` and n8n's `sleep` by default (no timers of our own). Transports share a key's limiter only when they
   * share the clock object.
   */
  clock?: LimiterClock;
}

function optionsFor(call: AttemptInput): IHttpRequestOptions {
  const { request } = call;
  const stream = request.responseType === 'stream';
  const headers: Record<string, string> = { Accept: stream ? 'application/pdf' : JSON_ACCEPT };
  if (request.userId !== undefined) headers['X-User-ID'] = request.userId;
  if (request.json !== undefined) headers['Content-Type'] = 'application/json';
  else if (request.mergePatch !== undefined) headers['Content-Type'] = 'application/merge-patch+json';
  return {
    method: request.method,
    url: call.url,
    headers,
    body: call.body,
    json: false,
    // JSON, not text: n8n 1.x keeps an error answer's body only when it is a parsed object (see n8n-attempt.ts).
    encoding: stream ? 'stream' : 'json',
    // Every status comes back as an answer for the core's error factory (sendAttempt reads a non-2xx one back from
    // n8n's error, after n8n has fetched a fresh token and sent once more on a 401).
    returnFullResponse: true,
    // fetch-style redirects would forward x-api-key to whatever origin a 3xx names: a 3xx is an answer.
    disableFollowRedirect: true,
    timeout: call.timeoutMs,
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
  // n8n adds the credentials itself; the API key is the one this driver knows, so a service that echoes it in an
  // error text never puts it into an n8n output (the client secret never reaches the API: n8n sends it only to the
  // token endpoint, from the credential).
  const redactor = createRedactor([init.apiKey, ...(init.limiterHost?.token ? [init.limiterHost.token] : [])]);
  // No deadline timer (the package may use no timers): n8n cancels executions itself, and each attempt has n8n's
  // own request timeout. n8n refreshes the token after a 401 itself, so the driver has no `invalidate`.
  const host = init.limiterHost && {
    ...init.limiterHost, fetch: helperFetch(ctx), warn: (message: string) => ctx.logger.warn(message),
  };
  const settings: CallSettings = {
    baseUrl, limiter: limiterForKey(init.apiKey, clock, host), retry: init.retry ?? CALL_DEFAULTS.retry,
    timeoutMs: CALL_DEFAULTS.timeoutMs, deadlineMs: CALL_DEFAULTS.deadlineMs, now: clock.now, redactor,
    random: init.random ?? Math.random,
  };

  const attempt = async (call: AttemptInput): Promise<Attempt> => {
    let options: IHttpRequestOptions;
    try {
      options = optionsFor(call);
    } catch (error) {
      return { error, sent: false };
    }
    const sent = await sendAttempt(ctx, CREDENTIAL_TYPE, options);
    if ('thrown' in sent) return failedAttempt(sent.thrown, call, redactor);
    const { response } = sent;
    const answer = { sent: true, status: response.statusCode, headers: toHeaders(response.headers) };
    if (response.statusCode < 200 || response.statusCode >= 300) {
      return { ...answer, errorBody: await readText(response.body).catch(() => undefined) };
    }
    try {
      return { ...answer, data: await readData(response, call.request, call.url) };
    } catch (error) {
      return { ...answer, error };
    }
  };

  return {
    baseUrl,
    now: () => clock.now(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    request: (request) => runCall(request, settings, { attempt }),
  };
}

/**
 * What `sendAttempt` could not turn into an answer, as an attempt: a failed token request (nothing sent), a core
 * error, or no answer at all (network, timeout). HTTP answers, 401 included, come back from `sendAttempt` itself.
 */
function failedAttempt(thrown: unknown, call: AttemptInput, redactor: Redactor): Attempt {
  const known = asPartnerLearningError(thrown);
  // A failure of the token request (n8n's `preAuthentication`) means the API call never went out.
  if (known) return { error: known, sent: (known as { origin?: unknown }).origin !== 'token-endpoint' };
  return { error: failureOf(thrown, call.request, call.url, call.timeoutMs, redactor), sent: true };
}

/** A failure without an HTTP answer: a timeout or a network error that says what to check. */
function failureOf(error: unknown, request: ApiRequest, url: string, timeoutMs: number, redactor: Redactor): unknown {
  const code = codeOf(error);
  const context = { method: request.method, url, origin: 'network' as const, redactor };
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(messageOf(error))) {
    return new TimeoutError({
      ...context,
      message: `No answer from the service within ${timeoutMs} ms; it is retried with backoff`,
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

import type { ErrorCode } from './codes.ts';
import { redact, type Redactor } from '../redact.ts';

/** Where an error came from: the API application, the API gateway, the token endpoint, this client, or the wire. */
export type ErrorOrigin = 'api' | 'gateway' | 'token-endpoint' | 'client' | 'network';

/** What every error constructor takes. `message` says what happened; `hint` what to do; method and URL are appended. */
export interface ErrorInit {
  message: string;
  /** What to do about it (shown apart from the message). */
  hint?: string;
  origin: ErrorOrigin;
  status?: number;
  requestId?: string;
  /** Defaults per class (429 throttling, 5xx, network and timeout are retryable). */
  retryable?: boolean;
  /** The wait the service asked for (`Retry-After` on a 429 or 503), when it sent one. */
  retryAfterMs?: number;
  method?: string;
  /** The request URL; user info and sensitive query values are removed before it is stored. */
  url?: string;
  cause?: unknown;
  /**
   * Removes secrets from message, hint, URL and cause: the client's own redactor (which knows its secret values) in
   * the pipeline; the generic patterns when absent. Used once, here; not kept on the error.
   */
  redactor?: Redactor;
}

/** Marks the client's errors across copies of the class (the ESM and CommonJS builds in one process). */
const BRAND = Symbol.for('partner-learning-client.error');

/**
 * The base of every error the client throws. Switch on `code` (stable, see `ErrorCode`) or use `instanceof` on the
 * subclasses (or {@link isPartnerLearningError}, which also works across the ESM and CommonJS builds). Messages,
 * hints and URLs are redacted: they never contain a secret, an API key or a token.
 *
 * @example
 * try { await client.users.get(uuid); }
 * catch (error) {
 *   if (error instanceof PartnerLearningError && error.code === 'not_found') { … }
 * }
 */
export class PartnerLearningError extends Error {
  override name: string = 'PartnerLearningError';
  readonly code: ErrorCode;
  /** What to do about it, when there is advice (the message says what happened). */
  readonly hint?: string;
  readonly status?: number;
  readonly requestId?: string;
  readonly retryable: boolean;
  /** The wait the service asked for (`Retry-After`), when it sent one. */
  readonly retryAfterMs?: number;
  readonly origin: ErrorOrigin;
  readonly method?: string;
  readonly url?: string;
  /** How many requests this call sent before giving up (set by the pipeline; absent for errors before sending). */
  readonly attempts?: number;

  /**
   * @param code The stable code of the subclass.
   * @param init Message and context.
   * @param retryableByDefault Used when `init.retryable` is not given.
   */
  constructor(code: ErrorCode, init: ErrorInit, retryableByDefault = false) {
    const redactor = init.redactor ?? redact;
    const url = init.url === undefined ? undefined : redactor.url(init.url);
    const cause = sanitizeCause(init.cause, 0, redactor);
    const requestId = cleanRequestId(redactor, init.requestId);
    super(composeMessage(redactor, init.message, init.method, url, requestId), cause === undefined ? undefined : { cause });
    this.code = code;
    if (init.hint !== undefined) this.hint = sentence(redactor.text(init.hint));
    this.status = init.status;
    if (requestId !== undefined) this.requestId = requestId;
    this.retryable = init.retryable ?? retryableByDefault;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    this.origin = init.origin;
    this.method = init.method;
    this.url = url;
  }

  /**
   * What `JSON.stringify(error)` shows: name, message, hint and the public fields (never the `cause`).
   *
   * @returns A plain, secret-free object.
   */
  toJSON(): Record<string, unknown> {
    return { ...(this as object), name: this.name, message: this.message };
  }
}

Object.defineProperty(PartnerLearningError.prototype, BRAND, { value: true });

/**
 * Whether a value is one of this client's errors, from whichever copy of the package threw it (ESM or CommonJS
 * build, or two installed versions): checks a registered-symbol brand, not `instanceof`.
 *
 * @param value Anything caught.
 * @returns `true` for a `PartnerLearningError` (any subclass).
 * @example
 * catch (error) { if (isPartnerLearningError(error) && error.retryable) … }
 */
export function isPartnerLearningError(value: unknown): value is PartnerLearningError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * Records how many requests a call sent on the error it ends with (the pipeline's bookkeeping; read-only outside).
 *
 * @param error The error the call ends with.
 * @param attempts Requests sent.
 * @returns The same error.
 */
export function withAttempts<E extends PartnerLearningError>(error: E, attempts: number): E {
  Object.defineProperty(error, 'attempts', { value: attempts, enumerable: true, configurable: true, writable: false });
  return error;
}

/**
 * Text as one sentence: trailing whitespace and full stops removed, then exactly one period (a service's own
 * "Not found." inside our message must not end in "..").
 *
 * @param text Any text.
 * @returns The text ending with a single `.` (empty stays empty).
 */
export function sentence(text: string): string {
  const trimmed = stripPeriods(text);
  return trimmed === '' ? '' : `${trimmed}.`;
}

/**
 * @param text Any text.
 * @returns The text without trailing whitespace and full stops.
 */
export function stripPeriods(text: string): string {
  return text.replace(/[\s.]+$/u, '');
}

const MAX_CAUSE_DEPTH = 3;

/**
 * A copy of an underlying error that keeps what helps diagnose (name, message, a `code` such as `ECONNREFUSED`,
 * its own cause) and nothing else: errors from `fetch` implementations or ky may carry the `Request` with its
 * `Authorization` and `x-api-key` headers, which `util.inspect(error)` would print through `cause`.
 */
function sanitizeCause(value: unknown, depth: number, redactor: Redactor): unknown {
  if (value === undefined || value === null) return undefined;
  if (depth >= MAX_CAUSE_DEPTH) return undefined;
  if (!(value instanceof Error)) return redactor.value(value);
  const inner = sanitizeCause((value as { cause?: unknown }).cause, depth + 1, redactor);
  const copy = new Error(redactor.text(value.message), inner === undefined ? undefined : { cause: inner });
  copy.name = value.name;
  copy.stack = value.stack === undefined ? undefined : redactor.text(value.stack);
  const code = (value as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') Object.assign(copy, { code });
  return copy;
}

const MAX_REQUEST_ID = 128;

/**
 * The service's `x-request-id` as it may be stored: it is text from the service like any other (a misbehaving
 * upstream echoes what it received there), so it is redacted and cut to 128 characters; an empty one is dropped.
 */
function cleanRequestId(redactor: Redactor, requestId: string | undefined): string | undefined {
  if (requestId === undefined) return undefined;
  const clean = redactor.text(requestId.trim()).slice(0, MAX_REQUEST_ID);
  return clean === '' ? undefined : clean;
}

function composeMessage(redactor: Redactor, message: string, method?: string, url?: string, requestId?: string): string {
  const where = method && url ? ` (${method} ${url})` : url ? ` (${url})` : '';
  const id = requestId ? ` [request id ${requestId}]` : '';
  return sentence(redactor.text(`${stripPeriods(message)}${where}${id}`));
}

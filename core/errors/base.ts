import type { ErrorCode } from './codes.ts';
import { redact } from '../redact.ts';

/** Where an error came from: the API application, the API gateway, the token endpoint, this client, or the wire. */
export type ErrorOrigin = 'api' | 'gateway' | 'token-endpoint' | 'client' | 'network';

/** What every error constructor takes. `message` says what happened and what to do; method and URL are appended. */
export interface ErrorInit {
  message: string;
  origin: ErrorOrigin;
  status?: number;
  requestId?: string;
  /** Defaults per class (429 throttling, 5xx, network and timeout are retryable). */
  retryable?: boolean;
  method?: string;
  /** The request URL; user info and sensitive query values are removed before it is stored. */
  url?: string;
  cause?: unknown;
}

/**
 * The base of every error the client throws. Switch on `code` (stable, see `ErrorCode`) or use `instanceof` on the
 * subclasses. Messages and URLs are redacted: they never contain a secret, an API key or a token.
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
  readonly status?: number;
  readonly requestId?: string;
  readonly retryable: boolean;
  readonly origin: ErrorOrigin;
  readonly method?: string;
  readonly url?: string;

  /**
   * @param code The stable code of the subclass.
   * @param init Message and context.
   * @param retryableByDefault Used when `init.retryable` is not given.
   */
  constructor(code: ErrorCode, init: ErrorInit, retryableByDefault = false) {
    const url = init.url === undefined ? undefined : redact.url(init.url);
    const cause = sanitizeCause(init.cause, 0);
    super(composeMessage(init.message, init.method, url, init.requestId), cause === undefined ? undefined : { cause });
    this.code = code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryable = init.retryable ?? retryableByDefault;
    this.origin = init.origin;
    this.method = init.method;
    this.url = url;
  }

  /**
   * What `JSON.stringify(error)` shows: name, message and the public fields (never the `cause`).
   *
   * @returns A plain, secret-free object.
   */
  toJSON(): Record<string, unknown> {
    return { ...(this as object), name: this.name, message: this.message };
  }
}

const MAX_CAUSE_DEPTH = 3;

/**
 * A copy of an underlying error that keeps what helps diagnose (name, message, a `code` such as `ECONNREFUSED`,
 * its own cause) and nothing else: errors from `fetch` implementations or ky may carry the `Request` with its
 * `Authorization` and `x-api-key` headers, which `util.inspect(error)` would print through `cause`.
 */
function sanitizeCause(value: unknown, depth: number): unknown {
  if (value === undefined || value === null) return undefined;
  if (depth >= MAX_CAUSE_DEPTH) return undefined;
  if (!(value instanceof Error)) return redact.value(value);
  const inner = sanitizeCause((value as { cause?: unknown }).cause, depth + 1);
  const copy = new Error(redact.text(value.message), inner === undefined ? undefined : { cause: inner });
  copy.name = value.name;
  copy.stack = value.stack === undefined ? undefined : redact.text(value.stack);
  const code = (value as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') Object.assign(copy, { code });
  return copy;
}

function composeMessage(message: string, method?: string, url?: string, requestId?: string): string {
  const where = method && url ? ` (${method} ${url})` : url ? ` (${url})` : '';
  const id = requestId ? ` [request id ${requestId}]` : '';
  return redact.text(`${message}${where}${id}`);
}

/**
 * The boundary between the resource groups (users, catalog, modules, …) and the HTTP pipeline (auth, throttling,
 * backoff, error mapping). Resource code builds an {@link ApiRequest}; the transport sends it and either returns an
 * {@link ApiResponse} or throws a `PartnerLearningError` subclass. Nothing else in the core speaks HTTP.
 */
import type { RetryOptions } from './types/options.ts';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface ApiRequest {
  method: HttpMethod;
  /**
   * Path relative to the base URL, starting with `/` (for example `/users/3f…`). Path parameters must already be
   * validated and URI-encoded by the caller.
   */
  path?: string;
  /**
   * A link the service returned (a Hydra `next` link: an origin-relative path such as `/sandbox/v1/courses?page=2`,
   * or an absolute URL). Used instead of `path` + `query`. The transport refuses a link that does not resolve under
   * the configured base URL, so a hostile link can never receive the credentials.
   */
  link?: string;
  /** Query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as `X-User-ID` (already validated as a UUID by the caller). */
  userId?: string;
  /** JSON body, sent with `Content-Type: application/json`. */
  json?: unknown;
  /** JSON merge-patch body, sent with `Content-Type: application/merge-patch+json`. */
  mergePatch?: unknown;
  /** `apiKeyOnly` sends only `x-api-key` (for `GET /ping`); default `bearer` sends both credentials. */
  auth?: 'bearer' | 'apiKeyOnly';
  /** `json` (default) parses the body; `stream` hands back the body unread; `none` discards it. */
  responseType?: 'json' | 'stream' | 'none';
  /** This call's retry policy over the client's (`false`: one attempt, no retry). */
  retry?: RetryOptions | false;
  /** This call's per-attempt timeout over the client's `timeoutMs`. */
  timeoutMs?: number;
  /** This call's overall deadline over the client's `deadlineMs`. */
  deadlineMs?: number;
  /** Cancels the call, including waits for throttling and backoff. Anything but an `AbortSignal` is refused. */
  signal?: AbortSignal;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  /** Parsed JSON (`json`), the unread body (`stream`), or `undefined` (`none`). */
  data: T;
  /** The service's `x-request-id`, when it sent one. */
  requestId?: string;
}

export interface Transport {
  request<T>(request: ApiRequest): Promise<ApiResponse<T>>;
  /** The normalized base URL, without trailing slash, ending in `/v1`. */
  readonly baseUrl: string;
  /** The injected clock, epoch milliseconds. */
  now(): number;
  /** The injected sleep, which rejects when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

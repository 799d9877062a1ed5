/**
 * The public shape of the client: options, pluggable parts and resource groups. Implementations live in their own
 * files; this file is the contract the n8n nodes, the edge relay and users program against.
 */
import type { ModuleContent } from './types.ts';
import type { Limiter } from './http/rate-limiter.ts';

/** A cached access token. `expiresAt` is epoch milliseconds (from the token's `exp`). */
export interface StoredToken {
  /** The bearer token (a JWT). Secret: never logged. */
  accessToken: string;
  /** When it expires, epoch milliseconds. */
  expiresAt: number;
  /** The granted scopes, space-separated, as the token's `scope` claim says. */
  scope: string;
}

/**
 * Where access tokens are cached between calls (memory by default; Workers KV or Deno KV in the relay). Methods may
 * be sync or async. Keys are opaque strings derived from (token URL, client ID, scopes) and contain no secret.
 */
export interface TokenStore {
  /**
   * @param key The cache key.
   * @returns The cached token, or `undefined` when there is none.
   */
  get(key: string): StoredToken | undefined | Promise<StoredToken | undefined>;
  /**
   * @param key The cache key.
   * @param token The token to keep until its `expiresAt`.
   */
  set(key: string, token: StoredToken): void | Promise<void>;
  /** @param key The cache key whose token was refused (a 401) and must not be used again. */
  delete(key: string): void | Promise<void>;
}

/** How much a log line matters. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Optional logger hook. Every field passed to it has credentials and tokens redacted. */
export type Logger = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

/** A usage plan's rate, when known (see `ClientOptions.rateLimit`). */
export interface RateLimitOptions {
  /** Steady request rate for this API key's usage plan. */
  requestsPerSecond: number;
  /** Requests allowed at once before the steady rate applies (default: one second's worth). */
  burst?: number;
}

/** Retries with exponential backoff and jitter, for the client (`ClientOptions.retry`) or one call. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 5). */
  maxAttempts?: number;
  /** First backoff delay (default 1000 ms); doubles per attempt, with jitter. */
  baseDelayMs?: number;
  /** Backoff cap (default 30000 ms). */
  maxDelayMs?: number;
}

/** What `createClient` takes. Checked once, at creation: a bad option is a `ConfigurationError`. */
export interface ClientOptions {
  /** Token endpoint, e.g. `https://auth.example.com/oauth2/token`. */
  tokenUrl: string;
  /** API base address ending in `/v1`, no trailing slash. */
  baseUrl: string;
  /** The OAuth2 client ID, 26 characters. */
  clientId: string;
  /** The OAuth2 client secret: sent only to the token endpoint, in the Basic header; never logged. */
  clientSecret: string;
  /** About 40 characters; sent only as `x-api-key`. */
  apiKey: string;
  /** Default `['partner-api/read', 'partner-api/write']`. */
  scopes?: string[];
  /** A label for logs and error messages, e.g. `sandbox` or `production`. */
  environment?: string;
  /** The `fetch` to send with (default: the runtime's); e.g. an in-process emulator's `fetch`. */
  fetch?: typeof fetch;
  /** The clock, epoch milliseconds (default `Date.now`). */
  now?: () => number;
  /** Resolves after `ms`; rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Where tokens are cached (default: a process-wide memory store). */
  tokenStore?: TokenStore;
  /** Receives log lines, credentials redacted (default: none). */
  logger?: Logger;
  /** A fixed rate, or `'adaptive'` (default): learn the plan's rate from 429s. */
  rateLimit?: RateLimitOptions | 'adaptive';
  /**
   * Throttling state to use, from `createLimiter({ now, sleep, rateLimit })`; pass the same one to clients that
   * should share a pause and a rate. Default: one per API key in the process on the runtime's clock, or, when `now`
   * or `sleep` is given, one of this client's own on that clock. Give the rate to `createLimiter`, not `rateLimit`.
   */
  limiter?: Limiter;
  /** Retries of every call (each call may override them). */
  retry?: RetryOptions;
  /** Timeout of each attempt, in milliseconds (default 30000; each call may override it). */
  timeoutMs?: number;
  /**
   * Let concurrent callers in this process share one in-flight token request. Default: `true`, except inside
   * Cloudflare Workers (detected by `navigator.userAgent`), where a promise created while handling one request must
   * not be awaited by another; resolved tokens are still shared through the token store either way.
   */
  shareInFlight?: boolean;
}

/**
 * What the service answered to one request, for callers that pass it on (the edge relay) or record it (n8n).
 * Reported through {@link CallOptions.onResponse}.
 */
export interface ResponseInfo {
  /** The HTTP status of the service's final answer (after any retries). */
  status: number;
  /** The service's `x-request-id`, when it sent one (quote it to support). */
  requestId?: string;
  /**
   * Allowlisted response headers, lower-case names: `content-type`, `content-length`, `content-disposition`,
   * `cache-control`, `retry-after`, `x-request-id`. Others are never passed on.
   */
  headers: Record<string, string>;
  /**
   * The parsed JSON exactly as the service sent it (for a collection, the whole Hydra page with `hydra:view`);
   * `undefined` for a stream (PDF) or an empty body. Not a copy: it shares objects with what the call returns, so
   * copy it before changing it.
   */
  body?: unknown;
}

/** Options every call takes. Each is checked before anything is sent (a bad one is a `ValidationError`). */
export interface CallOptions {
  /** Cancels the call, including waits for throttling and backoff. */
  signal?: AbortSignal;
  /**
   * Retries for this call only, over the client's `retry` option (fields left out keep the client's values);
   * `false` makes exactly one attempt (for callers that retry themselves, such as n8n's "Retry On Fail").
   */
  retry?: RetryOptions | false;
  /** Per-attempt timeout for this call only, in milliseconds (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /**
   * Called with the service's final answer once per request that succeeded: once for a single call, once per page
   * fetched for a collection. A call that fails throws instead (the error carries status and request id). An
   * exception thrown here rejects the call.
   */
  onResponse?: (response: ResponseInfo) => void;
}

/** Per-call options of user-scoped endpoints. */
export interface LearnerScope extends CallOptions {
  /** The learner's UUID, sent as `X-User-ID`. */
  userId: string;
}

/** Options of a collection's `list` and `page`. Dates are ISO 8601 date-times with a time zone. */
export interface ListOptions extends CallOptions {
  /** `itemsPerPage`, 1 to 100 (the service caps it). */
  pageSize?: number;
  /** The page to start at, 1-based (API Platform's `page`). */
  page?: number;
  /** Records updated at or after this instant (`updatedAt[after]`, inclusive). */
  updatedAfter?: string;
  /** Records updated after this instant (`updatedAt[strictly_after]`). */
  updatedStrictlyAfter?: string;
  /** Records updated at or before this instant (`updatedAt[before]`, inclusive). */
  updatedBefore?: string;
  /** Records updated before this instant (`updatedAt[strictly_before]`). */
  updatedStrictlyBefore?: string;
}

/**
 * Options of a collection's `page`: the list options for the first page (or the page `page` names), or the
 * `cursor` of an earlier page to get the one after it. A cursor carries the list's query, so it is given alone
 * (with call options only): a cursor together with `page`, `pageSize` or a date filter is a `ValidationError`.
 */
export interface PageOptions extends ListOptions {
  /** An earlier page's `next`, passed back unchanged. It must belong to this same collection. */
  cursor?: string;
}

/** One page of a collection. */
export interface Page<T> {
  /** The page's records. */
  items: T[];
  /** `hydra:totalItems`, when the service sent it. */
  totalItems?: number;
  /**
   * An opaque cursor for the following page (the service's next link, absolute or origin-relative); absent on the
   * last page. Pass it back as `cursor` to `page()`; it may be stored (it holds no secret) but expires with the data.
   */
  next?: string;
}

/**
 * A collection that follows the service's next links: `for await (const x of list)` for items, `.pages()` for
 * pages, `.toArray({ max })` to collect with a required cap.
 */
export interface Paginated<T> extends AsyncIterable<T> {
  /** @returns The pages in order, each fetched when the previous one has been consumed. */
  pages(): AsyncIterable<Page<T>>;
  /**
   * Collects at most `max` items; stops fetching once it has them.
   *
   * @param options `max`: a positive whole number, or `Infinity` for all (n8n's "Return All").
   * @returns The items.
   * @throws {ValidationError} when `max` is missing or not a positive whole number or `Infinity`.
   */
  toArray(options: { max: number }): Promise<T[]>;
}

/**
 * Where a delta sync got to: the greatest `updatedAt` seen and the ids already delivered at exactly that instant
 * (`updatedAt[after]` is inclusive, so they come again). JSON-serializable: persist it between runs.
 */
export interface Watermark {
  /** The greatest `updatedAt` delivered, as the service wrote it (an ISO 8601 date-time). */
  updatedAt: string;
  /** Ids of the records delivered at exactly `updatedAt`. */
  seenIds: string[];
}

/** Items changed since a watermark; `watermark` is final once iteration has finished. */
export interface DeltaSync<T> extends AsyncIterable<T> {
  /** Where this sync got to; read it after a complete iteration and persist it (`undefined`: nothing seen yet). */
  readonly watermark: Watermark | undefined;
}

/** Options of a collection's `sync`. */
export interface DeltaOptions extends CallOptions {
  /** The watermark of the previous run (none: everything). */
  since?: Watermark;
  /** `itemsPerPage`, 1 to 100. */
  pageSize?: number;
}

/** Keeps a playing content URL fresh: refreshes when `expires_at` minus now is under 60 s. Never persists it. */
export interface ContentUrlKeeper {
  /** The current record, refreshed first when it is about to expire. */
  current(): Promise<ModuleContent>;
  /** Stops any scheduled refresh. */
  stop(): void;
}

/** Options of `modules.keepFresh`. */
export interface KeepFreshOptions extends LearnerScope {
  /** Called with each refreshed record (schedule-driven when `autoRefresh` is set). */
  onRefresh?: (content: ModuleContent) => void;
  /** Refresh on a timer in the background, not only when `current()` is called (default false). */
  autoRefresh?: boolean;
}

// The resource groups and the client itself, re-exported so every public type is importable from this file.
export type * from './resource-types.ts';

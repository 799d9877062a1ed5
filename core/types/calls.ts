/** Options every call takes, and what collections, pages, delta syncs and content keepers look like. Types only. */
import type { ModuleContent } from './records.ts';
import type { RetryOptions } from './options.ts';

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
  /** Overall deadline for this call only, in milliseconds (default: the client's `deadlineMs`). */
  deadlineMs?: number;
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

/**
 * The public shape of the client: options, pluggable parts and resource groups. Implementations live in their own
 * files; this file is the contract the n8n nodes, the edge relay and users program against.
 */
import type {
  Category,
  Course,
  CourseDetail,
  CourseProgress,
  Health,
  Module,
  ModuleContent,
  Organization,
  PdfDownload,
  RegisterUserInput,
  Transcript,
  User,
  UserPatch,
} from './types.ts';

/** A cached access token. `expiresAt` is epoch milliseconds (from the token's `exp`). */
export interface StoredToken {
  accessToken: string;
  expiresAt: number;
  /** The granted scopes, space-separated, as the token's `scope` claim says. */
  scope: string;
}

/**
 * Where access tokens are cached between calls (memory by default; Workers KV or Deno KV in the relay). Methods may
 * be sync or async. Keys are opaque strings derived from (token URL, client ID, scopes) and contain no secret.
 */
export interface TokenStore {
  get(key: string): StoredToken | undefined | Promise<StoredToken | undefined>;
  set(key: string, token: StoredToken): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Optional logger hook. Every field passed to it has credentials and tokens redacted. */
export type Logger = (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;

export interface RateLimitOptions {
  /** Steady request rate for this API key's usage plan. */
  requestsPerSecond: number;
  /** Requests allowed at once before the steady rate applies (default: one second's worth). */
  burst?: number;
}

export interface RetryOptions {
  /** Attempts in all, the first included (default 5). */
  maxAttempts?: number;
  /** First backoff delay (default 1000 ms); doubles per attempt, with jitter. */
  baseDelayMs?: number;
  /** Backoff cap (default 30000 ms). */
  maxDelayMs?: number;
}

export interface ClientOptions {
  /** Token endpoint, e.g. `https://auth.example.com/oauth2/token`. */
  tokenUrl: string;
  /** API base address ending in `/v1`, no trailing slash. */
  baseUrl: string;
  /** 26 characters. */
  clientId: string;
  clientSecret: string;
  /** About 40 characters; sent only as `x-api-key`. */
  apiKey: string;
  /** Default `['partner-api/read', 'partner-api/write']`. */
  scopes?: string[];
  /** A label for logs and error messages, e.g. `sandbox` or `production`. */
  environment?: string;
  fetch?: typeof fetch;
  /** Epoch milliseconds. */
  now?: () => number;
  /** Resolves after `ms`; rejects when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  tokenStore?: TokenStore;
  logger?: Logger;
  /** A fixed rate, or `'adaptive'` (default): learn the plan's rate from 429s. */
  rateLimit?: RateLimitOptions | 'adaptive';
  retry?: RetryOptions;
  /** Per attempt (default 30000 ms). */
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
   * `undefined` for a stream (PDF) or an empty body.
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
  pages(): AsyncIterable<Page<T>>;
  /** Collects at most `max` items; stops fetching once it has them. */
  toArray(options: { max: number }): Promise<T[]>;
}

/**
 * Where a delta sync got to: the greatest `updatedAt` seen and the ids already delivered at exactly that instant
 * (`updatedAt[after]` is inclusive, so they come again). JSON-serializable: persist it between runs.
 */
export interface Watermark {
  updatedAt: string;
  seenIds: string[];
}

/** Items changed since a watermark; `watermark` is final once iteration has finished. */
export interface DeltaSync<T> extends AsyncIterable<T> {
  readonly watermark: Watermark | undefined;
}

export interface DeltaOptions extends CallOptions {
  since?: Watermark;
  pageSize?: number;
}

/** Keeps a playing content URL fresh: refreshes when `expires_at` minus now is under 60 s. Never persists it. */
export interface ContentUrlKeeper {
  /** The current record, refreshed first when it is about to expire. */
  current(): Promise<ModuleContent>;
  /** Stops any scheduled refresh. */
  stop(): void;
}

export interface KeepFreshOptions extends LearnerScope {
  /** Called with each refreshed record (schedule-driven when `autoRefresh` is set). */
  onRefresh?: (content: ModuleContent) => void;
  /** Refresh on a timer in the background, not only when `current()` is called (default false). */
  autoRefresh?: boolean;
}

export interface ReadCollection<T, TDetail = T> {
  list(options?: ListOptions): Paginated<T>;
  /**
   * One page, resuming from a cursor: for callers that page by hand (list search in n8n, paging through the relay).
   *
   * @example
   * ```ts
   * let page = await client.courses.page({ pageSize: 20 });
   * while (page.next) page = await client.courses.page({ cursor: page.next });
   * ```
   */
  page(options?: PageOptions): Promise<Page<T>>;
  get(id: number, options?: CallOptions): Promise<TDetail>;
  /** Changed since the watermark (all, when none). */
  sync(options?: DeltaOptions): DeltaSync<T>;
}

export interface LearnerCollection<T> {
  list(options: LearnerScope & ListOptions): Paginated<T>;
  /** One page, resuming from a cursor (see {@link ReadCollection.page}). */
  page(options: LearnerScope & PageOptions): Promise<Page<T>>;
  get(id: number | string, options: LearnerScope): Promise<T>;
  sync(options: LearnerScope & DeltaOptions): DeltaSync<T>;
}

export interface UsersApi {
  register(input: RegisterUserInput, options?: CallOptions): Promise<User>;
  get(uuid: string, options?: CallOptions): Promise<User>;
  update(uuid: string, patch: UserPatch, options?: CallOptions): Promise<User>;
  deactivate(uuid: string, options?: CallOptions): Promise<User>;
  reactivate(uuid: string, options?: CallOptions): Promise<User>;
  /** Erases the learner (not reversible). Resolves when gone, also when a retry finds it already gone. */
  delete(uuid: string, options?: CallOptions): Promise<void>;
}

export interface ModulesApi extends ReadCollection<Module> {
  content(moduleId: number, options: LearnerScope): Promise<ModuleContent>;
  refreshUrl(moduleId: number, options: LearnerScope): Promise<ModuleContent>;
  /** 202 on first and repeat calls; a SCORM module throws `ConflictError`. */
  complete(moduleId: number, options: LearnerScope): Promise<void>;
  keepFresh(moduleId: number, options: KeepFreshOptions): ContentUrlKeeper;
}

export interface TranscriptsApi extends LearnerCollection<Transcript> {
  /** The learner's full transcript (`GET /transcript/pdf`). */
  pdf(options: LearnerScope): Promise<PdfDownload>;
  certificatePdf(transcriptId: number | string, options: LearnerScope): Promise<PdfDownload>;
}

/**
 * A learner's collection with the learner bound (see {@link PartnerLearningClient.forLearner}): the same calls as
 * {@link LearnerCollection}, without `userId`.
 */
export interface BoundLearnerCollection<T> {
  list(options?: ListOptions): Paginated<T>;
  page(options?: PageOptions): Promise<Page<T>>;
  get(id: number | string, options?: CallOptions): Promise<T>;
  sync(options?: DeltaOptions): DeltaSync<T>;
}

/**
 * The learner-scoped calls with `X-User-ID` bound once, from {@link PartnerLearningClient.forLearner}. Options take
 * no `userId` (one that differs from the bound learner is a `ValidationError`).
 */
export interface LearnerClient {
  /** The bound learner's UUID. */
  readonly userId: string;
  /** The learner's own profile (`users.get(userId)`). */
  me(options?: CallOptions): Promise<User>;
  modules: {
    content(moduleId: number, options?: CallOptions): Promise<ModuleContent>;
    refreshUrl(moduleId: number, options?: CallOptions): Promise<ModuleContent>;
    complete(moduleId: number, options?: CallOptions): Promise<void>;
    keepFresh(moduleId: number, options?: Omit<KeepFreshOptions, 'userId'>): ContentUrlKeeper;
  };
  progress: BoundLearnerCollection<CourseProgress>;
  transcripts: BoundLearnerCollection<Transcript> & {
    pdf(options?: CallOptions): Promise<PdfDownload>;
    certificatePdf(transcriptId: number | string, options?: CallOptions): Promise<PdfDownload>;
  };
}

export interface PartnerLearningClient {
  readonly environment: string | undefined;
  ping(options?: CallOptions): Promise<Health>;
  users: UsersApi;
  organizations: Omit<ReadCollection<Organization>, 'sync'>;
  categories: ReadCollection<Category>;
  courses: ReadCollection<Course, CourseDetail>;
  modules: ModulesApi;
  progress: LearnerCollection<CourseProgress>;
  transcripts: TranscriptsApi;
  /**
   * The learner-scoped calls for one learner, with `X-User-ID` bound once (the relay binds the learner of a
   * verified token).
   *
   * @param uuid The learner's UUID (from registration).
   * @returns A {@link LearnerClient}.
   * @throws {ValidationError} when `uuid` is not a 36-character UUID; nothing is sent.
   * @example
   * ```ts
   * const learner = client.forLearner(uuid);
   * const done = await learner.transcripts.list().toArray({ max: 100 });
   * ```
   */
  forLearner(uuid: string): LearnerClient;
}

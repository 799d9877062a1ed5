/** What `createClient` takes, and the pluggable parts it accepts (token store, logger, limiter). A leaf: types only. */
import type { Limiter } from '../http/limiter.ts';
import type { RateLimitOptions } from '../http/rate-limit.ts';

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

export type { RateLimitOptions };

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
  /**
   * The lowest level `logger` receives (default `'debug'`: every line). Lines below it are dropped before they are
   * redacted: give the level your logger keeps, and a busy client skips the work of lines nobody reads.
   */
  logLevel?: LogLevel;
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
   * The whole call's deadline in milliseconds, retries, backoff waits and reading the answer included (default
   * 120000; each call may override it). When it passes, the request under way is cancelled and the call fails with
   * a `DeadlineError`. A PDF stream is bounded only until its headers arrive.
   */
  deadlineMs?: number;
  /** The largest JSON answer read, in bytes (default 8 MiB): a larger one is an `InvalidResponseError`, unread. */
  maxResponseBytes?: number;
  /**
   * Let concurrent callers in this process share one in-flight token request. Default: `true`, except inside
   * Cloudflare Workers (detected by `navigator.userAgent`), where a promise created while handling one request must
   * not be awaited by another; resolved tokens are still shared through the token store either way.
   */
  shareInFlight?: boolean;
}

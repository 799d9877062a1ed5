/**
 * The per-learner request limit (relay contract, "Limits and caching"): 120 requests a minute per token `sub` by
 * default. On Workers the Rate Limiting binding counts (per Cloudflare location, eventually consistent); elsewhere a
 * fixed window in memory does.
 */

/** Default requests per learner per window. */
export const LEARNER_LIMIT = 120;
/** Window length, seconds (the Workers binding allows 10 or 60). */
export const LEARNER_PERIOD_S = 60;

/** The answer of a rate limiter. */
export interface RateDecision {
  allowed: boolean;
  /** Seconds until another request may pass (when not allowed). */
  retryAfterSeconds: number;
}

/** Counts requests per key. */
export interface RateLimiter {
  limit(key: string): Promise<RateDecision> | RateDecision;
}

/** The Workers Rate Limiting binding's shape (`env.LEARNER_RATE_LIMIT`). */
export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

/**
 * A fixed-window limiter in memory (Node, Deno, or a Worker without the binding). Only plain values are kept.
 *
 * @param limit Requests per window.
 * @param periodSeconds Window length.
 * @param now Epoch milliseconds.
 * @returns The limiter.
 * @example
 * const limiter = memoryRateLimiter();
 * (await limiter.limit('learner-uuid')).allowed; // true for the first 120 calls of a minute
 */
export function memoryRateLimiter(limit = LEARNER_LIMIT, periodSeconds = LEARNER_PERIOD_S, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const periodMs = periodSeconds * 1000;
  return {
    limit(key) {
      const t = now();
      const start = t - (t % periodMs);
      let window = windows.get(key);
      if (!window || window.start !== start) {
        // Forget finished windows now and then, so memory stays bounded by the learners of one window.
        if (windows.size > 10_000) for (const [k, w] of windows) if (w.start !== start) windows.delete(k);
        window = { start, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      const retryAfterSeconds = Math.max(1, Math.ceil((start + periodMs - t) / 1000));
      return { allowed: window.count <= limit, retryAfterSeconds };
    },
  };
}

/**
 * Wraps the Workers Rate Limiting binding.
 *
 * @param binding `env.LEARNER_RATE_LIMIT`.
 * @param periodSeconds The binding's period (for Retry-After).
 * @returns The limiter.
 */
export function bindingRateLimiter(binding: RateLimitBinding, periodSeconds = LEARNER_PERIOD_S): RateLimiter {
  return {
    async limit(key) {
      const { success } = await binding.limit({ key });
      return { allowed: success, retryAfterSeconds: periodSeconds };
    },
  };
}

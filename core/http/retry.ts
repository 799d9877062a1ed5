/**
 * Backoff policy: which failures are retried and how long to wait. Exponential with equal jitter (1, 2, 4, 8 … s,
 * each somewhere in its upper half), capped; `Retry-After` (on a 429 or a 503) wins when the service sends it.
 */
import { PartnerLearningError } from '../errors/base.ts';
import { ServerError } from '../errors/server-error.ts';
import { ThrottledError } from '../errors/throttled-error.ts';

/** `RetryOptions` with defaults filled in. */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * The wait before retry number `attempt` (1 = after the first failure): `min(cap, base × 2^(attempt−1))`, with
 * equal jitter, so it lies in `[exp/2, exp]` (never a near-zero wait against a throttled gateway).
 *
 * @param attempt 1 for the first retry, 2 for the second, …
 * @param policy Base delay and cap.
 * @param random Uniform in [0, 1) (injectable for tests).
 * @returns Milliseconds.
 * @example
 * backoffDelay(3, { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30000 }); // 2000..4000
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/**
 * Whether an error may be retried unchanged: 429 `Too Many Requests`, 5xx, network errors and timeouts, for every
 * method (the service makes retries safe). Never `Limit Exceeded`, 400, 403, 404, 409, 415. A 401 is handled apart
 * (one retry with a fresh token).
 *
 * @param error Anything thrown.
 * @returns `true` when a retry may succeed.
 */
export function isRetryable(error: unknown): error is PartnerLearningError {
  return error instanceof PartnerLearningError && error.retryable;
}

/**
 * Decides about one failed attempt.
 *
 * @param error What the attempt threw.
 * @param attempt How many attempts have been made so far (1 after the first).
 * @param policy Attempts and delays.
 * @param random Jitter source.
 * @returns The wait before the next attempt, or `undefined` to give up (not retryable, attempts used up, or a
 *   `Retry-After` longer than the cap: waiting that long is the caller's decision; the error carries it).
 */
export function retryDelay(
  error: unknown, attempt: number, policy: RetryPolicy, random: () => number = Math.random,
): number | undefined {
  if (!isRetryable(error) || attempt >= policy.maxAttempts) return undefined;
  const retryAfterMs = error instanceof ThrottledError || error instanceof ServerError ? error.retryAfterMs : undefined;
  if (retryAfterMs !== undefined) return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : undefined;
  return backoffDelay(attempt, policy, random);
}

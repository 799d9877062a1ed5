/**
 * Backoff policy: which failures are retried and how long to wait. Exponential with equal jitter (1, 2, 4, 8 … s,
 * each somewhere in its upper half), capped; `Retry-After` (on a 429 or a 503) wins when the service sends it (see
 * `next-step.ts`).
 */
import type { RetryOptions } from '../types/options.ts';
import { isPartnerLearningError, type PartnerLearningError } from '../errors/base.ts';

/** `RetryOptions` with defaults filled in. */
export type RetryPolicy = Required<RetryOptions>;

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
export function backoffDelay(attempt: number, policy: Omit<RetryPolicy, 'maxAttempts'>, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
}

/**
 * Whether an error may be retried unchanged: 429 `Too Many Requests`, 5xx, network errors and timeouts, for every
 * method (the service makes retries safe). Never `Limit Exceeded`, 400, 403, 404, 409, 415, a redirect. A 401 is
 * handled apart (one retry with a fresh token).
 *
 * @param error Anything thrown.
 * @returns `true` when a retry may succeed.
 */
export function isRetryable(error: unknown): error is PartnerLearningError {
  return isPartnerLearningError(error) && error.retryable;
}

/**
 * Decides about one failed attempt, for a driver without a key-wide limiter (the ky pipeline uses `nextStep`, which
 * also pauses the API key after a 429 or 5xx).
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
  const { retryAfterMs } = error;
  if (retryAfterMs !== undefined) return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : undefined;
  return backoffDelay(attempt, policy, random);
}

/**
 * The policy of one call: the client's, with the call's own `retry` over it (`false`: one attempt).
 *
 * @param client The client's normalized policy.
 * @param call The call's `retry` option, if any.
 * @returns The policy to use.
 */
export function callPolicy(client: RetryPolicy, call: RetryOptions | false | undefined): RetryPolicy {
  if (call === false) return { ...client, maxAttempts: 1 };
  if (call === undefined) return client;
  return {
    maxAttempts: call.maxAttempts ?? client.maxAttempts,
    baseDelayMs: call.baseDelayMs ?? client.baseDelayMs,
    maxDelayMs: call.maxDelayMs ?? client.maxDelayMs,
  };
}

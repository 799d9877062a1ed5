/**
 * What the pipeline does after one attempt that did not succeed, decided without I/O (the way oauth4webapi splits
 * sending from processing): refresh the token once after a 401, retry after a backoff, or give up. One source of
 * backoff: the service's `Retry-After` when it sent one, else exponential backoff with jitter. For a 5xx, and a 429
 * with `Retry-After`, the same delay also pauses every call with the API key (the plan's limits are per key); any
 * 429 has already slowed the key's pace (`pacing.ts`).
 */
import { backoffDelay, isRetryable, type RetryPolicy } from './retry.ts';

/** Everything the decision depends on. */
export interface StepInput {
  /** What the attempt ended with: an error built from the answer, or what was thrown. */
  error: unknown;
  /** The HTTP status, when the attempt got an answer. */
  status?: number;
  /** Attempts counted against `maxAttempts` so far (1 after the first; the 401 refresh does not count). */
  tries: number;
  /** Whether this call already refreshed its token after a 401. */
  refreshed: boolean;
  /** Whether the attempt carried a bearer token (a 401 without one is not a token problem). */
  bearerSent: boolean;
  policy: RetryPolicy;
  /** 5xx in a row for this API key, the calls under way at one counted with it (after this attempt's own was recorded). */
  failureStreak: number;
  /** What is left of the key-wide pause before this decision. */
  pauseRemainingMs: number;
  /** Uniform in [0, 1). */
  random: () => number;
}

/** The decision. `pauseKeyMs`, when set, pauses every call with this API key that long (a 429 or a 5xx). */
export type NextStep =
  | { action: 'refresh-token' }
  | { action: 'retry'; waitMs: number; pauseKeyMs?: number }
  | { action: 'fail'; pauseKeyMs?: number };

/**
 * @param input The attempt's outcome and the call's and key's state.
 * @returns `refresh-token` (discard the token, send again at once, not counted as an attempt), `retry` after
 *   `waitMs` (the longer of this call's delay and the key's running pause), or `fail`: not retryable, attempts used
 *   up, or a `Retry-After` longer than `maxDelayMs` (waiting that long is the caller's decision; the error says so).
 * @example
 * nextStep({ error, status: 503, tries: 1, refreshed: false, bearerSent: true, policy, failureStreak: 1,
 *   pauseRemainingMs: 0, random: () => 0.5 }); // { action: 'retry', waitMs: 750, pauseKeyMs: 750 }
 */
export function nextStep(input: StepInput): NextStep {
  const { error, status, policy } = input;
  if (status === 401 && input.bearerSent && !input.refreshed) return { action: 'refresh-token' };
  const retryAfterMs = isRetryable(error) ? error.retryAfterMs : undefined;
  // A 5xx pauses the key. A 429 has already cut the key's pace (the limiter learnt from it): that is how one 429
  // slows every call, and 429s that go on cut it again and again (a backoff of the whole key). It pauses the key as
  // well when the service asked for a wait.
  const pausesKey = status !== undefined && (status >= 500 || (status === 429 && retryAfterMs !== undefined));
  // The key-wide pause grows with the key's failure streak, one call's backoff with its own attempts.
  const step = pausesKey ? Math.max(1, input.failureStreak) : input.tries;
  const delay = retryAfterMs ?? backoffDelay(step, policy, input.random);
  const pauseKeyMs = pausesKey ? delay : undefined;
  const giveUp = !isRetryable(error) || input.tries >= policy.maxAttempts
    || (retryAfterMs !== undefined && retryAfterMs > policy.maxDelayMs);
  if (giveUp) return pauseKeyMs === undefined ? { action: 'fail' } : { action: 'fail', pauseKeyMs };
  const waitMs = Math.max(delay, input.pauseRemainingMs);
  return pauseKeyMs === undefined ? { action: 'retry', waitMs } : { action: 'retry', waitMs, pauseKeyMs };
}

/**
 * The one retry loop, for every driver: a call's attempts in the API key's line (`limiter.schedule`), the 401
 * refresh, backoff and the key-wide pause (`nextStep`), the deadline, and the error a failed attempt ends in. A
 * driver supplies only its attempt (ky's fetch in `ky-transport.ts`, n8n's helper in the n8n package), so what
 * follows an answer is decided in one place for all of them.
 *
 * No timer of its own: the deadline comes from the driver's `abortAfter`, when it has one (n8n's package may not
 * use timers; n8n cancels its executions itself).
 */
import type { ApiRequest, ApiResponse } from '../transport.ts';
import { isPartnerLearningError, withAttempts } from '../errors/base.ts';
import { DeadlineError } from '../errors/deadline-error.ts';
import { errorFromResponse } from '../errors/factory.ts';
import type { Log } from '../log.ts';
import type { Redactor } from '../redact.ts';
import { abortReason } from '../signal.ts';
import type { AbortTimer } from './deadline.ts';
import type { Limiter, Outcome } from './limiter.ts';
import { nextStep } from './next-step.ts';
import { callPolicy, type RetryPolicy } from './retry.ts';
import { resolveRequestUrl } from './url.ts';

/** The defaults of every call, whatever the driver (DESIGN: 1, 2, 4, 8 … s capped at 30 s, about 5 tries). */
export const CALL_DEFAULTS = {
  retry: { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000 } satisfies RetryPolicy,
  /** One attempt: until the headers, and for JSON the whole body. */
  timeoutMs: 30_000,
  /** The whole call: two minutes, so the retry policy's own worst case (waits of 1, 2, 4 and 8 s) fits; a hang does not. */
  deadlineMs: 120_000,
} as const;

/** What a driver's attempt is told. */
export interface AttemptInput {
  request: ApiRequest;
  /** The request's absolute URL (checked to lie under the base URL). */
  url: string;
  /** The request body, serialized once for all attempts. */
  body: string | undefined;
  /** The caller's signal and the call's deadline together. */
  signal: AbortSignal;
  timeoutMs: number;
  /**
   * The call's deadline fires before this attempt's timeout could (the deadline is no longer than one attempt's
   * timeout, and the attempt began after the call): `signal` bounds the attempt, which needs no timer of its own.
   */
  deadlineFirst: boolean;
  /** 1 for the first request of the call. */
  number: number;
}

/** What one attempt gave. A driver's attempt never throws: what went wrong is in `error`. */
export interface Attempt {
  /** Whether a request went out (false: the token request failed, the call was aborted before sending…). */
  sent: boolean;
  /** The answer's status, when one came. */
  status?: number;
  headers?: Headers;
  /** A success's data: parsed JSON, the PDF stream, or nothing. */
  data?: unknown;
  /** A failure status's body, JSON or text (none when it could not be read). */
  errorBody?: unknown;
  /** What failed instead: thrown, or a success whose body could not be used. */
  error?: unknown;
  /** The bearer token the driver sent, when it manages tokens itself: a 401 then refreshes once. */
  accessToken?: string;
}

/** A driver: its attempt, and how to drop a token that met a 401 (absent when the platform refreshes itself). */
export interface CallDriver {
  attempt(input: AttemptInput): Promise<Attempt>;
  invalidate?(accessToken: string): Promise<void>;
}

/** What the loop needs besides the driver. */
export interface CallSettings {
  baseUrl: string;
  limiter: Limiter;
  retry: RetryPolicy;
  timeoutMs: number;
  deadlineMs: number;
  now: () => number;
  redactor: Redactor;
  log?: Log;
  /** Jitter source, uniform in [0, 1). */
  random: () => number;
  /** A timer that aborts a signal (the deadline); without it the call has no deadline of its own. */
  abortAfter?: (ms: number, reason: () => unknown) => AbortTimer;
}

/**
 * How an attempt counts for throttling.
 *
 * @param attempt What the attempt gave.
 * @returns Its outcome.
 */
export function outcomeOf(attempt: Attempt): Outcome {
  if (!attempt.sent) return 'not-sent';
  const status = attempt.status ?? (isPartnerLearningError(attempt.error) ? attempt.error.status : undefined);
  if (status === undefined) return 'no-answer';
  if (status >= 200 && status < 300) return 'success';
  if (status === 429) return 'throttled';
  return status >= 500 ? 'server-error' : 'other';
}

/**
 * Runs one call to the end: success, or the error it ends in (with `attempts` set).
 *
 * @param request The call.
 * @param settings Limiter, policies, clock, redactor.
 * @param driver The attempt.
 * @returns The answer.
 * @example
 * const response = await runCall<User>({ method: 'GET', path: `/users/${uuid}` }, settings, { attempt });
 */
export async function runCall<T>(request: ApiRequest, settings: CallSettings, driver: CallDriver): Promise<ApiResponse<T>> {
  const { limiter, now, redactor, log } = settings;
  const policy = callPolicy(settings.retry, request.retry);
  const deadlineMs = request.deadlineMs ?? settings.deadlineMs;
  const url = resolveRequestUrl(settings.baseUrl, request);
  const body = request.json !== undefined ? JSON.stringify(request.json)
    : request.mergePatch !== undefined ? JSON.stringify(request.mergePatch) : undefined;
  let sent = 0;
  let lastError: unknown;
  const deadline = settings.abortAfter?.(deadlineMs, () => new DeadlineError({
    method: request.method, url, origin: 'client', redactor, cause: lastError,
    message: `The call did not finish within its deadline of ${deadlineMs} ms${sent > 0 ? ` (${sent} request${sent === 1 ? '' : 's'} sent)` : ''}`,
    hint: 'The request under way was cancelled. Raise deadlineMs if the service is just slow; otherwise retry later',
  }));
  const signals = [request.signal, deadline?.signal].filter((s): s is AbortSignal => s !== undefined);
  // Without a caller's signal or a deadline, a signal that never aborts (made per call: workerd allows no
  // AbortController at module scope).
  const signal = signals.length === 0 ? new AbortController().signal : signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
  const timeoutMs = request.timeoutMs ?? settings.timeoutMs;
  const deadlineFirst = deadline !== undefined && deadlineMs <= timeoutMs;
  let tries = 1;
  let refreshed = false;

  try {
    for (;;) {
      if (signal.aborted) throw abortReason(signal);
      const number = sent + 1;
      const { attempt } = await limiter.schedule(async () => {
        const result = await driver.attempt({ request, url, body, signal, timeoutMs, deadlineFirst, number });
        return { attempt: result, outcome: outcomeOf(result) };
      }, signal);
      if (attempt.sent) sent += 1;
      const { status } = attempt;
      const ok = status !== undefined && status >= 200 && status < 300;
      if (ok && attempt.error === undefined) {
        const headers = attempt.headers ?? new Headers();
        const requestId = headers.get('x-request-id') ?? undefined;
        return { status, headers, requestId, data: attempt.data as T };
      }
      if (signal.aborted) throw abortReason(signal);
      const error = status !== undefined && !ok
        ? errorFromResponse({
          status, body: attempt.errorBody, headers: attempt.headers ?? new Headers(), origin: 'api',
          method: request.method, url, now: now(), redactor,
        })
        : attempt.error;
      lastError = error;
      const step = nextStep({
        error, status: ok ? undefined : status, tries, refreshed,
        bearerSent: attempt.accessToken !== undefined && driver.invalidate !== undefined, policy,
        failureStreak: limiter.failureStreak, pauseRemainingMs: limiter.pauseRemaining(), random: settings.random,
      });
      if (step.action !== 'refresh-token' && step.pauseKeyMs !== undefined) limiter.pause(step.pauseKeyMs);
      if (step.action === 'fail') throw error;
      if (step.action === 'refresh-token') {
        refreshed = true;
        log?.warn('401: discarding the cached token and retrying once with a fresh one', { method: request.method, url });
        if (attempt.accessToken !== undefined) await driver.invalidate?.(attempt.accessToken);
        continue;
      }
      log?.warn('retrying', {
        method: request.method, url, attempt: tries, delayMs: step.waitMs,
        code: isPartnerLearningError(error) ? error.code : undefined, status,
      });
      tries += 1;
      // Counted by the limiter as time passed, so its pause does not make the call sleep a second time.
      await limiter.wait(step.waitMs, signal);
    }
  } catch (error) {
    // The deadline's abort carries the DeadlineError itself; the caller's abort stays the caller's reason.
    const final = deadline?.fired() && !request.signal?.aborted ? abortReason(deadline.signal) : error;
    throw isPartnerLearningError(final) ? withAttempts(final, sent) : final;
  } finally {
    // A PDF stream flows on after this: bounded by the caller's signal only, never cut by a deadline of the past.
    deadline?.clear();
  }
}

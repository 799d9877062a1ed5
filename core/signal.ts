/**
 * Abort signals: the check every call's `signal` goes through, the abort reason, and the one abort race. No timers
 * and no globals, so the protocol parts (resource groups, the content URL keeper) can use it too.
 */
import { ConfigurationError } from './errors/configuration-error.ts';

/**
 * Whether a value can be used as an abort signal. Checked by shape, not `instanceof`, so signals from another realm
 * (a VM context, n8n's sandbox, a polyfill) are accepted.
 *
 * @param value Anything passed as `signal`.
 * @returns `true` for an `AbortSignal`-like object.
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<AbortSignal>;
  return typeof candidate.aborted === 'boolean' && typeof candidate.addEventListener === 'function'
    && typeof candidate.removeEventListener === 'function';
}

/**
 * Refuses a `signal` option that is not an `AbortSignal`, before any work is done.
 *
 * @param signal The caller's `signal` option.
 * @returns The signal, typed.
 * @throws {ConfigurationError} When a value was given that is not an `AbortSignal`.
 */
export function checkSignal(signal: unknown): AbortSignal | undefined {
  if (signal === undefined || isAbortSignal(signal)) return signal;
  throw new ConfigurationError({
    origin: 'client',
    message: `The signal option is not an AbortSignal (got ${signal === null ? 'null' : typeof signal}); nothing was sent`,
    hint: 'Pass an AbortController().signal or AbortSignal.timeout(ms), or leave signal out',
  });
}

/**
 * The reason a signal carries, or a standard `AbortError` when it has none.
 *
 * @param signal An aborted (or absent) signal.
 * @returns What to reject with.
 */
export function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Waits for a promise, or stops waiting when the signal aborts (the promise itself keeps going: it may be shared
 * with other callers). The one abort race in the core.
 *
 * @param promise What to wait for.
 * @param signal Stops the wait.
 * @returns The promise's value.
 * @throws The signal's reason on abort, else whatever the promise rejects with.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => { signal.removeEventListener('abort', onAbort); resolve(value); },
      (error: unknown) => { signal.removeEventListener('abort', onAbort); reject(error); },
    );
  });
}

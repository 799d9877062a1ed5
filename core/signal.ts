/**
 * Abort signals: the check every call's `signal` goes through, the abort reason, and the one abort race. No timers
 * and no globals, so the protocol parts (resource groups, the content URL keeper) can use it too.
 */
import { ConfigurationError } from './errors/configuration-error.ts';

/** The platform's own `aborted` getter: it checks the receiver's internal brand and throws for anything else. */
const abortedGetter = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted')?.get;

/**
 * Whether a value is a real `AbortSignal`, checked by brand: the platform's own `aborted` getter accepts a genuine
 * signal from another realm (a VM context, another copy of the runtime's classes) and throws for a look-alike. A duck-typed object with `aborted` and `addEventListener` is refused: it would never
 * abort the request underneath, so a cancelled call would keep retrying.
 *
 * @param value Anything passed as `signal`.
 * @returns `true` for an `AbortSignal`.
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  // Not `instanceof`: an object made with `Object.create(AbortSignal.prototype)` passes it without being a signal.
  if (typeof value !== 'object' || value === null || abortedGetter === undefined) return false;
  try {
    abortedGetter.call(value);
    return true;
  } catch {
    return false;
  }
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

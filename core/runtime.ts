/**
 * Default clock and sleep, and the checks and helpers every wait shares. Everything in the pipeline that waits goes
 * through these (or the injected versions), so tests can drive time by hand. Web standards only: runs on Node,
 * workerd, Deno and Bun. No timer callback here can throw: a throw inside a timer cannot be caught by anyone and
 * ends a Node process.
 */
import { ConfigurationError } from './errors/configuration-error.ts';

/**
 * The default clock.
 *
 * @returns Epoch milliseconds.
 */
export function defaultNow(): number {
  return Date.now();
}

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
 * Resolves after `ms` milliseconds; rejects with `signal.reason` as soon as the signal aborts.
 *
 * @param ms Delay; zero or negative resolves on the next macrotask.
 * @param signal Cancels the wait.
 * @returns A promise that resolves after the delay.
 * @throws The signal's reason when it aborts (an `AbortError` `DOMException` unless the caller gave another); a
 *   `ConfigurationError` (as a rejection, never from a timer) when `signal` is not an `AbortSignal`.
 * @example
 * await defaultSleep(1000, AbortSignal.timeout(5000));
 */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    checkSignal(signal);
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    // Listen first: if that throws, no timer exists yet whose callback could throw later.
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      try {
        signal?.removeEventListener('abort', onAbort);
      } finally {
        resolve();
      }
    }, Math.max(0, ms));
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

/**
 * The default `fetch`, looked up at call time so a runtime (or a test) that replaces `globalThis.fetch` later is
 * honoured, and always called with `globalThis` as `this` (some runtimes throw "Illegal invocation" otherwise).
 *
 * @param input What to fetch.
 * @param init Request options.
 * @returns The response.
 */
export const defaultFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

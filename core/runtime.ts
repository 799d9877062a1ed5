/**
 * Default clock, sleep and fetch. Everything in the pipeline that waits goes through these (or the injected
 * versions), so tests can drive time by hand. Web standards only: runs on Node, workerd, Deno and Bun. No timer
 * callback here can throw: a throw inside a timer cannot be caught by anyone and ends a Node process.
 */
import { abortReason, checkSignal } from './signal.ts';

export { abortReason, checkSignal, isAbortSignal, raceAbort } from './signal.ts';

/**
 * Whether this runs in workerd, which names itself in `navigator.userAgent`. There a promise created while handling
 * one request must not be awaited by another: in-flight token requests are not shared by default, and a caller
 * waiting in the limiter's line keeps a timer of its own.
 *
 * @returns `true` inside Cloudflare Workers.
 */
export function isCloudflareWorkers(): boolean {
  return (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
}

/**
 * The default clock.
 *
 * @returns Epoch milliseconds.
 */
export function defaultNow(): number {
  return Date.now();
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
 * The default `fetch`, looked up at call time so a runtime (or a test) that replaces `globalThis.fetch` later is
 * honoured, and always called with `globalThis` as `this` (some runtimes throw "Illegal invocation" otherwise).
 *
 * @param input What to fetch.
 * @param init Request options.
 * @returns The response.
 */
export const defaultFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

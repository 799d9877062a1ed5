/**
 * Default clock and sleep. Everything in the pipeline that waits goes through these (or the injected versions), so
 * tests can drive time by hand. Web standards only: runs on Node, workerd, Deno and Bun.
 */

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
 * @throws The signal's reason when it aborts (an `AbortError` `DOMException` unless the caller gave another).
 * @example
 * await defaultSleep(1000, AbortSignal.timeout(5000));
 */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
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
 * The default `fetch`, looked up at call time so a runtime (or a test) that replaces `globalThis.fetch` later is
 * honoured, and always called with `globalThis` as `this` (some runtimes throw "Illegal invocation" otherwise).
 *
 * @param input What to fetch.
 * @param init Request options.
 * @returns The response.
 */
export const defaultFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

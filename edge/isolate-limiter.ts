/**
 * A limiter for the core client inside a Worker isolate. The core's default limiter queues callers and lets one
 * call's completion admit the next, which in a Worker resolves a promise that another request created: workerd
 * cancels that request ("The script will never generate a response"). Here every request waits on its own timer
 * and only plain values are shared: one key-wide pause after a 429 or 5xx (Retry-After or the core's backoff),
 * which every request of the isolate honours. There is no pacing queue.
 */
import type { Limiter, Outcome } from '../core/index.ts';

/** Clock and sleep of the limiter (the runtime's by default). */
export interface IsolateLimiterOptions {
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * @param options Clock and sleep.
 * @returns A `Limiter` for `createClient({ limiter })` that never shares a promise between requests.
 * @example
 * const client = createClient({ ...options, limiter: isolateSafeLimiter() });
 */
export function isolateSafeLimiter(options: IsolateLimiterOptions = {}): Limiter {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const state = { pausedUntil: 0, servedUntil: 0, failureStreak: 0 };
  const remaining = (): number => (state.servedUntil >= state.pausedUntil ? 0 : Math.max(0, state.pausedUntil - now()));

  return {
    get failureStreak() {
      return state.failureStreak;
    },
    get pausedUntil() {
      return state.pausedUntil;
    },
    async acquire(signal) {
      for (let left = remaining(); left > 0; left = remaining()) {
        const target = state.pausedUntil;
        await sleep(left, signal);
        state.servedUntil = Math.max(state.servedUntil, target);
      }
    },
    record(outcome: Outcome) {
      if (outcome === 'success') state.failureStreak = 0;
      else if (outcome === 'throttled' || outcome === 'server-error') state.failureStreak += 1;
    },
    cooldown(delayMs) {
      state.pausedUntil = Math.max(state.pausedUntil, now() + delayMs);
    },
    pauseRemaining: remaining,
    async wait(ms, signal) {
      const target = state.pausedUntil;
      const coversPause = now() + ms >= target;
      await sleep(ms, signal);
      if (coversPause) state.servedUntil = Math.max(state.servedUntil, target);
    },
  };
}

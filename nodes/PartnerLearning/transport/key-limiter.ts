/**
 * The core's limiter, one per API key, shared by every item, execution and node run in this n8n process: the usage
 * plan's limits belong to the key, so a 429 or 5xx seen by one call pauses every call with that key, and the learned
 * rate is the key's. The registry is plain module state (n8n loads a node file once per process; the bundle may use
 * no `globalThis`, timers or `process`); keys are stored as the core's fingerprint, never in clear.
 */
import { sleep as n8nSleep } from 'n8n-workflow';
import { createLimiter, fingerprint, raceAbort, type Limiter } from '../../../core/protocol.ts';

/** The time a limiter lives in: its state means nothing on another clock. */
export interface LimiterClock {
  /** Epoch ms. */
  now: () => number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Makes a signal-less sleep (n8n's) honour an abort signal: it rejects with the signal's reason at once when the
 * signal is or becomes aborted (the underlying sleep then runs out unobserved).
 *
 * @param sleep Resolves after `ms`.
 * @returns A sleep that takes a signal.
 */
export function abortableSleep(sleep: (ms: number) => Promise<void>): LimiterClock['sleep'] {
  return async (ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    await raceAbort(ms > 0 ? sleep(ms) : Promise.resolve(), signal);
  };
}

/** The process's clock: `Date.now` and n8n's `sleep` (no timers of our own). */
export const PROCESS_CLOCK: LimiterClock = { now: () => Date.now(), sleep: abortableSleep((ms) => n8nSleep(ms)) };

const limiters = new WeakMap<LimiterClock, Map<string, Limiter>>();

/**
 * @param apiKey The credential's API key (hashed before use; never kept in clear).
 * @param clock The clock the limiter runs on: the process's in n8n; tests give their own.
 * @returns The key's limiter on that clock, created on first use.
 */
export function limiterForKey(apiKey: string, clock: LimiterClock = PROCESS_CLOCK): Limiter {
  let byKey = limiters.get(clock);
  if (!byKey) {
    byKey = new Map();
    limiters.set(clock, byKey);
  }
  const id = fingerprint(apiKey);
  let limiter = byKey.get(id);
  if (!limiter) {
    limiter = createLimiter({ now: clock.now, sleep: clock.sleep });
    byKey.set(id, limiter);
  }
  return limiter;
}

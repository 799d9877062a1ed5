/**
 * A fake clock shared by the client (`now`, `sleep`) and the emulator (`now`), so backoff, token refresh and content
 * URL expiry can be exercised without waiting real seconds. Sleeping advances the clock by the requested amount.
 */

/** One recorded sleep: how long, and the fake time when it was asked for. */
export interface SleepCall {
  ms: number;
  at: number;
}

/** A sleep function with its own record of calls, advancing the shared clock. */
export interface Sleeper {
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  calls: SleepCall[];
}

/** Fake time for the client and the emulator together; nothing in it waits for real time. */
export interface FakeClock {
  /** Epoch milliseconds on the fake clock. */
  now: () => number;
  /** Moves the clock forward. */
  advance: (ms: number) => void;
  /** The default sleeper's `sleep`: records the call, runs `onSleep`, advances the clock, resolves. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Every sleep made through {@link FakeClock.sleep}. */
  calls: SleepCall[];
  /** A further sleeper on the same clock with its own call record (e.g. one per client). */
  sleeper: () => Sleeper;
  /**
   * Runs before a sleep advances the clock, with the number of sleeps so far (1 for the first). Tests use it to
   * change the emulator between attempts (e.g. clear a fault after the second failure).
   */
  onSleep?: (count: number, ms: number) => void | Promise<void>;
}

/** A fixed start, mid-morning UTC, so daily quotas (reset at UTC midnight) never roll over during a test. */
export const FAKE_START = Date.parse('2026-03-02T09:00:00.000Z');

/**
 * @param start Epoch milliseconds to start at (default {@link FAKE_START}).
 * @returns A fake clock whose sleeps advance time instantly.
 * @example
 * ```ts
 * const clock = createFakeClock();
 * await clock.sleep(1500);
 * clock.now() - FAKE_START; // 1500
 * ```
 */
export function createFakeClock(start: number = FAKE_START): FakeClock {
  let current = start;
  let count = 0;
  const clock: FakeClock = {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    calls: [],
    sleep: (ms, signal) => sleepOn(clock.calls, ms, signal),
    sleeper: () => {
      const calls: SleepCall[] = [];
      return { calls, sleep: (ms, signal) => sleepOn(calls, ms, signal) };
    },
  };

  async function sleepOn(calls: SleepCall[], ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    calls.push({ ms, at: current });
    count += 1;
    if (clock.onSleep) await clock.onSleep(count, ms);
    current += Math.max(0, ms);
    // A real macrotask turn, so concurrent callers interleave as they would with real timers.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  }

  return clock;
}

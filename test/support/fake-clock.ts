/**
 * The fake clocks of every test. `createFakeClock`: shared by the client (`now`, `sleep`) and the emulator (`now`), so
 * backoff, token refresh and content URL expiry can be exercised without waiting real seconds; sleeping advances
 * the clock by the requested amount. `manualClock`: time moves only when the test advances it, for tests of
 * concurrent callers waiting on one another (the limiter, the pipeline).
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

/** A manual clock. `sleep` records every requested delay and resolves when time is advanced past it. */
export interface ManualClock {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Every delay passed to `sleep`, in call order. */
  readonly sleeps: number[];
  /** Moves time forward, resolving the sleeps that come due, in order. */
  advance(ms: number): Promise<void>;
  /**
   * Runs `work` to completion, advancing time to the next pending sleep whenever nothing else is happening.
   * `busy` (e.g. "a fetch is in flight") holds time still while it returns true.
   */
  run<T>(work: Promise<T>, options?: { maxSteps?: number; busy?: () => boolean }): Promise<T>;
}

const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * @param start Initial time, epoch ms.
 * @returns A {@link ManualClock}.
 */
export function manualClock(start = Date.UTC(2026, 10, 22, 12)): ManualClock {
  let t = start;
  const timers: { at: number; seq: number; resolve: () => void }[] = [];
  const sleeps: number[] = [];
  let seq = 0;
  const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      sleeps.push(ms);
      if (signal?.aborted) return reject(signal.reason);
      const timer = { at: t + Math.max(0, ms), seq: seq++, resolve };
      timers.push(timer);
      signal?.addEventListener('abort', () => {
        // Only while pending: a timer that already fired is no longer in the list (splice(-1) took another's).
        const index = timers.indexOf(timer);
        if (index >= 0) timers.splice(index, 1);
        reject(signal.reason);
      }, { once: true });
    });
  const fireDue = async (): Promise<void> => {
    timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    while (timers[0] && timers[0].at <= t) {
      timers.shift()?.resolve();
      for (let i = 0; i < 3; i++) await turn();
      timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
    }
  };
  return {
    now: () => t,
    sleep,
    sleeps,
    async advance(ms) {
      const end = t + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers[0];
        if (!next || next.at > end) break;
        t = Math.max(t, next.at);
        await fireDue();
      }
      t = end;
      await fireDue();
    },
    async run(work, { maxSteps = 100_000, busy = () => false } = {}) {
      let settled = false;
      const done = work.finally(() => { settled = true; });
      done.catch(() => undefined);
      for (let step = 0; step < maxSteps && !settled; step++) {
        for (let i = 0; i < 5 && !settled; i++) await turn();
        while (busy() && !settled) await turn();
        if (settled) break;
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers[0];
        if (!next) continue;
        t = Math.max(t, next.at);
        await fireDue();
      }
      return done;
    },
  };
}

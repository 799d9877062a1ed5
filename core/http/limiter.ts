/**
 * Throttling shared by every client that uses the same API key (limits belong to the usage plan, which is tied to
 * the key): a steady rate (p-throttle) or the adaptive CUBIC rate, plus one cooldown gate, so a 429 or 5xx seen by
 * any client pauses every call with that key until the backoff delay has passed.
 *
 * State is process-wide, per (clock group, hashed API key): clients whose clocks tell the same time share it (see
 * `clock-domain.ts`); a test's fake clock in another year gets its own. Each caller sleeps on its own timer and
 * never awaits a promise created by another caller (required inside Cloudflare Workers).
 *
 * Time is the clock's reading, but never less than the time the limiter itself has slept through: an injected
 * `sleep` that returns at once (a test recording delays) beside a clock that does not move with it must not make a
 * waiting caller spin, and after one sleep of the full wait the caller goes.
 */
import pThrottle from 'p-throttle';
import { AdaptiveRate, type AdaptiveRateOptions } from './adaptive-rate.ts';
import { createClockDomains } from './clock-domain.ts';

/** How the answer to one attempt went, as far as throttling is concerned. */
export type Outcome = 'success' | 'throttled' | 'server-error' | 'other' | 'no-answer' | 'not-sent';

/** A client's view of its key's shared throttling state. */
export interface Limiter {
  /** Waits until a call may be sent (cooldown gate, then rate). Rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Feeds back how an acquired call ended (adaptive mode learns from `throttled`); call it once per acquire. */
  record(outcome: Outcome): void;
  /**
   * 429s and 5xx in a row for this key with no success between (1 after the first): the key-wide pause grows
   * with it, not with one call's attempt count, so a long retry chain does not stall every other call.
   */
  readonly failureStreak: number;
  /** Pauses every call with this key until `delayMs` from now (extends, never shortens, a running pause). */
  cooldown(delayMs: number): void;
  /** Epoch ms until which calls are paused (in the client's clock). */
  readonly pausedUntil: number;
  /** Milliseconds left of the key-wide pause (0 when none). */
  pauseRemaining(): number;
  /**
   * Sleeps `ms` through the injected sleep and counts that time as passed, so the gate opens after it even when the
   * injected clock did not move (a retry's backoff goes through here).
   */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
}

/** What {@link limiterFor} needs. */
export interface LimiterInit {
  apiKey: string;
  rateLimit: { requestsPerSecond: number; burst: number } | 'adaptive';
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  adaptive?: AdaptiveRateOptions;
}

interface KeyState {
  /** The latest time seen: the clock's reading or the end of a sleep, whichever is later (monotonic). */
  time: number;
  pausedUntil: number;
  /** Calls acquired and not yet answered, across every client with this key. */
  inFlight: number;
  failureStreak: number;
  adaptive: AdaptiveRate;
  /** p-throttle gates by `rps/burst`: clients of one key may state different fixed rates. */
  fixed: Map<string, () => Promise<void>>;
}

/** Longest a queued call sleeps before re-reading the adaptive rate. */
const RECHECK_MS = 250;

const registry = createClockDomains<KeyState>();

/**
 * A non-cryptographic 2×53-bit hash (cyrb53 with two seeds): the registry never holds the raw API key, so it cannot
 * show up in a heap dump or debug print of the map. Sync, so no promise is shared between callers.
 */
function hashKey(value: string): string {
  const run = (seed: number): string => {
    let h1 = 0xdeadbeef ^ seed;
    let h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < value.length; i++) {
      const ch = value.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
  };
  return `${run(1)}.${run(2)}`;
}

function stateFor(init: LimiterInit): KeyState {
  const byKey = registry.statesFor(init.now);
  const id = hashKey(init.apiKey);
  let state = byKey.get(id);
  if (!state) {
    const now = init.now();
    state = { time: now, pausedUntil: 0, inFlight: 0, failureStreak: 0, adaptive: new AdaptiveRate(now, init.adaptive), fixed: new Map() };
    byKey.set(id, state);
  }
  return state;
}

/**
 * A p-throttle gate that lets through at most `burst` calls in any window of `burst / rps` seconds (strict mode),
 * so the steady state never exceeds `rps`. It runs on the runtime's own timers, not the injected clock.
 */
function fixedGate(state: KeyState, rate: { requestsPerSecond: number; burst: number }): () => Promise<void> {
  const id = `${rate.requestsPerSecond}/${rate.burst}`;
  let gate = state.fixed.get(id);
  if (!gate) {
    const throttle = pThrottle({ limit: rate.burst, interval: (rate.burst / rate.requestsPerSecond) * 1000, strict: true });
    gate = throttle(async () => undefined);
    state.fixed.set(id, gate);
  }
  return gate;
}

function raceAbort(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The limiter for one client: its key's shared state seen through the client's clock, sleep and rate mode.
 *
 * @param init API key (hashed before use), rate mode, clock and sleep.
 * @returns A {@link Limiter}.
 * @example
 * const limiter = limiterFor({ apiKey, rateLimit: 'adaptive', now, sleep });
 * await limiter.acquire(signal);
 */
export function limiterFor(init: LimiterInit): Limiter {
  const state = stateFor(init);
  const { sleep } = init;
  const now = (): number => (state.time = Math.max(state.time, init.now()));
  const pause = async (ms: number, signal?: AbortSignal): Promise<void> => {
    const from = now();
    await sleep(ms, signal);
    state.time = Math.max(state.time, from + ms);
  };

  // One sleep per pause: the loop only goes round again when another caller extended the pause meanwhile.
  const waitForGate = async (signal?: AbortSignal): Promise<void> => {
    for (let wait = state.pausedUntil - now(); wait > 0; wait = state.pausedUntil - now()) {
      await pause(wait, signal);
    }
  };

  const acquireAdaptive = async (signal?: AbortSignal): Promise<void> => {
    await waitForGate(signal);
    const rate = state.adaptive;
    // Before any throttle, a call with nothing else in flight cannot be part of a burst: let it go unpaced, so
    // sequential callers (an n8n workflow, a script) never wait on a rate nobody has measured yet.
    // Counted at once (no await between the check and the count), or concurrent callers would all see zero.
    if (rate.slowStart && state.inFlight === 0) {
      state.inFlight += 1;
      return;
    }
    const ticket = rate.take(now());
    try {
      // Re-check after every sleep: a throttle meanwhile may have lowered the rate or closed the gate.
      for (;;) {
        await waitForGate(signal);
        const wait = rate.delay(ticket, now());
        if (wait === 0 && state.pausedUntil <= now()) break;
        // Sleep in slices: a wait is computed at the current rate, and the rate may rise meanwhile (CUBIC growth
        // after successes); sleeping the whole wait would hold a long queue at the cold-start rate.
        if (wait > 0) await pause(Math.min(wait, RECHECK_MS), signal);
      }
    } catch (error) {
      rate.cancel(ticket);
      throw error;
    }
    rate.commit(ticket);
    state.inFlight += 1;
  };

  const acquireFixed = async (rate: { requestsPerSecond: number; burst: number }, signal?: AbortSignal): Promise<void> => {
    const gate = fixedGate(state, rate);
    for (;;) {
      await waitForGate(signal);
      await raceAbort(gate(), signal);
      if (state.pausedUntil <= now()) {
        state.inFlight += 1;
        return;
      }
    }
  };

  return {
    acquire: async (signal) => {
      if (signal?.aborted) throw signal.reason;
      await (init.rateLimit === 'adaptive' ? acquireAdaptive(signal) : acquireFixed(init.rateLimit, signal));
    },
    record: (outcome) => {
      state.inFlight = Math.max(0, state.inFlight - 1);
      if (outcome === 'success') state.failureStreak = 0;
      if (outcome === 'throttled' || outcome === 'server-error') state.failureStreak += 1;
      if (outcome === 'success' || outcome === 'throttled') state.adaptive.record(now(), outcome === 'throttled');
    },
    cooldown: (delayMs) => {
      state.pausedUntil = Math.max(state.pausedUntil, now() + Math.max(0, delayMs));
      state.adaptive.hold(now(), state.pausedUntil);
    },
    get pausedUntil() {
      return state.pausedUntil;
    },
    get failureStreak() {
      return state.failureStreak;
    },
    pauseRemaining: () => Math.max(0, state.pausedUntil - now()),
    wait: pause,
  };
}

/** Forgets every key's throttling state (for tests that reuse one API key with the real clock). */
export function resetRateLimiters(): void {
  registry.reset();
}

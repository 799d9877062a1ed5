/**
 * Throttling for one API key (limits belong to the usage plan, which is tied to the key): the configured rate or
 * the learned default (`congestion.ts`), plus one cooldown gate, so a 429 or 5xx seen by any call pauses every call
 * with the key until the backoff delay (or `Retry-After`) has passed.
 *
 * Everything that waits goes through the injected `now` and `sleep`: no timers, no globals, so any driver (the ky
 * client, n8n's with its own `sleep`) can use it. Each caller sleeps on its own sleep and awaits only promises it
 * created itself (inside Cloudflare Workers a promise of one request must not be awaited by another); a caller
 * queued for a window slot also keeps a sleep of its own pending (see {@link QUEUE_POLL_MS}). Each wait is computed
 * once and slept once; a caller goes round again only when another caller paused the key meanwhile.
 */
import { Congestion, type CongestionOptions } from './congestion.ts';
import { FixedRate } from './fixed-rate.ts';

/**
 * How the answer to one acquired call went, as far as throttling is concerned. `not-sent`: the call failed after
 * `acquire` and before it was sent (its slot is released, nothing is learned).
 */
export type Outcome = 'success' | 'throttled' | 'server-error' | 'other' | 'no-answer' | 'not-sent';

/** A rate given by the user: the burst goes at once, then never more than `requestsPerSecond`. */
export interface FixedRateLimit {
  requestsPerSecond: number;
  burst: number;
}

/** Throttling state for one API key, shared by every client given the same limiter. */
export interface Limiter {
  /** Waits until a call may be sent (cooldown gate, then window or pace). Rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<void>;
  /** Feeds back how an acquired call ended; call it exactly once per successful `acquire`. */
  record(outcome: Outcome): void;
  /**
   * 429 events and 5xx in a row for this key with no success between (1 after the first): the key-wide pause grows
   * with it. A burst of 429s for calls that were already in flight counts once.
   */
  readonly failureStreak: number;
  /** Pauses every call with this key until `delayMs` from now (extends, never shortens, a running pause). */
  cooldown(delayMs: number): void;
  /** Epoch ms (in the limiter's clock) until which calls are paused. */
  readonly pausedUntil: number;
  /** Milliseconds left of the key-wide pause (0 when none, or when a caller has already slept through it). */
  pauseRemaining(): number;
  /** Sleeps `ms` (a retry's backoff); a pause it covered entirely is over for every caller afterwards. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
}

/** What {@link createLimiter} needs. */
export interface LimiterOptions {
  /** The clock, epoch ms. */
  now: () => number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A configured rate, or `'adaptive'` (default): learned from 429s. */
  rateLimit?: FixedRateLimit | 'adaptive';
  /** Tuning of the adaptive default (tests, benchmarks). */
  adaptive?: CongestionOptions;
}

/** The pause shared by every limiter of one API key (clients of one key may state different rates). */
export interface SharedPause {
  pausedUntil: number;
  /** The latest pause some caller has slept through entirely: over, whatever the clock says. */
  servedUntil: number;
  failureStreak: number;
  /** Counts pauses begun or extended; a caller that slept for a slot meanwhile takes a new one. */
  epoch: number;
}

/** @returns A pause that has never been set. */
export function createSharedPause(): SharedPause {
  return { pausedUntil: 0, servedUntil: 0, failureStreak: 0, epoch: 0 };
}

/** A caller queued for a window slot: `admitted` is set when a slot is handed over (or pacing began: `false`). */
interface Waiter {
  admitted?: boolean;
  wake?: () => void;
}

/**
 * How often a caller queued for a window slot wakes on its own sleep. Inside Cloudflare Workers a request that
 * awaits only a promise another request will resolve is cancelled as hung; a timer of its own keeps it alive.
 */
export const QUEUE_POLL_MS = 100;

/** Resolves with `promise`, or rejects with the signal's reason as soon as it aborts. */
function orAbort(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Creates the throttling state for one API key. Give the same limiter to every client of the key (or let
 * `createClient` use its per-key default).
 *
 * @param options Clock, sleep and rate.
 * @param pause The pause of the key, when other limiters of the key (other rates) share it.
 * @returns A {@link Limiter}.
 * @example
 * const limiter = createLimiter({ now: () => Date.now(), sleep });
 * const a = createClient({ ...options, limiter });
 * const b = createClient({ ...otherOptions, limiter }); // same API key: one 429 pauses both
 */
export function createLimiter(options: LimiterOptions, pause: SharedPause = createSharedPause()): Limiter {
  const { now, sleep } = options;
  const rateLimit = options.rateLimit ?? 'adaptive';
  const congestion = rateLimit === 'adaptive' ? new Congestion(options.adaptive) : undefined;
  const fixed = rateLimit === 'adaptive' ? undefined : new FixedRate(rateLimit.requestsPerSecond, rateLimit.burst);
  const queue: Waiter[] = [];

  const remaining = (): number => (pause.pausedUntil <= pause.servedUntil ? 0 : Math.max(0, pause.pausedUntil - now()));

  // One sleep per pause: round again only when another caller extended the pause meanwhile.
  const gate = async (signal?: AbortSignal): Promise<void> => {
    for (let wait = remaining(); wait > 0; wait = remaining()) {
      const until = pause.pausedUntil;
      await sleep(wait, signal);
      pause.servedUntil = Math.max(pause.servedUntil, until);
    }
  };

  // Hands free window slots to queued callers, oldest first; once paced, every queued caller goes to take a slot.
  const pump = (): void => {
    while (congestion && queue.length > 0 && congestion.canSend()) {
      const waiter = queue.shift();
      if (!waiter) break;
      waiter.admitted = !congestion.paced;
      if (waiter.admitted) congestion.sent();
      waiter.wake?.();
    }
  };

  // Woken by the handover or by its own sleep, whichever comes first (see QUEUE_POLL_MS).
  const enqueue = async (signal?: AbortSignal): Promise<boolean> => {
    if (signal?.aborted) throw signal.reason;
    const waiter: Waiter = {};
    queue.push(waiter);
    try {
      for (;;) {
        const before = now();
        const handover = new Promise<void>((resolve) => {
          waiter.wake = resolve;
        });
        const own = sleep(QUEUE_POLL_MS, signal);
        own.catch(() => undefined); // observed by the race below when it matters
        await Promise.race([handover, own]);
        // A sleep that returned without the clock moving (a test double) would spin: wait for the handover alone.
        if (waiter.admitted === undefined && now() === before) await orAbort(handover, signal);
        if (waiter.admitted !== undefined) return waiter.admitted;
      }
    } catch (error) {
      const at = queue.indexOf(waiter);
      if (at >= 0) queue.splice(at, 1);
      if (waiter.admitted === true) record('not-sent'); // handed a slot as it gave up: give it back
      throw error;
    }
  };

  /** Unpaced (slow start): a slot in the window, queued behind earlier callers. `true` once the call holds one. */
  const admit = async (signal?: AbortSignal): Promise<boolean> => {
    if (!congestion || congestion.paced) return false;
    if (queue.length === 0 && congestion.canSend()) {
      congestion.sent();
      return true;
    }
    return enqueue(signal);
  };

  const acquire = async (signal?: AbortSignal): Promise<void> => {
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      await gate(signal);
      if (await admit(signal)) {
        try {
          await gate(signal); // a 5xx may have paused the key while this call waited for its slot
        } catch (error) {
          record('not-sent');
          throw error;
        }
        return;
      }
      const epoch = pause.epoch;
      const delay = (fixed ?? congestion)?.reserve(now()) ?? 0;
      if (delay > 0) await sleep(delay, signal);
      // A throttle paused the key while this call slept for its slot: wait for the pause, then take a new slot.
      if (pause.epoch !== epoch) continue;
      congestion?.sent();
      return;
    }
  };

  const record = (outcome: Outcome): void => {
    if (outcome === 'success') pause.failureStreak = 0;
    if (outcome === 'server-error') pause.failureStreak += 1;
    if (congestion) {
      const answer = outcome === 'success' || outcome === 'throttled' || outcome === 'not-sent' ? outcome : 'other';
      if (congestion.answered(now(), answer)) pause.failureStreak += 1;
      pump();
    } else if (outcome === 'throttled') {
      pause.failureStreak += 1;
    }
  };

  return {
    acquire,
    record,
    cooldown: (delayMs) => {
      const until = now() + Math.max(0, delayMs);
      if (until <= pause.pausedUntil) return;
      pause.pausedUntil = until;
      pause.epoch += 1;
      (fixed ?? congestion)?.restart(now(), until);
    },
    get pausedUntil() {
      return pause.pausedUntil;
    },
    get failureStreak() {
      return pause.failureStreak;
    },
    pauseRemaining: remaining,
    wait: async (ms, signal) => {
      const until = pause.pausedUntil;
      const covers = ms >= until - now();
      await sleep(ms, signal);
      if (covers) pause.servedUntil = Math.max(pause.servedUntil, until);
    },
  };
}

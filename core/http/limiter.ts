/**
 * Throttling for one API key (the usage plan belongs to the key): callers line up, and each goes when the key's
 * pause is over and the pace (`pacing.ts`) allows. One call shape, Bottleneck's: `schedule(send)` runs `send` in its
 * turn and learns from the outcome it reports. The shared retry loop (`run-call.ts`) is its only caller.
 *
 * Everything that waits goes through the injected `now` and `sleep`: no timers or globals of its own, so any driver
 * (the ky client, n8n with its own `sleep`, a test's fake clock) can use it. Only the caller at the head of the line
 * sleeps for the pace; the others wait to be handed the head, which happens when the head leaves, when an answer
 * frees the window, or when the pace changes. Whoever hands it on first lets go every caller that may go at once
 * (`grantWaiting`), so a line that a pause held goes out together. Each wait is computed once and slept once: a caller sleeps again only
 * when the key was paused or its slot moved meanwhile (a cut, or a ramp step that brought it forward, which also
 * wakes it at once), so a sleep that returns early cannot make callers spin.
 */
import { raceAbort } from '../signal.ts';
import { Pacing, type Answer } from './pacing.ts';
import { rateLimitOf, type RateLimitOptions } from './rate-limit.ts';

/**
 * How one scheduled attempt ended, for throttling: `other` is any other answer (a 4xx the plan still counted),
 * `no-answer` a network failure or timeout, `not-sent` a failure before the request went out (token request failed,
 * aborted): its turn is given back, nothing is learned.
 */
export type Outcome = 'success' | 'throttled' | 'server-error' | 'other' | 'no-answer' | 'not-sent';

/** Throttling state for one API key, shared by every client given the same limiter. */
export interface Limiter {
  /**
   * Runs `send` in its turn (after the key's pause, at the pace) and learns from the `outcome` it returns.
   * Rejects with the signal's reason, without running `send`, when the signal aborts first.
   */
  schedule<T extends { outcome: Outcome }>(send: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Pauses every call with this key until `ms` from now (extends, never shortens, a running pause). */
  pause(ms: number): void;
  /** Sleeps `ms` (a retry's backoff); a pause it covered entirely is over for every caller afterwards. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  /** Milliseconds left of the key-wide pause (0 when none, or when a caller has already slept through it). */
  pauseRemaining(): number;
  /**
   * 5xx in a row for this key with no success between, counting the calls under way at a 5xx as one failure: the
   * key-wide pause grows with it.
   */
  readonly failureStreak: number;
}

/** What {@link createLimiter} needs. */
export interface LimiterOptions {
  /** The clock, epoch ms. */
  now: () => number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * A configured rate (a ceiling: 429s still slow the key below it; a burst left out is one second's worth), or
   * `'adaptive'` (default): learned from 429s.
   */
  rateLimit?: RateLimitOptions | 'adaptive';
  /**
   * Inside Cloudflare Workers a request that awaits only a promise another request resolves is cancelled as hung,
   * so a caller waiting in line keeps a sleep of its own ticking this often (ms). Default 0 (off); the client's
   * per-key default turns it on in workerd.
   */
  keepAliveMs?: number;
}

/** A caller in line; `wake` hands it the head (or tells the head to look again). */
interface Waiter {
  wake?: () => void;
  /** Sent on its behalf by {@link grantWaiting}, and out of the line: it returns as soon as it runs. */
  granted?: boolean;
}

/**
 * Creates the throttling state for one API key. Give the same limiter to every client of the key (or let
 * `createClient` use its per-key default).
 *
 * @param options Clock, sleep and rate.
 * @returns A {@link Limiter}.
 * @example
 * const limiter = createLimiter({ now: () => Date.now(), sleep });
 * const a = createClient({ ...options, limiter });
 * const b = createClient({ ...otherOptions, limiter }); // same API key: one 429 slows both
 */
export function createLimiter(options: LimiterOptions): Limiter {
  const { now, sleep } = options;
  const keepAliveMs = options.keepAliveMs ?? 0;
  const rate = rateLimitOf(options.rateLimit, 'createLimiter');
  const pacing = new Pacing(rate === 'adaptive' ? undefined : rate);
  const line: Waiter[] = [];
  let pausedUntil = 0;
  /** The latest pause some caller has slept through entirely: over, whatever the clock says. */
  let servedUntil = 0;
  let failureStreak = 0;
  /** Calls sent so far, each numbered in its turn. */
  let sends = 0;
  /** The calls sent up to the last 5xx that lengthened the streak: their 5xx are part of that failure, not more. */
  let streakCovers = 0;
  /** Counts pauses and moved slots: a head that slept for its slot meanwhile looks again. */
  let changes = 0;
  /** Wakes the head sleeping for its slot (the slot moved). */
  let slotMoved: (() => void) | undefined;

  const pauseRemaining = (): number => (pausedUntil <= servedUntil ? 0 : Math.max(0, pausedUntil - now()));
  const wakeHead = (): void => line[0]?.wake?.();

  /**
   * Lets every caller at the head of the line go that may go now (no pause, room in the window, the pace allows),
   * counting each as sent here, then wakes the new head. Handing the head on one caller at a time, each going only
   * once it ran, cost a scheduling turn per caller: in workerd, where each caller is a request of its own, about a
   * millisecond, so after a pause only some ten calls had gone before the first answer could pause the key again.
   */
  const grantWaiting = (): void => {
    while (line.length > 0 && pauseRemaining() === 0 && pacing.canSend() && pacing.wait(now()) === 0) {
      const next = line.shift()!;
      pacing.sent(now());
      next.granted = true;
      next.wake?.();
    }
    wakeHead();
  };

  const handedOver = async (me: Waiter, signal: AbortSignal | undefined): Promise<void> => {
    const handover = new Promise<void>((resolve) => {
      me.wake = resolve;
    });
    if (keepAliveMs <= 0) return raceAbort(handover, signal);
    const tick = sleep(keepAliveMs, signal);
    tick.catch(() => undefined); // observed by the race when it matters
    await Promise.race([handover, tick]);
  };

  /** Waits for this caller's turn; on return the caller holds a slot (counted as sent). */
  const turn = async (signal: AbortSignal | undefined): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    if (line.length === 0 && pauseRemaining() === 0 && pacing.canSend() && pacing.wait(now()) === 0) {
      pacing.sent(now());
      return;
    }
    const me: Waiter = {};
    line.push(me);
    try {
      for (;;) {
        if (me.granted) return;
        if (line[0] !== me || !pacing.canSend()) {
          await handedOver(me, signal);
          continue;
        }
        const paused = pauseRemaining();
        if (paused > 0) {
          const until = pausedUntil;
          await sleep(paused, signal);
          servedUntil = Math.max(servedUntil, until);
          continue;
        }
        const pace = pacing.wait(now());
        if (pace > 0) {
          const before = changes;
          // A sleep the moved slot left behind is cancelled (its own signal; the caller's is raced, not passed), so it
          // holds no timer and no listener on the caller's signal: a head whose slot moved at every answer of a
          // search piled up one of each per move, and Node 22 warned of a leak past ten on one signal. (n8n's sleep
          // cannot be cancelled: there it runs out unobserved.)
          const superseded = new AbortController();
          let asleep = true;
          try {
            await raceAbort(new Promise<void>((resolve, reject) => {
              slotMoved = resolve;
              sleep(pace, superseded.signal).then(
                () => {
                  asleep = false;
                  resolve();
                },
                (error: unknown) => {
                  if (!superseded.signal.aborted) reject(error);
                },
              );
            }), signal);
          } finally {
            slotMoved = undefined; // also when the signal aborted the sleep: no stale waker for the next head
            if (asleep) superseded.abort();
          }
          if (changes !== before) continue;
        }
        // Let go while it slept (an answer came as its slot fell due): already counted as sent.
        if (me.granted) return;
        pacing.sent(now());
        return;
      }
    } catch (error) {
      // Granted while its signal aborted: the slot counted as sent goes back unused.
      if (me.granted) learn('not-sent', 0);
      throw error;
    } finally {
      const at = line.indexOf(me);
      if (at >= 0) line.splice(at, 1);
      grantWaiting();
    }
  };

  /**
   * A 5xx lengthens the key's streak (and so its pause) only if its call was sent after the last 5xx that did: the
   * calls already under way then met the same failure. TCP counts one loss per window the same way. Counting each,
   * a burst of 200 calls of which 20 met a fast 503 from a struggling service made a streak of 20 at once, and so a
   * key-wide pause of 30 s (the cap) for a service that failed one call in ten.
   */
  const learn = (outcome: Outcome, number: number): void => {
    if (outcome === 'success') failureStreak = 0;
    if (outcome === 'server-error' && number > streakCovers) {
      failureStreak += 1;
      streakCovers = sends;
    }
    const answer: Answer = outcome === 'throttled' || outcome === 'not-sent' ? outcome : outcome === 'no-answer' ? 'lost' : 'admitted';
    if (pacing.answered(now(), answer)) {
      changes += 1;
      slotMoved?.();
    }
    grantWaiting();
  };

  const limiter: Limiter = {
    schedule: async (send, signal) => {
      await turn(signal);
      sends += 1;
      const number = sends;
      let result;
      try {
        result = await send();
      } catch (error) {
        learn('no-answer', number);
        throw error;
      }
      learn(result.outcome, number);
      return result;
    },
    pause: (ms) => {
      const until = now() + Math.max(0, ms);
      if (until <= pausedUntil) return;
      pausedUntil = until;
      changes += 1;
      pacing.pausedUntil(until);
    },
    wait: async (ms, signal) => {
      const until = pausedUntil;
      const covers = ms >= until - now();
      await sleep(ms, signal);
      if (covers) servedUntil = Math.max(servedUntil, until);
    },
    pauseRemaining,
    get failureStreak() {
      return failureStreak;
    },
  };
  return limiter;
}

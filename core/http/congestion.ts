/**
 * The default rate for an API key whose usage plan nobody told us, learned from 429s the way TCP learns from loss.
 *
 * - Before the first throttle nothing is known, so nothing is paced: a congestion window caps how many calls are in
 *   flight, and grows by slow start (+1 per success, so it doubles with every window of successes: 10, 20, 40 …),
 *   in rounds (see {@link Congestion.canSend}). A generous plan is never waited on; a tight one finds out within one
 *   round.
 * - A 429 is a congestion event: calls are paced from then on at `beta` × the goodput the plan was seen to allow
 *   (successes per second over the last seconds), which grows back by `increase` × that estimate per second while
 *   callers are queued for it (additive increase) and is cut again at the next event (multiplicative decrease).
 *   429s for calls already in flight at an event belong to that event (TCP's recovery point): a burst of them cuts
 *   the rate once.
 *
 * Pure arithmetic on the times passed in: no clock, no timers. The limiter queues and sleeps.
 */

/** Tuning of {@link Congestion}; the defaults are what the benchmarks measure. */
export interface CongestionOptions {
  /** Calls in flight allowed before anything is learned (default 10). */
  initialWindow?: number;
  /** Largest window slow start grows to (default 1000). */
  maxWindow?: number;
  /** Multiplicative decrease on a congestion event (default 0.9 of the goodput the plan allowed). */
  beta?: number;
  /** Additive increase, as a share of the estimated plan rate per second of queued use (default 0.02). */
  increase?: number;
  /** Lowest paced rate, requests per second (default 0.5). */
  minRate?: number;
  /** How far back successes count for the goodput estimate, ms (default 2000; never divided by less than 1 s). */
  sampleMs?: number;
}

/**
 * How a sent call ended, as far as congestion is concerned: `other` is any other answer or failure (nothing
 * learned), `not-sent` a call that failed before it was sent.
 */
export type Answer = 'success' | 'throttled' | 'other' | 'not-sent';

/** The window and the pace for one API key. Times are epoch milliseconds of whatever clock the caller uses. */
export class Congestion {
  readonly initialWindow: number;
  readonly maxWindow: number;
  readonly beta: number;
  readonly increase: number;
  readonly minRate: number;
  readonly sampleMs: number;
  /** Calls allowed in flight while unpaced. */
  window: number;
  /** Paced rate in requests per second; `undefined` until the first throttle (slow start). */
  rate: number | undefined;
  /** Calls sent and not yet answered. */
  inFlight = 0;
  /** Size of the current round (the window when it began) and calls sent in it: see {@link Congestion.canSend}. */
  #roundSize: number;
  #roundSent = 0;
  /** The plan's rate as estimated at the last event, requests per second. */
  estimate = 0;
  /** Answers still due from calls that were in flight at the last event (their 429s are that event's). */
  recover = 0;
  /** When the next paced call may go. */
  #nextAt = 0;
  /** Successes counted in 100 ms buckets, oldest first (only the last `sampleMs` are kept): [bucket start, count]. */
  #successes: [number, number][] = [];

  /** @param options Tuning; see {@link CongestionOptions}. */
  constructor(options: CongestionOptions = {}) {
    this.initialWindow = options.initialWindow ?? 10;
    this.maxWindow = options.maxWindow ?? 1000;
    this.beta = options.beta ?? 0.9;
    this.increase = options.increase ?? 0.02;
    this.minRate = options.minRate ?? 0.5;
    this.sampleMs = options.sampleMs ?? 2000;
    this.window = this.initialWindow;
    this.#roundSize = this.window;
  }

  /** True once a throttle was seen: calls are paced, the window no longer applies. */
  get paced(): boolean {
    return this.rate !== undefined;
  }

  /**
   * Whether one more call may be sent now without pacing (always true once paced: the pace decides). Slow start goes
   * in rounds: a round is the window when it began (10, then 20, 40 … after clean rounds); once a round is full, no
   * call goes until all of its answers are in. So a plan whose burst is smaller than the window costs that round's
   * excess in 429s, not that plus the calls sent while those 429s were on their way. Callers fewer than the window
   * wait only at the end of a round (a handful of times as it doubles), and at `maxWindow` rounds end.
   */
  canSend(): boolean {
    if (this.paced) return true;
    if (this.inFlight >= this.window) return false;
    return this.#roundSent < this.#roundSize || this.inFlight === 0 || this.window >= this.maxWindow;
  }

  /** Counts a call as sent. */
  sent(): void {
    if (this.#roundSent >= this.#roundSize && this.inFlight === 0) {
      this.#roundSize = this.window;
      this.#roundSent = 0;
    }
    this.inFlight += 1;
    this.#roundSent += 1;
  }

  /**
   * Reserves the next paced slot. Unpaced, every slot is now.
   *
   * @param now Epoch ms.
   * @returns Milliseconds the caller has to wait for its slot (0: go now).
   */
  reserve(now: number): number {
    if (this.rate === undefined) return 0;
    const at = Math.max(now, this.#nextAt);
    this.#nextAt = at + 1000 / this.rate;
    return at - now;
  }

  /**
   * Drops the reserved schedule: after a pause the pace starts again at its end (callers holding slots take new
   * ones, so the end of a pause is not a burst).
   *
   * @param _now Epoch ms.
   * @param until End of the pause, epoch ms.
   */
  restart(_now: number, until: number): void {
    this.#nextAt = until;
  }

  /**
   * Feeds back one answer.
   *
   * @param now Epoch ms.
   * @param answer `success`, `throttled` (429 Too Many Requests), `other` or `not-sent` (the slot is free, nothing
   *   learned).
   * @returns `true` when this answer is a new congestion event (not a 429 of calls sent before the last one).
   */
  answered(now: number, answer: Answer): boolean {
    this.inFlight = Math.max(0, this.inFlight - 1);
    if (answer === 'not-sent') {
      this.#roundSent = Math.max(0, this.#roundSent - 1); // never reached the service: another may go in its place
      if (this.recover > 0) this.recover -= 1;
      return false;
    }
    const old = this.recover > 0;
    if (old) this.recover -= 1;
    if (answer === 'success') {
      this.#countSuccess(now);
      this.#grow(now);
      return false;
    }
    if (answer !== 'throttled' || old) return false;
    this.estimate = this.#goodput(now);
    if (this.rate !== undefined) this.estimate = Math.min(this.estimate, this.rate);
    this.rate = Math.max(this.minRate, this.estimate * this.beta);
    // The first paced call waits one interval: the caller's cooldown for this 429 is not set yet.
    this.#nextAt = now + 1000 / this.rate;
    this.recover = this.inFlight;
    return true;
  }

  #grow(now: number): void {
    if (this.rate === undefined) {
      this.window = Math.min(this.maxWindow, this.window + 1);
      return;
    }
    // Only while callers are queued for slots: an idle client earns no licence to burst.
    if (this.#nextAt <= now) return;
    // +increase × estimate per second: each success is 1/rate of a second of sending at this rate.
    this.rate += (this.increase * Math.max(this.estimate, this.minRate)) / this.rate;
  }

  #countSuccess(now: number): void {
    const start = now - (now % 100);
    const last = this.#successes.at(-1);
    if (last && last[0] === start) last[1] += 1;
    else this.#successes.push([start, 1]);
    this.#forgetBefore(now - this.sampleMs);
  }

  #forgetBefore(from: number): void {
    while ((this.#successes[0]?.[0] ?? Number.POSITIVE_INFINITY) < from - 100) this.#successes.shift();
  }

  /** Successes per second over the last `sampleMs` (at least 1 s, so one quick burst is not read as a rate). */
  #goodput(now: number): number {
    this.#forgetBefore(now - this.sampleMs);
    const first = this.#successes[0];
    if (!first) return this.minRate;
    const count = this.#successes.reduce((sum, [, n]) => sum + n, 0);
    return count / Math.max(1, (now - first[0]) / 1000);
  }
}

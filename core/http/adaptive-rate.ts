/**
 * The adaptive client-side rate, after the AWS SDK v3 adaptive retry mode (`DefaultRateLimiter`): a token bucket
 * whose fill rate drops to `beta` × the measured rate on a throttle and grows back along a CUBIC curve
 * (`scale × (t − K)³ + lastMaxRate`, K the time to regain the old maximum), capped at twice the measured send rate.
 * Unlike the SDK it starts enabled, at `initialRate` with a small burst, so a cold start of 100 concurrent calls is
 * paced instead of hitting the gateway at once; and callers take numbered tickets (FIFO) that the bucket releases
 * at the fill rate, so concurrent waiters are spaced out rather than all waking together, and a rate drop delays
 * tickets already issued; and until the first throttle it grows by slow start (see `record`). Pure arithmetic on an
 * injected clock: callers do their own sleeping.
 */

export interface AdaptiveRateOptions {
  /** Requests per second before anything is learned (default 10). */
  initialRate?: number;
  /** Multiplicative decrease on a throttle (default 0.7). */
  beta?: number;
  /** CUBIC scale constant (default 0.4). */
  scaleConstant?: number;
  /** Weight of the newest half-second in the measured send rate (default 0.8). */
  smooth?: number;
  /** Floor of the fill rate, requests per second (default 0.5). */
  minFillRate?: number;
  /** Burst as seconds' worth of the fill rate (default 0.5; never below one request). */
  burstSeconds?: number;
}

const precise = (n: number): number => Number.parseFloat(n.toFixed(8));

/** The bucket and the CUBIC state for one API key. Times in, out and stored are epoch milliseconds. */
export class AdaptiveRate {
  readonly beta: number;
  readonly scaleConstant: number;
  readonly smooth: number;
  readonly minFillRate: number;
  readonly burstSeconds: number;
  /** Current fill rate, requests per second. */
  fillRate: number;
  /** Tickets released so far (fractional: release is continuous); ticket `n` may go once `released >= n`. */
  released = 1;
  /** Tickets handed out so far. */
  issued = 0;
  /** The highest ticket that has gone. */
  committed = 0;
  /** Releases that may accumulate while idle (the burst). */
  maxCapacity: number;
  /** The rate at the last throttle (CUBIC's W_max). */
  lastMaxRate: number;
  /** Smoothed send rate, requests per second. */
  measuredTxRate = 0;
  #lastRefill: number;
  #lastThrottle: number;
  #timeWindow = 0;
  #requestCount = 0;
  #lastTxBucket: number;
  /** Successes since the last throttle (or creation), for the goodput estimate of the plan's rate. */
  #successes = 0;
  #since: number;
  #slowStart = true;

  /**
   * @param now Creation time, epoch ms.
   * @param options Tuning; the defaults are the SDK's.
   */
  constructor(now: number, options: AdaptiveRateOptions = {}) {
    this.beta = options.beta ?? 0.7;
    this.scaleConstant = options.scaleConstant ?? 0.4;
    this.smooth = options.smooth ?? 0.8;
    this.minFillRate = options.minFillRate ?? 0.5;
    this.burstSeconds = options.burstSeconds ?? 0.5;
    this.fillRate = options.initialRate ?? 10;
    this.lastMaxRate = this.fillRate;
    this.maxCapacity = this.#burstFor(this.fillRate);
    this.#lastRefill = now;
    this.#since = now;
    // Start on the flat middle of the CUBIC curve (as if the last throttle was K seconds ago) so the rate begins
    // at initialRate and only grows with demand.
    this.#updateTimeWindow();
    this.#lastThrottle = now / 1000 - this.#timeWindow;
    this.#lastTxBucket = Math.floor(now / 500) / 2;
  }

  /** True until the first throttle: the rate grows by slow start, then by CUBIC. */
  get slowStart(): boolean {
    return this.#slowStart;
  }

  /**
   * Joins the queue.
   *
   * @param now Epoch ms.
   * @returns The caller's ticket.
   */
  take(now: number): number {
    this.#refill(now);
    this.issued += 1;
    return this.issued;
  }

  /**
   * How long a ticket still has to wait at the current rate. Ask again after sleeping: the rate may have dropped.
   *
   * @param ticket From {@link AdaptiveRate.take}.
   * @param now Epoch ms.
   * @returns Milliseconds; 0 means the ticket may go now (then call {@link AdaptiveRate.commit}).
   */
  delay(ticket: number, now: number): number {
    this.#refill(now);
    return this.released >= ticket ? 0 : Math.max(1, Math.ceil(((ticket - this.released) / this.fillRate) * 1000));
  }

  /** @param ticket A ticket that is being sent now. */
  commit(ticket: number): void {
    this.committed = Math.max(this.committed, ticket);
  }

  /** @param _ticket A ticket whose caller gave up (aborted): the queue behind it moves up one place. */
  cancel(_ticket: number): void {
    this.released = Math.min(this.released + 1, this.issued + this.maxCapacity);
  }

  /**
   * Feeds back one answer.
   *
   * @param now Epoch ms.
   * @param throttled Whether it was a 429 `Too Many Requests`.
   */
  record(now: number, throttled: boolean): void {
    const t = now / 1000;
    this.#updateMeasuredRate(t);
    if (throttled) {
      // W_max: what the plan demonstrably allowed. The SDK takes the send rate, which overshoots the plan's rate
      // right when it is exceeded; the goodput since the last throttle (over at least a second) is a closer bound.
      const elapsed = (now - this.#since) / 1000;
      // Too small a sample (under a second, or a handful of answers) says nothing about the plan.
      const goodput = elapsed >= 1 && this.#successes >= 3 ? this.#successes / elapsed : Number.POSITIVE_INFINITY;
      const rateToUse = Math.min(this.measuredTxRate || this.fillRate, this.fillRate, goodput);
      this.lastMaxRate = rateToUse;
      this.#updateTimeWindow();
      this.#lastThrottle = t;
      this.#successes = 0;
      this.#since = now;
      this.#slowStart = false;
      this.#setRate(now, precise(rateToUse * this.beta), true);
      return;
    }
    this.#successes += 1;
    if (this.#slowStart) {
      // Until the first throttle nothing is known about the plan: grow like TCP slow start (+1 req/s per success,
      // so the rate roughly doubles every 0.7 s of full use) instead of along the slow cold start of the CUBIC
      // curve, which held a generous plan at 10-20 req/s for seconds. Never beyond twice what is actually sent.
      const grown = Math.min(this.fillRate + 1, Math.max(2 * this.measuredTxRate, this.fillRate));
      this.lastMaxRate = grown;
      this.#setRate(now, grown, false);
      return;
    }
    this.#updateTimeWindow();
    const rate = precise(this.scaleConstant * (t - this.#lastThrottle - this.#timeWindow) ** 3 + this.lastMaxRate);
    // Beyond W_max, never more than twice what is actually being sent: an idle client earns no licence to burst.
    this.#setRate(now, Math.min(rate, Math.max(2 * this.measuredTxRate, this.lastMaxRate)), false);
  }

  /**
   * Nothing accrues while every call is paused (cooldown gate), so the first calls after a pause are not a burst.
   *
   * @param now Epoch ms.
   * @param until End of the pause, epoch ms.
   */
  hold(now: number, until: number): void {
    this.#refill(now);
    this.#lastRefill = Math.max(this.#lastRefill, until);
  }

  #burstFor(rate: number): number {
    return Math.max(1, rate * this.burstSeconds);
  }

  #setRate(now: number, rate: number, throttled: boolean): void {
    this.#refill(now);
    this.fillRate = Math.max(rate, this.minFillRate);
    this.maxCapacity = this.#burstFor(this.fillRate);
    // After a throttle, releases not yet used are withdrawn: waiting tickets go at the new rate from now on.
    if (throttled) this.released = Math.min(this.released, this.committed);
    this.released = Math.min(this.released, this.issued + this.maxCapacity);
  }

  #refill(now: number): void {
    const elapsed = Math.max(0, now - this.#lastRefill) / 1000;
    this.released = Math.min(this.issued + this.maxCapacity, this.released + elapsed * this.fillRate);
    this.#lastRefill = Math.max(this.#lastRefill, now);
  }

  #updateTimeWindow(): void {
    this.#timeWindow = precise(((this.lastMaxRate * (1 - this.beta)) / this.scaleConstant) ** (1 / 3));
  }

  #updateMeasuredRate(t: number): void {
    const bucket = Math.floor(t * 2) / 2;
    this.#requestCount += 1;
    if (bucket > this.#lastTxBucket) {
      const current = this.#requestCount / (bucket - this.#lastTxBucket);
      this.measuredTxRate = precise(current * this.smooth + this.measuredTxRate * (1 - this.smooth));
      this.#requestCount = 0;
      this.#lastTxBucket = bucket;
    }
  }
}

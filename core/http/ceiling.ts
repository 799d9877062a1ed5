/**
 * A rate the user configured, before any 429 (`pacing.ts` paces it after one, as the default): the burst goes at once,
 * then calls are spaced by the rate, and no span of burst ÷ rate ever holds more than the burst, so the steady state
 * never exceeds the rate. Pure arithmetic on the times passed in.
 */

/** A rate given by the user: at most `burst` calls at once, then never more than `requestsPerSecond`. */
export interface Ceiling {
  requestsPerSecond: number;
  burst: number;
}

/** The ceiling's burst allowance: its recent slot times. */
export class CeilingSlots {
  readonly #ceiling: Ceiling;
  /** Recent slot times, oldest first (at most the burst). */
  #slots: number[] = [];

  /** @param ceiling The configured rate. */
  constructor(ceiling: Ceiling) {
    this.#ceiling = ceiling;
  }

  /**
   * Milliseconds until the next call may go (0: now).
   *
   * @param now Epoch ms.
   * @returns Milliseconds to wait.
   */
  wait(now: number): number {
    const { burst, requestsPerSecond } = this.#ceiling;
    const interval = 1000 / requestsPerSecond;
    const last = this.#slots.at(-1);
    if (last === undefined || now - last >= burst * interval) {
      this.#slots = []; // idle for a whole span: the burst is there again
      return 0;
    }
    if (this.#slots.length < burst) return 0;
    const next = Math.max((this.#slots[this.#slots.length - burst] ?? now) + burst * interval, last + interval);
    return Math.max(0, next - now);
  }

  /**
   * Counts a call as sent now.
   *
   * @param now Epoch ms.
   */
  sent(now: number): void {
    this.#slots.push(now);
    if (this.#slots.length > this.#ceiling.burst) this.#slots.shift();
  }

  /** Forgets the slots (a key-wide pause: its end is not a burst). */
  clear(): void {
    this.#slots = [];
  }
}

/**
 * A configured rate (`rateLimit: { requestsPerSecond, burst }`): the burst goes at once, then calls are spaced
 * `1 / requestsPerSecond` apart, and no window of `burst / requestsPerSecond` seconds ever holds more than `burst`
 * calls, so the steady state never exceeds the rate. Pure arithmetic on the times passed in.
 */
export class FixedRate {
  readonly burst: number;
  readonly interval: number;
  readonly window: number;
  /** Slot times handed out, the last `burst` of them. */
  #slots: number[] = [];

  /**
   * @param requestsPerSecond The plan's rate.
   * @param burst Calls that may go at once.
   */
  constructor(requestsPerSecond: number, burst: number) {
    this.burst = burst;
    this.interval = 1000 / requestsPerSecond;
    this.window = burst * this.interval;
  }

  /**
   * Reserves the next slot.
   *
   * @param now Epoch ms.
   * @returns Milliseconds until the slot (0: go now).
   */
  reserve(now: number): number {
    const last = this.#slots.at(-1);
    // Idle for a whole window: the burst is available again.
    if (last !== undefined && now - last >= this.window) this.#slots = [];
    let at = now;
    if (this.#slots.length >= this.burst) {
      at = Math.max(at, (this.#slots[this.#slots.length - this.burst] ?? now) + this.window, (last ?? now) + this.interval);
    }
    this.#slots.push(at);
    if (this.#slots.length > this.burst) this.#slots.shift();
    return at - now;
  }

  /**
   * A pause began: slots not yet used are given back (their callers wait for the pause and reserve again).
   *
   * @param now Epoch ms.
   * @param _until End of the pause, epoch ms (the pause itself holds everyone back until then).
   */
  restart(now: number, _until: number): void {
    this.#slots = this.#slots.filter((slot) => slot <= now);
  }
}

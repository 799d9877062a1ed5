/**
 * A rate the user configured, before any 429 (`pacing.ts` paces it after one, as the default): the burst goes at once,
 * then calls are spaced by the rate, and no span of burst ÷ rate ever holds more than the burst, so the steady state
 * never exceeds the rate. Pure arithmetic on the times passed in.
 *
 * The spacing keeps a schedule, not the time since the last call: a timer fires a little late, and spaced from the
 * last call each lateness added up, so a ceiling of 200 req/s sent 94 to 95 % of it over sockets (100 req/s: 96 to
 * 98 %; `bench/notes/rate-control.md`, "A configured rate's schedule").
 */

/** A rate given by the user: at most `burst` calls at once, then never more than `requestsPerSecond`. */
export interface Ceiling {
  requestsPerSecond: number;
  burst: number;
}

/**
 * The slot after a call sent `now` on a schedule of `interval` ms whose next slot was `nextAt`: a call late by up to
 * `catchUpMs` (at most one interval) does not push back the ones after it, so timers' lateness does not add up.
 *
 * @param nextAt The slot the call was due at, epoch ms.
 * @param now When it went, epoch ms.
 * @param interval The schedule's spacing, ms.
 * @param catchUpMs How early the next call may go after a late one, ms.
 * @returns The next slot, epoch ms.
 */
export function nextOnSchedule(nextAt: number, now: number, interval: number, catchUpMs: number): number {
  return Math.max(nextAt, now - Math.min(catchUpMs, interval)) + interval;
}

/** The ceiling's burst allowance: its recent slot times. */
export class CeilingSlots {
  readonly #ceiling: Ceiling;
  /** How early a call may go on the schedule after a late one (ms). */
  readonly #catchUpMs: number;
  /** Recent slot times, oldest first (at most the burst). */
  #slots: number[] = [];
  /** The rate's schedule: when the next call is due at the earliest, burst aside. */
  #nextAt = 0;

  /**
   * @param ceiling The configured rate.
   * @param catchUpMs How early a call may go on the schedule after a late one made up for its lateness (at most one
   *   interval). With a burst of one the span's limit is the interval itself, so no call goes early there: such a
   *   bucket refuses any two calls closer than that.
   */
  constructor(ceiling: Ceiling, catchUpMs = 0) {
    this.#ceiling = ceiling;
    this.#catchUpMs = catchUpMs;
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
    const next = Math.max((this.#slots[this.#slots.length - burst] ?? now) + burst * interval, this.#nextAt);
    return Math.max(0, next - now);
  }

  /**
   * Counts a call as sent now.
   *
   * @param now Epoch ms.
   */
  sent(now: number): void {
    this.#nextAt = nextOnSchedule(this.#nextAt, now, 1000 / this.#ceiling.requestsPerSecond, this.#catchUpMs);
    this.#slots.push(now);
    if (this.#slots.length > this.#ceiling.burst) this.#slots.shift();
  }

  /** Forgets the slots and the schedule (a key-wide pause began: the burst may go at once when it ends). */
  clear(): void {
    this.#slots = [];
    this.#nextAt = 0;
  }
}

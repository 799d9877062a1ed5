/**
 * The paced calls' clock (`pacing.ts` decides the pace, this keeps time by it): when the next call is due, the
 * spacing of the last, and how fast calls went lately. Pure arithmetic on the times passed in.
 */
import { nextOnSchedule } from './ceiling.ts';

/** The send rate is a moving average over about this long (ms). */
const SEND_RATE_MS = 1000;
/** A late timer may send this much early on the next slot (at most one interval), so lateness does not add up. */
export const CATCH_UP_MS = 4;

/** When the next paced call may go, and the send rate. Times are epoch ms of the pacing's clock. */
export class SendClock {
  /** When the next paced call is due. */
  nextAt = 0;
  /** The spacing of the last paced send (ms): a ramp step brings the next slot forward by the difference. */
  #interval = 0;
  /** Calls sent per second, a moving average, as of {@link SendClock.lastAt}. */
  #rate = 0;
  /** The last send (0: none yet). */
  lastAt = 0;

  /**
   * Calls sent per second lately (a moving average over about a second).
   *
   * @param now Epoch ms.
   * @returns Requests per second.
   */
  rate(now: number): number {
    return this.#rate * Math.exp(-Math.max(0, now - this.lastAt) / SEND_RATE_MS);
  }

  /**
   * Counts a send at `now`.
   *
   * @param now Epoch ms.
   */
  count(now: number): void {
    this.#rate = this.rate(now) + 1000 / SEND_RATE_MS;
    this.lastAt = now;
  }

  /**
   * The slot after a paced send at `now`, at `pace`: on schedule, a late timer's lateness made up within
   * {@link CATCH_UP_MS} but on a bucket of about one call, which refuses any two calls closer than its interval.
   *
   * @param now Epoch ms.
   * @param pace Requests per second.
   * @param oneCallBucket The plan's bucket holds about one call.
   */
  schedule(now: number, pace: number, oneCallBucket: boolean): void {
    this.#interval = 1000 / pace;
    this.nextAt = nextOnSchedule(this.nextAt, now, this.#interval, oneCallBucket ? 0 : CATCH_UP_MS);
  }

  /**
   * The pace stepped up between two sends: the slot already set comes forward to the new spacing (a bucket of one
   * call, where the ramp steps at each call admitted). Nothing before the first paced send.
   *
   * @param pace Requests per second.
   */
  respace(pace: number): void {
    if (this.#interval === 0) return;
    this.nextAt += 1000 / pace - this.#interval;
    this.#interval = 1000 / pace;
  }

  /**
   * Milliseconds until the next slot (0: now).
   *
   * @param now Epoch ms.
   * @returns Milliseconds.
   */
  wait(now: number): number {
    return Math.max(0, this.nextAt - now);
  }
}

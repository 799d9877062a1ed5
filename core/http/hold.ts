/**
 * The hold, the pacing's last phase on a bucket of about one call (`pacing.ts`): once the search has found the plan,
 * the pace is held where about one call in a hundred meets a 429, a small step down at each 429 and a smaller one up
 * at each admitted answer (AIMD with a loss target, as TCP's congestion avoidance), instead of being estimated again
 * at every 429. Pure arithmetic on the counts passed in.
 *
 * Why: a one-call bucket refuses any call that reaches it sooner than its interval after the last, so near the plan
 * the network's and the two processes' jitter alone brings a 429 now and then, at any pace. Estimated again at each
 * of them (what the plan admitted since an earlier 429, at most), the pace stepped down a few percent at every one and
 * regrew over seconds: over loopback sockets 50/1 held 54 to 82 % of the plan and 100/1 53 to 67 %, with 0.1 to 0.6 %
 * 429s, where a loop sending at a fixed spacing held 91 % of 50/1 with none, and 80 % of 100/1 with 0.9 %.
 */

/** A 429 in the hold lowers the pace by this share. */
export const HOLD_STEP = 0.02;
/** The share of calls meeting a 429 where the hold settles: each admitted answer raises the pace by HOLD_STEP × this. */
export const HOLD_TARGET = 0.01;
/**
 * A 429 after this many admitted answers since the last one is rare: it starts the hold (the pace is held from there)
 * if none runs. {@link HOLD_429S} 429s within this many end the hold: the plan is lower, or other processes came, and
 * the pacing cuts (measures what the plan admits now); the hold begins again from that cut.
 * Past this many admitted answers without a 429 the upward step grows with their square, so a plan that grew is found.
 */
export const HOLD_CALLS = 200;
const HOLD_429S = 5;
/**
 * The hold begins after a cut only at this pace or more. Below it, a one-call bucket is as often a share
 * of a bigger one that processes starting together split, whose 429s are theirs, not jitter: held from the search,
 * slow plans shared by 2 to 8 processes met more 429s (row 7j, several processes: 1,011 → 922 runs).
 */
export const MIN_HOLD_RATE = 10;

/** Whether the hold runs, and its count of 429s. Counts are the pacing's admitted answers so far. */
export class Hold {
  /** The pace is held (`Pacing.rate` is the estimate, moved by {@link Hold.admitted} and {@link Hold.throttled}). */
  on = false;
  /** Admitted answers at the last 429. */
  #lastThrottled = 0;
  /** Admitted answers at each 429 since the hold began. */
  #marks: number[] = [];

  /**
   * After a cut (right after the search, or after the cut that its own 429s brought), whether the hold begins now.
   * Ended on its 429s, the hold used to leave the pace to the cuts until a rare 429: over sockets a spell of 429s at
   * 50/1 ended it, and each later 429 cut the pace again (45 → 42 → 39 → 38 req/s in 8 s, 76 % of the plan); begun
   * again from the cut, it held 88 to 90 % in 6 runs of 6 (`bench/notes/rate-control.md`, "The hold begins again").
   *
   * @param estimate The pace's estimate, req/s.
   * @returns `true` when it began.
   */
  begin(estimate: number): boolean {
    if (this.on || estimate < MIN_HOLD_RATE) return false;
    this.on = true;
    this.#marks = [];
    return true;
  }

  /**
   * An admitted answer in the hold.
   *
   * @param admitted Admitted answers so far, this one included.
   * @returns What the pace is multiplied by (1 when the hold is off).
   */
  admitted(admitted: number): number {
    if (!this.on) return 1;
    const quiet = (admitted - this.#lastThrottled) / HOLD_CALLS;
    return 1 + HOLD_STEP * HOLD_TARGET * Math.max(1, quiet ** 2);
  }

  /**
   * A 429 (a new one: not of a call sent before the last cut): whether the hold takes it (the pace steps down by
   * {@link HOLD_STEP}) or the pacing cuts as before. A rare 429 starts the hold where it may.
   *
   * @param admitted Admitted answers so far.
   * @param mayStart Whether the hold may start here (a one-call bucket past its search, callers not all asleep).
   * @returns `true` when the hold takes it.
   */
  throttled(admitted: number, mayStart: boolean): boolean {
    const rare = admitted - this.#lastThrottled >= HOLD_CALLS;
    this.#lastThrottled = admitted;
    if (this.on) {
      this.#marks.push(admitted);
      const fifthLast = this.#marks.at(-HOLD_429S);
      this.on = fifthLast === undefined || admitted - fifthLast >= HOLD_CALLS;
      return this.on;
    }
    if (!rare || !mayStart) return false;
    this.on = true;
    this.#marks = [admitted];
    return true;
  }
}

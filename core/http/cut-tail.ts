/**
 * Which answers belong to the last cut (`pacing.ts`): those still due from calls in flight at the 429 that cut
 * (`old`), and those to calls sent while such answers were still due (`tail`). Both reach the plan behind the cut's
 * own calls, which are still emptying the bucket, so their 429s are the congestion the cut answered and cut nothing.
 * Answers come back in any order, so they are counted, not matched to their calls (an early tail answer counts as the
 * cut's).
 *
 * Why the tail: over a network of 10 to 60 ms, 300 callers' slow start round met its 429 with 35 calls in flight, the
 * first paced call met the round's tail, its 429 halved slow start's guess, and the climb from there held 134/15 at
 * 76 % of the plan for 20 s (2 runs of 16 over loopback sockets, 2 seeds of 12 in virtual time; none since).
 */

/** Whose an answer is: the last cut's calls in flight, their tail, or a call since. */
export type Due = 'old' | 'tail' | 'new';

/** The counts of the last cut's answers still due. */
export class CutTail {
  /** Answers still due from calls in flight at the last cut. */
  #old = 0;
  /** Calls sent while those were still due, not answered yet. */
  #tail = 0;

  /**
   * A 429 cut the pace.
   *
   * @param inFlight Calls in flight then.
   */
  cut(inFlight: number): void {
    this.#old = inFlight;
    this.#tail = 0;
  }

  /** A call went: in the tail while the cut's answers are still due. */
  sent(): void {
    if (this.#old > 0) this.#tail += 1;
  }

  /**
   * An answer came.
   *
   * @returns Whose it counts as.
   */
  answered(): Due {
    if (this.#old > 0) {
      this.#old -= 1;
      return 'old';
    }
    if (this.#tail > 0) {
      this.#tail -= 1;
      return 'tail';
    }
    return 'new';
  }
}

/**
 * Slow start, the pacing's first phase (`pacing.ts`): before the first 429 nothing is known, so nothing is paced (as
 * TCP's slow start): a window caps the calls in flight and doubles with each round of successes (10, 20, 40 …) that
 * used it, so a generous plan is never waited on. After an idle second it begins afresh. It also keeps what the first
 * 429's guess of the plan counts: the burst under way (see {@link SlowStart.burst}). Pure arithmetic on the times and
 * counts passed in.
 */

/** Calls in flight allowed before anything is learned; the window doubles with every round of successes. */
export const INITIAL_WINDOW = 10;
/**
 * Slow start's guess spans at least this long (ms). A client idle this long before a call (nothing in flight, no 429
 * yet) starts slow start afresh: its earlier calls say nothing about the burst it is about to send.
 */
export const GUESS_MS = 1000;
const MAX_WINDOW = 1000;

/** The window, its rounds, and the burst the first 429's guess counts. */
export class SlowStart {
  /** Calls allowed in flight while unpaced. */
  window = INITIAL_WINDOW;
  #roundSize = INITIAL_WINDOW;
  #roundSent = 0;
  /** The most calls in flight at once in this round. */
  #roundPeak = 0;
  /**
   * The burst under way: admitted since calls last went out after one made alone (nothing else in flight while it
   * was), and the most in flight at once since. A call made alone just before a burst (an organization read before a
   * batch, a token) took a call from the bucket the burst then meets, and its answer says nothing of that bucket.
   */
  #burstAdmitted = 0;
  #burstPeak = 0;
  #burstFrom = 0;
  /** When the current spell began (its guess counts the answers admitted since). */
  #firstSentAt: number | undefined;
  /** The round never had the window in flight, and the spell is a second old: its calls need not wait for the round's end. */
  #streaming = false;

  /** Whether no spell began yet. */
  get unstarted(): boolean {
    return this.#firstSentAt === undefined;
  }

  /**
   * Whether one more call may go now. A full round waits for all of its answers (see {@link SlowStart.sent}), unless
   * the callers are too few to fill it.
   *
   * @param inFlight Calls sent and not yet answered.
   * @returns `true` when the window has room.
   */
  canSend(inFlight: number): boolean {
    if (inFlight >= this.window) return false;
    return this.#roundSent < this.#roundSize || inFlight === 0 || this.window >= MAX_WINDOW || this.#streaming;
  }

  /**
   * Slow start again after an idle spell: a client that made a call or a thousand and then sat idle would otherwise
   * guess the plan from answers spread over minutes (the smallest guess, 1 req/s: 100 calls on 5/5 took 1.2× the
   * plan's floor after one call 20 s before), and send its next burst as one round of the window those answers grew
   * (TCP restarts its window after idle for the same reason, RFC 5681 §4.1).
   *
   * @param now Epoch ms.
   */
  restart(now: number): void {
    this.#firstSentAt = now;
    this.window = INITIAL_WINDOW;
    this.#roundSize = INITIAL_WINDOW;
    this.#roundSent = 0;
    this.#roundPeak = 0;
    this.#streaming = false;
    this.#newBurst(now);
  }

  /**
   * Counts a call as sent now.
   *
   * @param now Epoch ms.
   * @param inFlight Calls in flight before this one.
   */
  sent(now: number, inFlight: number): void {
    if (this.#roundSent >= this.#roundSize && inFlight === 0) {
      // Slow start goes in rounds: a round is the window when it began, so a plan whose burst is smaller than the
      // window costs that round's excess in 429s, not that plus what was sent while those 429s were on their way.
      this.#roundSize = this.window;
      this.#roundSent = 0;
      this.#roundPeak = 0;
    }
    if (inFlight === 0 && this.#burstPeak <= 1) this.#newBurst(now);
    this.#roundPeak = Math.max(this.#roundPeak, inFlight + 1);
    this.#burstPeak = Math.max(this.#burstPeak, inFlight + 1);
    this.#roundSent += 1;
    // Callers too few to fill the window gain nothing from waiting for the round's last answer: only their own calls
    // are on the way when a 429 comes back. Waiting cost them the spread of a round's round trips at every round: 5
    // callers over 20 to 120 ms held 82 % of what they carry on a plan that never throttled them (row 7p). In the
    // spell's first second the rounds stand, so a plan that throttles at once is met as before (3 callers on 4/8
    // read its burst as rate without them, and held 89 %).
    this.#streaming = this.#roundPeak < this.#roundSize && now - (this.#firstSentAt ?? now) >= GUESS_MS;
  }

  /** A call that never reached the service: another may go in its place. */
  notSent(): void {
    this.#roundSent = Math.max(0, this.#roundSent - 1);
  }

  /**
   * An answer the plan admitted.
   *
   * @param paced Whether calls are paced already (the window no longer matters).
   */
  admitted(paced: boolean): void {
    this.#burstAdmitted += 1;
    // The window grows only while it is used (half of it in flight at once this round): a few callers answered one
    // at a time for an hour prove nothing about a burst of hundreds (TCP's window validation, RFC 7661).
    if (!paced && 2 * this.#roundPeak >= this.window) this.window = Math.min(MAX_WINDOW, this.window + 1);
  }

  /**
   * What the first 429's guess counts: the burst under way, or the whole spell when each call went alone (one caller,
   * answered one at a time, is a burst of its own).
   *
   * @param spellAdmitted Answers admitted since the spell began.
   * @returns Admitted calls, since when, and whether each call went alone.
   */
  burst(spellAdmitted: number): { admitted: number; from: number; alone: boolean } {
    if (this.#burstPeak > 1) return { admitted: this.#burstAdmitted, from: this.#burstFrom, alone: false };
    return { admitted: spellAdmitted, from: this.#firstSentAt ?? this.#burstFrom, alone: true };
  }

  #newBurst(now: number): void {
    this.#burstAdmitted = 0;
    this.#burstPeak = 0;
    this.#burstFrom = now;
  }
}

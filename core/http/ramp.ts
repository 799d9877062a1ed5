/**
 * The ramp, the pacing's second phase (`pacing.ts`): after the 429 that ends slow start, the pace steps up (doubling,
 * then in {@link SEARCH_FACTOR} steps where it searches or climbs) while the callers use it and the plan admits it,
 * until the next 429. This keeps the ramp's own count: when it last stepped, what was sent and admitted since, and
 * which answers speak for the pace before the step. The pacing owns the estimate and the slots, and decides at each
 * 429 whether a ramp runs on (`which-cut.ts`). Pure arithmetic on the times and counts passed in.
 */

/** After the first 429 the pace doubles this often at most (ms; at an admitted answer) until the next 429. */
export const RAMP_MS = 250;
/**
 * The same for a bucket of one call (see {@link Ramp.step}): long enough for a few calls at high rates, where network
 * jitter alone now and then admits one call above the plan.
 */
export const ONE_CALL_RAMP_MS = 100;
/** The search's step (see `first-round.ts`): the pace climbs from the lower bound by this factor at a time. */
export const SEARCH_FACTOR = 1.08;
/** Callers that sent at least this share of the pace used it (a ramp step needs that much). */
const USED = 0.75;

/** What {@link Ramp.step} looks at besides the ramp's own count. */
export interface RampStepInput {
  /** Calls sent so far (the pacing's running total). */
  sentTotal: number;
  /** Calls in flight now. */
  inFlight: number;
  /** The pace's estimate before the step, req/s. */
  estimate: number;
  /** Slow start's round admitted one call: a bucket of about one call. */
  oneCall: boolean;
  /** The answer is to a call sent before the last step (see {@link Ramp.answered}). */
  stale: boolean;
}

/** Whether a ramp runs, by what it multiplies the pace at each step, and its count since its last step or cut. */
export class Ramp {
  /** After the first 429 out of slow start (or a search's or an unproven 429), until the next: the pace steps up. */
  on = false;
  /** What the ramp multiplies the pace by at each step: 2, then {@link SEARCH_FACTOR} while it searches or climbs. */
  factor = 2;
  /** The ramp climbs in the search's steps after an unproven 429 (a bucket of more than one call). */
  climbing = false;
  /** Steps taken since the last cut. */
  steps = 0;
  /** Answers admitted since the last step or cut. */
  admitted = 0;
  #at = 0;
  #sent = 0;
  /**
   * When the callers began to use the pace after the last cut: the cut, or the first call after it if that came an
   * interval or more after its slot (the callers were asleep in their retries' backoff; see {@link Ramp.step}).
   */
  #useFrom = 0;
  /** Calls in flight at the last step: their answers speak for the pace before it. */
  #pending = 0;

  /**
   * A 429 cut the pace: the count starts again, with the ramp on or off.
   *
   * @param now Epoch ms.
   * @param sentTotal Calls sent so far.
   * @param on Whether a ramp runs from here.
   * @param factor Its step.
   * @param climbing Whether it climbs after an unproven 429.
   */
  restart(now: number, sentTotal: number, on: boolean, factor: number, climbing: boolean): void {
    this.factor = factor;
    this.climbing = climbing;
    this.on = on;
    this.steps = 0;
    this.#at = now;
    this.admitted = 0;
    this.#sent = sentTotal;
  }

  /**
   * A call goes now (before the pacing counts it). The first call after a cut goes one interval after it when the
   * callers are waiting for their turn; later, they were asleep in the backoff of the retries the 429 began.
   *
   * @param now Epoch ms.
   * @param sentTotal Calls sent before this one.
   * @param estimate The pace's estimate, req/s.
   */
  sent(now: number, sentTotal: number, estimate: number): void {
    if (this.on && this.steps === 0 && sentTotal === this.#sent) {
      this.#useFrom = now - this.#at < (2 * 1000) / estimate ? this.#at : now;
    }
  }

  /**
   * An answer came (any answer).
   *
   * @returns Whether its call was sent before the last step (stale: it speaks for the pace before).
   */
  answered(): boolean {
    const stale = this.#pending > 0;
    if (stale) this.#pending -= 1;
    return stale;
  }

  /**
   * An admitted answer: whether the pace steps up now (by {@link Ramp.factor}); when it does, the count starts again
   * from here.
   *
   * The pace steps once {@link RAMP_MS} passed with no 429 and the callers used at least 3/4 of it since the last step
   * (a pace nobody used proves nothing about the plan), with two calls sent at least.
   *
   * A bucket that admitted one call out of slow start stores nothing, so one call admitted at the new spacing proves
   * the step: there the ramp steps after one call sent since the last step and answered after it (not `stale`), and
   * {@link ONE_CALL_RAMP_MS}, and the pacing brings the next slot forward to the new spacing at once. Without that
   * the call already waiting sent one interval of the old pace after each step: from slow start's guess of 1 req/s
   * the ramp took 5 to 6 s to find a 20/1 plan (600 calls: 1.27× its floor; now 1.14×), and a 1/1 plan met a 429 at
   * its own rate, from jitter, before the first step, which set half the plan for a minute. A bigger bucket keeps the
   * slower steps: its stored calls are admitted at any spacing, and a step per call spent them as rate (100 calls on
   * 5/5 then took up to 1.18× their floor).
   *
   * @param now Epoch ms.
   * @param input The pacing's counts and the answer's kind.
   * @returns `true` when the pace steps up.
   */
  step(now: number, input: RampStepInput): boolean {
    if (!this.on) return false;
    const { oneCall } = input;
    if (oneCall && input.stale) return false;
    this.admitted += 1;
    const elapsed = now - this.#at;
    const sent = input.sentTotal - this.#sent;
    if (elapsed < (oneCall ? ONE_CALL_RAMP_MS : RAMP_MS) || sent < (oneCall ? 1 : 2)) return false;
    // The first step counts the callers' use from when they began to use the pace: one caller (an n8n worker going
    // through its items) sleeps out its 429's backoff, half a second or more, and the time it slept is not a pace it
    // left unused. Counted from the cut, its first step came two to three seconds late, while the plan's bucket filled
    // and the ramp then spent it as rate: a process that starts beside another overshot and squeezed the other's
    // share, which kept it (two one-caller processes on 20/20: 5 of 20 seeds held 85 % of the plan through 500 calls
    // each, now 14). A one-call bucket's ramp (a step per call) counts from the cut as before: counted from the first
    // call, 4/1 with one caller lost the runs it held.
    const usedFor = this.steps === 0 && !oneCall ? now - this.#useFrom : elapsed;
    if (sent < (USED * input.estimate * usedFor) / 1000) return false;
    this.steps += 1;
    this.#at = now;
    this.admitted = 0;
    this.#sent = input.sentTotal;
    this.#pending = input.inFlight;
    return true;
  }

  /**
   * An admitted answer {@link step} counted belongs to slow start's round after all (`Pacing.#lateAdmitted`): taken
   * back, before the ramp's first step.
   */
  uncount(): void {
    if (this.steps === 0 && this.admitted > 0) this.admitted -= 1;
  }

  /**
   * What the plan admitted per second since the ramp last stepped (or the last cut).
   *
   * @param now Epoch ms.
   * @returns Requests per second.
   */
  rate(now: number): number {
    return (this.admitted * 1000) / Math.max(1, now - this.#at);
  }
}

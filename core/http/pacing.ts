/**
 * How fast to send with one API key, learned from 429s: pure arithmetic on the times passed in (no clock, no
 * timers; `limiter.ts` queues and sleeps). This class keeps the state and feeds the files that decide: `slow-start.ts`
 * before any 429; at a 429 `which-cut.ts` (with `first-round.ts` and `anchor.ts`), `estimate.ts` and `bucket.ts`;
 * after it `ramp.ts`, `curve.ts`, `hold.ts` and `peak.ts`; `send-clock.ts` keeps time by the pace, `ceiling.ts` a
 * configured rate. How they fit, and the ideas behind them (slow start as TCP's, a 429 that measures the plan, CUBIC's
 * regrowth, a configured rate as a ceiling): `core/http/README.md`.
 *
 * A configured rate is a ceiling: the burst goes at once, then calls are spaced by the rate (`ceiling.ts`); a 429
 * still cuts the pace below it, as for the default, so several processes each told the plan's rate share it instead
 * of fighting.
 */
import { Admits } from './bucket.ts';
import { CeilingSlots, type Ceiling } from './ceiling.ts';
import { CutTail } from './cut-tail.ts';
import { curve, RAMP_AGAIN_FACTOR, rampsAgain, stallMs, type CurveInput } from './curve.ts';
import { estimateAfter } from './estimate.ts';
import { asleepMs, lateRoundAnswer, oneCallRound, slowStartRound, type CutEvent } from './first-round.ts';
import { Hold, HOLD_STEP } from './hold.ts';
import { Peak } from './peak.ts';
import { Ramp, SEARCH_FACTOR } from './ramp.ts';
import { CATCH_UP_MS, SendClock } from './send-clock.ts';
import { GUESS_MS, SlowStart } from './slow-start.ts';
import { whichCut } from './which-cut.ts';

/** How an answer counts: `admitted` by the plan (any status but 429), `throttled` (429), `lost` (no answer: unknown), `not-sent`. */
export type Answer = 'admitted' | 'throttled' | 'lost' | 'not-sent';

/** Lowest pace: one of eight processes sharing a 1 req/s plan still gets its turn. */
const MIN_RATE = 0.05;
const MAX_RATE = 100_000;
/** The last few 429s are kept: a cut is judged against the latest that can anchor it (`anchor.ts`). */
const KEPT_EVENTS = 16;

/** The pace of one API key, for one process. Times are epoch milliseconds of whatever clock the caller uses. */
export class Pacing {
  /** The configured rate, if any. */
  readonly ceiling: Ceiling | undefined;
  /** Calls sent and not yet answered. */
  inFlight = 0;
  /** The plan's rate (or this client's share of it) as estimated at the last cut, requests per second; 0 before. */
  estimate = 0;
  readonly #slowStart = new SlowStart();
  /** The configured rate's burst allowance, before any 429. */
  readonly #ceilingSlots: CeilingSlots | undefined;
  /** Answers admitted since slow start's current spell began. */
  #admitted = 0;
  #sentTotal = 0;
  /**
   * The largest estimate a cut has measured lately (not slow start's guess, nor an unproven cut's, which count the
   * burst as rate): how big the plan has proven to be for this client (`peak.ts`: held two minutes).
   */
  readonly #peak = new Peak();
  /** The same for a 429 measured against an earlier one (`anchored`: what the plan admitted between them). */
  readonly #measuredPeak = new Peak();
  #events: CutEvent[] = [];
  /** After the first 429 out of slow start, until the next: the pace steps up (`ramp.ts`). */
  readonly #ramp = new Ramp();
  /** The plan's bucket holds about one call (the search ran, see `#cut`): late timers are not made up for. */
  #oneCallBucket = false;
  /** On such a bucket past its search, the pace held by the share of 429s (`hold.ts`). */
  readonly #hold = new Hold();
  /** When each answer admitted since the last cut came, for the bucket's bound (`bucket.ts`). */
  readonly #admits = new Admits();
  /** The ramp runs again (`rampsAgain` in `curve.ts`): its 429 before a step is no ramp's end. */
  #rampedAgain = false;
  /** The last cut was a ramp's end that the bucket's bound lowered. */
  #bounded = false;
  /** The last cut's answers still due: their 429s are that cut's, not new ones (`cut-tail.ts`). */
  readonly #due = new CutTail();
  readonly #clock = new SendClock();
  /** The end of the latest key-wide pause (epoch ms). */
  #heldUntil = 0;

  /** @param ceiling A configured rate, if any. */
  constructor(ceiling?: Ceiling) {
    this.ceiling = ceiling;
    this.#ceilingSlots = ceiling && new CeilingSlots(ceiling, CATCH_UP_MS);
  }

  /** True once calls are paced: a ceiling was given or a 429 was seen. Unpaced, the window decides. */
  get paced(): boolean {
    return this.ceiling !== undefined || this.#events.length > 0;
  }

  /**
   * The pace, requests per second (`undefined` while unpaced).
   *
   * @param now Epoch ms.
   * @returns Requests per second.
   */
  rate(now: number): number | undefined {
    const last = this.#events.at(-1);
    if (!last) return this.ceiling?.requestsPerSecond;
    if (this.#hold.on) return this.#withinBounds(Math.min(this.estimate, this.#used(now)));
    const pace = this.#ramp.on ? this.estimate : curve(now - last.at, this.#curveInput(now));
    return this.#withinBounds(Math.min(pace, this.#used(now)));
  }

  /** What the curve after the last cut is drawn from (`curve.ts`). */
  #curveInput(now: number): CurveInput {
    return {
      estimate: this.estimate,
      peak: this.#peak.value(now),
      measuredPeak: this.#measuredPeak.value(now),
      oneCallBucket: this.#oneCallBucket,
      stallMs: this.#stallMs(),
    };
  }

  /** How long the last 429 left the pace unused where the bucket could not store it (`stallMs` in `curve.ts`). */
  #stallMs(): number {
    return stallMs(this.#events.at(-1), slowStartRound(this.#events[0]), this.estimate, this.#oneCallBucket);
  }

  /**
   * A pace the callers did not use proves nothing: it grows no further than twice what they sent lately (as TCP
   * validates its window), so an idle spell or a backoff wait is not followed by a burst at an untested pace.
   */
  #used(now: number): number {
    return Math.max(this.estimate, 2 * this.sentRate(now));
  }

  /** A pace within the ceiling and the pacing's bounds. */
  #withinBounds(rate: number): number {
    return Math.min(this.ceiling?.requestsPerSecond ?? MAX_RATE, MAX_RATE, Math.max(MIN_RATE, rate));
  }

  /** The hold may start: a bucket of one call past its search, and the last 429 did not leave every caller asleep. */
  #mayHold(): boolean {
    return this.#oneCallBucket && !this.#ramp.on && this.#events.length > 0 && this.#stallMs() === 0;
  }

  /**
   * Calls sent per second lately (a moving average).
   *
   * @param now Epoch ms.
   * @returns Requests per second.
   */
  sentRate(now: number): number {
    return this.#clock.rate(now);
  }

  /** Unpaced: whether one more call may go now. A full round waits for all of its answers (`SlowStart`). */
  canSend(): boolean {
    return this.paced || this.#slowStart.canSend(this.inFlight);
  }

  /**
   * Milliseconds until the next paced call may go (0: now). Unpaced, always 0.
   *
   * @param now Epoch ms.
   * @returns Milliseconds to wait.
   */
  wait(now: number): number {
    if (!this.paced) return 0;
    const slots = this.#burstSlots;
    if (slots) return slots.wait(now);
    return this.#clock.wait(now);
  }

  /**
   * Counts a call as sent now (after {@link Pacing.wait} said 0, or after sleeping that long).
   *
   * @param now Epoch ms.
   */
  sent(now: number): void {
    // Time the key was held by a pause (a 5xx, a Retry-After) is not idle: the callers were waiting to send.
    const idle = this.#slowStart.unstarted || now - Math.max(this.#clock.lastAt, this.#heldUntil) >= GUESS_MS;
    if (this.#events.length === 0 && this.inFlight === 0 && idle) {
      this.#slowStart.restart(now);
      this.#admitted = 0;
    }
    this.#clock.count(now);
    this.#slowStart.sent(now, this.inFlight);
    this.#ramp.sent(now, this.#sentTotal, this.estimate);
    const last = this.#events.at(-1);
    if (last && !last.usedFrom) {
      // Two intervals or more after the 429, the callers were asleep in their retries' backoff (as `Ramp.sent`).
      const late = now - last.at >= (2 * 1000) / Math.max(MIN_RATE, this.estimate);
      last.usedFrom = { at: late ? now : last.at, sent: this.#sentTotal };
    }
    this.#due.sent();
    this.inFlight += 1;
    this.#sentTotal += 1;
    const slots = this.#burstSlots;
    if (slots) {
      slots.sent(now);
      return;
    }
    const rate = this.rate(now);
    if (rate !== undefined) this.#clock.schedule(now, rate, this.#oneCallBucket);
  }

  /** The configured rate's burst allowance while it governs (before any 429; after one, the pace does). */
  get #burstSlots(): CeilingSlots | undefined {
    return this.#events.length === 0 ? this.#ceilingSlots : undefined;
  }

  /**
   * Feeds back one answer.
   *
   * @param now Epoch ms.
   * @param answer How it counts.
   * @returns `true` when the next slot moved: a new 429 cut the pace (not a 429 of a call sent before the last
   *   cut), or an admitted answer brought it forward (the ramp stepped up, or a late answer of slow start's round
   *   raised its guess). A caller sleeping for its slot should look again.
   */
  answered(now: number, answer: Answer): boolean {
    this.inFlight = Math.max(0, this.inFlight - 1);
    const stale = this.#ramp.answered();
    const due = this.#due.answered();
    const [old, tail] = [due === 'old', due === 'tail'];
    if (answer === 'not-sent') {
      this.#slowStart.notSent();
      return false;
    }
    if (answer === 'admitted') {
      this.#admitted += 1;
      if (!old && !tail) this.#holdAdmitted();
      if (!old) this.#admits.admitted(now);
      this.#slowStart.admitted(this.paced);
      const slot = this.#clock.nextAt;
      if (!old || this.#lateAdmitted()) this.#step(now, stale);
      if (!old && !tail) this.#rampAgain(now);
      // A ramp's step on a one-call bucket, or a late answer that raised slow start's guess, brings the next slot
      // forward: a caller asleep until the old one looks again. Without that, with more callers than slow start's
      // window (the rest queued), the first paced call waited out the guess the 429 had made before the round's
      // admitted answers came back (a second at 1 req/s where they said 5).
      return this.#clock.nextAt < slot;
    }
    if (answer !== 'throttled' || old || tail) return false;
    // The pace that met this 429, read before the hold runs: the curve's when the hold starts here, the held one
    // when it ends here (the curve's clock ran on from the 429 before the hold).
    const pace = this.rate(now);
    const held = this.#hold.on;
    if (this.#hold.throttled(this.#admitted, this.#mayHold())) {
      this.estimate = this.#withinBounds((held ? this.estimate : pace ?? this.estimate) * (1 - HOLD_STEP));
      return false;
    }
    this.#cut(now, pace);
    return true;
  }

  /**
   * An admitted answer to a call sent since the last cut: the hold begins right after a search (or after the cut that
   * ended it), and steps up.
   */
  #holdAdmitted(): void {
    // Held from the cut's estimate (the search's: the plan within a step), not from the curve's restart below it.
    if (!this.#hold.on && this.#mayHold()) this.#hold.begin(this.estimate);
    const factor = this.#hold.admitted(this.#admitted);
    if (factor !== 1) this.estimate = this.#withinBounds(this.estimate * factor);
  }

  /**
   * An admitted answer on the curve: where the probe has run well past the estimate with no 429 (a raised plan, a
   * client of the key that stopped), the ramp runs again from the pace it reached (`rampsAgain` in `curve.ts`). Not
   * on a bucket of about one call (the hold keeps its pace) nor for callers a 429 left asleep (`curve.ts` says why).
   */
  #rampAgain(now: number): void {
    const last = this.#events.at(-1);
    if (!last || this.#ramp.on || this.#hold.on || this.#oneCallBucket) return;
    const pace = this.rate(now);
    if (pace === undefined || !rampsAgain(now - last.at, pace, this.estimate, asleepMs(last))) return;
    this.estimate = pace;
    this.#rampedAgain = true;
    this.#ramp.restart(now, this.#sentTotal, true, RAMP_AGAIN_FACTOR, false);
  }

  /**
   * An admitted answer to a call sent before the last cut. Until the ramp's first step, slow start's guess and what
   * it says about the bucket count it (`lateRoundAnswer` in `first-round.ts` says why), and the ramp's rate does not,
   * but for the lone answer of a one-call bucket.
   *
   * @returns Whether the ramp counts it.
   */
  #lateAdmitted(): boolean {
    const first = this.#events[0];
    if (this.#events.length !== 1 || !first?.slowStart || this.#ramp.steps > 0) return true;
    const late = lateRoundAnswer(first);
    if (late.uncount) this.#ramp.uncount();
    this.estimate = Math.min(this.ceiling?.requestsPerSecond ?? MAX_RATE, Math.max(this.estimate, late.guess));
    // Nothing sent since that 429: the first call waits one interval of the new guess, not of the old.
    if (this.#sentTotal === first.sent) this.#clock.nextAt = Math.min(this.#clock.nextAt, first.at + 1000 / this.estimate);
    return late.lone;
  }

  /**
   * An admitted answer while the ramp runs: the pace steps up when the ramp says so (`Ramp.step`), and on a bucket
   * of one call the next slot comes forward to the new spacing at once.
   */
  #step(now: number, stale: boolean): void {
    if (!this.#ramp.on) return;
    const oneCall = oneCallRound(this.#events[0]);
    const input = { sentTotal: this.#sentTotal, inFlight: this.inFlight, estimate: this.estimate, oneCall, stale };
    if (!this.#ramp.step(now, input)) return;
    this.estimate = Math.min(MAX_RATE, this.estimate * this.#ramp.factor);
    const rate = oneCall ? this.rate(now) : undefined;
    if (rate !== undefined) this.#clock.respace(rate);
  }

  /**
   * A 429: estimate the plan (`which-cut.ts` tells the case, `estimate.ts` its arithmetic), and start the curve again
   * below it.
   *
   * @param now Epoch ms.
   * @param pace The pace that met this 429 (`undefined` while unpaced).
   */
  #cut(now: number, pace: number | undefined): void {
    const first = this.#events.length === 0;
    const burst = this.#slowStart.burst(this.#admitted);
    const ramp = this.#ramp;
    const { cut, search, held, unproven } = whichCut({
      now, pace, events: this.#events, admitted: this.#admitted, sentTotal: this.#sentTotal, estimate: this.estimate,
      ramp: { on: ramp.on, factor: ramp.factor, steps: ramp.steps, admitted: ramp.admitted, climbing: ramp.climbing, rate: ramp.rate(now) },
      burst, oneCallBucket: this.#oneCallBucket, bounded: this.#bounded, rampedAgain: this.#rampedAgain,
    });
    this.#rampedAgain = false;
    if (search || held) this.#oneCallBucket = true;
    ramp.restart(now, this.#sentTotal, first || search || unproven, first ? 2 : SEARCH_FACTOR, unproven);
    const ceiling = this.ceiling?.requestsPerSecond ?? MAX_RATE;
    const bounded = (rate: number): number => Math.min(ceiling, Math.max(MIN_RATE, rate));
    const reach = estimateAfter(cut);
    // A ramp's end may owe its reach to what the bucket stored: the estimate is no more than a bucket of the size slow
    // start met allows. The peak keeps the reach (the plan did admit the pace below it, stored calls and all): it sets
    // only how fast the probe grows, and bounded there too, squeezed shares came back slower (row 7m, measured before
    // one-caller processes were left unbounded: 45 of 80 runs, not 50).
    const bound = cut.kind === 'ramp-end' ? this.#admits.bound(this.#events, now, cut.pace, reach) : reach;
    const estimate = Math.min(reach, bound);
    this.#bounded = estimate < reach;
    this.estimate = bounded(estimate);
    if (cut.kind !== 'slow-start' && cut.kind !== 'unproven') this.#peak.measured(bounded(reach), now);
    if (cut.kind === 'anchored') this.#measuredPeak.measured(this.estimate, now);
    this.#events.push({
      at: now, admitted: this.#admitted, sent: this.#sentTotal, slowStart: first, burst: burst.admitted, burstFrom: burst.from,
      burstAlone: burst.alone, rampEnd: cut.kind === 'ramp-end' || cut.kind === 'held',
    });
    if (this.#events.length > KEPT_EVENTS) this.#events.shift();
    this.#due.cut(this.inFlight);
    this.#admits.clear();
    // The first call after the cut waits one interval at the new pace.
    this.#clock.nextAt = now + 1000 / (this.rate(now) ?? MIN_RATE);
  }

  /**
   * A key-wide pause began: the pace starts again at its end (so the end of a pause is not a burst).
   *
   * @param until End of the pause, epoch ms.
   */
  pausedUntil(until: number): void {
    this.#heldUntil = Math.max(this.#heldUntil, until);
    this.#clock.nextAt = Math.max(this.#clock.nextAt, until);
    this.#ceilingSlots?.clear();
  }
}

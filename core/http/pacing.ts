/**
 * How fast to send with one API key, learned from 429s: pure arithmetic on the times passed in (no clock, no
 * timers; `limiter.ts` queues and sleeps).
 *
 * The files, as a call meets them: `slow-start.ts` before any 429; at a 429, `which-cut.ts` tells what it is, from what
 * slow start's 429 said of the bucket (`first-round.ts`) and what the plan admitted since an earlier 429
 * (`anchor.ts`), `estimate.ts` puts the plan there and `bucket.ts` bounds a ramp's end by the bucket's size; after it,
 * `ramp.ts` (doublings, the search), `curve.ts` (the regain and the probe), `hold.ts` (a one-call bucket's pace) and
 * `peak.ts`; `ceiling.ts` for a configured rate. This class keeps the state and feeds them.
 *
 * The plan is a token bucket (a rate and a burst) that nobody told us. What shapes the arithmetic:
 *
 * - Before the first 429 nothing is known, so nothing is paced (slow start, as TCP: `slow-start.ts`): a window caps
 *   the calls in flight and doubles with each round of successes (10, 20, 40 …) that used it. A generous plan is
 *   never waited on. After an idle second, slow start begins afresh.
 * - The first 429 ends slow start with a guess (what its round had admitted, over at least a second, counting the
 *   round's answers that come back after that 429, and not a call made alone just before the burst: see
 *   `SlowStart.burst`), and the pace ramps up from there, doubling at most every `RAMP_MS` while the callers use
 *   it (after a round that admitted one call, at each call admitted at the new spacing: `ramp.ts`), until the
 *   next 429, which puts the plan between what it admitted since the last doubling and half the pace, and no higher
 *   than a bucket of the size slow start met allows (`bucket.ts`: one that filled in the pause after slow start's
 *   429 carries the ramp a few doublings past the plan on what it stored). A 429 before
 *   the second doubling says only that the guess, which counts the burst as rate, was high: the pace is cut below
 *   the guess and climbs on in small steps, and the next 429 puts the plan at what it admitted between the two. With
 *   a bucket of about one call (it spills on any excess, so the ramp's rate says nothing) the ramp climbs again from
 *   half the pace in steps of {@link SEARCH_FACTOR} until the next 429: one more 429 finds the plan within a step.
 *   (One caller whose doubling the plan admitted at its new spacing before a 429 needs no search: the plan is at that
 *   pace, less the jitter of arrivals: `first-round.ts`, which also says when the search runs.)
 *   From there such a bucket's pace is held by the share of 429s (`hold.ts`): near the plan, jitter alone brings a
 *   429 now and then, and estimating the plan again at each of them ratcheted the pace down.
 * - A 429 means the bucket was empty at that moment. So between two 429s, the answers the plan admitted are what it
 *   refilled meanwhile: admitted ÷ time between them is the plan's rate, or this client's share of it when other
 *   processes use the key too, and the pace that met the 429 is above it. The estimate lies between the two (each
 *   case in `estimate.ts`), not at the goodput of the last moments, which a pause or an idle spell drags down; close
 *   to the admitted rate when the 429 came before the probe with the pace in use (the pace was not above the plan:
 *   another process's probe, or a cut that read high, emptied the bucket).
 * - After a 429 the pace starts again at (1 − `CUT`) × the estimate and grows back along a cubic of the time since
 *   (CUBIC, as the AWS SDK's adaptive retry mode uses it): flat near the estimate, where it spends most of its time,
 *   then probing above it, in units of the largest estimate held in the last two minutes (and for a share squeezed
 *   below what a 429 measured for it then, on that share's clock: `curve.ts`, `peak.ts`), so a plan that grew (or a
 *   process that left) is found, and a plan that shrank is probed on its own clock again. The
 *   pace regains the estimate no sooner than `MIN_REGAIN_MS` and `REGAIN_CALLS` calls after the 429, so
 *   even a slow plan sees few. A lone caller on a bucket of one call, whose 429s each cost it a backoff's sleep,
 *   probes more slowly still (`STALL_PROBE`). Where the probe runs well past the estimate with no 429 (a plan that
 *   was raised, another process that left), the ramp runs again from there, in steps of 1.5 (`rampsAgain`).
 * - With nothing to measure by, a 429 cuts the pace to `MD_BETA` of itself (multiplicative decrease), and to half
 *   when two or more calls since the last 429 got nothing admitted: several processes on one key each learn their
 *   share alone (as TCP flows do), and those that start together back off to their shares within seconds.
 *
 * A configured rate is a ceiling: the burst goes at once, then calls are spaced by the rate (`ceiling.ts`); a 429
 * still cuts the pace below it, as for the default, so several processes each told the plan's rate share it instead
 * of fighting.
 */
import { bucketBound } from './bucket.ts';
import { CeilingSlots, nextOnSchedule, type Ceiling } from './ceiling.ts';
import { curve, RAMP_AGAIN_FACTOR, rampsAgain, stallMs, type CurveInput } from './curve.ts';
import { estimateAfter } from './estimate.ts';
import { asleepMs, oneCallRound, slowStartRound, type CutEvent } from './first-round.ts';
import { Hold, HOLD_STEP } from './hold.ts';
import { Peak } from './peak.ts';
import { Ramp, SEARCH_FACTOR } from './ramp.ts';
import { GUESS_MS, SlowStart } from './slow-start.ts';
import { whichCut } from './which-cut.ts';

/** How an answer counts: `admitted` by the plan (any status but 429), `throttled` (429), `lost` (no answer: unknown), `not-sent`. */
export type Answer = 'admitted' | 'throttled' | 'lost' | 'not-sent';

/** Lowest pace: one of eight processes sharing a 1 req/s plan still gets its turn. */
const MIN_RATE = 0.05;
const MAX_RATE = 100_000;
/** The last few 429s are kept: a cut is judged against the latest that can anchor it (`anchor.ts`). */
const KEPT_EVENTS = 16;
/** The send rate is a moving average over about this long (ms). */
const SEND_RATE_MS = 1000;
/** A late timer may send this much early on the next slot (at most one interval), so lateness does not add up. */
const CATCH_UP_MS = 4;
/** Admitted answers kept since the last cut for the bucket's bound (`bucket.ts`; a ramp that runs longer goes unbounded). */
const MAX_ADMITS = 4096;

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
  /** When each answer admitted since the last cut came (not those to calls sent before it): see `#bucketBound`. */
  #admits: number[] = [];
  /** The ramp runs again (`rampsAgain` in `curve.ts`): its 429 before a step is no ramp's end. */
  #rampedAgain = false;
  /** The last cut was a ramp's end that the bucket's bound lowered. */
  #bounded = false;
  /** Answers still due from calls in flight at the last cut: their 429s are that cut's, not new ones. */
  #recover = 0;
  /**
   * Calls sent while such answers were still due, not answered yet. They reach the plan behind the cut's own calls,
   * which are still emptying the bucket, so their 429s are that congestion too and cut nothing: over a network of 10
   * to 60 ms, 300 callers' slow start round met its 429 with 35 calls in flight, the first paced call met the round's
   * tail, its 429 halved slow start's guess, and the climb from there held 134/15 at 76 % of the plan for 20 s (2 runs
   * of 16 over loopback sockets, 2 seeds of 12 in virtual time; none since).
   */
  #tail = 0;
  #nextAt = 0;
  /** Calls sent per second, a moving average (see {@link SEND_RATE_MS}), as of `#sentAt`. */
  #sendRate = 0;
  #sentAt = 0;
  /** The spacing of the last paced send (ms): a ramp step brings the next slot forward by the difference. */
  #interval = 0;

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
    return this.#sendRate * Math.exp(-Math.max(0, now - this.#sentAt) / SEND_RATE_MS);
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
    return Math.max(0, this.#nextAt - now);
  }

  /**
   * Counts a call as sent now (after {@link Pacing.wait} said 0, or after sleeping that long).
   *
   * @param now Epoch ms.
   */
  sent(now: number): void {
    // `#sentAt` is the last send (no spell yet: the first send starts one).
    const idle = this.#slowStart.unstarted || now - this.#sentAt >= GUESS_MS;
    if (this.#events.length === 0 && this.inFlight === 0 && idle) {
      this.#slowStart.restart(now);
      this.#admitted = 0;
    }
    this.#sendRate = this.sentRate(now) + 1000 / SEND_RATE_MS;
    this.#sentAt = now;
    this.#slowStart.sent(now, this.inFlight);
    this.#ramp.sent(now, this.#sentTotal, this.estimate);
    const last = this.#events.at(-1);
    if (last && !last.usedFrom) {
      // Two intervals or more after the 429, the callers were asleep in their retries' backoff (as `Ramp.sent`).
      const late = now - last.at >= (2 * 1000) / Math.max(MIN_RATE, this.estimate);
      last.usedFrom = { at: late ? now : last.at, sent: this.#sentTotal };
    }
    if (this.#recover > 0) this.#tail += 1;
    this.inFlight += 1;
    this.#sentTotal += 1;
    const slots = this.#burstSlots;
    if (slots) {
      slots.sent(now);
      return;
    }
    const rate = this.rate(now);
    if (rate === undefined) return;
    const interval = 1000 / rate;
    this.#interval = interval;
    // A bucket of about one call refuses any two calls closer than its interval: no catching up there.
    this.#nextAt = nextOnSchedule(this.#nextAt, now, interval, this.#oneCallBucket ? 0 : CATCH_UP_MS);
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
    const old = this.#recover > 0;
    if (old) this.#recover -= 1;
    // Answers come back in any order: counted, not matched to their calls (an early tail answer counts as the cut's).
    const tail = !old && this.#tail > 0;
    if (tail) this.#tail -= 1;
    if (answer === 'not-sent') {
      this.#slowStart.notSent();
      return false;
    }
    if (answer === 'admitted') {
      this.#admitted += 1;
      if (!old && !tail) this.#holdAdmitted();
      if (!old && this.#admits.length < MAX_ADMITS) this.#admits.push(now);
      this.#slowStart.admitted(this.paced);
      const slot = this.#nextAt;
      if (!old || this.#lateAdmitted()) this.#step(now, stale);
      if (!old && !tail) this.#rampAgain(now);
      // A ramp's step on a one-call bucket, or a late answer that raised slow start's guess, brings the next slot
      // forward: a caller asleep until the old one looks again. Without that, with more callers than slow start's
      // window (the rest queued), the first paced call waited out the guess the 429 had made before the round's
      // admitted answers came back (a second at 1 req/s where they said 5).
      return this.#nextAt < slot;
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
   * An admitted answer to a call sent before the last cut. Answers come back in any order, so the 429 that ended
   * slow start may arrive before most of its round's admitted answers (a 5/5 plan read as 1 req/s, a burst of 5 as
   * one of 1, and 100 calls took 1.17× the plan's floor): until the ramp's first step, slow start's guess and what it
   * says about the bucket count them, and the ramp's rate does not (a 1/2 plan's burst read as 2 req/s). The one
   * exception is the lone answer of a one-call bucket: the ramp's first call waits a whole interval of the guess
   * (1 s at 1 req/s), so without it the ramp's rate reads half the plan.
   *
   * @returns Whether the ramp counts it.
   */
  #lateAdmitted(): boolean {
    const first = this.#events[0];
    if (this.#events.length !== 1 || !first?.slowStart || this.#ramp.steps > 0) return true;
    first.admitted += 1;
    first.burst += 1;
    // The round's late answers read as a one-call bucket's lone answer until a second came: then the ramp's rate
    // does not count the first either. Counted, a 1/2 plan whose 429 came back before both admitted answers read as
    // 2 req/s at the ramp's first 429 (a rate of one answer over 0.5 s), and its blind cuts after that settled at 0.89.
    if (first.burst === 2 && first.lateLone) this.#ramp.uncount();
    first.lateLone = first.burst <= 1;
    const guess = (first.burst * 1000) / Math.max(GUESS_MS, first.at - first.burstFrom);
    this.estimate = Math.min(this.ceiling?.requestsPerSecond ?? MAX_RATE, Math.max(this.estimate, guess));
    // Nothing sent since that 429: the first call waits one interval of the new guess, not of the old.
    if (this.#sentTotal === first.sent) this.#nextAt = Math.min(this.#nextAt, first.at + 1000 / this.estimate);
    return first.burst <= 1;
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
    if (!oneCall || this.#interval === 0) return;
    const rate = this.rate(now);
    if (rate === undefined) return;
    this.#nextAt += 1000 / rate - this.#interval;
    this.#interval = 1000 / rate;
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
    const bound = cut.kind === 'ramp-end' && this.#admits.length < MAX_ADMITS
      ? bucketBound(this.#events, this.#admits, now, cut.pace)
      : reach;
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
    this.#recover = this.inFlight;
    this.#tail = 0;
    this.#admits = [];
    // The first call after the cut waits one interval at the new pace.
    this.#nextAt = now + 1000 / (this.rate(now) ?? MIN_RATE);
  }

  /**
   * A key-wide pause began: the pace starts again at its end (so the end of a pause is not a burst).
   *
   * @param until End of the pause, epoch ms.
   */
  pausedUntil(until: number): void {
    this.#nextAt = Math.max(this.#nextAt, until);
    this.#ceilingSlots?.clear();
  }
}

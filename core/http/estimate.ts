/**
 * Where a 429 puts the plan (or this client's share of it), by what the 429 ended: the pacing's estimate after a cut.
 * `which-cut.ts` tells which case a 429 is, from what the pacing saw since the last one, and `pacing.ts` bounds the
 * result; this is the arithmetic of each case, and why. Pure: no state.
 *
 * A 429 means the bucket was empty at that moment, so between two 429s the answers the plan admitted are what it
 * refilled meanwhile: admitted ÷ time between them is the plan's rate (or this client's share), and the pace that met
 * the second 429 is above it. The estimate lies between the two, not at the goodput of the last moments, which a
 * pause or an idle spell drags down.
 */

/** A 429 cuts the estimate to no more than this share of the pace that met it. */
export const BETA = 0.9;
/** A 429 with nothing to measure the plan by (no earlier 429 with enough answers after it): CUBIC's decrease. */
export const MD_BETA = 0.7;
/** A 429 with nothing admitted from two or more calls since the last one halves the pace. */
export const STUCK_BETA = 0.5;
/**
 * How far toward the pace (geometrically, 0 to 1) the estimate leans from the admitted rate after a 429: half way
 * in general, a little when the 429 came before the probe with the pace in use (see `anchored`).
 */
const LEAN = 0.5;
const LEAN_BEFORE_PROBE = 0.1;
/**
 * Slow start's guess when one caller alone had one call admitted (a bucket of one call), req/s: just under the smallest
 * plan. From a guess of exactly 1 req/s the ramp's doublings land exactly on plans of 1, 2, 4 and 8 req/s, round
 * numbers that plans use, where the jitter of arrivals alone decides whether the first call at the doubled spacing is
 * refused, and a refusal there leaves the pace at half the plan: one caller on 2/1 held 48 % of it in 2 seeds of 3, on
 * 4/1 50 % in 1, and 11 calls on 2/1 took 2.18× their floor (rows 7a, 7s). From 0.98: 98 %, 98 % and 1.25× at most;
 * 6 calls on 1/1, one interval 2 % longer, 1.14 → 1.16×. At 0.99 the search that follows a doubling past 5/1 landed on
 * 4.99 req/s, within that jitter of the plan (89 %, 1.1 % 429s): the search's steps land near some plan from any guess.
 * Not for a round of two calls alone (a read before the calls, and its refill), whose guess of 2 req/s meets 2/1 the
 * same way: scaled too, one-caller processes sharing a plan, whose rounds read two calls as often, met more 429s (20
 * seeds each: 12/12 shared by 8 processes 17 → 8 seeds within 3 %, 6/6 by 3 20 → 14, 3/6 by 3 12 → 6).
 */
export const LONE_GUESS = 0.98;

/**
 * Below this pace (req/s) a 429 weighs much among the answers (one in the 20 s of a steady window is 1 % of them at
 * 5 req/s, 2.5 % at 2): no search there (`first-round.ts`, but for a first doubling from 2 req/s), and where a search ends there the step
 * below is taken less the jitter of arrivals (the `ramp-end` case).
 */
export const MIN_SEARCH_RATE = 5;

/**
 * The spread of arrival times at the service between calls sent on schedule, ms: with the rate sweep's one-way delays
 * of 0.5 to 2 ms (loopback) a call reaches the plan up to this much sooner, after the one before it, than it went. A
 * bucket of one call refuses any call that reaches it sooner than its interval after the last, so a pace within this
 * much of the plan's interval meets a 429 now and then from the jitter alone (see the `held` cut). Over sockets on a
 * two-core machine the spread reached 3 ms; allowing that much did not do better there
 * (bench/notes/rate-control.md, "A lone caller's doubling that held").
 */
export const JITTER_MS = 1.5;
/**
 * The spread allowed where a search ends below {@link MIN_SEARCH_RATE} (the `ramp-end` case): the 3 ms that sockets
 * showed. There it costs at most 1.5 % of the plan (3 ms of a 200 ms spacing).
 */
export const SLOW_JITTER_MS = 2 * JITTER_MS;

/** What a 429 ended, with what its estimate needs. Rates in requests per second. */
export type Cut =
  /**
   * Slow start's 429 (or the first after a configured rate's burst): what its burst admitted, over how long, and
   * whether its calls went one at a time (one caller).
   */
  | { kind: 'slow-start'; admitted: number; spanMs: number; alone: boolean }
  /** A 429 before the ramp's second doubling, the pace `steps` doublings above slow start's guess. */
  | { kind: 'unproven'; pace: number; steps: number; rampRate: number }
  /** The end of the climb after an unproven 429: what the plan admitted between the two. */
  | { kind: 'climb-end'; pace: number; admittedRate: number }
  /**
   * The ramp's end: the pace grew by `factor` since the last step the plan kept up with (also a search's 429,
   * `searched`: the ramp searched a bucket of about one call).
   */
  | { kind: 'ramp-end'; pace: number; factor: number; rampRate: number; searched: boolean }
  /**
   * A lone caller's doubling on a bucket of one call that the plan admitted at its new spacing before a 429: the
   * 429 came from the jitter of arrivals, the pace within it below the plan.
   */
  | { kind: 'held'; pace: number }
  /**
   * The next 429 after a ramp's end whose estimate the bucket's size bounded (`bucket.ts`), before enough was admitted
   * to measure by.
   */
  | { kind: 'past-bound'; pace: number }
  /** An earlier 429 with enough answers admitted since (the anchor): what the plan admitted since then. */
  | { kind: 'anchored'; pace: number; admittedRate: number; beforeProbe: boolean }
  /** Nothing to measure by; `stuck`: nothing admitted from two or more calls since the last 429. */
  | { kind: 'blind'; pace: number; stuck: boolean };

/**
 * The plan's rate (or this client's share) after a 429, before the pacing bounds it.
 *
 * @param cut What the 429 ended.
 * @returns Requests per second.
 * @example
 * estimateAfter({ kind: 'blind', pace: 10, stuck: false }); // 7: multiplicative decrease
 */
export function estimateAfter(cut: Cut): number {
  switch (cut.kind) {
    // The burst and the rate together, over at least a second, and at least the smallest plan (a lone caller's one
    // call: just under it).
    case 'slow-start':
      return cut.alone && cut.admitted <= 1 ? LONE_GUESS : Math.max(1, (cut.admitted * 1000) / cut.spanMs);
    // The guess counts the burst as rate and so reads high wherever the burst is the rate or more (6 req/s from 6
    // calls admitted in a round on a 5/5 plan). So the 429 says the plan is below the pace, not that it lies above
    // half of it: taking the guess as proven held 5/5 at 60 to 80 % for the 15 to 20 s the curve takes to regain. The
    // pace is cut from the guess as with nothing to measure by (to half when nothing at all was admitted since a
    // doubling), or to what the plan admitted since if that is more, and the ramp climbs on from there in the search's
    // steps. A 429 at the guess itself, before any doubling, says only that slow start's round left the bucket empty:
    // from half of it the climb on 2/3 took 10 s and met its 429 in the steady state; from 0.7 of it, 3 s (and 100
    // calls on 5/10 with 50 callers took 1.02× their floor, not 1.07×).
    case 'unproven': {
      const guess = cut.pace / 2 ** cut.steps;
      return Math.max(Math.min(cut.rampRate, cut.pace), (cut.rampRate === 0 && cut.steps > 0 ? STUCK_BETA : MD_BETA) * guess);
    }
    // The bucket filled while the climb was below the plan, and those stored calls carried it past the plan (5/5 met
    // this 429 at 8.8 req/s, and a second and third 429 followed as the estimate came down), so its last step says
    // little. Both 429s found the bucket empty, so what the plan admitted between them is what it refilled: its rate,
    // less what a full bucket spilled (hence no less than half the pace).
    case 'climb-end':
      return Math.max(cut.admittedRate, STUCK_BETA * cut.pace);
    // The plan lies between what it admitted since the last step and the pace ÷ the step. On a bucket of one call
    // the search's step below may be the plan itself (2/1 with 2 to 8 callers: slow start's guess of 1 req/s doubles
    // onto it, and the search's next step meets its 429), and a pace at a one-call bucket's interval meets a 429
    // whenever a call arrives sooner than the one before it: the curve regained the plan itself, and the jitter of
    // arrivals brought a 429 in the steady state (2.4 % of a 2 req/s plan's answers). So below MIN_SEARCH_RATE, where
    // such a 429 weighs most, the step below less the jitter (as `held`, with the spread sockets showed:
    // with 1.5 ms, 2/1 × 5 over sockets met one 429 at 29.7 s in 2 runs of 3). Up to the hold's 10 req/s as well,
    // 2/1 met no such 429, but two processes on 7/1 settled at 48 % of it, not 87 (row 7e: who takes a shared one-call
    // bucket turns on such small differences).
    case 'ramp-end': {
      const below = cut.pace / cut.factor;
      const step = cut.searched && below < MIN_SEARCH_RATE ? 1000 / (1000 / below + SLOW_JITTER_MS) : below;
      return Math.max(Math.min(cut.rampRate, cut.pace), step);
    }
    // A bucket of one call refuses the first call at a spacing shorter than its interval, so two calls admitted at the
    // doubled pace put the plan at that pace or above, less what the jitter of arrivals can take off a spacing: the
    // 429 that followed was that jitter. Taken as a ramp's end, the estimate was what the ramp admitted since its step
    // (two calls over the 50 to 100 ms since it), a third below the pace: one caller on 32/1, whose doublings from
    // slow start's guess end at 31.36 req/s, held 66 to 74 % of the plan in 4 seeds of 6 (64/1 65 to 76 % in 3,
    // 135/1 to 150/1 53 to 62 %, medians of 3); now 91 to 94 %, 88 to 91 % and 71 to 79 %, near the jitter's bound
    // (`JITTER_MS`) above 60 req/s.
    case 'held':
      return 1000 / (1000 / cut.pace + JITTER_MS);
    // The plan lies between the two: a span in which the callers sent slower than the plan (one caller in its
    // backoff, a small bucket spilling) reads low, and a pace that met a 429 only once a full bucket drained reads
    // high. Halfway between them (geometrically) each 429 halves the doubt.
    // Before the curve regained the estimate, with the callers using the pace, the pace was not probing, so the plan
    // (or this client's share) is what it admitted since the anchor, give or take a call, and the halfway lean would
    // set it a little above. Several clients sharing a key meet these when one of them probes; leaning halfway each
    // settled above its share, so together they stayed over the plan and their 429s went on (5/5 with 8 of them:
    // 3.9 to 6.6 % of answers 10 to 30 s in; now 2.9 %). Callers that did not keep up with the pace (a lone caller
    // idle in a retry's backoff, two callers below a plan that spilled) read the plan low: halfway, then.
    case 'anchored': {
      const lean = cut.beforeProbe ? LEAN_BEFORE_PROBE : LEAN;
      return Math.max(cut.admittedRate, Math.min(BETA * cut.pace, cut.admittedRate ** (1 - lean) * cut.pace ** lean));
    }
    // The bound holds within a call, so the pace just above it that met this 429 was just above the plan. With nothing
    // to measure by, the blind cut (0.7) put 5/5 at 4.3 req/s, and the curve took the 14 s of its 60 calls to regain 5
    // (row 7a's 5/5 with 5 callers: 87 % of the plan 10 to 30 s in, median of 3 seeds; 101 % now).
    case 'past-bound':
      return BETA * cut.pace;
    case 'blind':
      return (cut.stuck ? STUCK_BETA : MD_BETA) * cut.pace;
  }
}

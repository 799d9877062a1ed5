/**
 * Which case of `estimate.ts` a 429 is, from what the pacing saw since the last one (`pacing.ts` keeps the state and
 * acts on the answer). Pure: no state.
 *
 * With an earlier 429 that has enough admitted answers after it (the anchor), the plan lies between the rate admitted
 * since then and the pace that met this one; without, the estimate is a share of that pace (multiplicative decrease).
 * The first 429 out of slow start knows only the burst: the pace ramps up from there, and that 429 is no anchor (the
 * ramp sends slower than the plan at first). A ramp's 429 ends the ramp, or, on a bucket of about one call, starts
 * the search (`first-round.ts`).
 */
import { admittedAwake, findAnchor, usedFrom } from './anchor.ts';
import { regainMs } from './curve.ts';
import { MIN_SEARCH_RATE, type Cut } from './estimate.ts';
import { asleepMs, doublingEnd, slowStartRound, type CutEvent } from './first-round.ts';
import { SEARCH_FACTOR } from './ramp.ts';
import { GUESS_MS } from './slow-start.ts';

/**
 * Callers that sent at least this share of the estimate since the anchor of a cut kept up with it. Below that the
 * bucket may have filled and spilled while they sent under the plan, so what it admitted reads low (7/3 with 2
 * callers held 89 % of the plan with 0.75 here).
 */
const KEPT_UP = 0.9;
/**
 * A pace at least this many times what the plan admitted since a ramp's end that left the callers asleep was carried
 * there by the bucket's store: the 429 that met it is not judged as before the probe (see `whichCut`). At 4 the
 * gain on 100/50 with one caller was lost; at 2 two one-caller processes sharing a plan settled on worse splits.
 */
const STORE_CARRIED = 3;

/** What the pacing saw up to this 429. Times in epoch ms, rates in requests per second. */
export interface CutInput {
  now: number;
  /** The pace that met this 429 (`undefined` while unpaced). */
  pace: number | undefined;
  /** The 429s kept, oldest first (the first is slow start's while it is kept). */
  events: readonly CutEvent[];
  /** Answers admitted so far, and calls sent. */
  admitted: number;
  sentTotal: number;
  /** The estimate the pace ran on. */
  estimate: number;
  /** The ramp as this 429 found it (`ramp.ts`): its rate is what the plan admitted since its last step. */
  ramp: { on: boolean; factor: number; steps: number; admitted: number; climbing: boolean; rate: number };
  /** What slow start's burst admitted, since when, and whether its calls went one at a time (`SlowStart.burst`). */
  burst: { admitted: number; from: number; alone: boolean };
  /** The plan's bucket was already taken for one call. */
  oneCallBucket: boolean;
  /** The last cut was a ramp's end that the bucket's size bounded. */
  bounded: boolean;
  /**
   * The ramp runs again from the probe (`rampsAgain` in `curve.ts`): its steps are not doublings, so neither unproven
   * nor a search.
   */
  rampedAgain: boolean;
}

/** The case, and what it starts: the search, a `held` one-call bucket, an unproven 429's climb. */
export interface WhichCut {
  cut: Cut;
  search: boolean;
  held: boolean;
  unproven: boolean;
}

/**
 * @param input What the pacing saw up to this 429.
 * @returns The case and what it starts.
 */
export function whichCut(input: CutInput): WhichCut {
  const { now, pace, events, admitted, ramp, burst } = input;
  const last = events.at(-1);
  // Nothing admitted from two or more calls since the last 429: that cut was far from enough (or other processes
  // share the key).
  const stuck = last !== undefined && admitted === last.admitted && input.sentTotal - last.sent >= 2;
  const anchor = findAnchor(events, admitted, input.estimate, now);
  // The first 429 (out of slow start, or out of a configured rate's burst) knows only what was admitted so far.
  const first = events.length === 0;
  // A ramp run again from the probe met its 429 before its first step: the pace it began at held, so the plan is just
  // below it, as for any 429 on the curve (a ramp's end would put the plan at the pace ÷ the step: 26/3 with 15
  // callers fell from 26 to 19 req/s, 81 % of the plan).
  const ramped = ramp.on && !first && !(input.rampedAgain && ramp.steps === 0);
  // A 429 before the ramp's second doubling (the pace was still slow start's guess, or its double) is unproven: the
  // guess counts the burst as rate, so the 429 says only that the plan is below the pace (`estimate.ts`), and the
  // ramp climbs on from the cut in the search's steps; the next 429 ends that climb. At the guess itself at any
  // pace: below MIN_SEARCH_RATE, taken as a ramp's end, half the guess held 3/4 at 2 req/s and 2/3 at 1.5 (67 and
  // 75 % of the plan with 5 to 500 callers, no 429 to correct it for the curve's 60 calls, 30 to 40 s).
  const unproven = ramped && ramp.factor === 2 && (events[0]?.burst ?? 0) > 2
    && (ramp.steps === 0 || (ramp.steps === 1 && (pace ?? 0) >= MIN_SEARCH_RATE));
  // Any other doubling's 429 may say a bucket of about one call: then the search, or the plan just at the pace.
  const { search, held } = ramped && ramp.factor === 2 && !unproven
    ? doublingEnd(events[0], pace ?? 0, ramp.admitted)
    : { search: false, held: false };
  const oneCallBucket = input.oneCallBucket || search || held;
  const climbed = ramped && ramp.factor !== 2 && ramp.climbing;
  const admittedSince = (e: CutEvent): number => ((admitted - e.admitted) * 1000) / (now - e.at);
  const round = slowStartRound(events[0]);
  let cut: Cut;
  if (first || pace === undefined) {
    cut = { kind: 'slow-start', admitted: burst.admitted, spanMs: Math.max(GUESS_MS, now - burst.from), alone: burst.alone };
  }
  else if (unproven) cut = { kind: 'unproven', pace, steps: ramp.steps, rampRate: ramp.rate };
  // (The anchor of a climb's end is its unproven 429: that comes only right after slow start's, which is no anchor.)
  else if (climbed && anchor) cut = { kind: 'climb-end', pace, admittedRate: admittedSince(anchor) };
  else if (held) cut = { kind: 'held', pace };
  else if (ramped) {
    cut = { kind: 'ramp-end', pace, factor: ramp.factor, rampRate: ramp.rate, searched: oneCallBucket && ramp.factor === SEARCH_FACTOR };
  }
  else if (anchor) {
    const from = usedFrom(anchor, admittedSince(anchor), round);
    const keptUp = input.sentTotal - from.sent >= (KEPT_UP * input.estimate * (now - from.at)) / 1000;
    // Before the probe: the estimate is still the one the pace ran on, so this is the regain the curve was on. Not
    // when the callers slept after a ramp's end (a lone caller) and the pace was three times what the plan admitted
    // since: that ramp's estimate was the bucket's store, which filled while they slept and carried the ramp past the
    // plan, not a pace the plan had kept up with. Leaning toward what was admitted there (the sleep counted in) set one
    // caller on 50/25 at 35 req/s for the 15 s its probe took; halfway, the next 429s find the plan within seconds
    // (rows 7r, 7s: 1,000 calls on 50/25 1.08 to 1.25x their floor, now 1.08 to 1.14x; on 100/50 1.14 to 1.24x, now
    // 1.10 to 1.11x; over sockets 1.04 to 1.18x, now 1.10 to 1.11x). From twice, two one-caller processes on
    // 20/20 met row 7m's target in 14 runs of 20, not 17, and 5/10 alone took 2 % 429s.
    const slept = last !== undefined && last.rampEnd && asleepMs(last) > 0 && pace >= STORE_CARRIED * admittedSince(anchor);
    const beforeProbe = last !== undefined && now - last.at < regainMs(input.estimate) && keptUp && !slept;
    const admittedRate = Math.max(admittedSince(anchor), admittedAwake(anchor, admitted, round, now));
    cut = { kind: 'anchored', pace, admittedRate, beforeProbe };
  }
  // Just past a ramp's end that the bucket bounded, that bound (within a call) met this 429: the plan is just below.
  else if (input.bounded && !stuck) cut = { kind: 'past-bound', pace };
  else cut = { kind: 'blind', pace, stuck };
  return { cut, search, held, unproven };
}

/**
 * The record the pacing keeps of each 429 that cut the pace (`pacing.ts`), and what the first of them, slow start's,
 * says about the plan's bucket: whether it holds about one call, and so whether a ramp's 429 starts the search (the
 * pace climbs again in small steps until one more 429 finds the plan within a step). Pure: no state.
 *
 * Slow start's round emptied a full bucket, so what it admitted (its late answers too) is the bucket's size plus what
 * refilled while the round went out. A round of callers side by side says that; a lone caller's round, each call
 * refilled while the next waited, says mostly rate.
 */
import { MIN_SEARCH_RATE } from './estimate.ts';
import { MIN_HOLD_RATE } from './hold.ts';
import { GUESS_MS } from './slow-start.ts';

/** A 429 that began a cut: when, and how many answers had been admitted by then. */
export interface CutEvent {
  at: number;
  admitted: number;
  /** Calls sent by then. */
  sent: number;
  /** The 429 that ended slow start (no anchor for an estimate). */
  slowStart: boolean;
  /** Slow start's 429: what the burst that met it had admitted (its late answers too; see `SlowStart.burst`) … */
  burst: number;
  /** … and when that burst began … */
  burstFrom: number;
  /** … and whether its calls went one at a time (one caller): then it says little of the bucket's size. */
  burstAlone: boolean;
  /** The 429 ended a ramp (`ramp-end`). */
  rampEnd: boolean;
  /** Slow start's 429: its one late admitted answer so far was counted by the ramp as a one-call bucket's (`Pacing`). */
  lateLone?: boolean;
  /** When the callers began to use the pace after this 429 (the 429, or their first call if it came late), and the calls sent by then. */
  usedFrom?: { at: number; sent: number };
}

/**
 * Below `MIN_SEARCH_RATE` (`estimate.ts`: there a 429 weighs much among the answers) no search …
 * … but for the 429 of a doubling at this pace or more (the first from slow start's guess of 1 req/s), after a slow
 * start whose callers went side by side and had one call admitted (see {@link slowSearch}).
 */
const MIN_SLOW_SEARCH_RATE = 2;
/**
 * A 429 that came after the doubling had held starts the search from this pace (req/s; see {@link lateSearch}): the
 * search climbs from what the ramp admitted, at least half of it, and the hold that follows starts from
 * `MIN_HOLD_RATE`.
 */
const MIN_LATE_SEARCH_RATE = 2 * MIN_HOLD_RATE;
/**
 * Slow start's round met a bucket of about one call if what it admitted, less what such a bucket refilled while the
 * round went out, is no more than this (see {@link lateSearch}).
 */
const ONE_CALL_ROUND = 1.5;

/** How long the callers slept in their backoff after this 429 (ms; 0 when one of them went on, or none came back yet). */
export function asleepMs(e: CutEvent): number {
  return e.usedFrom ? e.usedFrom.at - e.at : 0;
}

/**
 * The bucket's size that slow start's 429 says, had the bucket refilled at `rate` (req/s) while the burst went out:
 * what the burst admitted, less that refill.
 */
export function burstBucket(e: CutEvent, rate: number): number {
  return e.burst - (rate * (e.at - e.burstFrom)) / 1000;
}

/**
 * What slow start's round admitted (its late answers too), when a 429 ended it: at least the bucket's size.
 *
 * @param first The first 429 kept.
 * @returns Calls, or `undefined` when no slow start's 429 is kept.
 */
export function slowStartRound(first: CutEvent | undefined): number | undefined {
  return first?.slowStart ? first.burst : undefined;
}

/**
 * An answer of slow start's round admitted after the 429 that ended it, before the ramp's first step: counted into
 * the round (it mutates `first`). Answers come back in any order, so that 429 may arrive before most of its round's
 * admitted answers (a 5/5 plan read as 1 req/s, a burst of 5 as one of 1, and 100 calls took 1.17× the plan's floor):
 * slow start's guess and what it says about the bucket count them, and the ramp's rate does not (a 1/2 plan's burst
 * read as 2 req/s). The one exception is the lone answer of a one-call bucket: the ramp's first call waits a whole
 * interval of the guess (1 s at 1 req/s), so without it the ramp's rate reads half the plan.
 *
 * @param first Slow start's 429.
 * @returns The round's guess with this answer (req/s); `lone`: the ramp counts it (the round's only answer so far);
 *   `uncount`: the ramp must uncount the answer it counted as lone, now that a second came.
 * @example
 * lateRoundAnswer({ ...first, burst: 4, at: 1000, burstFrom: 0 }); // { guess: 5, lone: false, uncount: false }
 */
export function lateRoundAnswer(first: CutEvent): { guess: number; lone: boolean; uncount: boolean } {
  first.admitted += 1;
  first.burst += 1;
  // The round's late answers read as a one-call bucket's lone answer until a second came: then the ramp's rate does
  // not count the first either. Counted, a 1/2 plan whose 429 came back before both admitted answers read as 2 req/s
  // at the ramp's first 429 (a rate of one answer over 0.5 s), and its blind cuts after that settled at 0.89.
  const uncount = first.burst === 2 && first.lateLone === true;
  first.lateLone = first.burst <= 1;
  const guess = (first.burst * 1000) / Math.max(GUESS_MS, first.at - first.burstFrom);
  return { guess, lone: first.burst <= 1, uncount };
}

/**
 * Slow start's round ended with one call admitted: a bucket of about one call (or a one-call share of a bigger
 * one). A call made less than a second before the burst is in the round too, so after one the round reads two.
 */
export function oneCallRound(first: CutEvent | undefined): boolean {
  return first !== undefined && first.slowStart && first.burst <= 1;
}

/**
 * What a ramp's 429 at a doubling (factor 2) says, beside `unproven` (a 429 before the second doubling): whether it
 * starts the search, or (`held`) says that the plan is just at the pace.
 *
 * A bucket of about one call (at most two calls admitted out of slow start: the one, and its refill while a slow round
 * was on its way, as over sockets on a busy machine; and a doubling that met a 429 at once) spills on any excess, so
 * the ramp's rate says nothing: the plan lies between half the pace and the pace. (A bigger bucket drained by slow
 * start also meets a 429 at once, but its first 429 came after its burst.) The ramp then climbs again from that half in
 * steps of `SEARCH_FACTOR`, so the next 429, the search's only cost, finds the plan within one step. Below
 * `MIN_SEARCH_RATE` that second 429 would cost more than 2 % of a minute's answers, and the curve takes over at once,
 * but where {@link slowSearch} says the 429 came early enough to spare it. A doubling that held, and met a 429 only
 * later, searches too where slow start's round read such a bucket once its refills are counted ({@link lateSearch}).
 *
 * @param first Slow start's 429 (the first kept).
 * @param pace The pace that met this 429, req/s.
 * @param rampAdmitted Calls the plan admitted since the ramp's last step.
 * @returns Whether the search runs, and whether the cut is `held`.
 */
export function doublingEnd(first: CutEvent | undefined, pace: number, rampAdmitted: number): { search: boolean; held: boolean } {
  const atOnce = rampAdmitted <= 1 && (first?.burst ?? 0) <= 2 && (pace >= MIN_SEARCH_RATE || slowSearch(first, pace));
  const search = atOnce || lateSearch(first, pace);
  return { search, held: !search && heldAlone(first, pace, rampAdmitted) };
}

/**
 * Below `MIN_SEARCH_RATE`, whether a ramp's 429 still starts the search: on a 3/1 plan the ramp doubles from slow
 * start's guess of 1 req/s to 2, then 4, meets its 429 there, and without a search held 2 req/s (67 % of the plan,
 * every caller count, row 7j); searching, 97 %, its one more 429 in the first 5 s. Only where the pace that met the
 * 429 was {@link MIN_SLOW_SEARCH_RATE} or more and slow start's round had exactly one call admitted out of several in
 * flight.
 *
 * From the first doubling, to 2 req/s, too (2026-11-29): on a 2/1 plan that doubling lands on the plan itself, and
 * whether the jitter of arrivals refused its first call decided the run. Refused and not searching, the curve held
 * half the plan for minutes (48 % in 2 seeds of 3 with 10 to 500 callers, row 7a; 60 calls took 2.04× their
 * floor in one seed of 7g); searching, 93 to 98 % (1.14×). What that costs: the first doubling also meets the 429s
 * of processes that start together on one key, and they search too (5/5 shared by 8 processes of 10 callers, 2.9 →
 * 6.5 % 429s in virtual time; over sockets that cell was short already; 7j several processes 1,014 → 1,006 runs);
 * and on 1/1, whose plan is the doubling's lower half, the search's one 429 and its backoff cost a short batch about
 * a second (11 calls 1.09 → 1.18× their floor, 30 calls 1.04 → 1.07×).
 *
 * Not for one caller: one-caller processes sharing a plan of 3 to 10 req/s look the same as one caller alone on a
 * one-call bucket, and searching they pushed one another over the 3 % line (7j several processes 1,020 → 1,001
 * runs; again on 2026-11-29, 1,014 → 998, and 5/5 shared by 4 one-caller processes 2.0 → 4.0 % 429s), so a lone
 * caller on 3/1 still holds two thirds of it (on 2/1 and 4/1 its ramp's doublings, from a guess just under 1 req/s,
 * end just under the plan: `LONE_GUESS` in `estimate.ts`). Processes of several callers whose slow
 * start met such a round on a shared slow plan search too (4/2 shared by 3 processes of 10 callers met in 5 seeds
 * of 12 before, none now; bench/notes/rate-control.md, "Bursts of 1").
 */
function slowSearch(first: CutEvent | undefined, pace: number): boolean {
  return pace >= MIN_SLOW_SEARCH_RATE && first?.burst === 1 && !first.burstAlone;
}

/**
 * Whether a ramp's 429 that came after its doubling had held (more than one call admitted at the doubled pace)
 * starts the search. On a bucket of about one call the doubled pace was then at or below the plan, and the 429 came
 * from the jitter of the sends' arrival, which refuses a call now and then at any pace near such a plan. Over
 * sockets 200/1 doubled to 192 req/s (or to 128), met such a 429 a second or two later, and slow start's round of 50
 * callers had read three calls admitted (the one and two refills while the round went out): it was taken for a bigger
 * bucket, the ramp ended at the 429, and every later jitter 429 cut the pace again, to 31 to 51 % of the plan with
 * 0.1 to 0.9 % 429s, where a sender at a fixed spacing held 87 %. Searching, 49 to 76 % (`bench/notes/rate-control.md`,
 * "The late search"). Only from {@link MIN_LATE_SEARCH_RATE}, for callers that went side by side (a lone caller's
 * round says nothing of the bucket), where slow start's round admitted no more than {@link ONE_CALL_ROUND} over what
 * a one-call bucket refilled at this pace while it went out, and no more than half the calls it sent: over the 20 to
 * 120 ms rounds of internet latency the refill alone read a bucket of ten as one (20/10 with 5 callers 0.5 → 1.5 %
 * 429s in row 7p). Counting the refill at half the pace instead (the least the plan can be) missed 200/1 over sockets
 * in 2 runs of 3, where the round took 15 to 37 ms and read 3 to 5 calls. A bucket of more calls stays ended at its
 * 429.
 */
function lateSearch(first: CutEvent | undefined, pace: number): boolean {
  if (!first?.slowStart || first.burstAlone || pace < MIN_LATE_SEARCH_RATE || 2 * first.burst > first.sent) return false;
  return burstBucket(first, pace) <= ONE_CALL_ROUND;
}

/**
 * Whether a doubling's 429 says the plan is just at the pace (`held` in `estimate.ts`): one caller whose slow start
 * had one call admitted (a bucket of one call) sent two calls or more at the doubled spacing, and the plan admitted
 * them before the 429. Only from {@link MIN_LATE_SEARCH_RATE}, as the late search: one-caller processes sharing a key
 * look the same to each, and on slow plans their doublings hold on what the bucket stored, not on the plan's spacing
 * (a guard by reasoning: without it the sweeps read the same). The bucket is then taken for one call, as after a
 * search: no catching up on late timers (after the backoff's sleep the next call went 4 ms early, 31 ms after the
 * retry on a 32/1 plan, and its 429 cut the pace by 0.7), and the probe on the sleep's clock.
 */
function heldAlone(first: CutEvent | undefined, pace: number, rampAdmitted: number): boolean {
  return rampAdmitted >= 2 && pace >= MIN_LATE_SEARCH_RATE && first !== undefined && first.slowStart && first.burstAlone
    && first.burst <= 1;
}

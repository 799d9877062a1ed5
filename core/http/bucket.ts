/**
 * What a 429 says about the plan's rate once the bucket's size is known: replay the answers the plan admitted since
 * the last 429 (the bucket was empty then too) against a candidate rate, and see whether a bucket refilling at that
 * rate would be empty at this one. The largest rate for which it would is an upper bound on the plan's rate (or this
 * client's share of it: other processes' calls only empty the bucket sooner). Pure arithmetic.
 *
 * Why: the ramp after slow start doubles its pace while the plan admits it, and a bucket that filled during the pause
 * after slow start's 429 admits a few doublings above the plan from what it stored (5/5: 5 → 10 → 20 → 40 req/s in
 * 0.7 s, every call admitted). Half the pace that met the 429 (20) is then four times the plan, and three more 429s
 * followed, one per cut, before the estimate came down. Replayed, the same answers put it at about 8 at most.
 */

import { burstBucket, type CutEvent } from './first-round.ts';

/** A 429 means less than one call was left; this much more allows for answers timed late (network, event loop). */
const SLACK = 1;
/** Bisection steps: the bound to a millionth of the pace. */
const STEPS = 20;

/**
 * Calls left, as of `to`, in a bucket of `size` that refills at `rate`, empty at `from`, after one call admitted at
 * each of `admits`.
 */
function leftAt(admits: readonly number[], from: number, to: number, rate: number, size: number): number {
  let left = 0;
  let at = from;
  for (const time of admits) {
    left = Math.min(size, left + (rate * (time - at)) / 1000) - 1;
    at = time;
  }
  return Math.min(size, left + (rate * (to - at)) / 1000);
}

/**
 * The largest rate (at most `pace`) at which a bucket, empty at `from`, would be empty again at `to` after admitting
 * one call at each of `admits`.
 *
 * @param admits Epoch ms of each answer admitted since `from`, ascending.
 * @param from The earlier 429, epoch ms.
 * @param to This 429, epoch ms.
 * @param size The bucket's size (calls) if its rate is the one given: slow start's round measured the two together.
 * @param pace The pace that met this 429, req/s: the plan lies below it anyway.
 * @returns Requests per second.
 * @example
 * // Empty at 0, 9 calls admitted 1.2–1.85 s, empty at 1.9 s, a bucket of 5: about 8.6 req/s, not 40.
 * largestRate([1200, 1300, 1400, 1500, 1600, 1650, 1700, 1800, 1850], 0, 1900, () => 5, 40);
 */
export function largestRate(admits: readonly number[], from: number, to: number, size: (rate: number) => number, pace: number): number {
  const empty = (rate: number): boolean => leftAt(admits, from, to, rate, size(rate)) < 1 + SLACK;
  if (empty(pace)) return pace;
  let [low, high] = [0, pace];
  for (let step = 0; step < STEPS; step++) {
    const mid = (low + high) / 2;
    if (empty(mid)) low = mid;
    else high = mid;
  }
  return low;
}

/**
 * The largest rate at which a bucket of the size slow start met would be empty at this 429, having admitted what it
 * did since the last one ({@link largestRate}); the pace when that cannot be told. Slow start's round emptied the
 * bucket, so what the round admitted (its late answers too) is the bucket's size plus what refilled while the round
 * went out. Not when the round's calls went one at a time (one caller, as an n8n worker): each refilled while the next
 * waited, so the count is mostly rate, and bounded by it two one-caller processes on 20/20 held 85 % of the plan in
 * 16 of row 7m's 20 runs, not 18 (7m 50 of 80, 7k 6 of 12; 52 and 7 unbounded, as before the bound).
 *
 * @param events The 429s kept, oldest first (slow start's first while it is kept).
 * @param admits Epoch ms of each answer admitted since the last 429, ascending.
 * @param now This 429, epoch ms.
 * @param pace The pace that met this 429, req/s.
 * @returns Requests per second.
 */
export function bucketBound(events: readonly CutEvent[], admits: readonly number[], now: number, pace: number): number {
  const first = events[0];
  const last = events.at(-1);
  if (!first?.slowStart || first.burstAlone || !last) return pace;
  return largestRate(admits, last.at, now, (rate) => Math.max(1, burstBucket(first, rate)), pace);
}

/** Admitted answers kept since the last cut for the bound: a ramp that runs longer goes unbounded. */
const MAX_ADMITS = 4096;

/** When each answer admitted since the last cut came (not those to calls sent before it), for {@link bucketBound}. */
export class Admits {
  #times: number[] = [];

  /** @param now When an answer was admitted, epoch ms. */
  admitted(now: number): void {
    if (this.#times.length < MAX_ADMITS) this.#times.push(now);
  }

  /** A cut: the count starts again. */
  clear(): void {
    this.#times = [];
  }

  /**
   * {@link bucketBound} on what was admitted since the last cut, or `unbounded` when too many came to replay.
   *
   * @param events The 429s kept, oldest first.
   * @param now This 429, epoch ms.
   * @param pace The pace that met it, req/s.
   * @param unbounded What the estimate is without the bound, req/s.
   * @returns Requests per second.
   */
  bound(events: readonly CutEvent[], now: number, pace: number, unbounded: number): number {
    return this.#times.length < MAX_ADMITS ? bucketBound(events, this.#times, now, pace) : unbounded;
  }
}

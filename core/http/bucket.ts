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

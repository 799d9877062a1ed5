import { describe, expect, it } from 'vitest';
import { Admits, largestRate } from './bucket.ts';
import type { CutEvent } from './first-round.ts';

/** Epoch ms of `n` answers at `perSecond`, from `from` (the first one interval after it). */
const steady = (n: number, perSecond: number, from = 0): number[] =>
  Array.from({ length: n }, (_, i) => from + ((i + 1) * 1000) / perSecond);

describe('largestRate', () => {
  it('a bucket of 5 that stored calls through a pause: the ramp\'s answers put the plan far below the pace', () => {
    // Empty at 0; nothing sent until 1.2 s, then 9 calls admitted as the pace doubled to 40; empty again at 1.9 s.
    const admits = [1200, 1300, 1400, 1500, 1600, 1650, 1700, 1800, 1850];
    const bound = largestRate(admits, 0, 1900, () => 5, 40);
    expect(bound).toBeGreaterThan(5);
    expect(bound).toBeLessThan(9);
  });

  it('answers at a steady 80 a second for a second: the plan is not much above 80', () => {
    const bound = largestRate(steady(80, 80), 0, 1000, () => 5, 160);
    expect(bound).toBeGreaterThanOrEqual(80);
    expect(bound).toBeLessThan(84);
  });

  it('a bucket of one call stores nothing: the answers bound nothing below the pace', () => {
    expect(largestRate(steady(80, 80), 0, 1000, () => 1, 160)).toBe(160);
  });

  it('the bucket\'s size at each rate: what slow start\'s round admitted less what that rate refilled meanwhile', () => {
    // A round of 20 admitted over 100 ms is a bucket of 10 at 100 req/s, of 17 at 30. After a pause of 1.5 s, 30 calls
    // in the next 0.5 s: about 26 req/s at most with a bucket of 19 (19 + 0.5 × 26 = 32: 30 admitted, under 2 left),
    // about 30 when the bucket shrinks as the rate grows (17 + 15 = 32); a little more, as the first call came 17 ms
    // into that half second.
    const size = (rate: number): number => Math.max(1, 20 - rate * 0.1);
    const admits = steady(30, 60, 1500);
    const fixed = largestRate(admits, 0, 2000, () => 19, 120);
    const shrinking = largestRate(admits, 0, 2000, size, 120);
    expect(fixed).toBeGreaterThan(26);
    expect(fixed).toBeLessThan(27.5);
    expect(shrinking).toBeGreaterThan(30);
    expect(shrinking).toBeLessThan(31.5);
  });
});

describe('Admits', () => {
  /** Slow start's 429 at 0 after a round of 5 calls side by side over 15 ms: a bucket of about 5. */
  const events: CutEvent[] = [
    { at: 0, admitted: 5, sent: 20, slowStart: true, burst: 5, burstFrom: -15, burstAlone: false, rampEnd: false },
  ];

  it('bounds a ramp\'s end by what it admitted since the last cut, and starts again at a cut', () => {
    const admits = new Admits();
    for (const at of [1200, 1300, 1400, 1500, 1600, 1650, 1700, 1800, 1850]) admits.admitted(at);
    expect(admits.bound(events, 1900, 40, 20)).toBeLessThan(9);
    admits.clear();
    // Nothing admitted in the 1.9 s since: a plan that refilled faster than about 1 req/s would have had a call left.
    expect(admits.bound(events, 1900, 40, 20)).toBeLessThan(1.1);
  });

  it('a lone caller\'s round bounds nothing (its calls were mostly rate), nor a replay too long to keep', () => {
    const admits = new Admits();
    admits.admitted(1200);
    expect(admits.bound([{ ...events[0]!, burstAlone: true }], 1900, 40, 20)).toBe(40);
    for (let i = 0; i < 5000; i++) admits.admitted(1200 + i / 10);
    expect(admits.bound(events, 1900, 40, 20)).toBe(20);
  });
});

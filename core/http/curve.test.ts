import { describe, expect, it } from 'vitest';
import { CUT, curve, MIN_REGAIN_MS, rampsAgain, regainMs, REGAIN_CALLS, stallMs, type CurveInput } from './curve.ts';
import type { CutEvent } from './first-round.ts';

const at20: CurveInput = { estimate: 20, peak: 20, measuredPeak: 20, oneCallBucket: false, stallMs: 0 };

/** A 429 at 1 s whose callers came back `sleptMs` later. */
function cutAt(sleptMs: number): CutEvent {
  return { at: 1000, admitted: 40, sent: 45, slowStart: false, burst: 0, burstFrom: 0, burstAlone: false, rampEnd: false, usedFrom: { at: 1000 + sleptMs, sent: 45 } };
}

describe('curve', () => {
  it('regains the estimate no sooner than MIN_REGAIN_MS and REGAIN_CALLS calls after the 429', () => {
    expect(regainMs(20)).toBe(MIN_REGAIN_MS);
    expect(regainMs(2)).toBe((REGAIN_CALLS / 2) * 1000);
  });

  it('starts (1 − CUT) below the estimate, is at it at the regain, then probes above in units of the largest held', () => {
    expect(curve(0, at20)).toBeCloseTo((1 - CUT) * 20);
    expect(curve(MIN_REGAIN_MS, at20)).toBeCloseTo(20);
    expect(curve(2 * MIN_REGAIN_MS, at20)).toBeCloseTo(20 + CUT * 20);
    // A share of 10 that held 40 lately probes in units of 40.
    const share = { ...at20, estimate: 10, peak: 40, measuredPeak: 10 };
    expect(curve(2 * MIN_REGAIN_MS, share)).toBeCloseTo(10 + CUT * 40);
  });

  it('a share squeezed below two thirds of what an anchored cut measured probes on the clock of that share', () => {
    // Estimate 4: its own regain is 15 s; squeezed from 20, the probe's clock is 20's regain, 6 s.
    const squeezed = { ...at20, estimate: 4, measuredPeak: 20 };
    const own = { ...squeezed, measuredPeak: 4 };
    expect(curve(15_000 + 6000, squeezed)).toBeCloseTo(4 + CUT * 20);
    expect(curve(15_000 + 6000, own)).toBeCloseTo(4 + CUT * 20 * (6 / 15) ** 3);
  });

  it('callers left asleep on a one-call bucket probe on STALL_PROBE times their sleep, near the largest estimate only', () => {
    const stalled = { ...at20, oneCallBucket: true, stallMs: 800 };
    // 45 × 0.8 s = 36 s per unit of the cube past the regain.
    expect(curve(MIN_REGAIN_MS + 36_000, stalled)).toBeCloseTo(20 + CUT * 20);
    // Well below the largest held: the regain's clock.
    expect(curve(2 * MIN_REGAIN_MS, { ...stalled, estimate: 10, peak: 20, measuredPeak: 10 })).toBeCloseTo(10 + CUT * 20);
  });

  it('a stall counts on a one-call bucket or one the sleep spilled, up to a second', () => {
    expect(stallMs(cutAt(700), 20, 20, true)).toBe(700);
    expect(stallMs(cutAt(1500), 20, 20, true)).toBe(1000);
    // A round of 20: the 14 calls refilled in 0.7 s at 20 req/s are stored, not spilled.
    expect(stallMs(cutAt(700), 20, 20, false)).toBe(0);
    // A round of 2 at 100 req/s: 70 calls refilled, more than four bucketfuls.
    expect(stallMs(cutAt(700), 2, 100, false)).toBe(700);
    expect(stallMs(undefined, 2, 100, true)).toBe(0);
  });

  it('the ramp runs again once the probe ran to 1.25× the estimate with no 429 for two regains, callers awake', () => {
    expect(rampsAgain(2 * MIN_REGAIN_MS, 25, 20, 0)).toBe(true);
    expect(rampsAgain(2 * MIN_REGAIN_MS, 24.9, 20, 0)).toBe(false);
    expect(rampsAgain(2 * MIN_REGAIN_MS - 1, 25, 20, 0)).toBe(false);
    // A slow plan's regain is in calls: 60 calls at 2 req/s is 30 s, so two of them 60 s.
    expect(rampsAgain(59_000, 2.5, 2, 0)).toBe(false);
    expect(rampsAgain(60_000, 2.5, 2, 0)).toBe(true);
    // Callers the last 429 left asleep: never.
    expect(rampsAgain(10 * MIN_REGAIN_MS, 40, 20, 700)).toBe(false);
  });
});


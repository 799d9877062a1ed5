import { describe, expect, it } from 'vitest';
import { Hold, HOLD_CALLS, HOLD_STEP, HOLD_TARGET, MIN_HOLD_RATE } from './hold.ts';

describe('Hold', () => {
  it('begins at MIN_HOLD_RATE or more, and again after the cut its own 429s brought', () => {
    const hold = new Hold();
    expect(hold.begin(MIN_HOLD_RATE - 1)).toBe(false);
    expect(hold.on).toBe(false);
    expect(hold.begin(MIN_HOLD_RATE)).toBe(true);
    expect(hold.on).toBe(true);
    expect(hold.begin(50)).toBe(false); // it runs
    expect(hold.throttled(1, true)).toBe(true);
    for (const admitted of [2, 3, 4, 5]) hold.throttled(admitted, true);
    expect(hold.on).toBe(false);
    expect(hold.begin(MIN_HOLD_RATE - 1)).toBe(false);
    expect(hold.begin(50)).toBe(true);
  });

  it('steps up by HOLD_STEP × HOLD_TARGET an answer, and with the square of the quiet past HOLD_CALLS answers', () => {
    const hold = new Hold();
    expect(hold.admitted(10)).toBe(1);
    hold.begin(20);
    expect(hold.admitted(10)).toBe(1 + HOLD_STEP * HOLD_TARGET);
    expect(hold.admitted(HOLD_CALLS)).toBe(1 + HOLD_STEP * HOLD_TARGET);
    expect(hold.admitted(2 * HOLD_CALLS)).toBeCloseTo(1 + 4 * HOLD_STEP * HOLD_TARGET, 12);
  });

  it('a 429 starts the hold only after HOLD_CALLS answers with none, and where the pacing allows', () => {
    const hold = new Hold();
    expect(hold.throttled(HOLD_CALLS - 1, true)).toBe(false);
    expect(hold.throttled(2 * HOLD_CALLS - 1, false)).toBe(false);
    expect(hold.throttled(3 * HOLD_CALLS - 1, true)).toBe(true);
    expect(hold.on).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { PEAK_HOLD_MS, Peak } from './peak.ts';

describe('Peak', () => {
  it('holds what a 429 measured for PEAK_HOLD_MS, then nothing', () => {
    const peak = new Peak();
    expect(peak.value(0)).toBe(0);
    peak.measured(20, 1000);
    expect(peak.value(1000 + PEAK_HOLD_MS)).toBe(20);
    expect(peak.value(1001 + PEAK_HOLD_MS)).toBe(0);
  });

  it('a lower measure leaves the held peak to run out; a higher or equal one holds afresh', () => {
    const peak = new Peak();
    peak.measured(20, 0);
    peak.measured(5, 60_000);
    expect(peak.value(60_000)).toBe(20);
    expect(peak.value(PEAK_HOLD_MS + 1)).toBe(0); // counted from the 20, not from the 5
    peak.measured(5, PEAK_HOLD_MS + 2);
    expect(peak.value(PEAK_HOLD_MS + 2)).toBe(5);
    peak.measured(5, 2 * PEAK_HOLD_MS);
    expect(peak.value(3 * PEAK_HOLD_MS)).toBe(5); // held afresh from 2 × PEAK_HOLD_MS
    peak.measured(8, 3 * PEAK_HOLD_MS);
    expect(peak.value(3 * PEAK_HOLD_MS)).toBe(8);
  });
});

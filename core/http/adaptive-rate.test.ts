import { describe, it, expect } from 'vitest';
import { AdaptiveRate } from './adaptive-rate.ts';

const t0 = Date.UTC(2026, 10, 22, 12);

describe('AdaptiveRate', () => {
  it('starts at the initial rate and paces concurrent tickets one fill interval apart', () => {
    const rate = new AdaptiveRate(t0, { initialRate: 10 });
    const tickets = [1, 2, 3, 4].map(() => rate.take(t0));
    expect(tickets.map((ticket) => rate.delay(ticket, t0))).toEqual([0, 100, 200, 300]);
  });

  it('drops to beta x the measured rate on a throttle and withdraws unused releases', () => {
    const rate = new AdaptiveRate(t0, { initialRate: 10 });
    let t = t0;
    // Send 10/s for two seconds, all successful.
    for (let i = 0; i < 20; i++) {
      const ticket = rate.take(t);
      t += rate.delay(ticket, t);
      rate.commit(ticket);
      rate.record(t, false);
    }
    const before = rate.fillRate;
    rate.record(t, true);
    expect(rate.lastMaxRate).toBeLessThanOrEqual(before);
    expect(rate.fillRate).toBeCloseTo(rate.lastMaxRate * 0.7, 5);
    const waiting = rate.take(t);
    expect(rate.delay(waiting, t)).toBeGreaterThan(0);
  });

  it('grows back along the CUBIC curve and reaches W_max after K seconds', () => {
    const rate = new AdaptiveRate(t0, { initialRate: 10 });
    for (let i = 1; i <= 15; i++) rate.record(t0 + i * 100, false); // 10/s for 1.5 s
    const at = t0 + 1500;
    rate.record(at, true);
    const wMax = rate.lastMaxRate;
    expect(wMax).toBeGreaterThan(5);
    expect(rate.fillRate).toBeCloseTo(wMax * 0.7, 5);
    const k = Math.cbrt((wMax * (1 - 0.7)) / 0.4);
    rate.record(at + (k / 2) * 1000, false);
    expect(rate.fillRate).toBeGreaterThan(wMax * 0.7);
    expect(rate.fillRate).toBeLessThan(wMax);
    rate.record(at + k * 1000, false);
    expect(rate.fillRate).toBeCloseTo(wMax, 3);
  });

  it('uses the goodput since the last throttle as W_max when it is lower than the send rate', () => {
    const rate = new AdaptiveRate(t0, { initialRate: 20 });
    for (let i = 1; i <= 10; i++) rate.record(t0 + i * 200, false); // 10 successes in 2 s
    expect(rate.fillRate).toBeGreaterThan(5);
    rate.record(t0 + 2000, true);
    expect(rate.lastMaxRate).toBeLessThanOrEqual(5);
    expect(rate.lastMaxRate).toBeGreaterThan(4);
    expect(rate.fillRate).toBeCloseTo(rate.lastMaxRate * 0.7, 5);
  });

  it('grows by slow start before the first throttle, never beyond twice the measured send rate', () => {
    const rate = new AdaptiveRate(t0, { initialRate: 10 });
    expect(rate.slowStart).toBe(true);
    // Nothing measured yet (the first half-second bucket has not closed): no licence to grow.
    rate.record(t0 + 100, false);
    expect(rate.fillRate).toBe(10);
    // 40 successes a second for two seconds: +1 req/s per success, capped at twice the measured rate.
    let t = t0 + 100;
    for (let i = 0; i < 80; i++) rate.record((t += 25), false);
    expect(rate.fillRate).toBeGreaterThan(40);
    expect(rate.fillRate).toBeLessThanOrEqual(2 * rate.measuredTxRate);
    rate.record(t, true);
    expect(rate.slowStart).toBe(false);
    expect(rate.fillRate).toBeCloseTo(rate.lastMaxRate * 0.7, 5);
  });

  it('accrues nothing while held (cooldown) and never drops below the floor', () => {
    const rate = new AdaptiveRate(t0, { initialRate: 2 });
    rate.take(t0);
    rate.hold(t0, t0 + 5000);
    const ticket = rate.take(t0 + 5000);
    expect(rate.delay(ticket, t0 + 5000)).toBe(500);
    for (let i = 0; i < 20; i++) rate.record(t0 + 6000 + i, true);
    expect(rate.fillRate).toBe(0.5);
  });
});

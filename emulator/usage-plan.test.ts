import { describe, expect, it } from 'vitest';
import { consume, freshCounters } from './usage-plan.ts';

describe('usage plan', () => {
  const plan = { ratePerSecond: 2, burst: 3, dailyQuota: 5 };

  it('allows a burst, then throttles until tokens refill at the rate', () => {
    const t0 = Date.parse('2026-01-15T10:00:00Z');
    const c = freshCounters(plan, t0);
    expect([1, 2, 3].map(() => consume(plan, c, t0))).toEqual(['ok', 'ok', 'ok']);
    expect(consume(plan, c, t0)).toBe('throttled');
    expect(consume(plan, c, t0 + 499)).toBe('throttled');
    expect(consume(plan, c, t0 + 500)).toBe('ok');
  });

  it('stops at the daily quota and resets at UTC midnight; throttled calls do not count', () => {
    const t0 = Date.parse('2026-01-15T23:59:00Z');
    const big = { ...plan, burst: 100, ratePerSecond: 100 };
    const c = freshCounters(big, t0);
    for (let i = 0; i < 5; i++) expect(consume(big, c, t0)).toBe('ok');
    expect(consume(big, c, t0)).toBe('quota');
    expect(consume(big, c, Date.parse('2026-01-16T00:00:00Z'))).toBe('ok');
    const tight = { ratePerSecond: 0, burst: 1, dailyQuota: 2 };
    const d = freshCounters(tight, t0);
    expect(consume(tight, d, t0)).toBe('ok');
    expect(consume(tight, d, t0)).toBe('throttled');
    expect(d.used).toBe(1);
  });
});

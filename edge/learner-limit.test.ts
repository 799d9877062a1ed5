import { describe, expect, it } from 'vitest';
import { memoryRateLimiter } from './learner-limit.ts';

describe('memoryRateLimiter', () => {
  it('allows the limit per key per window, then says how long to wait', () => {
    let clock = 120_000;
    const limiter = memoryRateLimiter(3, 60, () => clock);
    const a = [1, 2, 3, 4].map(() => limiter.limit('a'));
    expect(a.map((d) => (d as { allowed: boolean }).allowed)).toEqual([true, true, true, false]);
    expect((a[3] as { retryAfterSeconds: number }).retryAfterSeconds).toBe(60);
    expect((limiter.limit('b') as { allowed: boolean }).allowed).toBe(true);
    clock += 60_000;
    expect((limiter.limit('a') as { allowed: boolean }).allowed).toBe(true);
  });
});

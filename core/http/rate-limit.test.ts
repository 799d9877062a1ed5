import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../errors/configuration-error.ts';
import { manualClock } from '../../test/support/fake-clock.ts';
import { createLimiter } from './limiter.ts';
import { rateLimitOf } from './rate-limit.ts';

describe('rateLimitOf', () => {
  it('completes a burst left out to one second\'s worth of the rate, at least one call', () => {
    expect(rateLimitOf({ requestsPerSecond: 5 }, 'createLimiter')).toEqual({ requestsPerSecond: 5, burst: 5 });
    expect(rateLimitOf({ requestsPerSecond: 0.5 }, 'createLimiter')).toEqual({ requestsPerSecond: 0.5, burst: 1 });
    expect(rateLimitOf({ requestsPerSecond: 5, burst: 2 }, 'createLimiter')).toEqual({ requestsPerSecond: 5, burst: 2 });
    expect(rateLimitOf(undefined, 'createLimiter')).toBe('adaptive');
    expect(rateLimitOf('adaptive', 'createLimiter')).toBe('adaptive');
  });

  it('refuses a rate it cannot pace with a ConfigurationError naming the factory and the field', () => {
    const refused = (rate: unknown) => {
      try {
        rateLimitOf(rate, 'createSharedLimiter');
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigurationError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ requestsPerSecond: 0 })).toMatch(/^Invalid createSharedLimiter options: rateLimit.requestsPerSecond must be > 0\b/);
    expect(refused({ requestsPerSecond: 5, burst: 1.5 })).toMatch(/^Invalid createSharedLimiter options: rateLimit.burst must be an integer\b/);
    expect(refused({ requestsPerSecond: 20_000 })).toContain('rateLimit.requestsPerSecond must be at most 10000');
    expect(refused(20)).toContain("rateLimit must be 'adaptive' or { requestsPerSecond, burst? }");
  });
});

describe('createLimiter with a rate', () => {
  it('paces a rate given without a burst (was: no pacing at all, every call at once)', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep, rateLimit: { requestsPerSecond: 2 } });
    const at: number[] = [];
    await clock.run(Promise.all(Array.from({ length: 4 }, () => limiter.schedule(async () => {
      at.push(clock.now());
      return { outcome: 'success' as const };
    }))));
    expect(at).toEqual([0, 0, 1000, 1500]); // a burst of 2 (one second's worth), and no second holds more than 2
  });

  it('refuses a bad rate before any call', () => {
    const clock = manualClock(0);
    expect(() => createLimiter({ now: clock.now, sleep: clock.sleep, rateLimit: { requestsPerSecond: -1 } }))
      .toThrow(/Invalid createLimiter options: rateLimit.requestsPerSecond must be > 0/);
  });
});

import { describe, it, expect } from 'vitest';
import { backoffDelay, callPolicy, retryDelay } from './retry.ts';
import { NetworkError, QuotaExceededError, ThrottledError } from '../errors/index.ts';
import { parseRetryAfter } from './retry-after.ts';

const policy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000 };

describe('backoff', () => {
  it('doubles 1, 2, 4, 8, 16 s with equal jitter in the upper half', () => {
    for (const [attempt, exp] of [[1, 1000], [2, 2000], [3, 4000], [4, 8000], [5, 16_000]] as const) {
      expect(backoffDelay(attempt, policy, () => 0)).toBe(exp / 2);
      expect(backoffDelay(attempt, policy, () => 0.999_999)).toBe(exp);
      const random = backoffDelay(attempt, policy);
      expect(random).toBeGreaterThanOrEqual(exp / 2);
      expect(random).toBeLessThanOrEqual(exp);
    }
  });

  it('caps at maxDelayMs', () => {
    expect(backoffDelay(10, policy, () => 0.999_999)).toBe(30_000);
    expect(backoffDelay(10, policy, () => 0)).toBe(15_000);
  });
});

describe('Retry-After', () => {
  it('parses Retry-After seconds and HTTP-dates', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(new Date(now + 4000).toUTCString(), now)).toBe(4000);
    expect(parseRetryAfter(new Date(now - 4000).toUTCString(), now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('callPolicy', () => {
  it('lays a call\'s retry over the client\'s, and false means one attempt', () => {
    expect(callPolicy(policy, undefined)).toBe(policy);
    expect(callPolicy(policy, false)).toEqual({ ...policy, maxAttempts: 1 });
    expect(callPolicy(policy, { maxAttempts: 2 })).toEqual({ ...policy, maxAttempts: 2 });
  });
});

describe('retryDelay (drivers without a key-wide limiter)', () => {
  it('retries transient errors until maxAttempts and honours Retry-After up to the cap', () => {
    expect(retryDelay(new NetworkError({ message: 'x', origin: 'network' }), 1, policy, () => 0)).toBe(500);
    expect(retryDelay(new NetworkError({ message: 'x', origin: 'network' }), 5, policy)).toBeUndefined();
    expect(retryDelay(new QuotaExceededError({ message: 'x', origin: 'gateway', status: 429 }), 1, policy)).toBeUndefined();
    expect(retryDelay(new ThrottledError({ message: 'x', origin: 'gateway', retryAfterMs: 7000 }), 1, policy)).toBe(7000);
    expect(retryDelay(new ThrottledError({ message: 'x', origin: 'gateway', retryAfterMs: 120_000 }), 1, policy)).toBeUndefined();
  });
});

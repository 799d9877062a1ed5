import { describe, it, expect } from 'vitest';
import { nextStep, type StepInput } from './next-step.ts';
import {
  AuthenticationError, NetworkError, QuotaExceededError, RedirectError, ServerError, ThrottledError, TimeoutError, ValidationError,
} from '../errors/index.ts';

const policy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000 };
const base: Omit<StepInput, 'error'> = {
  tries: 1, refreshed: false, bearerSent: true, policy, failureStreak: 0, pauseRemainingMs: 0, random: () => 0,
};

describe('nextStep', () => {
  it('refreshes the token once after a 401 with a bearer token, then gives up', () => {
    const error = new AuthenticationError({ message: 'x', origin: 'gateway', status: 401 });
    expect(nextStep({ ...base, error, status: 401 })).toEqual({ action: 'refresh-token' });
    expect(nextStep({ ...base, error, status: 401, refreshed: true })).toEqual({ action: 'fail' });
    expect(nextStep({ ...base, error, status: 401, bearerSent: false })).toEqual({ action: 'fail' });
  });

  it('retries network errors and timeouts with this call\'s backoff, without pausing the key', () => {
    for (const error of [new NetworkError({ message: 'x', origin: 'network' }), new TimeoutError({ message: 'x', origin: 'network' })]) {
      expect(nextStep({ ...base, error })).toEqual({ action: 'retry', waitMs: 500 });
      expect(nextStep({ ...base, error, tries: 3 })).toEqual({ action: 'retry', waitMs: 2000 });
      expect(nextStep({ ...base, error, tries: 5 })).toEqual({ action: 'fail' });
    }
  });

  it('a 429 without Retry-After is retried by the call\'s own backoff and leaves the key unpaused (its pace was cut)', () => {
    const error = new ThrottledError({ message: 'x', origin: 'gateway', status: 429 });
    expect(nextStep({ ...base, error, status: 429, tries: 2, failureStreak: 3 })).toEqual({ action: 'retry', waitMs: 1000 });
  });

  it('pauses the key for a 5xx by the key\'s failure streak, and waits out a longer running pause', () => {
    const error = new ServerError({ message: 'x', origin: 'api', status: 503 });
    expect(nextStep({ ...base, error, status: 503, failureStreak: 3 })).toEqual({ action: 'retry', waitMs: 2000, pauseKeyMs: 2000 });
    expect(nextStep({ ...base, error, status: 503, failureStreak: 1, pauseRemainingMs: 9000 }))
      .toEqual({ action: 'retry', waitMs: 9000, pauseKeyMs: 500 });
    expect(nextStep({ ...base, error, status: 503, tries: 5, failureStreak: 1 })).toEqual({ action: 'fail', pauseKeyMs: 500 });
  });

  it('honours Retry-After, and gives up (still pausing the key) when it exceeds the cap', () => {
    const soon = new ThrottledError({ message: 'x', origin: 'gateway', status: 429, retryAfterMs: 7000 });
    expect(nextStep({ ...base, error: soon, status: 429, failureStreak: 1 })).toEqual({ action: 'retry', waitMs: 7000, pauseKeyMs: 7000 });
    const late = new ThrottledError({ message: 'x', origin: 'gateway', status: 429, retryAfterMs: 120_000 });
    expect(nextStep({ ...base, error: late, status: 429, failureStreak: 1 })).toEqual({ action: 'fail', pauseKeyMs: 120_000 });
  });

  it('never retries Limit Exceeded, client errors, redirects or foreign errors', () => {
    expect(nextStep({ ...base, error: new QuotaExceededError({ message: 'x', origin: 'gateway', status: 429 }), status: 429 }).action).toBe('fail');
    expect(nextStep({ ...base, error: new ValidationError({ message: 'x', origin: 'api', status: 400 }), status: 400 })).toEqual({ action: 'fail' });
    expect(nextStep({ ...base, error: new RedirectError({ message: 'x', origin: 'api', status: 302 }) })).toEqual({ action: 'fail' });
    expect(nextStep({ ...base, error: new Error('bug') })).toEqual({ action: 'fail' });
  });
});

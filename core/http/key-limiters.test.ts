import { describe, it, expect } from 'vitest';
import { limiterFor } from './key-limiters.ts';
import { createLimiter } from './limiter.ts';
import { defaultNow, defaultSleep } from '../runtime.ts';
import { manualClock } from '../../test/support/fake-clock.ts';

let seq = 0;
const newKey = (): string => `registry-key-${String(seq++).padStart(27, '0')}`;
const runtime = { now: defaultNow, sleep: defaultSleep };

describe('default limiters', () => {
  it('clients on the runtime clock share one limiter per API key, and no other key', () => {
    const key = newKey();
    const a = limiterFor({ apiKey: key, rateLimit: 'adaptive', ...runtime });
    const b = limiterFor({ apiKey: key, rateLimit: 'adaptive', ...runtime });
    const other = limiterFor({ apiKey: newKey(), rateLimit: 'adaptive', ...runtime });
    expect(b).toBe(a);
    a.pause(60_000);
    expect(b.pauseRemaining()).toBeGreaterThan(59_000);
    expect(other.pauseRemaining()).toBe(0);
  });

  it('a client that states a rate gets the key\'s limiter for that rate: the default does not inherit its burst', () => {
    const key = newKey();
    const learned = limiterFor({ apiKey: key, rateLimit: 'adaptive', ...runtime });
    const fixed = limiterFor({ apiKey: key, rateLimit: { requestsPerSecond: 5, burst: 5 }, ...runtime });
    expect(fixed).not.toBe(learned);
    expect(limiterFor({ apiKey: key, rateLimit: { requestsPerSecond: 5, burst: 5 }, ...runtime })).toBe(fixed);
  });

  it('lives on globalThis under a Symbol.for key, where the ESM and the CommonJS build both find it', () => {
    const key = newKey();
    limiterFor({ apiKey: key, rateLimit: 'adaptive', ...runtime });
    const registry = (globalThis as Record<symbol, unknown>)[Symbol.for('partner-learning-client.key-limiters')];
    expect(registry).toBeInstanceOf(Map);
    // Keyed by a hash: the raw API key is not kept.
    expect([...(registry as Map<string, unknown>).keys()].some((id) => id.includes(key))).toBe(false);
  });

  it('a client with its own clock gets a limiter of its own on that clock', () => {
    const key = newKey();
    const clock = manualClock();
    const shared = limiterFor({ apiKey: key, rateLimit: 'adaptive', ...runtime });
    const own = limiterFor({ apiKey: key, rateLimit: 'adaptive', now: clock.now, sleep: clock.sleep });
    expect(own).not.toBe(shared);
    own.pause(1000);
    expect(own.pauseRemaining()).toBe(1000);
    expect(shared.pauseRemaining()).toBe(0);
  });

  it('an injected limiter is used as it is', () => {
    const clock = manualClock();
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep });
    expect(limiterFor({ apiKey: newKey(), rateLimit: 'adaptive', ...runtime, limiter })).toBe(limiter);
  });
});

import { describe, expect, it } from 'vitest';
import { isolateSafeLimiter } from './isolate-limiter.ts';

describe('isolateSafeLimiter', () => {
  it('lets calls through at once, pauses every call after a cooldown, and counts failures in a row', async () => {
    let clock = 1000;
    const slept: number[] = [];
    const limiter = isolateSafeLimiter({ now: () => clock, sleep: async (ms) => { slept.push(ms); clock += ms; } });
    await limiter.acquire();
    expect(slept).toEqual([]);
    limiter.record('throttled');
    limiter.cooldown(2000);
    expect([limiter.failureStreak, limiter.pauseRemaining()]).toEqual([1, 2000]);
    await Promise.all([limiter.acquire(), limiter.acquire()]);
    expect(slept[0]).toBe(2000);
    expect(limiter.pauseRemaining()).toBe(0);
    limiter.record('success');
    expect(limiter.failureStreak).toBe(0);
  });

  it('a backoff wait that covers the pause ends it for every caller', async () => {
    let clock = 0;
    const limiter = isolateSafeLimiter({ now: () => clock, sleep: async (ms) => { clock += ms; } });
    limiter.cooldown(500);
    await limiter.wait(800);
    expect(limiter.pauseRemaining()).toBe(0);
    const started = clock;
    await limiter.acquire();
    expect(clock).toBe(started);
  });
});

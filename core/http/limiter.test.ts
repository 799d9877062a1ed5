import { afterEach, describe, it, expect, vi } from 'vitest';
import { limiterFor } from './limiter.ts';
import { fakeClock } from './testing.ts';

const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  promise.then(() => { done = true; }, () => { done = true; });
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
};

describe('limiter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('one cooldown pauses every client with the same API key, not other keys', async () => {
    const clock = fakeClock();
    const a = limiterFor({ apiKey: 'key-one-0000000000000000000000000000000', rateLimit: 'adaptive', now: clock.now, sleep: clock.sleep });
    const b = limiterFor({ apiKey: 'key-one-0000000000000000000000000000000', rateLimit: 'adaptive', now: clock.now, sleep: clock.sleep });
    const other = limiterFor({ apiKey: 'key-two-0000000000000000000000000000000', rateLimit: 'adaptive', now: clock.now, sleep: clock.sleep });
    a.cooldown(2000);
    expect(b.pausedUntil).toBe(clock.now() + 2000);
    const waiting = b.acquire();
    expect(await settled(other.acquire())).toBe(true);
    expect(await settled(waiting)).toBe(false);
    await clock.advance(1999);
    expect(await settled(waiting)).toBe(false);
    await clock.advance(1);
    expect(await settled(waiting)).toBe(true);
  });

  it('a cooldown never shortens a running pause', () => {
    const clock = fakeClock();
    const limiter = limiterFor({ apiKey: 'key-three-000000000000000000000000000000', rateLimit: 'adaptive', now: clock.now, sleep: clock.sleep });
    limiter.cooldown(5000);
    limiter.cooldown(1000);
    expect(limiter.pausedUntil).toBe(clock.now() + 5000);
  });

  it('counts the key-wide failure streak and resets it on success', () => {
    const clock = fakeClock();
    const a = limiterFor({ apiKey: 'key-streak-00000000000000000000000000000', rateLimit: 'adaptive', now: clock.now, sleep: clock.sleep });
    const b = limiterFor({ apiKey: 'key-streak-00000000000000000000000000000', rateLimit: 'adaptive', now: clock.now, sleep: clock.sleep });
    a.record('throttled');
    b.record('server-error');
    expect(a.failureStreak).toBe(2);
    b.record('success');
    expect(a.failureStreak).toBe(0);
  });

  it('a queue formed at the cold-start rate speeds up as the adaptive rate grows', async () => {
    // A minimal discrete-event clock: time jumps to the earliest pending sleep once every runnable microtask has
    // run, so hundreds of queued callers cost no real time.
    let t = Date.UTC(2026, 10, 22, 12);
    const timers: { at: number; resolve: () => void }[] = [];
    const sleep = (ms: number): Promise<void> => new Promise((resolve) => { timers.push({ at: t + ms, resolve }); });
    const limiter = limiterFor({ apiKey: 'key-queue-000000000000000000000000000000', rateLimit: 'adaptive', now: () => t, sleep });
    const start = t;
    let done = 0;
    for (let i = 0; i < 300; i++) {
      void limiter.acquire().then(() => {
        limiter.record('success');
        done += 1;
      });
    }
    while (done < 300) {
      for (let i = 0; i < 20; i++) await Promise.resolve();
      timers.sort((a, b) => a.at - b.at);
      const next = timers.shift();
      if (!next) break;
      t = Math.max(t, next.at);
      next.resolve();
    }
    expect(done).toBe(300);
    // At the cold-start rate alone (10 req/s) 300 calls would take 30 s; a queue that re-reads the growing rate
    // finishes in well under half of that.
    expect(t - start).toBeLessThan(15_000);
  });

  it('before any throttle a lone call goes unpaced; after one, even lone calls are paced', async () => {
    const clock = fakeClock();
    const limiter = limiterFor({ apiKey: 'key-lone-0000000000000000000000000000000', rateLimit: 'adaptive', now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 50; i++) {
      expect(await settled(limiter.acquire())).toBe(true);
      limiter.record('success');
    }
    expect(clock.sleeps).toEqual([]);
    // With one call in flight, a crowd behind it is paced even in slow start.
    await limiter.acquire();
    const crowd = Array.from({ length: 20 }, () => limiter.acquire());
    const settledNow = await Promise.all(crowd.map((c) => settled(c)));
    expect(settledNow.filter(Boolean).length).toBeLessThan(20);
    await clock.run(Promise.all(crowd));
    for (let i = 0; i < 21; i++) limiter.record('success');
    limiter.record('throttled');
    // Learned a limit: sequential calls now wait their turn too.
    const before = clock.sleeps.length;
    for (let i = 0; i < 20; i++) {
      await clock.run(limiter.acquire());
      limiter.record('success');
    }
    expect(clock.sleeps.length).toBeGreaterThan(before);
  });

  it('rejects a waiting acquire when its signal aborts', async () => {
    const clock = fakeClock();
    const limiter = limiterFor({ apiKey: 'key-four-0000000000000000000000000000000', rateLimit: 'adaptive', now: clock.now, sleep: clock.sleep });
    limiter.cooldown(10_000);
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
  });

  it('fixed mode (p-throttle) lets the burst through at once, then never more than rps', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 22, 12) });
    const limiter = limiterFor({
      apiKey: 'key-five-0000000000000000000000000000000', rateLimit: { requestsPerSecond: 5, burst: 5 },
      now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    let passed = 0;
    for (let i = 0; i < 12; i++) void limiter.acquire().then(() => { passed += 1; });
    await vi.advanceTimersByTimeAsync(0);
    expect(passed).toBe(5);
    await vi.advanceTimersByTimeAsync(999);
    expect(passed).toBe(5);
    await vi.advanceTimersByTimeAsync(1);
    expect(passed).toBe(6); // after the burst, strict mode spaces calls 1/rps apart
    await vi.advanceTimersByTimeAsync(999);
    expect(passed).toBe(10); // 5 in (0 s, 2 s): still 5 per second
    await vi.advanceTimersByTimeAsync(201);
    expect(passed).toBe(12);
  });
});

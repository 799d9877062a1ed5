import { afterEach, describe, it, expect, vi } from 'vitest';
import { createLimiter, QUEUE_POLL_MS, type Limiter } from './rate-limiter.ts';
import { manualClock, type ManualClock } from '../../test/support/fake-clock.ts';

const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  promise.then(() => { done = true; }, () => { done = true; });
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
};

/** Acquires `n` calls at once and reports how many got through without time passing. */
async function burst(limiter: Limiter, n: number): Promise<{ calls: Promise<void>[]; through: number }> {
  const calls = Array.from({ length: n }, () => limiter.acquire());
  const through = (await Promise.all(calls.map((c) => settled(c)))).filter(Boolean).length;
  return { calls, through };
}

function adaptive(clock: ManualClock): Limiter {
  return createLimiter({ now: clock.now, sleep: clock.sleep });
}

describe('limiter', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('one cooldown pauses every call through the limiter', async () => {
    const clock = manualClock();
    const limiter = adaptive(clock);
    const other = adaptive(clock);
    limiter.cooldown(2000);
    expect(limiter.pausedUntil).toBe(clock.now() + 2000);
    const waiting = limiter.acquire();
    expect(await settled(other.acquire())).toBe(true);
    expect(await settled(waiting)).toBe(false);
    await clock.advance(1999);
    expect(await settled(waiting)).toBe(false);
    await clock.advance(1);
    expect(await settled(waiting)).toBe(true);
  });

  it('a cooldown never shortens a running pause', () => {
    const clock = manualClock();
    const limiter = adaptive(clock);
    limiter.cooldown(5000);
    limiter.cooldown(1000);
    expect(limiter.pausedUntil).toBe(clock.now() + 5000);
  });

  it('counts the failure streak and resets it on success', () => {
    const clock = manualClock();
    const limiter = adaptive(clock);
    limiter.record('throttled');
    limiter.record('server-error');
    expect(limiter.failureStreak).toBe(2);
    limiter.record('success');
    expect(limiter.failureStreak).toBe(0);
  });

  it('a burst of 429s for calls already in flight is one congestion event', async () => {
    const clock = manualClock();
    const limiter = adaptive(clock);
    await burst(limiter, 10);
    for (let i = 0; i < 5; i++) limiter.record('success');
    for (let i = 0; i < 5; i++) limiter.record('throttled');
    expect(limiter.failureStreak).toBe(1);
  });

  it('before any throttle nothing is paced: rounds of 10, 20, 40 calls, each once the last one is answered', async () => {
    const clock = manualClock();
    const limiter = adaptive(clock);
    const { calls } = await burst(limiter, 50);
    const through = async (): Promise<number> => (await Promise.all(calls.map((c) => settled(c)))).filter(Boolean).length;
    expect(await through()).toBe(10);
    // A full round waits for all of its answers.
    for (let i = 0; i < 9; i++) limiter.record('success');
    expect(await through()).toBe(10);
    limiter.record('success');
    expect(await through()).toBe(30); // 10 successes: the window and the next round are 20
    for (let i = 0; i < 19; i++) limiter.record('success');
    expect(await through()).toBe(30);
    limiter.record('success');
    expect(await through()).toBe(50); // a round of 40, of which 20 are wanted
    // Nothing paced: the only sleeps are queued callers' own wake-ups (see QUEUE_POLL_MS).
    expect(clock.sleeps.filter((ms) => ms !== QUEUE_POLL_MS)).toEqual([]);
  });

  it('a lone caller is never held back before a throttle', async () => {
    const clock = manualClock();
    const limiter = adaptive(clock);
    for (let i = 0; i < 50; i++) {
      expect(await settled(limiter.acquire())).toBe(true);
      limiter.record('success');
    }
    expect(clock.sleeps).toEqual([]);
  });

  it('after a throttle calls are paced below the rate the plan was seen to allow', async () => {
    const clock = manualClock();
    const limiter = adaptive(clock);
    await burst(limiter, 10);
    for (let i = 0; i < 5; i++) limiter.record('success'); // the plan let 5 through in its first second
    limiter.record('throttled');
    for (let i = 0; i < 4; i++) limiter.record('throttled');
    const paced = await burst(limiter, 10);
    expect(paced.through).toBe(0); // the first waits one interval too: the cooldown for the 429 comes after it
    await clock.run(Promise.all(paced.calls));
    // 0.9 × 5 req/s: calls 222 ms apart.
    expect(clock.sleeps.slice(0, 3).map(Math.round)).toEqual([222, 444, 667]);
  });

  it('a pause that begins while callers sleep for their slots makes them take new slots after it', async () => {
    const clock = manualClock();
    const limiter = adaptive(clock);
    await burst(limiter, 2);
    limiter.record('success');
    limiter.record('throttled');
    await clock.run(limiter.acquire()); // the first paced slot
    const waiting = Array.from({ length: 3 }, () => limiter.acquire());
    await settled(Promise.all(waiting));
    const start = clock.now();
    limiter.cooldown(10_000);
    let sentAt: number[] = [];
    await clock.run(Promise.all(waiting.map((w) => w.then(() => { sentAt = [...sentAt, clock.now() - start]; }))));
    expect(Math.min(...sentAt)).toBeGreaterThanOrEqual(10_000);
    // Still paced after the pause: not all at its end.
    expect(new Set(sentAt).size).toBe(3);
  });

  it('a call that fails before it is sent gives its window slot back', async () => {
    const clock = manualClock();
    const limiter = adaptive(clock);
    const first = await burst(limiter, 11);
    expect(first.through).toBe(10);
    limiter.record('not-sent'); // the round may send another in its place
    expect(await settled(Promise.all(first.calls))).toBe(true);
    expect(limiter.failureStreak).toBe(0);
  });

  it('rejects a waiting acquire when its signal aborts, in a pause and in the window queue', async () => {
    const clock = manualClock();
    const paused = adaptive(clock);
    paused.cooldown(10_000);
    const controller = new AbortController();
    const waiting = paused.acquire(controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');

    const full = adaptive(clock);
    await burst(full, 10);
    const queued = new AbortController();
    const inQueue = full.acquire(queued.signal);
    const behind = full.acquire();
    queued.abort(new Error('gave up'));
    await expect(inQueue).rejects.toThrow('gave up');
    for (let i = 0; i < 10; i++) full.record('success');
    expect(await settled(behind)).toBe(true);
  });

  it('a sleep that returns at once on a clock that never moves: each caller sleeps once per pause, crowds finish', async () => {
    const sleeps: number[] = [];
    const limiter = createLimiter({ now: () => 0, sleep: async (ms) => void sleeps.push(ms) });
    limiter.record('success');
    limiter.record('throttled');
    limiter.cooldown(1000);
    await Promise.all(Array.from({ length: 60 }, () => limiter.acquire()));
    // At most one sleep for the pause and one for the pace per caller: no spinning on a clock that never moves.
    expect(sleeps.length).toBeLessThanOrEqual(120);
    expect(limiter.pauseRemaining()).toBe(0);
  });

  it('fixed rate lets the burst through at once, then never more than rps', async () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 22, 12) });
    const limiter = createLimiter({
      rateLimit: { requestsPerSecond: 5, burst: 5 },
      now: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    });
    let passed = 0;
    for (let i = 0; i < 12; i++) void limiter.acquire().then(() => { passed += 1; });
    await vi.advanceTimersByTimeAsync(0);
    expect(passed).toBe(5);
    await vi.advanceTimersByTimeAsync(999);
    expect(passed).toBe(5);
    await vi.advanceTimersByTimeAsync(1);
    expect(passed).toBe(6); // after the burst, calls are spaced 1/rps apart
    await vi.advanceTimersByTimeAsync(999);
    expect(passed).toBe(10); // 5 in (0 s, 2 s): still 5 per second
    await vi.advanceTimersByTimeAsync(201);
    expect(passed).toBe(12);
  });
});

import { describe, expect, it } from 'vitest';
import { LONE_GUESS } from './estimate.ts';
import { createLimiter, type Limiter, type Outcome } from './limiter.ts';
import { manualClock, type ManualClock } from '../../test/support/fake-clock.ts';

/** Schedules a call that records when it went and answers `outcome`. */
function call(limiter: Limiter, now: () => number, log: number[], outcome: Outcome = 'success', signal?: AbortSignal) {
  return limiter.schedule(async () => {
    log.push(now());
    return { outcome };
  }, signal);
}

/**
 * Slow start admits one call, then a 429 (a one-call bucket, one caller: guessed just under 1 req/s). The ramp's first
 * call goes one interval of that guess later and is answered 10 ms after; the next caller (with `signal`) is asleep for
 * its slot by then, one interval away, and that answer doubles the pace.
 */
async function rampStepsWhileAsleep(limiter: Limiter, clock: ManualClock, log: number[], signal?: AbortSignal): Promise<void> {
  await call(limiter, clock.now, log, 'success');
  await call(limiter, clock.now, log, 'throttled');
  const first = limiter.schedule(async () => {
    log.push(clock.now());
    await clock.sleep(10);
    return { outcome: 'success' as const };
  });
  await clock.run(Promise.all([first, call(limiter, clock.now, log, 'success', signal)]));
}

/** One interval of slow start's guess after a lone caller's one call admitted (ms). */
const GUESS_INTERVAL = 1000 / LONE_GUESS;

/** The calls went at these multiples of that interval. */
function expectSlots(times: number[], intervals: number[]): void {
  expect(times).toHaveLength(intervals.length);
  times.forEach((t, i) => expect(t).toBeCloseTo(intervals[i]! * GUESS_INTERVAL));
}

describe('createLimiter', () => {
  it('runs each scheduled call once, in its turn, and hands back what it returned', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep });
    const result = await limiter.schedule(async () => ({ outcome: 'success' as const, value: 42 }));
    expect(result).toEqual({ outcome: 'success', value: 42 });
  });

  it('one pause holds every call with the key until it ends, and never shortens', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep });
    limiter.pause(2000);
    limiter.pause(500);
    expect(limiter.pauseRemaining()).toBe(2000);
    const log: number[] = [];
    await clock.run(Promise.all([call(limiter, clock.now, log), call(limiter, clock.now, log)]));
    expect(Math.min(...log)).toBe(2000);
  });

  it('counts 5xx in a row and starts again at a success', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep });
    const log: number[] = [];
    await call(limiter, clock.now, log, 'server-error');
    await call(limiter, clock.now, log, 'server-error');
    expect(limiter.failureStreak).toBe(2);
    await call(limiter, clock.now, log, 'success');
    expect(limiter.failureStreak).toBe(0);
  });

  it('counts the 5xx of calls already under way at one as that one failure, and a call sent after as the next', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep });
    // Ten calls under way at once; the service fails three of them, fast, before any success is answered.
    const answers: Outcome[] = ['server-error', 'server-error', 'success', 'server-error', ...Array(6).fill('success')];
    const burst = answers.map((outcome, i) => limiter.schedule(async () => {
      await clock.sleep(outcome === 'server-error' ? 5 : 50 + i);
      return { outcome };
    }));
    await clock.run(clock.sleep(10));
    expect(limiter.failureStreak).toBe(1); // three 5xx, one failure: a streak of 3 would pause the key 4 s, not 1 s
    await clock.run(Promise.all(burst));
    expect(limiter.failureStreak).toBe(0);
    await call(limiter, clock.now, [], 'server-error');
    await call(limiter, clock.now, [], 'server-error');
    expect(limiter.failureStreak).toBe(2); // each sent after the last 5xx: the service still fails
  });

  it('at a pause\'s end every waiting caller that may go is let go at once, not each only after the one before ran', async () => {
    // A clock whose one timer (the head's sleep through the pause) fires only when the test says.
    let t = 0;
    const timers: (() => void)[] = [];
    const sleep = () => new Promise<void>((resolve) => timers.push(resolve));
    const limiter = createLimiter({ now: () => t, sleep, rateLimit: { requestsPerSecond: 1000, burst: 1000 } });
    limiter.pause(1000);
    let started = 0;
    const calls = Array.from({ length: 30 }, () => limiter.schedule(async () => {
      started += 1;
      return { outcome: 'success' as const };
    }));
    const hops = async (n: number) => {
      for (let i = 0; i < n; i++) await null;
    };
    await hops(12);
    expect([started, timers.length]).toEqual([0, 1]); // the head sleeps through the pause, the others wait on it
    t = 1000;
    timers.shift()!();
    // One by one, each caller went only once the one before it had run: a few scheduling turns each (in workerd,
    // where each caller is a request of its own, about a millisecond each). Now they are all on their way together.
    await hops(12);
    expect(started).toBe(30);
    await Promise.all(calls);
  });

  it('a caller let go while asleep for its slot goes once: the next slot is one interval later, not two', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep, rateLimit: { requestsPerSecond: 1, burst: 1 } });
    const at: number[] = [];
    const go = (answerAfterMs: number) => limiter.schedule(async () => {
      at.push(clock.now());
      await clock.sleep(answerAfterMs);
      return { outcome: 'success' as const };
    });
    // The first call's answer comes at 1 s, the moment the second caller's slot is due: its answer lets the second
    // go, and then the second's own timer fires.
    await clock.run(Promise.all([go(1000), go(0), go(0)]));
    expect(at).toEqual([0, 1000, 2000]);
  });

  it('a 429 slows the calls after it: they go one pace interval apart', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep });
    const log: number[] = [];
    await call(limiter, clock.now, log, 'throttled');
    await clock.run(Promise.all(Array.from({ length: 3 }, () => call(limiter, clock.now, log))));
    const gaps = log.slice(1).map((at, i) => at - log[i]!);
    expect(gaps.every((gap) => gap > 0)).toBe(true);
  });

  it('an abort ends a wait in a pause and in the line, without running the call', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep });
    const log: number[] = [];
    limiter.pause(10_000);
    const inPause = new AbortController();
    const waiting = call(limiter, clock.now, log, 'success', inPause.signal);
    const behind = new AbortController();
    const queued = call(limiter, clock.now, log, 'success', behind.signal);
    inPause.abort(new Error('gave up in the pause'));
    behind.abort(new Error('gave up in the line'));
    await expect(waiting).rejects.toThrow('gave up in the pause');
    await expect(queued).rejects.toThrow('gave up in the line');
    await expect(call(limiter, clock.now, log, 'success', inPause.signal)).rejects.toThrow('gave up in the pause');
    expect(log).toEqual([]);
    // The line moves on for those who stayed.
    await clock.run(call(limiter, clock.now, log));
    expect(log).toEqual([10_000]);
  });

  it('a sleep that returns at once on a clock that never moves: a paced crowd still finishes, one sleep per wait', async () => {
    const sleeps: number[] = [];
    const limiter = createLimiter({ now: () => 0, sleep: async (ms) => { sleeps.push(ms); } });
    const log: number[] = [];
    await call(limiter, () => 0, log, 'throttled');
    limiter.pause(1000);
    await Promise.all(Array.from({ length: 50 }, () => call(limiter, () => 0, log)));
    expect(log).toHaveLength(51);
    expect(sleeps.length).toBeLessThanOrEqual(51);
  });

  it('a caller waiting in line keeps a sleep of its own ticking when keepAliveMs is set (workerd)', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep, keepAliveMs: 100 });
    const log: number[] = [];
    await call(limiter, clock.now, log, 'throttled'); // paced from now on: the second caller waits in line
    const both = Promise.all([call(limiter, clock.now, log), call(limiter, clock.now, log)]);
    await clock.run(both);
    expect(clock.sleeps).toContain(100);
  });

  it('a caller sleeping for its slot goes at once when a ramp step brings the slot forward', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep });
    const log: number[] = [];
    // The answer doubles the pace: the caller asleep for its slot goes half an interval after the first, not a whole.
    await rampStepsWhileAsleep(limiter, clock, log);
    expectSlots(log.slice(2), [1, 1.5]);
  });

  it('a sleep for a slot that moved is cancelled, and the caller\'s signal still ends the wait', async () => {
    const clock = manualClock(0);
    const slotSleeps: { ms: number; at: number; signal: AbortSignal | undefined }[] = [];
    const sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
      slotSleeps.push({ ms, at: clock.now(), signal });
      return clock.sleep(ms, signal);
    };
    const limiter = createLimiter({ now: clock.now, sleep });
    const log: number[] = [];
    const caller = new AbortController();
    await rampStepsWhileAsleep(limiter, clock, log, caller.signal);
    expectSlots(log.slice(2), [1, 1.5]);
    // The second's sleep for the old slot (an interval from the first's send, asked then) was cancelled when the slot
    // moved; the first's, which ran out, was left alone; no sleep listened on the caller's own signal.
    const sleptFor = (at: number) => slotSleeps.find((s) => Math.abs(s.ms - GUESS_INTERVAL) < 1e-6 && Math.abs(s.at - at) < 1e-6);
    expect(sleptFor(GUESS_INTERVAL)?.signal?.aborted).toBe(true);
    expect(sleptFor(0)?.signal?.aborted).toBe(false);
    expect(slotSleeps.some((s) => s.signal === caller.signal)).toBe(false);
    // A caller asleep for its slot whose signal aborts gets the signal's reason, and its call never runs.
    const stop = new AbortController();
    const waiting = call(limiter, clock.now, log, 'success', stop.signal);
    const sent = log.length;
    stop.abort(new Error('stopped'));
    await expect(clock.run(waiting)).rejects.toThrow('stopped');
    expect(log.length).toBe(sent);
  });

  it('a caller waiting in line goes at once when slow start\'s late answers raise its guess', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep });
    const log: number[] = [];
    // Twelve callers, ten in slow start's first round: five 429s come back at 1 ms, before the five admitted answers
    // at 3 ms. The first 429 guesses 1 req/s (nothing admitted yet), so the two callers in line sleep for a slot a
    // second away; the admitted answers raise the guess to 5 req/s, one interval of which from the 429 is 201 ms.
    const answered = (outcome: Outcome, afterMs: number) => limiter.schedule(async () => {
      log.push(clock.now());
      await clock.sleep(afterMs);
      return { outcome };
    });
    const round = Array.from({ length: 10 }, (_, i) => (i < 5 ? answered('throttled', 1) : answered('success', 3)));
    const inLine = [call(limiter, clock.now, log), call(limiter, clock.now, log)];
    await clock.run(Promise.all([...round, ...inLine]));
    expect(log.slice(10)).toEqual([201, 401]);
  });

  it('a configured rate lets its burst go at once, then spaces calls by the rate', async () => {
    const clock = manualClock(0);
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep, rateLimit: { requestsPerSecond: 2, burst: 2 } });
    const log: number[] = [];
    await clock.run(Promise.all(Array.from({ length: 4 }, () => call(limiter, clock.now, log))));
    expect(log).toEqual([0, 0, 1000, 1500]);
  });
});

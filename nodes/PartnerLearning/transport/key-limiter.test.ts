import { describe, expect, it } from 'vitest';
import { abortableSleep, limiterForKey, type LimiterClock } from './key-limiter.ts';
import { createFakeClock } from '../../../test/support/fake-clock.ts';

describe('key limiter', () => {
  it('gives every caller of one API key (on one clock) the same limiter, and other keys their own', () => {
    const clock = createFakeClock(0);
    const a = limiterForKey('key-same-'.padEnd(40, 'a'), clock);
    expect(limiterForKey('key-same-'.padEnd(40, 'a'), clock)).toBe(a);
    expect(limiterForKey('key-else-'.padEnd(40, 'a'), clock)).not.toBe(a);
    // State kept in one clock's time means nothing in another's.
    expect(limiterForKey('key-same-'.padEnd(40, 'a'), createFakeClock(0))).not.toBe(a);
  });

  it('a pause set through one caller makes the next call of the key wait it out', async () => {
    const clock = createFakeClock(5_000);
    const key = 'key-pause-'.padEnd(40, 'b');
    limiterForKey(key, clock).pause(3_000);
    let sentAt: number | undefined;
    await limiterForKey(key, clock).schedule(async () => {
      sentAt = clock.now();
      return { outcome: 'success' as const };
    });
    expect(clock.calls.map((c) => c.ms)).toEqual([3_000]);
    expect(sentAt).toBe(8_000);
  });

  it('an aborted signal rejects a wait through n8n\'s signal-less sleep with the signal\'s reason', async () => {
    const pending: Array<() => void> = [];
    const sleep = abortableSleep(() => new Promise<void>((resolve) => pending.push(resolve)));
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('execution cancelled'));
    await expect(waiting).rejects.toThrow('execution cancelled');
    await expect(sleep(10, controller.signal)).rejects.toThrow('execution cancelled');
    expect(pending).toHaveLength(1); // the second never started a sleep
    pending[0]!();
  });

  it('an abort during a key-wide pause ends the wait without sending', async () => {
    const controller = new AbortController();
    const clock: LimiterClock = { now: () => 0, sleep: abortableSleep(() => new Promise<void>(() => undefined)) };
    const limiter = limiterForKey('key-abort-'.padEnd(40, 'c'), clock);
    limiter.pause(10_000);
    let sent = false;
    const waiting = limiter.schedule(async () => {
      sent = true;
      return { outcome: 'success' as const };
    }, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect(sent).toBe(false);
  });
});

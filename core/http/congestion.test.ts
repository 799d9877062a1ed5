import { describe, it, expect } from 'vitest';
import { Congestion } from './congestion.ts';

const t0 = Date.UTC(2026, 10, 22, 12);

/** Sends `n` calls (as many as the window allows) and returns how many went. */
function send(c: Congestion, n: number): number {
  let sent = 0;
  while (sent < n && c.canSend()) {
    c.sent();
    sent += 1;
  }
  return sent;
}

describe('Congestion', () => {
  it('slow start: rounds of a window each (10, 20, 40), a full one waiting for all of its answers', () => {
    const c = new Congestion();
    expect(send(c, 100)).toBe(10);
    for (let i = 0; i < 9; i++) c.answered(t0, 'success');
    expect(c.canSend()).toBe(false); // the round waits for all of its answers
    c.answered(t0, 'success');
    expect(c.window).toBe(20);
    expect(send(c, 100)).toBe(20);
    for (let i = 0; i < 20; i++) c.answered(t0, 'success');
    expect(c.window).toBe(40);
    expect(c.reserve(t0)).toBe(0); // unpaced
  });

  it('callers fewer than the window wait only at the end of a round, and only for the calls in flight', () => {
    const c = new Congestion();
    let held = 0;
    for (let i = 0; i < 1000; i++) {
      const first = send(c, 3);
      if (first < 3) held += 1;
      for (let k = 0; k < first; k++) c.answered(t0 + i, 'success');
      expect(first + send(c, 3 - first)).toBe(3); // once they are answered, the rest go
      for (let k = first; k < 3; k++) c.answered(t0 + i, 'success');
    }
    // Rounds of 10, 20, 40 … 640 sends end in a wait; from the largest window (1000) on there are no rounds.
    expect(held).toBeLessThanOrEqual(8);
  });

  it('at the largest window rounds end: answers free slots one by one', () => {
    const c = new Congestion({ initialWindow: 4, maxWindow: 4 });
    expect(send(c, 10)).toBe(4);
    c.answered(t0, 'success');
    expect(send(c, 10)).toBe(1);
  });

  it('a call that was never sent gives its slot in the round back', () => {
    const c = new Congestion();
    send(c, 10);
    c.answered(t0, 'not-sent');
    expect(send(c, 5)).toBe(1);
  });

  it('the first 429 switches to pacing at beta x the goodput of the last seconds', () => {
    const c = new Congestion();
    send(c, 10);
    for (let i = 0; i < 5; i++) c.answered(t0 + 10, 'success');
    expect(c.answered(t0 + 20, 'throttled')).toBe(true);
    expect(c.paced).toBe(true);
    expect(c.estimate).toBe(5); // 5 successes, counted over at least a second
    expect(c.rate).toBeCloseTo(4.5, 5);
    // Calls are spaced 1/rate apart, the first one interval after the 429.
    const now = t0 + 20;
    expect([c.reserve(now), c.reserve(now), c.reserve(now)].map(Math.round)).toEqual([222, 444, 667]);
  });

  it('429s of calls in flight at an event belong to it: one cut for a burst of them', () => {
    const c = new Congestion();
    send(c, 10);
    for (let i = 0; i < 5; i++) c.answered(t0, 'success');
    expect(c.answered(t0, 'throttled')).toBe(true);
    const rate = c.rate;
    for (let i = 0; i < 4; i++) expect(c.answered(t0, 'throttled')).toBe(false);
    expect(c.rate).toBe(rate);
    // A call sent after the event that meets a 429 is a new event: the rate is cut again.
    c.sent();
    expect(c.answered(t0 + 5000, 'throttled')).toBe(true);
    expect(c.rate).toBeLessThan(rate ?? 0);
  });

  it('never cuts below the rate it paced at times beta, nor below the floor', () => {
    const c = new Congestion({ minRate: 0.5 });
    send(c, 1);
    c.answered(t0, 'throttled'); // nothing succeeded: the floor
    expect(c.rate).toBe(0.5);
    for (let i = 1; i <= 3; i++) {
      c.sent();
      c.answered(t0 + i * 10_000, 'throttled');
    }
    expect(c.rate).toBe(0.5);
  });

  it('grows the paced rate additively while callers queue for slots, not while idle', () => {
    const c = new Congestion();
    send(c, 10);
    for (let i = 0; i < 10; i++) c.answered(t0, 'success');
    send(c, 20);
    for (let i = 0; i < 10; i++) c.answered(t0 + 500, 'success');
    c.answered(t0 + 500, 'throttled');
    const start = c.rate ?? 0;
    expect(start).toBeCloseTo(0.9 * 20, 5);
    // Idle: the schedule is not ahead of now, so successes earn nothing.
    for (let i = 0; i < 9; i++) c.answered(t0 + 60_000, 'success');
    expect(c.rate).toBe(start);
    // Busy for ten seconds at about this rate: +2% of the estimate per second, about +4 req/s.
    let now = t0 + 60_000;
    for (let i = 0; i < 180; i++) {
      for (let k = 0; k < 3; k++) c.reserve(now);
      c.sent();
      c.answered(now, 'success');
      now += 1000 / (c.rate ?? 1);
    }
    expect(c.rate).toBeGreaterThan(start + 3);
    expect(c.rate).toBeLessThan(start + 6);
  });

  it('after a pause the pace starts again at its end', () => {
    const c = new Congestion();
    send(c, 2);
    c.answered(t0, 'success');
    c.answered(t0, 'throttled');
    c.restart(t0, t0 + 10_000);
    expect(c.reserve(t0)).toBe(10_000);
  });
});

import { describe, expect, it } from 'vitest';
import { CeilingSlots } from './ceiling.ts';

describe('CeilingSlots', () => {
  it('the burst goes at once, then no span of burst ÷ rate holds more than the burst', () => {
    const slots = new CeilingSlots({ requestsPerSecond: 10, burst: 3 });
    for (let i = 0; i < 3; i++) {
      expect(slots.wait(0)).toBe(0);
      slots.sent(0);
    }
    expect(slots.wait(0)).toBe(300);
    expect(slots.wait(250)).toBe(50);
    slots.sent(300);
    expect(slots.wait(300)).toBe(100); // the rate's spacing after the last call, as well
  });

  it('idle for a whole span, the burst is there again', () => {
    const slots = new CeilingSlots({ requestsPerSecond: 10, burst: 3 });
    for (let i = 0; i < 3; i++) slots.sent(0);
    expect(slots.wait(299)).toBe(1);
    for (let i = 0; i < 3; i++) {
      expect(slots.wait(300)).toBe(0);
      slots.sent(300);
    }
    expect(slots.wait(300)).toBe(300);
  });

  it('a burst of one is the rate\'s spacing', () => {
    const slots = new CeilingSlots({ requestsPerSecond: 4, burst: 1 });
    expect(slots.wait(0)).toBe(0);
    slots.sent(0);
    expect(slots.wait(100)).toBe(150);
  });

  it('a call sent late does not push back the ones after it: they keep the rate\'s schedule', () => {
    // 200 req/s with its default burst of 200: the burst at 0, then a call every 5 ms from 1 s, each sent 1 ms late
    // (as timers fire).
    const slots = new CeilingSlots({ requestsPerSecond: 200, burst: 200 }, 4);
    for (let i = 0; i < 200; i++) slots.sent(0);
    let now = 0;
    for (let i = 0; i < 200; i++) {
      now += slots.wait(now) + 1;
      slots.sent(now);
    }
    // On the schedule the last went at 1 s + 199 × 5 ms, 1 ms late; spaced from the call before, at 1 s + 199 × 6 ms.
    expect(now).toBe(1000 + 199 * 5 + 1);
    expect(slots.wait(now)).toBe(5); // no more than the burst in a span: the first of these 200 went at 1001
  });

  it('with a burst of one, no call goes early on the schedule: such a bucket refuses it', () => {
    const slots = new CeilingSlots({ requestsPerSecond: 200, burst: 1 }, 4);
    slots.sent(0);
    slots.sent(6); // a millisecond late
    expect(slots.wait(6)).toBe(5);
  });

  it('cleared (a key-wide pause ended), the burst may go again at once', () => {
    const slots = new CeilingSlots({ requestsPerSecond: 10, burst: 3 });
    for (let i = 0; i < 3; i++) slots.sent(0);
    slots.clear();
    expect(slots.wait(1)).toBe(0);
  });
});

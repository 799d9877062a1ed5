import { describe, expect, it } from 'vitest';
import { CATCH_UP_MS, SendClock } from './send-clock.ts';

describe('SendClock', () => {
  it('keeps a schedule: a send late by up to CATCH_UP_MS does not push back the next slot', () => {
    const clock = new SendClock();
    clock.nextAt = 1000; // the slot the first send was due at
    clock.schedule(1000, 10, false);
    expect(clock.nextAt).toBe(1100);
    // The timer fired 3 ms late: the slot after it is still 1200.
    clock.schedule(1103, 10, false);
    expect(clock.nextAt).toBe(1200);
    // 10 ms late: only CATCH_UP_MS of it is made up.
    clock.schedule(1210, 10, false);
    expect(clock.nextAt).toBe(1210 - CATCH_UP_MS + 100);
  });

  it('on a bucket of about one call makes nothing up: two calls closer than its interval would meet a 429', () => {
    const clock = new SendClock();
    clock.nextAt = 1000;
    clock.schedule(1000, 10, true);
    clock.schedule(1103, 10, true);
    expect(clock.nextAt).toBe(1203);
  });

  it('brings the slot set forward to a new spacing, and nothing before the first paced send', () => {
    const clock = new SendClock();
    clock.respace(20);
    expect(clock.nextAt).toBe(0);
    clock.nextAt = 1000;
    clock.schedule(1000, 10, true);
    clock.respace(20);
    expect(clock.nextAt).toBe(1050);
    expect(clock.wait(1020)).toBe(30);
    expect(clock.wait(1060)).toBe(0);
  });

  it('counts the send rate as a moving average over about a second', () => {
    const clock = new SendClock();
    for (let t = 0; t < 5000; t += 100) clock.count(t);
    // Ten sends a second for five seconds: close to 10 req/s, and decaying once they stop.
    expect(clock.rate(4900)).toBeGreaterThan(9);
    expect(clock.rate(4900)).toBeLessThan(11);
    expect(clock.rate(5900)).toBeCloseTo(clock.rate(4900) / Math.E);
    expect(clock.lastAt).toBe(4900);
  });
});

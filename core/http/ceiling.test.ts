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

  it('cleared (a key-wide pause ended), the burst may go again at once', () => {
    const slots = new CeilingSlots({ requestsPerSecond: 10, burst: 3 });
    for (let i = 0; i < 3; i++) slots.sent(0);
    slots.clear();
    expect(slots.wait(1)).toBe(0);
  });
});

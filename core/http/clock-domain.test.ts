import { describe, expect, it } from 'vitest';
import { createClockDomains, SAME_TIME_TOLERANCE_MS } from './clock-domain.ts';

describe('clock domains', () => {
  it('gives clocks that tell the same time one state map, even as different functions', () => {
    const domains = createClockDomains<number>();
    const a = domains.statesFor(() => Date.now());
    const b = domains.statesFor(() => Date.now());
    expect(b).toBe(a);
  });

  it('keeps a clock in another year apart', () => {
    const domains = createClockDomains<number>();
    const real = domains.statesFor(() => Date.now());
    const fake = domains.statesFor(() => Date.parse('2030-01-01T00:00:00Z'));
    expect(fake).not.toBe(real);
  });

  it('remembers a clock once seen, even after it has moved on', () => {
    const domains = createClockDomains<number>();
    let t = 1_000_000;
    const clock = (): number => t;
    const first = domains.statesFor(clock);
    t += 10 * SAME_TIME_TOLERANCE_MS;
    expect(domains.statesFor(clock)).toBe(first);
  });

  it('forgets every group on reset', () => {
    const domains = createClockDomains<number>();
    const clock = (): number => 5;
    const before = domains.statesFor(clock);
    domains.reset();
    expect(domains.statesFor(clock)).not.toBe(before);
  });
});

import { describe, expect, it } from 'vitest';
import { BETA, estimateAfter, JITTER_MS, LONE_GUESS, MD_BETA, SLOW_JITTER_MS, STUCK_BETA } from './estimate.ts';

describe('estimateAfter', () => {
  it('slow start\'s 429: what its burst admitted over its span, and at least 1 req/s', () => {
    expect(estimateAfter({ kind: 'slow-start', admitted: 12, spanMs: 2000, alone: false })).toBe(6);
    expect(estimateAfter({ kind: 'slow-start', admitted: 0, spanMs: 1000, alone: false })).toBe(1);
    expect(estimateAfter({ kind: 'slow-start', admitted: 1, spanMs: 1000, alone: false })).toBe(1);
  });

  it('a lone caller with one call admitted guesses just under 1 req/s, so the ramp\'s doublings miss plans of 1, 2 and 4', () => {
    expect(LONE_GUESS).toBeLessThan(1);
    expect(estimateAfter({ kind: 'slow-start', admitted: 1, spanMs: 1000, alone: true })).toBe(LONE_GUESS);
    expect(estimateAfter({ kind: 'slow-start', admitted: 0, spanMs: 1000, alone: true })).toBe(LONE_GUESS);
    // More calls admitted alone: the guess counts them as before.
    expect(estimateAfter({ kind: 'slow-start', admitted: 2, spanMs: 1000, alone: true })).toBe(2);
    expect(estimateAfter({ kind: 'slow-start', admitted: 5, spanMs: 1000, alone: true })).toBe(5);
  });

  it('an unproven 429 cuts slow start\'s guess as with nothing to measure by, or to what was admitted if more', () => {
    // Guess 10 (the pace 20 is one doubling above it): 0.7 × 10, unless the ramp admitted more.
    expect(estimateAfter({ kind: 'unproven', pace: 20, steps: 1, rampRate: 3 })).toBeCloseTo(MD_BETA * 10);
    expect(estimateAfter({ kind: 'unproven', pace: 20, steps: 1, rampRate: 9 })).toBe(9);
    // Nothing admitted since its doubling: half the guess.
    expect(estimateAfter({ kind: 'unproven', pace: 20, steps: 1, rampRate: 0 })).toBe(STUCK_BETA * 10);
    // Nothing admitted since slow start, the guess itself refused (no doubling): the round left the bucket empty, no more.
    expect(estimateAfter({ kind: 'unproven', pace: 4, steps: 0, rampRate: 0 })).toBeCloseTo(MD_BETA * 4);
  });

  it('a climb\'s end: what the plan admitted between the two 429s, no less than half the pace', () => {
    expect(estimateAfter({ kind: 'climb-end', pace: 8.8, admittedRate: 5 })).toBe(5);
    expect(estimateAfter({ kind: 'climb-end', pace: 8.8, admittedRate: 2 })).toBeCloseTo(4.4);
  });

  it('the ramp\'s end: between what was admitted since its last step and the pace ÷ that step', () => {
    expect(estimateAfter({ kind: 'ramp-end', pace: 40, factor: 2, rampRate: 30, searched: false })).toBe(30);
    expect(estimateAfter({ kind: 'ramp-end', pace: 40, factor: 2, rampRate: 10, searched: false })).toBe(20);
    expect(estimateAfter({ kind: 'ramp-end', pace: 40, factor: 2, rampRate: 55, searched: false })).toBe(40);
  });

  it('a search\'s end on a one-call bucket below 5 req/s: the step below, its spacing longer by the jitter of arrivals', () => {
    // 2.16 ÷ 1.08 is 2 req/s, a spacing of 500 ms; 3 ms more is 503 ms.
    expect(estimateAfter({ kind: 'ramp-end', pace: 2.16, factor: 1.08, rampRate: 0, searched: true })).toBeCloseTo(1000 / (500 + SLOW_JITTER_MS));
    // From MIN_SEARCH_RATE the step below as it is.
    expect(estimateAfter({ kind: 'ramp-end', pace: 5.4, factor: 1.08, rampRate: 0, searched: true })).toBeCloseTo(5);
    expect(estimateAfter({ kind: 'ramp-end', pace: 2.16, factor: 1.08, rampRate: 0, searched: false })).toBeCloseTo(2);
  });

  it('a lone caller\'s doubling that held on a one-call bucket: the pace, its spacing longer by the jitter of arrivals', () => {
    // 31.36 req/s is a spacing of 31.9 ms; 1.5 ms more is 33.4 ms, 29.95 req/s.
    expect(estimateAfter({ kind: 'held', pace: 31.36 })).toBeCloseTo(29.95, 2);
    expect(estimateAfter({ kind: 'held', pace: 100 })).toBeCloseTo(1000 / (10 + JITTER_MS));
    // On a slow plan the jitter is a small share of the spacing.
    expect(estimateAfter({ kind: 'held', pace: 20 })).toBeGreaterThan(19.4);
  });

  it('anchored: half way (geometrically) from the admitted rate to the pace; a tenth of the way before the probe', () => {
    expect(estimateAfter({ kind: 'anchored', pace: 16, admittedRate: 9, beforeProbe: false })).toBeCloseTo(12);
    expect(estimateAfter({ kind: 'anchored', pace: 16, admittedRate: 9, beforeProbe: true }))
      .toBeCloseTo(9 ** 0.9 * 16 ** 0.1);
    // Never above BETA × the pace, never below what was admitted.
    expect(estimateAfter({ kind: 'anchored', pace: 10, admittedRate: 9.5, beforeProbe: false })).toBe(9.5);
    expect(estimateAfter({ kind: 'anchored', pace: 10, admittedRate: 8.5, beforeProbe: false })).toBe(BETA * 10);
  });

  it('the next 429 after a ramp\'s end that the bucket bounded: just below its pace', () => {
    expect(estimateAfter({ kind: 'past-bound', pace: 8 })).toBeCloseTo(BETA * 8);
  });

  it('with nothing to measure by: multiplicative decrease, or half when stuck', () => {
    expect(estimateAfter({ kind: 'blind', pace: 10, stuck: false })).toBeCloseTo(7);
    expect(estimateAfter({ kind: 'blind', pace: 10, stuck: true })).toBe(5);
  });
});

import { describe, expect, it } from 'vitest';
import { asleepMs, burstBucket, doublingEnd, lateRoundAnswer, oneCallRound, slowStartRound, type CutEvent } from './first-round.ts';

/** Slow start's 429 at 1 s, its burst of `burst` calls from 0.985 s, 50 calls sent. */
function slowStart(burst: number, alone: boolean, over: Partial<CutEvent> = {}): CutEvent {
  return { at: 1000, admitted: burst, sent: 50, slowStart: true, burst, burstFrom: 985, burstAlone: alone, rampEnd: false, ...over };
}

describe('first-round', () => {
  it('what slow start\'s round says: its size, one call or more, the bucket less its refill', () => {
    expect(slowStartRound(slowStart(3, false))).toBe(3);
    expect(slowStartRound({ ...slowStart(3, false), slowStart: false })).toBeUndefined();
    expect(slowStartRound(undefined)).toBeUndefined();
    expect(oneCallRound(slowStart(1, false))).toBe(true);
    expect(oneCallRound(slowStart(2, false))).toBe(false);
    // 3 admitted over 15 ms at 100 req/s: 1.5 of them were refill.
    expect(burstBucket(slowStart(3, false), 100)).toBeCloseTo(1.5);
  });

  it('a late answer of slow start\'s round counts into it: the guess over at least a second, the lone answer once', () => {
    const first = slowStart(0, true, { admitted: 0, burstFrom: 0 });
    // The round's only answer came back after its 429: the ramp counts it (a one-call bucket's lone answer).
    expect(lateRoundAnswer(first)).toEqual({ guess: 1, lone: true, uncount: false });
    // A second: the round was no one-call bucket, and the ramp uncounts the first.
    expect(lateRoundAnswer(first)).toEqual({ guess: 2, lone: false, uncount: true });
    expect(lateRoundAnswer(first)).toEqual({ guess: 3, lone: false, uncount: false });
    expect(first).toMatchObject({ admitted: 3, burst: 3, lateLone: false });
    // Over a round longer than a second, its own span.
    expect(lateRoundAnswer(slowStart(3, false, { burstFrom: -1000 })).guess).toBe(2);
  });

  it('the callers slept from the 429 to their first call after it; not at all before that call', () => {
    expect(asleepMs(slowStart(1, true))).toBe(0);
    expect(asleepMs(slowStart(1, true, { usedFrom: { at: 1700, sent: 51 } }))).toBe(700);
  });

  it('a doubling that met a 429 at once after a one-call round searches, from 2 req/s where the callers went side by side', () => {
    expect(doublingEnd(slowStart(1, false), 10, 1)).toEqual({ search: true, held: false });
    expect(doublingEnd(slowStart(1, false), 2, 0)).toEqual({ search: true, held: false });
    expect(doublingEnd(slowStart(1, false), 1.5, 0)).toEqual({ search: false, held: false });
    // A lone caller below 5 req/s does not (one-caller processes sharing a slow plan look the same).
    expect(doublingEnd(slowStart(1, true), 4, 0)).toEqual({ search: false, held: false });
    // A bigger bucket does not.
    expect(doublingEnd(slowStart(8, false), 40, 1)).toEqual({ search: false, held: false });
  });

  it('a doubling that held searches where the round read one call once its refill is counted, from 20 req/s', () => {
    // Three admitted over 15 ms at 192 req/s: 2.9 of them refill, the bucket about one call.
    expect(doublingEnd(slowStart(3, false), 192, 5)).toEqual({ search: true, held: false });
    expect(doublingEnd(slowStart(3, false), 16, 5)).toEqual({ search: false, held: false });
    // More than half of the calls sent admitted: a bucket the round did not empty.
    expect(doublingEnd(slowStart(3, false, { sent: 5 }), 192, 5)).toEqual({ search: false, held: false });
    expect(doublingEnd(slowStart(3, true), 192, 5)).toEqual({ search: false, held: false });
  });

  it('a lone caller whose doubled spacing the plan admitted twice is held at that pace, from 20 req/s', () => {
    expect(doublingEnd(slowStart(1, true), 31.36, 2)).toEqual({ search: false, held: true });
    // Refused at once (one call admitted at most): the search, as for callers side by side from 5 req/s.
    expect(doublingEnd(slowStart(1, true), 31.36, 1)).toEqual({ search: true, held: false });
    expect(doublingEnd(slowStart(1, true), 15.68, 2)).toEqual({ search: false, held: false });
    expect(doublingEnd(slowStart(2, true), 31.36, 2)).toEqual({ search: false, held: false });
  });
});

import { describe, expect, it } from 'vitest';
import type { CutEvent } from './first-round.ts';
import { whichCut, type CutInput } from './which-cut.ts';

const noRamp = { on: false, factor: 2, steps: 0, admitted: 0, climbing: false, rate: 0 };
const base: CutInput = {
  now: 3000, pace: 25, events: [], admitted: 50, sentTotal: 55, estimate: 20, ramp: noRamp,
  burst: { admitted: 12, from: 0, alone: false }, oneCallBucket: false, bounded: false, rampedAgain: false,
};

/** A 429 kept by the pacing. */
function event(over: Partial<CutEvent>): CutEvent {
  return { at: 1000, admitted: 10, sent: 12, slowStart: false, burst: 0, burstFrom: 0, burstAlone: false, rampEnd: false, ...over };
}

describe('whichCut', () => {
  it('the first 429 is slow start\'s: its burst over at least a second', () => {
    expect(whichCut({ ...base, now: 2000 }).cut).toEqual({ kind: 'slow-start', admitted: 12, spanMs: 2000, alone: false });
    expect(whichCut({ ...base, now: 400, burst: { admitted: 3, from: 100, alone: true } }).cut)
      .toEqual({ kind: 'slow-start', admitted: 3, spanMs: 1000, alone: true });
  });

  it('with an earlier 429 and enough admitted since, what the plan admitted between them; before the probe if the pace was in use', () => {
    const events = [event({})];
    expect(whichCut({ ...base, events }).cut).toEqual({ kind: 'anchored', pace: 25, admittedRate: 20, beforeProbe: true });
    // The callers sent well under the estimate: not before the probe (they did not keep up).
    expect(whichCut({ ...base, events, sentTotal: 30 }).cut).toEqual({ kind: 'anchored', pace: 25, admittedRate: 20, beforeProbe: false });
  });

  it('after a ramp\'s end that left a lone caller asleep, a pace three times what was admitted since is no pace in use', () => {
    // The ramp's end at 1 s; the caller slept until 1.9 s; 20 admitted since, 10 req/s over the 2 s to this 429.
    const asleep = event({ rampEnd: true, admitted: 30, usedFrom: { at: 1900, sent: 12 } });
    const cut = (pace: number) => whichCut({ ...base, pace, estimate: pace, sentTotal: 12 + 2 * pace, events: [asleep] }).cut;
    expect(cut(29)).toEqual({ kind: 'anchored', pace: 29, admittedRate: 10, beforeProbe: true });
    expect(cut(30)).toEqual({ kind: 'anchored', pace: 30, admittedRate: 10, beforeProbe: false });
    // Callers that did not sleep after that ramp's end: the pace was in use.
    expect(whichCut({ ...base, pace: 30, estimate: 30, sentTotal: 72, events: [{ ...asleep, usedFrom: { at: 1000, sent: 12 } }] }).cut)
      .toEqual({ kind: 'anchored', pace: 30, admittedRate: 10, beforeProbe: true });
  });

  it('nothing to measure by: blind, and stuck when two calls since the last 429 had nothing admitted', () => {
    const events = [event({ admitted: 48, sent: 50 })];
    expect(whichCut({ ...base, events }).cut).toEqual({ kind: 'blind', pace: 25, stuck: false });
    expect(whichCut({ ...base, events: [event({ admitted: 50, sent: 53 })] }).cut).toEqual({ kind: 'blind', pace: 25, stuck: true });
    // Just past a ramp's end that the bucket bounded.
    expect(whichCut({ ...base, events, bounded: true }).cut).toEqual({ kind: 'past-bound', pace: 25 });
  });

  it('a 429 before the ramp\'s second doubling after a bigger round is unproven; after a one-call round the search runs', () => {
    const ramp = { ...noRamp, on: true, steps: 0, admitted: 0, rate: 3 };
    const big = whichCut({ ...base, pace: 6, ramp, events: [event({ slowStart: true, burst: 6 })] });
    expect(big).toEqual({ cut: { kind: 'unproven', pace: 6, steps: 0, rampRate: 3 }, search: false, held: false, unproven: true });
    const one = whichCut({ ...base, pace: 10, ramp: { ...ramp, steps: 2 }, events: [event({ slowStart: true, burst: 1, sent: 10 })] });
    expect(one.search).toBe(true);
    expect(one.cut).toEqual({ kind: 'ramp-end', pace: 10, factor: 2, rampRate: 3, searched: false });
    // The search's own 429 (its factor the search's step) ends it: `searched`.
    const end = whichCut({ ...base, pace: 10, ramp: { ...ramp, factor: 1.08, steps: 3 }, oneCallBucket: true, events: [event({ slowStart: true, burst: 1 })] });
    expect(end.cut).toEqual({ kind: 'ramp-end', pace: 10, factor: 1.08, rampRate: 3, searched: true });
  });

  it('a ramp run again from the probe: its 429 before a step is judged as on the curve, after one it is a ramp\'s end', () => {
    const events = [event({})];
    const ramp = { ...noRamp, on: true, factor: 1.5, steps: 0, rate: 22 };
    expect(whichCut({ ...base, events, ramp, rampedAgain: true }).cut).toEqual({ kind: 'anchored', pace: 25, admittedRate: 20, beforeProbe: true });
    expect(whichCut({ ...base, events, ramp: { ...ramp, steps: 1 }, rampedAgain: true }).cut)
      .toEqual({ kind: 'ramp-end', pace: 25, factor: 1.5, rampRate: 22, searched: false });
  });
});

import { describe, expect, it } from 'vitest';
import { ONE_CALL_RAMP_MS, RAMP_MS, Ramp, SEARCH_FACTOR, type RampStepInput } from './ramp.ts';

/** A ramp started by a cut at `at` with `sentTotal` calls sent before it. */
function started(at = 0, sentTotal = 0, factor = 2): Ramp {
  const ramp = new Ramp();
  ramp.restart(at, sentTotal, true, factor, false);
  return ramp;
}

const input = (sentTotal: number, over: Partial<RampStepInput> = {}): RampStepInput => ({
  sentTotal, inFlight: 0, estimate: 10, oneCall: false, stale: false, ...over,
});

describe('Ramp', () => {
  it('steps once RAMP_MS passed and the callers used three quarters of the pace since the cut', () => {
    const ramp = started();
    // 10 req/s for 250 ms is 2.5 calls: 2 sent is 80 %, but not before RAMP_MS.
    expect(ramp.step(RAMP_MS - 1, input(2))).toBe(false);
    expect(ramp.step(RAMP_MS, input(2))).toBe(true);
    expect(ramp.steps).toBe(1);
    expect(ramp.admitted).toBe(0); // the count starts again at the step
  });

  it('does not step on a pace the callers left unused', () => {
    const ramp = started();
    // 1 s at 10 req/s is 10 calls; 7 sent is 70 %, under three quarters.
    expect(ramp.step(1000, input(7))).toBe(false);
    expect(ramp.step(1000, input(8))).toBe(true);
  });

  it('does nothing while off, and a cut that turns it off stops it', () => {
    const off = new Ramp();
    expect(off.step(10_000, input(1000))).toBe(false);
    const ramp = started();
    ramp.restart(100, 0, false, SEARCH_FACTOR, false);
    expect(ramp.on).toBe(false);
    expect(ramp.factor).toBe(SEARCH_FACTOR);
    expect(ramp.step(10_000, input(1000))).toBe(false);
  });

  it('on a one-call bucket steps after one call and ONE_CALL_RAMP_MS, and not on an answer from before the step', () => {
    const ramp = started();
    expect(ramp.step(ONE_CALL_RAMP_MS, input(1, { oneCall: true, estimate: 1, inFlight: 1 }))).toBe(true);
    // The call still in flight at the step was sent at the old pace: its answer is stale and proves nothing.
    expect(ramp.answered()).toBe(true);
    expect(ramp.step(2 * ONE_CALL_RAMP_MS + 1, input(2, { oneCall: true, estimate: 2, stale: true }))).toBe(false);
    expect(ramp.answered()).toBe(false);
    expect(ramp.step(2 * ONE_CALL_RAMP_MS + 1, input(2, { oneCall: true, estimate: 2 }))).toBe(true);
    expect(ramp.steps).toBe(2);
  });

  it('its first step counts use from the first call when that call came late (a caller asleep in its backoff)', () => {
    // One caller, 10 req/s: the first call after the cut came 800 ms later (2 intervals are 200 ms).
    const late = started();
    late.sent(800, 0, 10);
    // At 1,100 ms, 3 calls in 300 ms of use is all of the pace, though only 27 % of the time since the cut.
    expect(late.step(1100, input(3))).toBe(true);
    // The same calls from a caller that was waiting for its slot: counted from the cut, the pace went unused.
    const prompt = started();
    prompt.sent(100, 0, 10);
    expect(prompt.step(1100, input(3))).toBe(false);
  });

  it("its rate is what was admitted per second since the last step or cut", () => {
    const ramp = started(1000);
    for (let i = 0; i < 5; i++) ramp.step(1000, input(0));
    expect(ramp.rate(1500)).toBe(10);
  });
});

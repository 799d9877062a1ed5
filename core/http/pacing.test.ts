import { describe, expect, it } from 'vitest';
import { CUT, MIN_REGAIN_MS } from './curve.ts';
import { BETA, JITTER_MS, LONE_GUESS, MD_BETA, SLOW_JITTER_MS } from './estimate.ts';
import { HOLD_CALLS, HOLD_STEP, HOLD_TARGET } from './hold.ts';
import { Pacing, type Answer } from './pacing.ts';
import { PEAK_HOLD_MS } from './peak.ts';
import { SEARCH_FACTOR } from './ramp.ts';
import { INITIAL_WINDOW } from './slow-start.ts';
import { consume, freshCounters } from '../../emulator/usage-plan.ts';

/** Sends `n` calls at `now` (each after `wait` said 0). */
function send(p: Pacing, now: number, n = 1): void {
  for (let i = 0; i < n; i++) p.sent(now);
}

/** A call made alone at 0 (answered at 20), then a burst of 10 at 600 of which `admitted` are admitted before a 429. */
function burstAfterOneCall(admitted: number): Pacing {
  const p = new Pacing();
  p.sent(0);
  p.answered(20, 'admitted');
  send(p, 600, 10);
  for (let i = 0; i < admitted; i++) p.answered(610, 'admitted');
  expect(p.answered(610, 'throttled')).toBe(true);
  return p;
}

/** Takes a pacing out of slow start with a burst of `admitted` answers then one 429, all at `now`. */
function throttledAfter(admitted: number, now = 0): Pacing {
  const p = new Pacing();
  send(p, now, admitted + 1);
  for (let i = 0; i < admitted; i++) p.answered(now, 'admitted');
  expect(p.answered(now, 'throttled')).toBe(true);
  return p;
}

/**
 * Out of slow start (a burst of 50, then a 429) and past its ramp: a 429 in the ramp's first two steps only cuts and
 * climbs on, the next one ends the climb, so the cubic curve applies from then.
 *
 * @returns The pacing and the time of its last cut.
 */
function pastTheRamp(): { p: Pacing; t: number } {
  const p = throttledAfter(50, 0);
  let t = 0;
  for (const _ of [1, 2]) {
    for (let i = 0; i < 200; i++) {
      t += 20;
      p.sent(t);
      p.answered(t, 'admitted');
    }
    p.sent(t);
    expect(p.answered(t, 'throttled')).toBe(true);
  }
  return { p, t };
}

/** Other processes take the plan: from `t`, a 429 with nothing admitted each second until the estimate is below `floor`. */
function squeezeBelow(p: Pacing, t: number, floor: number): number {
  while (p.estimate > floor) {
    t += 1000;
    p.sent(t);
    p.sent(t);
    p.answered(t, 'throttled');
    p.answered(t, 'throttled');
  }
  return t;
}

/** From `t` until `until`, one call at each slot of the pace, each answered so (admitted); returns the last call's time. */
function sendAtPace(p: Pacing, t: number, until: number, answer: Answer = 'admitted'): number {
  while (t < until) {
    t += 1000 / p.rate(t)!;
    p.sent(t);
    p.answered(t, answer);
  }
  return t;
}

/** A plan's token bucket, as the emulator keeps it, empty at `at`: whether a call at `t` is admitted. */
function emptyBucket(ratePerSecond: number, burst: number, at: number): (t: number) => boolean {
  const plan = { ratePerSecond, burst, dailyQuota: Number.MAX_SAFE_INTEGER };
  const counters = { ...freshCounters(plan, at), tokens: 0 };
  return (t) => consume(plan, counters, t) === 'ok';
}

/** A plan's token bucket, as the emulator keeps it, full at 0: whether a call at `t` is admitted. */
function fullBucket(ratePerSecond: number, burst: number): (t: number) => boolean {
  const plan = { ratePerSecond, burst, dailyQuota: Number.MAX_SAFE_INTEGER };
  const counters = freshCounters(plan, 0);
  return (t) => consume(plan, counters, t) === 'ok';
}

/** One caller from `t`: each call at its slot, answered by `admit` 1 ms later, until a 429: its time, and the calls admitted. */
function loneCaller(p: Pacing, admit: (t: number) => boolean, t: number): { t: number; admitted: number } {
  for (let admitted = 0; ; admitted++) {
    t += p.wait(t);
    p.sent(t);
    const ok = admit(t);
    t += 1;
    p.answered(t, ok ? 'admitted' : 'throttled');
    if (!ok) return { t, admitted };
    t += 1;
  }
}

/** Callers that keep every slot busy from `t`, answered by `admit` 1 ms later, until a 429: its time, and the pace that met it. */
function untilThrottled(p: Pacing, admit: (t: number) => boolean, t: number): { t: number; pace: number } {
  for (;;) {
    t += p.wait(t);
    const pace = p.rate(t)!;
    p.sent(t);
    const ok = admit(t);
    p.answered(t + 1, ok ? 'admitted' : 'throttled');
    if (!ok) return { t: t + 1, pace };
  }
}

/**
 * Slow start ends with `burst` admitted, then the ramp runs at 100 calls a second until a doubling takes the pace past
 * `limit`; then `before` answers are admitted and a 429 comes (a search starts if one call was admitted, and none
 * before or the pace was MIN_LATE_SEARCH_RATE or more).
 */
function rampThen429(burst: number, before: number, limit = 40): { p: Pacing; t: number; top: number } {
  const p = throttledAfter(burst);
  let t = 0;
  while (p.estimate <= limit) {
    t += 10;
    p.sent(t);
    p.answered(t, 'admitted');
  }
  const top = p.estimate;
  for (let i = 0; i < before; i++) {
    p.sent(t);
    p.answered(t, 'admitted');
  }
  p.sent(t);
  expect(p.answered(t, 'throttled')).toBe(true);
  return { p, t, top };
}

describe('Pacing', () => {
  it('before any 429 nothing is paced: rounds of 10, then 20, each once the last one is answered', () => {
    const p = new Pacing();
    expect(p.paced).toBe(false);
    send(p, 0, INITIAL_WINDOW);
    expect(p.canSend()).toBe(false);
    expect(p.wait(0)).toBe(0);
    for (let i = 0; i < INITIAL_WINDOW - 1; i++) p.answered(1, 'admitted');
    expect(p.canSend()).toBe(false); // the round is not over until its last answer is in
    p.answered(1, 'admitted');
    expect(p.canSend()).toBe(true);
    send(p, 2, 20);
    expect(p.canSend()).toBe(false);
  });

  it('a lone caller is never held back before a 429', () => {
    const p = new Pacing();
    for (let i = 0; i < 100; i++) {
      expect(p.canSend()).toBe(true);
      p.sent(i);
      p.answered(i, 'admitted');
    }
    expect(p.paced).toBe(false);
  });

  it('the window grows only while it is used: a lone caller\'s hundred answers do not open it to a burst', () => {
    const p = new Pacing();
    for (let i = 0; i < 100; i++) {
      p.sent(i);
      p.answered(i, 'admitted');
    }
    send(p, 100, INITIAL_WINDOW);
    expect(p.canSend()).toBe(false);
  });

  it('after an idle second slow start begins afresh: its guess counts only the new burst', () => {
    const p = new Pacing();
    p.sent(0);
    p.answered(5, 'admitted');
    send(p, 20_000, 6);
    for (let i = 0; i < 5; i++) p.answered(20_005, 'admitted');
    expect(p.answered(20_005, 'throttled')).toBe(true);
    expect(p.estimate).toBe(5); // not one call more over 20 s (the floor, 1 req/s)
  });

  it('a key-wide pause (a 5xx) is not idleness: the window its callers grew is still theirs after it', () => {
    const grown = (pausedUntil?: number) => {
      const p = new Pacing();
      send(p, 0, INITIAL_WINDOW);
      for (let i = 0; i < INITIAL_WINDOW; i++) p.answered(5, 'admitted');
      send(p, 10, 2 * INITIAL_WINDOW);
      for (let i = 0; i < 2 * INITIAL_WINDOW; i++) p.answered(15, 'admitted');
      if (pausedUntil !== undefined) p.pausedUntil(pausedUntil);
      send(p, 1500, 25); // 1.5 s after the last call: idle by the clock
      return p.canSend();
    };
    expect(grown(1500)).toBe(true); // held by the pause until 1.5 s: the window of 40 stands
    expect(grown()).toBe(false); // idle: slow start afresh, a round of 10
  });

  it('with a ceiling, the first 429 guesses from the whole spell of sending, not from its last second', () => {
    const p = new Pacing({ requestsPerSecond: 20, burst: 20 });
    for (let t = 0; t < 10_000; t += 100) {
      p.sent(t);
      p.answered(t + 5, 'admitted');
    }
    p.sent(10_000);
    expect(p.answered(10_005, 'throttled')).toBe(true);
    expect(p.estimate).toBeCloseTo(10, 0); // what the callers got admitted: 10 a second, under the ceiling of 20
  });

  it('a call that failed before it was sent gives its window slot back', () => {
    const p = new Pacing();
    send(p, 0, INITIAL_WINDOW);
    expect(p.canSend()).toBe(false);
    p.answered(0, 'not-sent');
    expect(p.canSend()).toBe(true);
  });

  it('the first 429 ends slow start with the admitted burst over at least a second, then ramps up', () => {
    const p = throttledAfter(5);
    expect(p.paced).toBe(true);
    expect(p.estimate).toBe(5);
    expect(p.rate(0)).toBe(5);
    expect(p.wait(0)).toBeCloseTo(200); // the first call after the cut waits one interval
    // Every 250 ms without a 429 the pace doubles, while the callers use 3/4 of it: they send 20 a second here, so
    // it climbs 5, 10, 20, 40 and stops there (a pace nobody used proves nothing about the plan).
    for (let t = 0; t <= 2000; t += 50) {
      p.sent(t);
      p.answered(t + 1, 'admitted');
    }
    expect(p.estimate).toBe(40);
  });

  it('the ramp\'s first step counts the callers\' use from their first call after a backoff, not from the 429', () => {
    // One caller: its call met slow start's 429 and it sleeps out the retry's backoff (800 ms), then sends at the pace.
    const ramp = (backoffMs: number): number | undefined => {
      const p = throttledAfter(5);
      for (let t = backoffMs; t <= backoffMs + 1000; t += 200) {
        p.sent(t);
        p.answered(t + 1, 'admitted');
        if (p.estimate > 5) return t;
      }
      return undefined;
    };
    // The step comes with the second call at the pace, as for a caller that did not sleep (400 ms after the 429).
    // Counted from the 429, the sleep read as pace left unused, and no step came within the next second.
    expect(ramp(800)).toBe(1000);
    expect(ramp(200)).toBe(400);
  });

  it('a 429 before the ramp first doubled cuts slow start\'s guess as with nothing to measure by (not to half), and the ramp climbs on in small steps', () => {
    // Slow start's guess counts the burst as rate: 6 admitted in a round read as 6 a second.
    const p = throttledAfter(6);
    expect(p.estimate).toBe(6);
    p.sent(100);
    p.answered(100, 'admitted');
    p.sent(400);
    expect(p.answered(400, 'throttled')).toBe(true); // no doubling yet: one answer since, and 400 ms
    expect(p.estimate).toBeCloseTo(MD_BETA * 6);
    for (let t = 410; t <= 700; t += 10) {
      p.sent(t);
      p.answered(t, 'admitted');
    }
    expect(p.estimate).toBeCloseTo(MD_BETA * 6 * SEARCH_FACTOR);
    // The next 429 ends the ramp within one step.
    p.sent(710);
    expect(p.answered(710, 'throttled')).toBe(true);
    const found = p.estimate;
    for (let t = 720; t <= 2200; t += 10) {
      p.sent(t);
      p.answered(t, 'admitted');
    }
    expect(p.estimate).toBe(found);
  });

  it('a 429 at slow start\'s guess itself is unproven at any pace: a 3/4 plan climbs from 0.7 of the guess to the plan, not held at half of it', () => {
    const admit = fullBucket(3, 4);
    const p = new Pacing();
    send(p, 0, INITIAL_WINDOW);
    const admitted = Array.from({ length: INITIAL_WINDOW }, () => admit(0)).filter(Boolean).length;
    for (let i = 0; i < admitted; i++) p.answered(1, 'admitted');
    expect(p.answered(1, 'throttled')).toBe(true);
    for (let i = admitted + 1; i < INITIAL_WINDOW; i++) expect(p.answered(1, 'throttled')).toBe(false);
    expect(p.estimate).toBe(4); // the bucket of 4, over a second, read as rate
    const first = untilThrottled(p, admit, 1);
    expect(first.pace).toBe(4); // no doubling yet: the guess met the 429, the bucket not yet refilled by a call
    // Below MIN_SEARCH_RATE this was a ramp's end at half the guess, 2 req/s, kept for the curve's 60 calls (30 s).
    expect(p.estimate).toBeCloseTo(MD_BETA * 4);
    const second = untilThrottled(p, admit, first.t);
    expect(second.pace).toBeGreaterThan(MD_BETA * 4 * SEARCH_FACTOR); // the ramp climbed in the search's steps
    expect(p.estimate).toBeGreaterThan(0.95 * 3);
    expect(p.estimate).toBeLessThanOrEqual(3.1);
  });

  it('a 429 at the ramp\'s first doubling is unproven too; the climb after it ends at what the plan admitted between the two 429s', () => {
    const p = throttledAfter(5);
    let t = 0;
    while (p.estimate < 10) {
      t += 10;
      p.sent(t);
      p.answered(t, 'admitted');
    }
    p.sent(t);
    // One doubling, and nothing admitted at it: the pace is cut to half the guess, not to half its double.
    expect(p.answered(t, 'throttled')).toBe(true);
    expect(p.estimate).toBeCloseTo(0.5 * 5);
    const cutAt = t;
    // The callers keep the pace busy and every call is admitted (a bucket that filled while the climb was below the
    // plan), so the climb passes the plan before the next 429.
    let admitted = 0;
    while (t < cutAt + 4000) {
      t += 1000 / p.rate(t)!;
      p.sent(t);
      p.answered(t, 'admitted');
      admitted += 1;
    }
    const pace = p.rate(t)!;
    expect(pace).toBeGreaterThan(0.5 * 5 * SEARCH_FACTOR ** 4);
    p.sent(t);
    expect(p.answered(t, 'throttled')).toBe(true);
    // Both 429s found the bucket empty, so what it admitted between them is what it refilled: the plan's rate, not
    // the last step's pace (the stored calls carried the climb past the plan).
    expect(p.estimate).toBeCloseTo((admitted * 1000) / (t - cutAt));
    expect(p.estimate).toBeLessThan(pace / SEARCH_FACTOR);
  });

  it('a ramp that the bucket\'s store carried past the plan ends at what a bucket of slow start\'s size allows', () => {
    // Slow start's round admitted 5, then a 429: a 5/5 plan and a 40/5 plan look alike. The callers come back 1.2 s
    // later (a retry's backoff), when a 5/5 bucket is full again.
    const ends = [5, 40].map((rate) => {
      const p = throttledAfter(5);
      const admit = emptyBucket(rate, 5, 0);
      const end = untilThrottled(p, admit, 1200);
      return { p, admit, end, estimate: p.estimate };
    });
    const [five, forty] = ends as [typeof ends[0], typeof ends[0]];
    // 5/5: the stored 5 carried the ramp to 40 req/s (5, 10, 20, 40, every call admitted). Half that pace would be
    // four times the plan; the answers replayed against a bucket of 5 put it under 9.
    expect(five.end.pace).toBe(40);
    expect(five.estimate).toBeGreaterThanOrEqual(5);
    expect(five.estimate).toBeLessThan(9);
    // 40/5: the plan's rate carried the ramp to 80, and the bound leaves its end at half that pace or more.
    expect(forty.end.pace).toBe(80);
    expect(forty.estimate).toBeGreaterThanOrEqual(40);
    // On 5/5 the next 429 comes before enough is admitted to measure by: the bound met it, so the plan is just below.
    const next = untilThrottled(five.p, five.admit, five.end.t);
    expect(five.p.estimate).toBeCloseTo(BETA * next.pace);
    expect(five.p.estimate).toBeGreaterThan(MD_BETA * next.pace);
  });

  it('a lone caller\'s slow start says little of the bucket\'s size: its ramp\'s end is not bounded by it', () => {
    // One caller, each call answered before the next: 20 admitted 2 ms apart, then a 429 (a 20/20 plan). Taken as the
    // bucket's size, they would bound the ramp's end at about 26; it stays at half its pace (the code before the bound:
    // one-caller processes sharing a plan, as n8n workers, held their shares better so, row 7m).
    const p = new Pacing();
    for (let t = 0; t < 40; t += 2) {
      p.sent(t);
      p.answered(t + 1, 'admitted');
    }
    p.sent(40);
    expect(p.answered(41, 'throttled')).toBe(true);
    const admit = emptyBucket(20, 20, 41);
    const end = untilThrottled(p, admit, 1200);
    expect(end.pace).toBeGreaterThanOrEqual(40);
    expect(p.estimate).toBeGreaterThanOrEqual(end.pace / 2);
  });

  it('a lone caller back from a backoff too short to fill the bucket kept up: the 429 after the ramp\'s end sets the estimate near what was admitted', () => {
    /** One caller, 0.75 s of backoff after each 429: the estimate at the 429 after the ramp's end, and what was admitted before it. */
    const afterRampEnd = (rate: number, burst: number): { estimate: number; admittedRate: number; rampEnd: number } => {
      const p = new Pacing();
      const admit = fullBucket(rate, burst);
      let t = loneCaller(p, admit, 0).t;
      t = loneCaller(p, admit, t + 750).t;
      const rampEnd = p.estimate;
      const next = loneCaller(p, admit, t + 750);
      return { estimate: p.estimate, admittedRate: (next.admitted * 1000) / (next.t - t), rampEnd };
    };
    // 5/5: the bucket stores calls in each backoff and the ramp spent them as rate, so its end reads well above the
    // plan. The caller kept every slot after a backoff shorter than the bucket takes to fill (nothing spilled), so the
    // next 429 is the pace read high: the plan is what was admitted between the two (halfway to the pace, the estimate
    // came down over three more 429s, the last about 10 s in, inside the steady window: 2 % of answers in 4 of 6
    // seeds, row 7a).
    const five = afterRampEnd(5, 5);
    expect(five.rampEnd).toBeGreaterThan(8);
    expect(five.estimate).toBeGreaterThanOrEqual(five.admittedRate);
    expect(five.estimate).toBeLessThan(1.1 * five.admittedRate);
    // 7/2: the backoff refills more than a bucket of 2 holds, so some of the plan spilled while the caller slept and
    // what was admitted reads low: halfway to the pace, as before.
    const seven = afterRampEnd(7, 2);
    expect(seven.estimate).toBeGreaterThan(1.1 * seven.admittedRate);
  });

  it('a lone caller back from a backoff that filled and spilled a small bucket: the next 429 counts what was admitted from its first call back, less the bucket', () => {
    // One caller on 100/5, 0.75 s of backoff after each 429. The bucket fills in 50 ms of that sleep and spills the
    // rest; counted from the 429, the sleep read as a plan that admitted nothing, and the cut set about half the plan.
    const p = new Pacing();
    const admit = fullBucket(100, 5);
    let t = loneCaller(p, admit, 0).t;
    t = loneCaller(p, admit, t + 750).t;
    expect(p.estimate).toBeGreaterThan(100); // the ramp's end, carried past the plan by the bucket's store
    const woke = t + 750;
    const next = loneCaller(p, admit, woke);
    // Counted from the 429, what was admitted reads below half the plan; from the first call back, less slow start's
    // round (at least the bucket), it reads near the plan.
    expect((next.admitted * 1000) / (next.t - t)).toBeLessThan(50);
    expect(p.estimate).toBeGreaterThan(80);
    expect(p.estimate).toBeLessThanOrEqual(BETA * 150);
  });

  it('a lone caller whose estimate read below half the ramp\'s end, on a bucket its sleep spilled, regrows on the regain\'s clock', () => {
    // One caller on 100/5 whose calls take 6.25 ms (network delays of 2 to 4 ms), 0.9 s of backoff after each 429:
    // slow start's round reads more calls than the bucket holds, so the count from its first call back after the
    // ramp's 429 bounds nothing, and the cut reads the plan low. Its sleep spilled the bucket, but on the sleep's clock
    // the estimate sat there.
    const p = new Pacing();
    const admit = fullBucket(100, 5);
    /** The caller from `t` until a 429: each call when the pace allows, answered 6.25 ms after it is sent. */
    const until429 = (t: number): number => {
      for (;;) {
        t += p.wait(t);
        p.sent(t);
        const ok = admit(t + 3.125);
        t += 6.25;
        p.answered(t, ok ? 'admitted' : 'throttled');
        if (!ok) return t;
      }
    };
    let t = until429(0);
    t = until429(t + 900);
    const rampEnd = p.estimate;
    t = until429(t + 900);
    expect(p.estimate).toBeLessThan((0.9 * rampEnd) / 2);
    const estimate = p.estimate;
    const resumed = sendAtPace(p, t + 900, t + 2 * Math.max(MIN_REGAIN_MS, (60 / estimate) * 1000));
    expect(p.rate(resumed)!).toBeGreaterThan(estimate * (1 + CUT * 0.9));
  });

  it('a call made alone just before a burst is not counted in the burst\'s guess; a lone caller\'s calls all are', () => {
    // An organization read 600 ms before a batch on a 20/1 plan: the burst meets one call's bucket.
    const p = burstAfterOneCall(1);
    expect(p.estimate).toBe(1); // counting the read: 2 req/s, and a bucket of two calls
    for (let i = 0; i < 8; i++) expect(p.answered(615, 'throttled')).toBe(false); // the same cut's
    // So the ramp steps as on a one-call bucket: at the first call admitted at the new spacing.
    expect(p.wait(615)).toBeCloseTo(995);
    p.sent(1610);
    expect(p.answered(1630, 'admitted')).toBe(true);
    expect(p.estimate).toBe(2);
    // On a 2/2 plan the burst still finds two calls: 2 req/s, not 3.
    expect(burstAfterOneCall(2).estimate).toBe(2);
    // One caller, answered one call at a time: each call is alone, and the guess counts them all.
    const r = new Pacing();
    for (let t = 0; t < 5; t++) {
      r.sent(t * 100);
      r.answered(t * 100 + 50, 'admitted');
    }
    r.sent(500);
    expect(r.answered(550, 'throttled')).toBe(true);
    expect(r.estimate).toBe(5);
  });

  it('slow start\'s late answers: the first, counted by the ramp as a one-call bucket\'s, is taken back when a second shows a bigger bucket', () => {
    const admit = fullBucket(1, 2);
    const p = new Pacing();
    send(p, 0, 9);
    const throttled = Array.from({ length: 9 }, () => admit(0)).filter((ok) => !ok).length;
    // The 429s come back before both admitted answers (answers come back in any order).
    expect(p.answered(1, 'throttled')).toBe(true);
    for (let i = 1; i < throttled; i++) expect(p.answered(1, 'throttled')).toBe(false);
    p.answered(2, 'admitted');
    p.answered(2, 'admitted');
    expect(p.estimate).toBe(2); // the burst of 2 over a second
    const { pace } = untilThrottled(p, admit, 2);
    expect(pace).toBe(2);
    // Half the pace: the plan. Counting the first late answer, the ramp's rate read one answer over 0.5 s, 2 req/s.
    expect(p.estimate).toBeCloseTo(1);
  });

  it('admitted answers of slow start\'s round that come back after its 429 count in the guess', () => {
    const p = new Pacing();
    send(p, 0, 10);
    p.answered(1, 'admitted');
    expect(p.answered(2, 'throttled')).toBe(true);
    expect(p.estimate).toBe(1); // one admitted, over at least a second
    expect(p.wait(2)).toBeCloseTo(1000);
    // Each raises the guess and brings the first slot forward: a caller asleep until the old one looks again.
    for (let i = 0; i < 4; i++) expect(p.answered(3, 'admitted')).toBe(true);
    for (let i = 0; i < 4; i++) expect(p.answered(3, 'throttled')).toBe(false); // the same cut's
    expect(p.estimate).toBe(5);
    expect(p.wait(3)).toBeCloseTo(200 - 1); // one interval of the new guess from the 429
  });

  it('a bucket of one call: a 429 right after a doubling climbs again from half the pace in small steps until the next 429', () => {
    const keepSending = (p: Pacing, from: number, ms: number): void => {
      for (let t = from + 10; t <= from + ms; t += 10) {
        p.sent(t);
        p.answered(t, 'admitted');
      }
    };
    // One call admitted out of slow start and none in the step: the plan is between half the pace and the pace, and
    // the ramp climbs from the half by SEARCH_FACTOR a step (every ONE_CALL_RAMP_MS, 100 ms) …
    const search = rampThen429(1, 0);
    const low = search.top / 2;
    expect(search.p.estimate).toBe(low);
    keepSending(search.p, search.t, 150);
    expect(search.p.estimate).toBeCloseTo(low * SEARCH_FACTOR);
    // … until the next 429, which puts the plan within one step and ends the ramp.
    const t = search.t + 150;
    search.p.sent(t);
    expect(search.p.answered(t, 'throttled')).toBe(true);
    const found = search.p.estimate;
    expect(found).toBeGreaterThanOrEqual(low);
    expect(found).toBeLessThanOrEqual(low * SEARCH_FACTOR);
    // From there the pace is held (`hold.ts`): each admitted answer raises it a little.
    keepSending(search.p, t, 1000);
    expect(search.p.estimate).toBeCloseTo(found * (1 + HOLD_STEP * HOLD_TARGET) ** 100, 6);
    // Such a bucket refuses two calls closer than its interval, so a late call is not made up for: the next one
    // waits a whole interval (with a bigger bucket, up to CATCH_UP_MS less).
    const idle = t + 5000;
    search.p.sent(idle);
    expect(search.p.wait(idle)).toBeCloseTo(1000 / search.p.rate(idle)!);
    // A bucket that held more (five out of slow start, or two admitted in the step below 20 req/s): the ramp ends at
    // the 429.
    for (const [burst, before, limit] of [[5, 0, 40], [1, 2, 10]] as const) {
      const ended = rampThen429(burst, before, limit);
      expect(ended.top).toBeLessThan(burst === 1 ? 20 : Infinity);
      const settled = ended.p.estimate;
      keepSending(ended.p, ended.t, 1000);
      expect(ended.p.estimate).toBe(settled);
      const idle = ended.t + 60_000;
      ended.p.sent(idle);
      expect(ended.p.wait(idle)).toBeLessThan(1000 / ended.p.rate(idle)!);
    }
  });

  it('a bucket of one call: a 429 after the doubling held searches too from 20 req/s, and slow start\'s round counts the bucket\'s refills as it went out', () => {
    // A round of `calls` callers side by side going out over `ms`; the bucket admitted `admitted` of them, the rest met
    // 429s. Then the ramp, and a 429 after `before` calls admitted at the doubled pace.
    const afterRound = (admitted: number, before: number, calls = 50, ms = 20): { p: Pacing; pace: number; t: number } => {
      const p = new Pacing();
      for (let i = 0; i < calls; i++) p.sent((i * ms) / calls);
      for (let i = 0; i < admitted; i++) p.answered(1 + ((ms - 1) * i) / Math.max(1, admitted - 1), 'admitted');
      expect(p.answered(ms, 'throttled')).toBe(true);
      for (let i = admitted + 1; i < calls; i++) expect(p.answered(ms, 'throttled')).toBe(false);
      let t = ms;
      while (p.estimate <= 100) {
        t += 5;
        p.sent(t);
        p.answered(t, 'admitted');
      }
      const pace = p.rate(t)!;
      for (let i = 0; i < before; i++) {
        t += 1000 / pace;
        p.sent(t);
        p.answered(t, 'admitted');
      }
      p.sent(t);
      expect(p.answered(t, 'throttled')).toBe(true);
      return { p, pace, t };
    };
    // Four admitted: the one, and what a one-call bucket refills in 20 ms at that pace. Two answers were admitted at
    // the doubled pace before the 429: it was the jitter of a plan near the pace, and the search climbs from what the
    // ramp admitted (at least half the pace) in small steps.
    const late = afterRound(4, 2);
    expect(late.pace).toBeGreaterThan(100);
    const from = late.p.estimate;
    expect(from).toBeGreaterThanOrEqual(late.pace / 2);
    expect(from).toBeLessThanOrEqual(late.pace);
    sendAtPace(late.p, late.t, late.t + 300); // one step of the ramp (RAMP_MS)
    expect(late.p.estimate).toBeCloseTo(from * SEARCH_FACTOR);
    // A bucket of more calls: six admitted in the same round (more than a one-call bucket refills in 20 ms), or a slow
    // round (at internet latency) that most of its calls got through: the ramp ends at the 429, and the pace stays.
    for (const bigger of [afterRound(6, 2), afterRound(10, 2, 12, 200)]) {
      expect(bigger.pace).toBeGreaterThan(20);
      const settled = bigger.p.estimate;
      expect(settled).toBeGreaterThan(bigger.pace / 2);
      sendAtPace(bigger.p, bigger.t, bigger.t + 300);
      expect(bigger.p.estimate).toBe(settled);
    }
  });

  it('a bucket of one call below 5 req/s: a 429 at a doubling from 2 req/s searches too, after a round of callers side by side', () => {
    /** The ramp from slow start's guess (1 req/s) until its pace reaches `top`, each call admitted; then a 429. */
    const rampTo = (p: Pacing, top: number): number => {
      let t = 0;
      while (p.estimate < top) {
        t += 200;
        p.sent(t);
        p.answered(t + 1, 'admitted');
      }
      p.sent(t + 200);
      expect(p.answered(t + 201, 'throttled')).toBe(true);
      return t + 201;
    };
    /** Admitted calls for `ms` after `from`, one every 100 ms, and the estimate after them. */
    const climbed = (p: Pacing, from: number, ms: number): number => {
      for (let t = from + 100; t <= from + ms; t += 100) {
        p.sent(t);
        p.answered(t + 1, 'admitted');
      }
      return p.estimate;
    };
    // Two calls in flight at once, one admitted: the 429 at 4 req/s (a 3/1 plan) puts the plan between 2 and 4, and
    // the ramp climbs from 2 in the search's steps …
    const side = throttledAfter(1);
    const at = rampTo(side, 4);
    expect(side.estimate).toBe(2);
    expect(climbed(side, at, 1000)).toBeGreaterThan(2 * SEARCH_FACTOR);
    // … and so does the 429 at the first doubling (2 req/s: a 2/1 plan, met by the jitter of arrivals), from 1 req/s.
    const early = throttledAfter(1);
    const earlyAt = rampTo(early, 2);
    expect(early.estimate).toBe(1);
    expect(climbed(early, earlyAt, 1000)).toBeGreaterThan(SEARCH_FACTOR);
    // A 429 before any doubling (at slow start's guess, 1 req/s) searches nothing: the curve holds half the guess.
    const first = throttledAfter(1);
    const firstAt = rampTo(first, 1);
    expect(first.estimate).toBe(0.5);
    expect(climbed(first, firstAt, 1000)).toBe(first.estimate);
    // One caller (each call alone in slow start) does not search: one-caller processes sharing a key look the same.
    const alone = new Pacing();
    alone.sent(0);
    alone.answered(1, 'admitted');
    alone.sent(2);
    expect(alone.answered(3, 'throttled')).toBe(true);
    expect(alone.estimate).toBe(LONE_GUESS);
    const aloneAt = rampTo(alone, 3.9);
    expect(alone.estimate).toBeCloseTo(2 * LONE_GUESS);
    expect(climbed(alone, aloneAt, 1000)).toBe(alone.estimate);
  });

  it('a bucket of one call below 5 req/s: the search\'s 429 sets the step below less the jitter of arrivals, which on 2/1 is the plan itself', () => {
    // Two callers side by side in slow start, one admitted, on the emulator's 2/1 bucket: the ramp doubles from slow
    // start's guess (1 req/s) onto 2, meets its 429 at 4 and searches from 2 in SEARCH_FACTOR steps …
    const p = throttledAfter(1);
    const admit = emptyBucket(2, 1, 0);
    const doubling = untilThrottled(p, admit, 0);
    expect(doubling.pace).toBe(4);
    expect(p.estimate).toBe(2);
    // … whose first step, 2.16 req/s, meets the next 429: the plan lies between 2 and 2.16, and 2 is the plan itself,
    // where any call that arrives early is refused. The estimate is 2 less the jitter (a spacing 3 ms longer).
    const step = untilThrottled(p, admit, doubling.t);
    expect(step.pace).toBeCloseTo(2 * SEARCH_FACTOR);
    expect(p.estimate).toBeCloseTo(1000 / (500 + SLOW_JITTER_MS));
    // The curve regains that, and no higher, until it probes: a spacing of at least the plan's 500 ms and the jitter.
    const regained = step.t + (60 / p.estimate) * 1000;
    expect(1000 / p.rate(regained)!).toBeGreaterThanOrEqual(500 + SLOW_JITTER_MS - 1e-9);
  });

  it('one caller on a one-call bucket: the ramp\'s doublings from slow start\'s guess end just under plans of 2 and 4 req/s, so an early arrival does not refuse them', () => {
    for (const plan of [2, 4]) {
      const bucket = fullBucket(plan, 1);
      // Every other call reaches the plan 1.5 ms sooner than it went (the jitter of arrivals over loopback).
      let n = 0;
      const admit = (t: number): boolean => bucket(t - (n++ % 2) * 1.5);
      const p = new Pacing();
      const start = loneCaller(p, admit, 0); // slow start: one call admitted, the next refused at once
      expect(start.admitted).toBe(1);
      expect(p.estimate).toBe(LONE_GUESS);
      // The ramp doubles at each call admitted (the guess, then each doubling up to the plan): the one past it meets the 429.
      const ramp = loneCaller(p, admit, start.t + 1);
      expect(ramp.admitted).toBe(Math.log2(plan) + 1);
      // The plan lies between the doubling that held and the one that did not: the estimate is within 2 % of it, not
      // at half (a guess of exactly 1 req/s doubles onto the plan, and the early arrival refuses that call).
      expect(p.estimate).toBeGreaterThanOrEqual(0.98 * plan);
      expect(p.estimate).toBeLessThan(plan);
    }
  });

  it('one caller on a one-call bucket: a doubling the plan admitted, then a 429 from the jitter of arrivals, sets the pace just below the plan, not at what the ramp admitted', () => {
    const bucket = fullBucket(32, 1);
    // The third call at the spacing of 31.36 req/s (0.98 × 32, the doublings' end) reaches the plan 1 ms early.
    let close = 0;
    let last = -Infinity;
    const admit = (t: number): boolean => {
      const early = t - last > 31 && t - last < 32 && ++close === 3 ? 1 : 0;
      last = t;
      return bucket(t - early);
    };
    const p = new Pacing();
    const start = loneCaller(p, admit, 0);
    expect(start.admitted).toBe(1);
    const ramp = loneCaller(p, admit, start.t + 1);
    // Two calls admitted at the doubled spacing, then the 429: the plan lies at that pace, less the jitter (1.5 ms a
    // spacing), where taking it for a ramp's end set what the ramp admitted since its step (about 21 req/s).
    const pace = 2 ** 5 * LONE_GUESS;
    expect(close).toBe(3);
    expect(p.estimate).toBeCloseTo(1000 / (1000 / pace + JITTER_MS));
    expect(p.estimate).toBeGreaterThan(0.9 * 32);
    // The caller slept in its backoff; its retry goes 700 ms after the 429, long after its slot, and the call after
    // it waits a whole interval (a bucket of one call: no catching up, which sent it 4 ms early).
    const retry = ramp.t + 700;
    expect(p.wait(retry)).toBe(0);
    p.sent(retry);
    p.answered(retry + 1, 'admitted');
    expect(p.wait(retry + 1)).toBeCloseTo(1000 / p.rate(retry)! - 1);
  });

  it('a bucket of one call whose 429 left its callers asleep in their backoff probes on a clock of that sleep', () => {
    /** The ramp past 40 req/s and its 429 (`rampThen429`), then a 429 after 300 ms more: the pacing and that 429's time. */
    const searched = (burst: number): { p: Pacing; t: number } => {
      const { p, t: rampEnd } = rampThen429(burst, 0);
      const t = sendAtPace(p, rampEnd, rampEnd + 300);
      p.sent(t);
      expect(p.answered(t, 'throttled')).toBe(true);
      return { p, t };
    };
    /**
     * The callers' next call comes `sleepMs` after the 429 at `cutAt`, then one at each slot of the pace, all
     * admitted. Returns the estimate that 429 set and the pace `regains` regains after it (and `extraMs` more).
     */
    const resume = (p: Pacing, cutAt: number, sleepMs: number, regains = 2, extraMs = 0): { estimate: number; pace: number } => {
      const estimate = p.estimate;
      p.sent(cutAt + sleepMs);
      p.answered(cutAt + sleepMs, 'admitted');
      const regainMs = Math.max(MIN_REGAIN_MS, (60 / estimate) * 1000);
      const t = sendAtPace(p, cutAt + sleepMs, cutAt + regains * regainMs + extraMs);
      return { estimate, pace: p.rate(t)! };
    };
    const probeAfter = (burst: number, sleepMs: number, regains = 2, extraMs = 0): { estimate: number; pace: number } => {
      const { p, t } = searched(burst);
      return resume(p, t, sleepMs, regains, extraMs);
    };
    // The callers went on at once (several of them): past the regain, the probe on the regain's clock.
    const wentOn = probeAfter(1, 0);
    expect(wentOn.pace).toBeGreaterThan(wentOn.estimate * (1 + CUT * 0.9));
    // A lone caller slept 800 ms: its probe runs on a clock 45 times that (36 s), not a sixth as far above the estimate.
    const slept = probeAfter(1, 800);
    expect(slept.pace).toBeGreaterThan(slept.estimate);
    expect(slept.pace).toBeLessThan(slept.estimate * (1 + CUT / 6));
    // Idle for 5 s after the 429 counts as a backoff's sleep of 1 s: a regain and 45 s after, a whole CUT above.
    const idle = probeAfter(1, 5000, 1, 45_000);
    expect(idle.pace).toBeGreaterThan(idle.estimate * (1 + CUT * 0.9));
    // A bigger bucket (slow start admitted 10) stores most of what the plan refilled in the sleep (about 30 calls at
    // this estimate, less than four bucketfuls): the regain's clock. Where slow start admitted 5, the sleep refilled
    // more than four bucketfuls: the sleep's clock.
    const bigger = probeAfter(10, 800);
    expect(bigger.estimate * 0.8).toBeLessThan(4 * 10);
    expect(bigger.pace).toBeGreaterThan(bigger.estimate * (1 + CUT * 0.9));
    const small = probeAfter(5, 800);
    expect(small.estimate * 0.8).toBeGreaterThan(4 * 5);
    expect(small.pace).toBeLessThan(small.estimate * (1 + CUT / 6));
    // A 429 100 ms after the caller came back from its sleep reads the plan low (a few answers, less what the bucket
    // may have stored meanwhile): far below the largest estimate held, it regrows on the regain's clock, sleep or not.
    const { p, t } = searched(1);
    const back = sendAtPace(p, t + 800, t + 900);
    p.sent(back);
    expect(p.answered(back, 'throttled')).toBe(true);
    const low = resume(p, back, 800);
    expect(low.estimate).toBeLessThan(0.9 * slept.estimate);
    expect(low.pace).toBeGreaterThan(low.estimate * (1 + CUT * 0.9));
  });

  it('a bucket of one call past its search holds the pace: a 429 now and then steps it down by HOLD_STEP, five close together cut, and the hold goes on from the cut', () => {
    /** The search's 429 after 150 ms, then `sleepMs` before the callers' next call, then calls at each slot for 3 s. */
    const held = (sleepMs: number): { p: Pacing; t: number } => {
      const { p, t: rampEnd } = rampThen429(1, 0);
      const searchEnd = sendAtPace(p, rampEnd, rampEnd + 150);
      p.sent(searchEnd);
      expect(p.answered(searchEnd, 'throttled')).toBe(true);
      return { p, t: sendAtPace(p, searchEnd + sleepMs, searchEnd + sleepMs + 3000) };
    };
    // Callers that went on at once: jitter refuses a call now and then at any pace near the plan, and such a 429 only
    // steps the pace down (a cut would set it at what was admitted since an earlier 429, and ratchet it down).
    const { p, t } = held(0);
    const before = p.estimate;
    p.sent(t);
    expect(p.answered(t, 'throttled')).toBe(false);
    expect(p.estimate).toBeCloseTo(before * (1 - HOLD_STEP), 9);
    expect(p.rate(t)).toBeCloseTo(p.estimate, 9);
    // Four more within HOLD_CALLS answers: the plan is lower (or other processes came): the fifth is cut as before.
    let at = t;
    for (const cut of [false, false, false, true]) {
      at = sendAtPace(p, at, at + 100);
      const stepped = p.estimate;
      p.sent(at);
      expect(p.answered(at, 'throttled')).toBe(cut);
      if (!cut) expect(p.estimate).toBeCloseTo(stepped * (1 - HOLD_STEP), 9);
    }
    // The curve again, below the cut's estimate, until an answer to a call sent since comes back admitted: from there
    // the cut's estimate is held again (the cut measured what the plan admits now), and a 429 only steps it down.
    const cutEstimate = p.estimate;
    expect(p.rate(at)).toBeLessThan(cutEstimate);
    const again = sendAtPace(p, at, at + 200);
    expect(p.rate(again)).toBeGreaterThanOrEqual(cutEstimate);
    expect(p.rate(again)).toBeCloseTo(p.estimate, 9);
    p.sent(again);
    expect(p.answered(again, 'throttled')).toBe(false);
    // A 429 after HOLD_CALLS answers with none is rare: it steps the held pace down too.
    const quiet = sendAtPace(p, again, again + (1000 * (HOLD_CALLS + 20)) / p.estimate);
    const pace = p.rate(quiet)!;
    p.sent(quiet);
    expect(p.answered(quiet, 'throttled')).toBe(false);
    expect(p.estimate).toBeCloseTo(pace * (1 - HOLD_STEP), 9);
    // A hold that ends long after the search's 429 is cut at the pace it held, not at the curve's, whose clock ran on
    // from that 429 (past the regain it reads above the estimate, up to twice what the callers sent).
    const late = held(0);
    let when = late.t;
    for (let i = 0; i < 6; i++) {
      when = sendAtPace(late.p, when, when + 3000);
      late.p.sent(when);
      expect(late.p.answered(when, 'throttled')).toBe(false);
    }
    let heldPace = 0;
    for (let ended = false; !ended;) {
      when = sendAtPace(late.p, when, when + 100);
      heldPace = late.p.rate(when)!;
      late.p.sent(when);
      ended = late.p.answered(when, 'throttled');
    }
    expect(late.p.estimate).toBeLessThan(1.05 * heldPace);
    // A lone caller asleep in its backoff after the search's 429 is not held: each of its 429s cost it that sleep.
    const lone = held(800);
    lone.p.sent(lone.t);
    expect(lone.p.answered(lone.t, 'throttled')).toBe(true);
  });

  it('a bucket of one call: the ramp steps on each call admitted at its spacing, and the next slot comes forward', () => {
    // One call admitted out of slow start: the guess is the smallest plan, and the ramp's first call waits its interval.
    const p = throttledAfter(1);
    expect(p.estimate).toBe(1);
    expect(p.wait(0)).toBe(1000);
    p.sent(1000);
    expect(p.wait(1000)).toBe(1000);
    // Admitted: a one-call bucket stored nothing, so the step is proven; the slot moves to the new spacing at once.
    expect(p.answered(1000, 'admitted')).toBe(true);
    expect(p.estimate).toBe(2);
    expect(p.wait(1000)).toBe(500);
    // An answer to a call sent before a step speaks for the pace before it: no step on it …
    p.sent(1500); // A
    p.sent(1510); // B, in flight at the next step
    expect(p.answered(1600, 'admitted')).toBe(true); // A: 2 → 4
    p.sent(1650); // C
    expect(p.answered(1750, 'admitted')).toBe(false); // B
    expect(p.estimate).toBe(4);
    // … the answer to a call sent after it steps.
    expect(p.answered(1760, 'admitted')).toBe(true); // C
    expect(p.estimate).toBe(8);
    // A bigger bucket (five out of slow start) steps after two calls and RAMP_MS, and moves no slot.
    const q = throttledAfter(5);
    q.sent(300);
    expect(q.answered(300, 'admitted')).toBe(false);
    expect(q.estimate).toBe(5);
  });

  it('429s of calls in flight when the pace was cut belong to that cut', () => {
    const p = new Pacing();
    send(p, 0, 10);
    expect(p.answered(1, 'throttled')).toBe(true);
    for (let i = 0; i < 9; i++) expect(p.answered(2, 'throttled')).toBe(false);
    p.sent(500);
    expect(p.answered(501, 'throttled')).toBe(true);
  });

  it('a call sent before the cut\'s own answers were all back met the same congestion: its 429 cuts nothing', () => {
    const p = new Pacing();
    send(p, 0, 10);
    expect(p.answered(1, 'throttled')).toBe(true);
    const estimate = p.estimate;
    p.sent(40); // paced, while 9 of the round are still on their way
    for (let i = 0; i < 9; i++) expect(p.answered(50, 'throttled')).toBe(false);
    expect(p.answered(60, 'throttled')).toBe(false);
    expect(p.estimate).toBe(estimate);
    p.sent(500); // sent once the round was all back
    expect(p.answered(501, 'throttled')).toBe(true);
    expect(p.estimate).toBeLessThan(estimate);
  });

  it('a 429 with nothing admitted since slow start\'s: at the guess itself 0.7 of it (after a doubling, half: above)', () => {
    const p = throttledAfter(10);
    expect(p.rate(1000)).toBe(10);
    p.sent(1000);
    expect(p.answered(1000, 'throttled')).toBe(true);
    expect(p.estimate).toBeCloseTo(MD_BETA * 10);
  });

  it('between two 429s the plan lies between the rate it admitted and the pace that met the second', () => {
    const p = throttledAfter(0, 0); // guessed at 1 req/s: the ramp climbs from there
    p.sent(0);
    p.answered(1, 'throttled'); // stuck: 0.5 req/s, no longer ramping
    // The second 429 anchors the third: 10 s in which 80 answers were admitted, so about 8 req/s.
    let t = 1;
    for (let i = 0; i < 80; i++) {
      t += 125;
      p.sent(t);
      p.answered(t, 'admitted');
    }
    p.sent(t);
    const pace = p.rate(t)!;
    p.answered(t, 'throttled');
    const admitted = 80 / ((t - 1) / 1000);
    expect(p.estimate).toBeGreaterThanOrEqual(admitted - 1e-9);
    expect(p.estimate).toBeLessThanOrEqual(Math.max(admitted, pace));
  });

  it('after a 429 that left its callers asleep, a few answers are no measure: the next 429 is judged against an earlier one', () => {
    /** Past the ramp (estimate 50), the callers' first call `wake` ms after the last 429, five admitted 400 ms apart, a 429. */
    const fiveThen429 = (wake: number): number => {
      const { p, t } = pastTheRamp();
      let u = t + wake;
      for (let i = 0; i < 5; i++) {
        p.sent(u);
        p.answered(u + 1, 'admitted');
        u += 400;
      }
      p.sent(u);
      expect(p.answered(u + 1, 'throttled')).toBe(true);
      return p.estimate;
    };
    // Callers that went on at once: five answers since the last 429 measure the plan (about 3 req/s admitted).
    const awake = fiveThen429(10);
    expect(awake).toBeLessThan(15);
    // One caller back from a 1 s backoff: processes sharing the key wake in random order, so five answers say who woke
    // first. It takes 0.8 s of answers at the estimate (at most 10: 10 here), so the 429 is judged against the ramp's,
    // with the 200 answers since: the estimate stays near the pace (set from the five, it read 9 req/s).
    const asleep = fiveThen429(1000);
    expect(asleep).toBeGreaterThan(3 * awake);
    expect(asleep).toBeGreaterThan(30);
  });

  it('a 429 before the probe with the pace in use sets the estimate near what was admitted; with the pace unused, half way to the pace', () => {
    /** Past the ramp, then 2 s at every `every`th slot of the pace, half the answers lost. */
    const run = (every: number): { estimate: number; admitted: number; pace: number } => {
      const { p, t: cutAt } = pastTheRamp();
      let t = cutAt;
      let admitted = 0;
      for (let slot = 0; t < cutAt + 2000; slot++) {
        t += 1000 / p.rate(t)!;
        if (slot % every !== 0) continue;
        p.sent(t);
        admitted += slot % (2 * every) === 0 ? 1 : 0;
        p.answered(t, slot % (2 * every) === 0 ? 'admitted' : 'lost');
      }
      p.sent(t);
      const pace = p.rate(t)!;
      expect(p.answered(t, 'throttled')).toBe(true);
      return { estimate: p.estimate, admitted: (admitted * 1000) / (t - cutAt), pace };
    };
    const inUse = run(1);
    expect(inUse.estimate).toBeGreaterThanOrEqual(inUse.admitted);
    expect(inUse.estimate - inUse.admitted).toBeLessThan(0.15 * (inUse.pace - inUse.admitted));
    const unused = run(4);
    expect(unused.estimate).toBeCloseTo(Math.sqrt(unused.admitted * unused.pace));
  });

  it('after a cut the pace starts below the estimate, regains it no sooner than MIN_REGAIN_MS, then probes above', () => {
    const { p, t: cutAt } = pastTheRamp();
    let t = cutAt;
    const estimate = p.estimate;
    const keepSending = (until: number): void => {
      while (t < until) {
        t += 1000 / (p.rate(t) ?? 1);
        p.sent(t);
        p.answered(t, 'admitted');
      }
    };
    expect(p.rate(cutAt)).toBeCloseTo(estimate * (1 - CUT));
    keepSending(cutAt + MIN_REGAIN_MS / 2);
    expect(p.rate(t)!).toBeLessThan(estimate);
    keepSending(cutAt + MIN_REGAIN_MS * 2.5);
    expect(p.rate(t)!).toBeGreaterThan(estimate * 1.05);
  });

  it('past the estimate the probe grows in units of the largest estimate held, so a squeezed share comes back fast', () => {
    const { p, t: rampEnd } = pastTheRamp();
    const peak = p.estimate; // measured at the end of the climb
    const cutAt = squeezeBelow(p, rampEnd, peak / 4); // each 429 halves the pace
    const squeezed = p.estimate;
    const regainMs = Math.max(MIN_REGAIN_MS, (60 / squeezed) * 1000);
    const t = sendAtPace(p, cutAt, cutAt + 2 * regainMs);
    const cube = ((t - cutAt - regainMs) / regainMs) ** 3;
    expect(p.rate(t)!).toBeCloseTo(squeezed + CUT * peak * cube);
    expect(p.rate(t)!).toBeGreaterThan(squeezed * (1 + 3 * CUT)); // in units of its own share it would be 1 + CUT
  });

  it('a share squeezed below two thirds of what a cut once measured probes on the clock of that share, not of its own', () => {
    const { p, t: climbEnd } = pastTheRamp();
    const climbed = p.estimate;
    // Two seconds at the pace, every call admitted, then a 429: measured against the climb's end, the plan admitted
    // this process about its pace.
    const measuredAt = sendAtPace(p, climbEnd, climbEnd + 2000);
    p.sent(measuredAt);
    expect(p.answered(measuredAt, 'throttled')).toBe(true);
    const measured = p.estimate;
    expect(measured).toBeGreaterThan(10); // so that share's regain is MIN_REGAIN_MS
    const cutAt = squeezeBelow(p, measuredAt, measured / 8);
    const squeezed = p.estimate;
    const regainMs = Math.max(MIN_REGAIN_MS, (60 / squeezed) * 1000);
    expect(regainMs).toBeGreaterThan(MIN_REGAIN_MS); // its own clock is slower
    const t = sendAtPace(p, cutAt, cutAt + regainMs + MIN_REGAIN_MS);
    const scale = Math.max(climbed, measured);
    const past = t - cutAt - regainMs;
    expect(p.rate(t)!).toBeCloseTo(squeezed + CUT * scale * (past / MIN_REGAIN_MS) ** 3);
    // On its own clock the probe would have grown by less than a third of that.
    expect(CUT * scale * (past / regainMs) ** 3).toBeLessThan((p.rate(t)! - squeezed) / 3);
  });

  it('two minutes after what it measured, a squeezed share probes on its own clock again (a plan that shrank)', () => {
    const { p, t: climbEnd } = pastTheRamp();
    const measuredAt = sendAtPace(p, climbEnd, climbEnd + 2000);
    p.sent(measuredAt);
    expect(p.answered(measuredAt, 'throttled')).toBe(true);
    const measured = p.estimate;
    // The plan is now an eighth of what was measured: the 429s say so within seconds.
    const cutAt = squeezeBelow(p, measuredAt, measured / 8);
    const squeezed = p.estimate;
    const regainMs = Math.max(MIN_REGAIN_MS, (60 / squeezed) * 1000);
    // Calls at the pace (on the measured share's clock while it is held) until the hold has run out. Their answers are
    // lost: admitted ones, two regains without a 429, would run the ramp again (`rampsAgain`, tested below) and hide
    // the curve's clock.
    const t = sendAtPace(p, cutAt, measuredAt + PEAK_HOLD_MS + 1000, 'lost');
    expect(t - cutAt).toBeGreaterThan(regainMs);
    const own = ((t - cutAt - regainMs) / regainMs) ** 3;
    expect(p.rate(t)!).toBeCloseTo(squeezed * (1 + CUT * own));
  });

  it('a pace the callers did not use grows no further than twice what they sent lately', () => {
    const p = throttledAfter(10, 0);
    p.sent(0);
    p.answered(0, 'throttled'); // out of the ramp
    expect(p.rate(120_000)).toBe(p.estimate); // two minutes idle: no licence to burst at a grown pace
  });

  it('a configured rate lets its burst go at once, then spaces calls; a 429 still cuts below it', () => {
    const p = new Pacing({ requestsPerSecond: 10, burst: 3 });
    expect(p.paced).toBe(true);
    for (let i = 0; i < 3; i++) {
      expect(p.wait(0)).toBe(0);
      p.sent(0);
    }
    expect(p.wait(0)).toBe(300); // no span of 300 ms holds more than the burst
    p.sent(300);
    expect(p.wait(300)).toBe(100);
    for (let i = 0; i < 4; i++) p.answered(301, 'admitted');
    p.sent(400);
    p.answered(401, 'throttled');
    expect(p.estimate).toBeLessThan(10);
    expect(p.rate(401)!).toBeLessThan(10);
  });

  it('a key-wide pause moves the next paced slot to its end', () => {
    const p = throttledAfter(10, 0);
    p.pausedUntil(5000);
    expect(p.wait(0)).toBe(5000);
  });
});

describe('Pacing after a raised plan', () => {
  /** One caller at every slot from `t` until `until`, answered by `admit` 1 ms later (no backoff: never asleep). */
  function busy(p: Pacing, admit: (t: number) => boolean, t: number, until: number): number {
    while (t < until) {
      t += p.wait(t);
      p.sent(t);
      p.answered(t + 1, admit(t) ? 'admitted' : 'throttled');
      t += 1;
    }
    return t;
  }

  it('the probe that ran past 1.25× the estimate with no 429 for two regains ramps again, so 5/5 raised to 20/20 is found within seconds', () => {
    const p = new Pacing();
    let t = busy(p, fullBucket(5, 5), 0, 60_000);
    expect(p.estimate).toBeGreaterThan(4);
    expect(p.estimate).toBeLessThan(5.5);
    // The provider raises the plan: a full bucket of 20 from now.
    const raised = fullBucket(20, 20);
    const from = t;
    let found: number | undefined;
    while (t < from + 60_000 && found === undefined) {
      t = busy(p, (at) => raised(at - from), t, t + 500);
      if (p.rate(t)! >= 16) found = t - from;
    }
    // Along the cube alone, in units of the old plan, 16 req/s came 47 s after the raise (row 7n: 75 % of the new
    // plan in the first minute); ramping again, 26 s: two regains on the old estimate's clock, the cube to 1.25×, the
    // climb.
    expect(found).toBeDefined();
    expect(found!).toBeLessThan(35_000);
  });
});

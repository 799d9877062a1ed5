import { describe, expect, it } from 'vitest';
import { INITIAL_WINDOW, SlowStart } from './slow-start.ts';

/** Sends `n` calls at `now`, counting those already in flight. */
function send(s: SlowStart, now: number, n: number, inFlight = 0): number {
  for (let i = 0; i < n; i++) s.sent(now, inFlight + i);
  return inFlight + n;
}

describe('SlowStart', () => {
  it('a round is the window when it began, and it ends only when its last answer is in', () => {
    const s = new SlowStart();
    s.restart(0);
    const inFlight = send(s, 0, INITIAL_WINDOW);
    expect(s.canSend(inFlight)).toBe(false);
    expect(s.canSend(1)).toBe(false); // one answer still due: the round is not over
    for (let i = 0; i < INITIAL_WINDOW; i++) s.admitted(false);
    expect(s.canSend(0)).toBe(true);
    expect(s.window).toBe(2 * INITIAL_WINDOW); // every answer of a round that used the window grew it
    send(s, 10, 2 * INITIAL_WINDOW);
    expect(s.canSend(2 * INITIAL_WINDOW)).toBe(false);
  });

  it('callers too few to fill the window wait for the end of a round only in the spell\'s first second', () => {
    // Five callers, two calls each: five went out, were answered, and five more went: the round's ten.
    const tenOfFive = (s: SlowStart, at: number): void => {
      send(s, at, 5);
      send(s, at + 50, 5);
    };
    const early = new SlowStart();
    early.restart(0);
    tenOfFive(early, 0);
    expect(early.canSend(5)).toBe(false);
    const later = new SlowStart();
    later.restart(0);
    tenOfFive(later, 1200);
    expect(later.canSend(5)).toBe(true);
    // A round that had the window in flight waits for its last answer however old the spell.
    const full = new SlowStart();
    full.restart(0);
    send(full, 1200, INITIAL_WINDOW);
    expect(full.canSend(1)).toBe(false);
  });

  it('the window grows only while half of it was in flight at once, and not once calls are paced', () => {
    const lone = new SlowStart();
    lone.restart(0);
    for (let i = 0; i < 100; i++) {
      lone.sent(i, 0);
      lone.admitted(false);
    }
    expect(lone.window).toBe(INITIAL_WINDOW);
    const paced = new SlowStart();
    paced.restart(0);
    send(paced, 0, INITIAL_WINDOW);
    for (let i = 0; i < INITIAL_WINDOW; i++) paced.admitted(true);
    expect(paced.window).toBe(INITIAL_WINDOW);
  });

  it('a call that never went out gives its place in the round back', () => {
    const s = new SlowStart();
    s.restart(0);
    send(s, 0, INITIAL_WINDOW);
    expect(s.canSend(INITIAL_WINDOW - 1)).toBe(false);
    s.notSent();
    expect(s.canSend(INITIAL_WINDOW - 1)).toBe(true);
  });

  it('the guess counts the burst under way, not a call made alone before it', () => {
    const s = new SlowStart();
    s.restart(0);
    s.sent(0, 0); // alone: an organization read
    s.admitted(false);
    send(s, 600, 5);
    for (let i = 0; i < 3; i++) s.admitted(false);
    expect(s.burst(4)).toEqual({ admitted: 3, from: 600, alone: false });
  });

  it('a lone caller\'s calls, each sent alone, are one burst: the whole spell since it began, marked alone', () => {
    const s = new SlowStart();
    expect(s.unstarted).toBe(true);
    s.restart(100);
    expect(s.unstarted).toBe(false);
    for (let t = 100; t < 600; t += 100) {
      s.sent(t, 0);
      s.admitted(false);
    }
    expect(s.burst(5)).toEqual({ admitted: 5, from: 100, alone: true });
  });

  it('begun afresh, the window and the burst start over', () => {
    const s = new SlowStart();
    s.restart(0);
    send(s, 0, INITIAL_WINDOW);
    for (let i = 0; i < INITIAL_WINDOW; i++) s.admitted(false);
    s.restart(5000);
    expect(s.window).toBe(INITIAL_WINDOW);
    expect(s.burst(0)).toEqual({ admitted: 0, from: 5000, alone: true });
  });
});

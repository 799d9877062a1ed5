/** Test helper (not imported by the nodes): a clock that moves only when slept on. */
import { abortableSleep, type Clock } from './key-limiter.ts';

/**
 * @param start Epoch ms to start at.
 * @returns A clock whose `sleep` advances it at once; `slept` lists every wait. Limiters are shared per clock object.
 */
export function testClock(start = 0): Clock & { slept: number[] } {
  const state = { now: start, slept: [] as number[] };
  return {
    slept: state.slept,
    now: () => state.now,
    sleep: abortableSleep(async (ms) => {
      state.slept.push(ms);
      state.now += ms;
    }),
  };
}

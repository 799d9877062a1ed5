/**
 * What the period common to all is worth to `rate-oracle.ts`'s told pacings, and whether the shared clock could stand
 * in for it. Each process is told a share of `fraction × rate`, but the shares differ between processes (weights
 * 0.5 to 1.5, seeded), as the default's learned shares do. Two ways to send:
 *
 * - `push`: `rate-oracle.ts`'s, each on its own period (so the periods differ and the phases drift through one
 *   another);
 * - `ladder`: each share written in binary over a frame of a power of two ms (16 calls or more), each binary digit a
 *   progression whose period is a power of two ms on the clock all processes share (epoch time): any two periods
 *   divide one another, so which slots meet stays fixed, as with one common period, and the push can part them.
 *
 * Same cells, seeds and windows as `rate-oracle.ts`. Not part of `npm run bench`:
 *
 *   node --import tsx bench/rate-oracle-uneven.ts [fraction, default 0.87] [push, default 0.1 interval]
 *
 * `ORACLE_EVEN=1` gives every process the same share instead; `ORACLE_SPREAD=0.01` shares within 1 % of one another
 * (how equal must they be?).
 */
import type { Limiter, LimiterOptions, Outcome } from '../core/http/limiter.ts';
import { CELLS, type Cell, label, type Measured, meets, slotLimiter, SPAN, text } from './rate-oracle.ts';
import { simulated } from './rate-sweep.ts';

type Clock = Pick<LimiterOptions, 'now' | 'sleep'>;

interface Stream {
  periodMs: number;
  phaseMs: number;
  /** The last slot taken. */
  usedAt: number;
}

/** Sends at `rate` req/s on progressions of power-of-two periods (ms) of the shared clock; a 429 pushes its own. */
function ladderLimiter(clock: Clock, random: () => number, rate: number, pushMs: number): Limiter {
  let frameMs = 1;
  while ((frameMs * rate) / 1000 < 16) frameMs *= 2;
  const calls = Math.floor((frameMs * rate) / 1000);
  const streams: Stream[] = [];
  for (let bit = 0; 2 ** bit <= calls; bit++) {
    const periodMs = frameMs / 2 ** bit;
    if (calls & (2 ** bit)) streams.push({ periodMs, phaseMs: Math.floor(random() * periodMs), usedAt: -Infinity });
  }
  const nextOf = (s: Stream, from: number): number =>
    s.phaseMs + Math.ceil((Math.max(from, s.usedAt + 1e-9) - s.phaseMs) / s.periodMs) * s.periodMs;
  let line: Promise<unknown> = Promise.resolve();
  const slot = async (signal?: AbortSignal): Promise<Stream> => {
    for (;;) {
      const now = clock.now();
      const stream = streams.reduce((a, b) => (nextOf(b, now) < nextOf(a, now) ? b : a));
      const at = nextOf(stream, now);
      const phase = stream.phaseMs;
      await clock.sleep(at - now, signal);
      // Taken only if no push moved that progression meanwhile.
      if (stream.phaseMs === phase) {
        stream.usedAt = at;
        return stream;
      }
    }
  };
  return {
    schedule: async <T extends { outcome: Outcome }>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
      const mine = line.then(() => slot(signal));
      line = mine.catch(() => undefined);
      const stream = await mine;
      const result = await send();
      if (result.outcome === 'throttled') stream.phaseMs = (stream.phaseMs + Math.ceil(pushMs)) % stream.periodMs;
      return result;
    },
    pause: () => undefined,
    wait: (ms, signal) => clock.sleep(ms, signal),
    pauseRemaining: () => 0,
    failureStreak: 0,
  };
}

/** How far the weights of the shares spread: 1 ± this (`ORACLE_SPREAD`, default 0.5). */
const SPREAD = Number(process.env['ORACLE_SPREAD'] ?? 0.5);

/** Each process's share of `fraction × rate`: weights 1 ± {@link SPREAD} from a seeded generator (or all equal). */
function shares(cell: Cell, fraction: number, seed: number, even: boolean): number[] {
  let state = seed * 7919 + cell.processes * 31 + cell.rate;
  const weights = Array.from({ length: cell.processes }, () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return even ? 1 : 1 + SPREAD * (2 * (state / 2147483648) - 1);
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => (fraction * cell.rate * w) / sum);
}

function told(cell: Cell, fraction: number, push: number, way: 'push' | 'ladder', even: boolean): Promise<Measured> {
  const pushMs = (push * 1000) / cell.rate;
  return simulated(cell, SPAN, (seed) => {
    const share = shares(cell, fraction, seed, even);
    return (p, clock, random) => (way === 'push'
      ? slotLimiter(clock, random, 1000 / share[p]!, 'push', pushMs)
      : ladderLimiter(clock, random, share[p]!, pushMs));
  });
}

if (import.meta.main) {
  const fraction = Number(process.argv[2] ?? 0.87);
  const push = Number(process.argv[3] ?? 0.1);
  const even = process.env['ORACLE_EVEN'] === '1';
  const counts = { push: 0, ladder: 0 };
  process.stdout.write('| cell | push | ladder |\n|---|---|---|\n');
  for (const cell of CELLS) {
    const byPeriod = await told(cell, fraction, push, 'push', even);
    const byLadder = await told(cell, fraction, push, 'ladder', even);
    counts.push += meets(byPeriod) ? 1 : 0;
    counts.ladder += meets(byLadder) ? 1 : 0;
    process.stdout.write(`| ${label(cell)} | ${text(byPeriod)} | ${text(byLadder)} |\n`);
  }
  process.stdout.write(`\nof ${CELLS.length} cells, ${even ? 'even' : 'uneven'} shares of ${fraction} of the plan, push ${push} `
    + `interval: push ${counts.push}, ladder ${counts.ladder}\n`);
}

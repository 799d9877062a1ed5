/**
 * What a pacing that knows more could hold where the default falls short: processes sharing a slow or one-call
 * plan (row 7b's slow and burst-1 plans, where its short cells are). Each process here is *told* the plan's rate and
 * how many processes share it, which no client is, and sends on a fixed period of `processes / (fraction × rate)`
 * from a random phase, one call per slot: the "slot timing" direction of bench/notes/rate-control.md ("Several
 * processes on slow plans", (iii)) with its hard part, a period common to all, given for free. Three ways to meet a 429:
 *
 * - `fixed`: keep the phase (processes whose slots overlap on a one-call bucket collide on every period);
 * - `rephase`: move the phase by a random part of the period, so colliding processes drift apart until every slot
 *   is clear (slotted ALOHA's reservation variant, in continuous time);
 * - `push`: move the phase later by a part of the plan's interval (a 429 says someone was admitted less than an
 *   interval before): a small step, so colliding neighbours drift apart without jumping over the next one.
 *
 * And, for contrast, `assigned`: the phases handed out evenly over the period (process i of n at i/n of it), which
 * takes coordination between the processes: the same period with slots that never overlap.
 *
 * The same simulator (the real retry loop and its backoff), plans, seeds 1 to 3, 30 s runs and steady window (from
 * 10 s) as row 7b; the default's figure beside each. Not part of `npm run bench` (a finding, not a row to keep):
 *
 *   node --import tsx bench/rate-oracle.ts [fraction] [push]   one table (default 0.87 of the plan, push 0.1 interval)
 *   node --import tsx bench/rate-oracle.ts all                 fractions 0.86, 0.87, 0.9 × pushes 0.1, 0.25, 0.5:
 *                                                             the short cells no told pacing meets (about 20 s)
 *
 * `ORACLE_SECONDS=90 ORACLE_FROM=30` runs row 7e's span instead (90 s, steady from 30 s). `rate-oracle-uneven.ts`
 * asks what the common period is worth: the same push with shares that differ between the processes, and periods of
 * powers of two on the shared clock.
 */
import type { Limiter, LimiterOptions, Outcome } from '../core/http/limiter.ts';
import { simulated } from './rate-sweep.ts';

export type Way = 'fixed' | 'rephase' | 'push' | 'assigned';

/**
 * A limiter that sends on a grid of period `periodMs` from a random phase (`assigned`: at `assignedPhase` of the
 * period), one call per slot, and on a 429 maybe moves the phase. Callers line up; the head reads the grid when it
 * gets there (so a phase moved by the last answer counts at once) and sleeps again if the grid moved while it slept.
 */
export function slotLimiter(
  clock: Pick<LimiterOptions, 'now' | 'sleep'>,
  random: () => number, periodMs: number, way: Way, pushMs = 0, assignedPhase = 0,
): Limiter {
  let next = clock.now() + (way === 'assigned' ? assignedPhase * periodMs : random() * periodMs);
  let line: Promise<void> = Promise.resolve();
  const slot = async (signal?: AbortSignal): Promise<void> => {
    for (;;) {
      // The first slot of the grid not yet past.
      const late = clock.now() - next;
      if (late > 0) next += Math.ceil(late / periodMs) * periodMs;
      const at = next;
      await clock.sleep(at - clock.now(), signal);
      if (next === at) break;
    }
    next += periodMs;
  };
  const limiter: Limiter = {
    schedule: async <T extends { outcome: Outcome }>(send: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
      const mine = line.then(() => slot(signal));
      line = mine.catch(() => undefined);
      await mine;
      const result = await send();
      if (result.outcome === 'throttled' && way === 'rephase') next += random() * periodMs;
      if (result.outcome === 'throttled' && way === 'push') next += pushMs;
      return result;
    },
    // The grid is the only pace: no key-wide pause, and a retry's backoff is only slept.
    pause: () => undefined,
    wait: (ms, signal) => clock.sleep(ms, signal),
    pauseRemaining: () => 0,
    failureStreak: 0,
  };
  return limiter;
}

/** Row 7b's span, or another (`ORACLE_SECONDS`, `ORACLE_FROM`: a run's length and where its steady state begins). */
export const SPAN = {
  durationMs: Number(process.env['ORACLE_SECONDS'] ?? 30) * 1000,
  steadyFromMs: Number(process.env['ORACLE_FROM'] ?? 10) * 1000,
};

export interface Cell {
  rate: number;
  burst: number;
  processes: number;
  callers: number;
}

/** Row 7b's plans of up to 5 req/s and its burst-1 plans up to 100 req/s, with 2, 4 and 8 processes of 1 and 10 callers. */
export const CELLS: Cell[] = [];
for (const [rate, burst] of [[1, 1], [1, 2], [2, 1], [2, 2], [2, 4], [5, 1], [5, 5], [5, 10], [7, 1], [20, 1], [50, 1], [100, 1]] as const) {
  for (const processes of [2, 4, 8]) {
    for (const callers of [1, 10]) CELLS.push({ rate, burst, processes, callers });
  }
}

function oracle(cell: Cell, fraction: number, way: Way, push: number): Promise<Measured> {
  const periodMs = (cell.processes / (fraction * cell.rate)) * 1000;
  const pushMs = (push * 1000) / cell.rate;
  return simulated(cell, SPAN, () => (p, clock, random) => slotLimiter(clock, random, periodMs, way, pushMs, p / cell.processes));
}

export interface Measured {
  share: number;
  throttled: number;
  failed: number;
}

export const meets = (r: Measured): boolean => r.share >= 0.85 && r.throttled < 0.03 && r.failed === 0;
export const text = (r: Measured): string =>
  `${Math.round(r.share * 100)} % / ${(r.throttled * 100).toFixed(1)} %${r.failed ? ` / ${r.failed} failed` : ''}${meets(r) ? '' : ' ✗'}`;

export const label = (cell: Cell): string => `${cell.rate}/${cell.burst} ${cell.processes} × ${cell.callers}`;

/** One table: each cell's default figure and the told pacings', and how many meet. */
async function oneTable(fraction: number, push: number): Promise<void> {
  const ways: Way[] = ['fixed', 'rephase', 'push', 'assigned'];
  const counts = new Map<string, number>();
  const count = (key: string, r: Measured): void => { counts.set(key, (counts.get(key) ?? 0) + (meets(r) ? 1 : 0)); };
  process.stdout.write(`| plan | processes × callers | default | ${ways.join(' | ')} |\n|---|---|---|${ways.map(() => '---').join('|')}|\n`);
  for (const cell of CELLS) {
    const base = await simulated({ ...cell }, SPAN);
    count('default', base);
    const told: string[] = [];
    for (const way of ways) {
      const r = await oracle(cell, fraction, way, push);
      count(way, r);
      told.push(text(r));
    }
    process.stdout.write(`| ${cell.rate}/${cell.burst} | ${cell.processes} × ${cell.callers} | ${text(base)} | ${told.join(' | ')} |\n`);
  }
  const met = [...counts].map(([k, v]) => `${k} ${v}`).join(', ');
  process.stdout.write(`\nof ${CELLS.length} cells, meeting (>= 85 %, < 3 % 429s, none failed), `
    + `a period for ${fraction} of the plan, push ${push} interval: ${met}\n`);
}

/** Every told pacing over a grid of fractions and pushes: the default's short cells that none of them meets. */
async function union(): Promise<void> {
  const reached = new Map<string, string>();
  let defaultMeets = 0;
  const short: Cell[] = [];
  for (const cell of CELLS) {
    if (meets(await simulated({ ...cell }, SPAN))) defaultMeets += 1;
    else short.push(cell);
  }
  for (const fraction of [0.86, 0.87, 0.9]) {
    for (const push of [0.1, 0.25, 0.5]) {
      for (const cell of short) {
        for (const way of ['fixed', 'rephase', 'push'] as const) {
          if (way !== 'push' && push !== 0.1) continue; // the push is only the push's
          const r = await oracle(cell, fraction, way, push);
          if (!meets(r) || reached.has(label(cell))) continue;
          reached.set(label(cell), `${way} at ${fraction}${way === 'push' ? `, push ${push}` : ''}: ${text(r)}`);
        }
      }
    }
  }
  process.stdout.write(`default: ${defaultMeets} of ${CELLS.length} meet; of its ${short.length} short cells a told pacing meets ${reached.size}:\n`);
  for (const cell of short) if (reached.has(label(cell))) process.stdout.write(`  ${label(cell)}: ${reached.get(label(cell))}\n`);
  process.stdout.write(`none meets these ${short.length - reached.size}:\n`);
  for (const cell of short) if (!reached.has(label(cell))) process.stdout.write(`  ${label(cell)}\n`);
}

if (import.meta.main) {
  if (process.argv[2] === 'all') await union();
  else await oneTable(Number(process.argv[2] ?? 0.87), Number(process.argv[3] ?? 0.1));
}

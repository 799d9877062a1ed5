/**
 * Benchmark 7j: the default rate at plans off the sweep's grid, in virtual time (`test/support/rate-sim.ts`, as
 * 7a and 7b), each run judged on its own rather than the median of three. The grid's cells are the points every
 * change to the pacing is tuned against; this row is where a change that helps them at the cost of the plans
 * between them shows (issue 14: "not by tuning to a few points"). About 15 s.
 *
 * - One process: 3 to 150 req/s (none of the grid's rates) × bursts of 1, half the rate, the rate and twice it ×
 *   1, 3, 10 and 100 callers; seeds 1–3.
 * - Several processes: 3 to 20 req/s, where each process's share is a few calls a second × bursts of half the rate
 *   to twice it × 2, 3, 4 and 8 processes of 1 or 10 callers; seeds 1–6 (these swing most from seed to seed).
 */
import { simulate, steady } from '../test/support/rate-sim.ts';
import { label, meets, type Cell } from './rate-sweep.ts';
import type { BenchResult } from './support.ts';

/** One cell: how many of its runs met the target, and its mean share and 429s. */
export interface OffGridCell extends Cell {
  runs: number;
  met: number;
  share: number;
  throttled: number;
}

async function cell(c: Cell, seeds: number): Promise<OffGridCell> {
  const runs = await Promise.all(Array.from({ length: seeds }, async (_, i) => {
    const run = await simulate({
      plan: { ratePerSecond: c.rate, burst: c.burst }, processes: c.processes, callers: c.callers, durationMs: 30_000, seed: i + 1,
    });
    return { ...c, ...steady(run, { ratePerSecond: c.rate }, 10_000, 30_000), failed: run.failed };
  }));
  const mean = (pick: (r: (typeof runs)[number]) => number): number => runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
  return { ...c, runs: runs.length, met: runs.filter(meets).length, share: mean((r) => r.share), throttled: mean((r) => r.throttled) };
}

/** Every cell of the row, one process first. */
export async function offGridCells(): Promise<OffGridCell[]> {
  const cells: OffGridCell[] = [];
  for (const rate of [3, 4, 8, 10, 12, 15, 25, 30, 40, 60, 80, 150]) {
    for (const burst of new Set([1, Math.max(1, Math.round(rate / 2)), rate, 2 * rate])) {
      for (const callers of [1, 3, 10, 100]) cells.push(await cell({ rate, burst, processes: 1, callers }, 3));
    }
  }
  for (const rate of [3, 4, 5, 6, 8, 10, 12, 15, 20]) {
    for (const burst of new Set([Math.max(1, Math.round(rate / 2)), rate, 2 * rate])) {
      for (const processes of [2, 3, 4, 8]) {
        for (const callers of [1, 10]) cells.push(await cell({ rate, burst, processes, callers }, 6));
      }
    }
  }
  return cells;
}

/** "m of n runs" over the cells chosen. */
export function runsMet(cells: OffGridCell[], where: (c: OffGridCell) => boolean = () => true): string {
  const chosen = cells.filter(where);
  return `${chosen.reduce((n, c) => n + c.met, 0)} of ${chosen.reduce((n, c) => n + c.runs, 0)}`;
}

/** Row 7j. */
export async function offGridBench(): Promise<BenchResult> {
  const cells = await offGridCells();
  const one = (c: OffGridCell): boolean => c.processes === 1;
  const worst = cells.filter((c) => c.met === 0).map(label);
  return {
    id: '7j',
    name: 'Default rate off the sweep\'s grid, virtual time, each run on its own (one process: 3–150 req/s × bursts 1–2×rate × 1–100 callers, 3 seeds; 2–8 processes on 3–20 req/s, 6 seeds)',
    result: `one process: ${runsMet(cells, one)} runs meet (burst 1: ${runsMet(cells, (c) => one(c) && c.burst === 1)}; `
      + `other bursts: ${runsMet(cells, (c) => one(c) && c.burst > 1)}); several processes: ${runsMet(cells, (c) => !one(c))} `
      + `(10 req/s and more: ${runsMet(cells, (c) => !one(c) && c.rate >= 10)}; 2 processes: ${runsMet(cells, (c) => c.processes === 2)}); `
      + `cells where no run meets: ${worst.length}`,
    target: 'every run: one process >= 90 % of the plan, 429s < 2 %; several: together >= 85 %, 429s < 3 %; no call failed',
    met: cells.every((c) => c.met === c.runs),
    details: { cells, failing: worst },
  };
}

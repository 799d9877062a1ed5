/**
 * Benchmark 7k: a process leaves the key. Two processes share a plan; at 15 s the second stops (an n8n worker that
 * finished its items, a Worker isolate that went away), and the first goes on alone. How soon does it use the plan
 * it now has to itself? Virtual time (`test/support/rate-sim.ts`, as 7a), 45 s runs, median of 3 seeds: the share of
 * the plan in the 10 s after the leave and in the 20 s after those, and the 429s from the leave on. Row n8n-5 meets
 * this over sockets: the process left alone went on at its learned share for up to 40 s. A few seconds.
 */
import { simulate, steady } from '../test/support/rate-sim.ts';
import { fixed, median, type BenchResult } from './support.ts';

const LEAVE_MS = 15_000;
const END_MS = 45_000;

/** One cell: the plan, the callers of each process, and the remaining process's figures. */
export interface LeaveCell {
  rate: number;
  burst: number;
  callers: number;
  /** Share of the plan from the leave to 10 s after it, and from then to the end; 429s from the leave on. */
  soon: number;
  later: number;
  throttled: number;
}

async function leaveCell(rate: number, burst: number, callers: number): Promise<LeaveCell> {
  const runs = await Promise.all([1, 2, 3].map(async (seed) => {
    const run = await simulate({
      plan: { ratePerSecond: rate, burst }, processes: 2, callers, durationMs: END_MS, seed, leaveAtMs: [undefined, LEAVE_MS],
    });
    const plan = { ratePerSecond: rate };
    return {
      soon: steady(run, plan, LEAVE_MS, LEAVE_MS + 10_000).share,
      later: steady(run, plan, LEAVE_MS + 10_000, END_MS).share,
      throttled: steady(run, plan, LEAVE_MS, END_MS).throttled,
    };
  }));
  return {
    rate, burst, callers, soon: median(runs.map((r) => r.soon)), later: median(runs.map((r) => r.later)),
    throttled: median(runs.map((r) => r.throttled)),
  };
}

/** Every cell of row 7k. */
export async function leaveCells(): Promise<LeaveCell[]> {
  const cells: LeaveCell[] = [];
  for (const [rate, burst] of [[5, 5], [10, 10], [20, 20], [20, 10], [50, 50], [20, 1]] as const) {
    for (const callers of [1, 10]) cells.push(await leaveCell(rate, burst, callers));
  }
  return cells;
}

/** The target: from 10 s after the leave, the one process left holds the plan. */
export const leaveMeets = (c: LeaveCell): boolean => c.later >= 0.9 && c.throttled < 0.02;

/** A cell's figures: "soon % then later % / 429s %", ✗ when short. */
export const leaveText = (c: LeaveCell): string =>
  `${fixed(c.soon * 100, 0)} % then ${fixed(c.later * 100, 0)} % / ${fixed(c.throttled * 100, 1)} %${leaveMeets(c) ? '' : ' ✗'}`;

/** Row 7k. */
export async function processLeavesBench(): Promise<BenchResult> {
  const cells = await leaveCells();
  const text = (c: LeaveCell): string => `${c.rate}/${c.burst} ×${c.callers}: ${leaveText(c)}`;
  return {
    id: '7k',
    name: 'Default rate, one of two processes leaves at 15 s: the other\'s share of the plan in the 10 s after, then the 20 s after those, and 429s (virtual time, median of 3 seeds)',
    result: `${cells.filter(leaveMeets).length} of ${cells.length} reach 90 % within 10 s: ${cells.map(text).join('; ')}`,
    target: 'from 10 s after the leave: >= 90 % of the plan, 429s < 2 %',
    met: cells.every(leaveMeets),
    details: { cells },
  };
}

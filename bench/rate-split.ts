/**
 * Benchmark 7l: how processes sharing one API key split the plan between them. Rows 7b and 7j judge the processes
 * together; an n8n worker or an isolate that gets a tenth of an even split runs its items ten times slower even
 * when the pair holds the plan, and it is the one left at that share when the others finish (row 7k, n8n-5).
 * Virtual time (`test/support/rate-sim.ts`, as 7a), 30 s runs, steady state from 10 s, median of 3 seeds: the
 * smallest process's calls admitted as a share of an even split of what they got together, and Jain's fairness
 * index of the split ((Σx)² / (n·Σx²): 1 for an even split, 1/n when one process gets everything). About 5 s.
 *
 * The issue asks nothing of the split; the bar here is TCP's usual one, no process below half of an even split.
 */
import { simulate, steady } from '../test/support/rate-sim.ts';
import { fixed, median, type BenchResult } from './support.ts';

const FROM_MS = 10_000;
const TO_MS = 30_000;

/** One cell: the plan, the processes and callers of each, and how the steady state was split (medians of 3 seeds). */
export interface SplitCell {
  rate: number;
  burst: number;
  processes: number;
  callers: number;
  /** The smallest process's admitted calls ÷ an even split of all admitted calls. */
  smallest: number;
  /** Jain's index of the processes' admitted calls. */
  jain: number;
  /** All processes together, share of the plan. */
  together: number;
}

/**
 * How the admitted calls of one run's steady state split between its processes.
 *
 * @param counts Admitted calls per process.
 * @returns The smallest process's count ÷ the mean, and Jain's index (both 0 when nothing was admitted).
 */
export function splitOf(counts: number[]): { smallest: number; jain: number } {
  const total = counts.reduce((sum, n) => sum + n, 0);
  if (total === 0) return { smallest: 0, jain: 0 };
  const squares = counts.reduce((sum, n) => sum + n * n, 0);
  return { smallest: Math.min(...counts) / (total / counts.length), jain: (total * total) / (counts.length * squares) };
}

async function splitCell(rate: number, burst: number, processes: number, callers: number): Promise<SplitCell> {
  const runs = await Promise.all([1, 2, 3].map(async (seed) => {
    const run = await simulate({ plan: { ratePerSecond: rate, burst }, processes, callers, durationMs: TO_MS, seed });
    const counts = Array.from({ length: processes }, () => 0);
    for (const a of run.answers) {
      if (a.status === 200 && a.at >= FROM_MS && a.at < TO_MS) counts[a.process] = (counts[a.process] ?? 0) + 1;
    }
    return { ...splitOf(counts), together: steady(run, { ratePerSecond: rate }, FROM_MS, TO_MS).share };
  }));
  return {
    rate, burst, processes, callers, smallest: median(runs.map((r) => r.smallest)), jain: median(runs.map((r) => r.jain)),
    together: median(runs.map((r) => r.together)),
  };
}

/** Every cell of row 7l. */
export async function splitCells(): Promise<SplitCell[]> {
  const cells: SplitCell[] = [];
  for (const [rate, burst] of [[5, 5], [10, 10], [20, 20], [20, 10], [20, 1], [50, 50], [100, 100]] as const) {
    for (const processes of [2, 4, 8]) {
      for (const callers of [1, 10]) cells.push(await splitCell(rate, burst, processes, callers));
    }
  }
  return cells;
}

/** The bar: no process below half of an even split. */
export const splitMeets = (c: SplitCell): boolean => c.smallest >= 0.5;

/** A cell's figures: "smallest % of even / Jain", ✗ when below the bar. */
export const splitText = (c: SplitCell): string =>
  `${fixed(c.smallest * 100, 0)} % / ${fixed(c.jain, 2)}${splitMeets(c) ? '' : ' ✗'}`;

/** Row 7l. */
export async function splitBench(): Promise<BenchResult> {
  const cells = await splitCells();
  const text = (c: SplitCell): string => `${c.rate}/${c.burst} ${c.processes}×${c.callers}: ${splitText(c)}`;
  return {
    id: '7l',
    name: 'Default rate, 2, 4 or 8 processes on one key: the smallest process\'s share of an even split, and Jain\'s index of the split (virtual time, steady state from 10 s, median of 3 seeds)',
    result: `${cells.filter(splitMeets).length} of ${cells.length} cells have no process below half of an even split: ${cells.map(text).join('; ')}`,
    target: 'none in the issue; reported against no process below half of an even split',
    met: null,
    details: { cells },
  };
}

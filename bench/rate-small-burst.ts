/**
 * Benchmark 7q: the default rate on plans whose bucket is small beside their rate, bursts of 2 to 10 calls at 20 to
 * 200 req/s, in virtual time (`test/support/rate-sim.ts`, the median of 3 seeds, as 7a and 7b). The sweep's grid has
 * bursts of 1, half the rate, the rate and twice it, and 7j's of 1 and half the rate or more, so a burst of 5 on a
 * 100 req/s plan was on neither; a draw of random plans over sockets (seed 47, 2026-11-29) found one there, and one
 * caller on such plans held 59 to 89 % of them. About 30 s.
 */
import { cellsText, meets, simulated, type CellResult } from './rate-sweep.ts';
import type { BenchResult } from './support.ts';

/**
 * Every cell of the row, one process first.
 *
 * @returns Plans of 20 to 200 req/s with bursts of 2, 3, 5 and 10, with 1, 2, 4 and 8 processes of 1, 10 and 60 callers.
 */
export async function smallBurstCells(): Promise<CellResult[]> {
  const cells: CellResult[] = [];
  for (const processes of [1, 2, 4, 8]) {
    for (const rate of [20, 50, 100, 150, 200]) {
      for (const burst of [2, 3, 5, 10]) {
        for (const callers of [1, 10, 60]) cells.push(await simulated({ rate, burst, processes, callers }));
      }
    }
  }
  return cells;
}

/** Row 7q. */
export async function smallBurstBench(): Promise<BenchResult> {
  const cells = await smallBurstCells();
  const count = (where: (c: CellResult) => boolean): string => {
    const chosen = cells.filter(where);
    return `${chosen.filter(meets).length} of ${chosen.length}`;
  };
  const one = (c: CellResult): boolean => c.processes === 1;
  return {
    id: '7q',
    name: 'Default rate on small buckets, virtual time: plans of 20–200 req/s with bursts of 2–10 calls × 1, 2, 4, 8 processes × 1, 10, 60 callers (median of 3 seeds)',
    result: `${count(() => true)} cells meet; one process ${count(one)} (one caller ${count((c) => one(c) && c.callers === 1)}); `
      + `several ${count((c) => !one(c))} (one caller each ${count((c) => !one(c) && c.callers === 1)}); short: ${cellsText(cells.filter((c) => !meets(c)))}`,
    target: 'every cell: one process >= 90 % of the plan, 429s < 2 %; several: together >= 85 %, 429s < 3 %; no call failed',
    met: cells.every(meets),
    details: { cells },
  };
}

/**
 * Benchmark 7o: the default rate at plans drawn at random from the issue's ranges, over sockets (the emulator and
 * client processes, as 7c and 7d). The sweeps' cells were chosen by people, and every change to the pacing was
 * measured against them; these were chosen by a seeded draw, so nobody picked them: rates of 1 to 200 req/s and
 * bursts of 1 to twice the rate (each log-uniform, so slow plans and small buckets weigh as much as fast ones), 1 to
 * 500 callers in all (log-uniform, split evenly among the processes, at least one each), every other cell one
 * process and the others 2 to 8 processes sharing the key. The seed is fixed ({@link SEED}, the issue's number), so
 * a rerun measures the same cells; one run of 30 s each, judged alone (not the median of three). About 12 min;
 * `RATE_RANDOM_CELLS` draws more or fewer (the first cells stay the same).
 */
import { createPrng, type Prng } from '../emulator/prng.ts';
import { cellsText, meets, socketCell, type Cell, type CellResult } from './rate-sweep.ts';
import type { BenchResult } from './support.ts';

/** The draw's seed: fixed so that reruns measure the same plans. */
export const SEED = 14;
const SECONDS = 30;

/**
 * Draws of whole numbers from 1 to `max`, log-uniform (so small plans and small buckets weigh as much as big ones).
 *
 * @param prng The draw's stream.
 * @returns A draw.
 */
function logUniformFrom(prng: Prng): (max: number) => number {
  return (max) => Math.max(1, Math.min(max, Math.round(max ** prng.next())));
}

/** Row 7o's processes: one for every other cell, 2 to 8 for the rest. */
const alternating = (i: number, prng: Prng): number => (i % 2 === 0 ? 1 : prng.int(2, 8));

/**
 * The cells of the draw: a rate, a burst, the processes and the callers in all (split evenly among the processes, at
 * least one each), drawn in that order from one stream.
 *
 * @param count How many.
 * @param seed The draw's seed.
 * @param processesOf The processes of cell `i` (drawn from the same stream, or not at all).
 * @returns Cells, one process and several alternating unless told.
 */
export function randomCells(count: number, seed = SEED, processesOf = alternating): Cell[] {
  const prng = createPrng(seed);
  const logUniform = logUniformFrom(prng);
  return Array.from({ length: count }, (_, i) => {
    const rate = logUniform(200);
    const burst = logUniform(2 * rate);
    const processes = processesOf(i, prng);
    const callers = Math.max(1, Math.round(logUniform(500) / processes));
    return { rate, burst, processes, callers };
  });
}

/** Row 7o. */
export async function randomPlansBench(): Promise<BenchResult> {
  const cells = randomCells(Number(process.env['RATE_RANDOM_CELLS'] ?? 16));
  const results: CellResult[] = [];
  for (const [i, cell] of cells.entries()) results.push(await socketCell(cell, SECONDS, 900 + i));
  const met = results.filter(meets).length;
  return {
    id: '7o',
    name: `Default rate over sockets at plans drawn at random from the issue's ranges (seed ${SEED}; one run of ${SECONDS} s each, steady after 10 s)`,
    result: `${met} of ${results.length} cells meet: ${cellsText(results)}`,
    target: 'one process >= 90 %, 429s < 2 %; several >= 85 %, < 3 %; no call failed',
    met: met === results.length,
    details: { seed: SEED, results },
  };
}

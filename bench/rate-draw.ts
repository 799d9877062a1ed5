/**
 * One process at plans drawn at random from the issue's ranges, in virtual time, by hand (not part of `npm run bench`):
 *
 *   node --import tsx bench/rate-draw.ts 8 200      seed 8, 200 cells: prints the cells short of the target
 *
 * Rates of 1 to 200 req/s, bursts of 1 to twice the rate and 1 to 500 callers, each log-uniform (as row 7o draws them
 * over sockets), each cell the median of seeds 1 to 3 (`simulated`). A seed's cells are the same on every run, so a
 * change to the pacing is measured against the code before it on the same draw. About 5 s for 200 cells.
 */
import { createPrng } from '../emulator/prng.ts';
import { logUniformFrom } from './rate-random.ts';
import { label, meets, simulated, type Cell } from './rate-sweep.ts';

const [seed = 8, count = 200] = process.argv.slice(2).map(Number);
const logUniform = logUniformFrom(createPrng(seed));
const cells: Cell[] = Array.from({ length: count }, () => {
  const rate = logUniform(200);
  return { rate, burst: logUniform(2 * rate), processes: 1, callers: logUniform(500) };
});
let met = 0;
for (const cell of cells) {
  const r = await simulated(cell);
  if (meets(r)) met += 1;
  else process.stdout.write(`${label(r)}: ${(r.share * 100).toFixed(0)} % / ${(r.throttled * 100).toFixed(1)} %${r.failed ? `, ${r.failed} failed` : ''}\n`);
}
process.stdout.write(`${met} of ${cells.length} cells meet (one process >= 90 %, 429s < 2 %, none failed)\n`);

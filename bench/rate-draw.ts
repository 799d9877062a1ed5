/**
 * The default rate at plans drawn at random from the issue's ranges, in virtual time, by hand (not part of
 * `npm run bench`):
 *
 *   node --import tsx bench/rate-draw.ts 8 200          one process, seed 8, 200 cells: prints the cells short of the target
 *   node --import tsx bench/rate-draw.ts 8 120 shared   2 to 8 processes sharing the key
 *
 * Rates of 1 to 200 req/s, bursts of 1 to twice the rate and 1 to 500 callers in all, each log-uniform, drawn as row 7o
 * draws them over sockets (`randomCells`; shared, the callers split evenly among the processes, at least one each),
 * each cell the median of seeds 1 to 3 (`simulated`). A seed's cells are the same on every run, so a change to the
 * pacing is measured against the code before it on the same draw. About 30 s for 200 cells of one process, 20 s for 120 shared (2 cores).
 */
import { randomCells } from './rate-random.ts';
import { label, meets, simulated } from './rate-sweep.ts';

const [seedArg, countArg, mode] = process.argv.slice(2);
const shared = mode === 'shared';
const cells = randomCells(Number(countArg ?? 200), Number(seedArg ?? 8), shared ? (_, prng) => prng.int(2, 8) : () => 1);
let met = 0;
for (const cell of cells) {
  const r = await simulated(cell);
  if (meets(r)) met += 1;
  else process.stdout.write(`${label(r)}: ${(r.share * 100).toFixed(0)} % / ${(r.throttled * 100).toFixed(1)} %${r.failed ? `, ${r.failed} failed` : ''}\n`);
}
const target = shared ? 'together >= 85 %, 429s < 3 %' : '>= 90 %, 429s < 2 %';
process.stdout.write(`${met} of ${cells.length} cells meet (${target}, none failed)\n`);

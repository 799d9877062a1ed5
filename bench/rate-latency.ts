/**
 * Benchmark 7p: the default rate over a network with the latency of the internet, in virtual time
 * (`test/support/rate-sim.ts`, as 7a and 7b): one-way delays of 10 to 60 ms, a round trip of 20 to 120 ms, where 7a
 * and 7b use 0.5 to 2 ms (loopback). A partner's backend reaches the service over the internet, and what the pacing
 * reads changes with the round trip: how many calls a slow start round still has in flight when its 429 comes back,
 * how widely the answers of a round spread in time. (There a slow start round of 300 callers met its 429 with 35
 * calls in flight, and a 429 to a paced call behind them halved the pace: 134/15 held 76 % in some runs; fixed.)
 *
 * - One process: 7a's plans (1 to 200 req/s, bursts of 1, half the rate, the rate and twice it) × 5, 50 and 500 callers.
 * - Several: 2, 4 and 8 processes of 10 callers on plans of 5 to 200 req/s with a burst of the rate.
 *
 * Median of 3 seeds. Callers that wait for each answer cannot carry more than one call per round trip each (5 callers
 * about 71 req/s at 70 ms): where that is less than the plan, a cell is judged on the share of what its callers carry,
 * not of the plan. About 15 s.
 */
import { label, meets, simulated, type Cell, type CellResult } from './rate-sweep.ts';
import { fixed, type BenchResult } from './support.ts';

/** One-way network delay, ms: uniform between these. */
export const LATENCY_MS: [number, number] = [10, 60];
const ROUND_TRIP_MS = LATENCY_MS[0] + LATENCY_MS[1];

/** A cell at latency: its figures of the plan, or of what its callers carry where they cannot carry the plan. */
export interface LatencyCell extends CellResult {
  /** The callers carry less than the plan: `share` is of what they carry (req/s), not of the plan. */
  carried?: number;
}

async function cell(c: Cell): Promise<LatencyCell> {
  const carry = (c.processes * c.callers * 1000) / ROUND_TRIP_MS;
  const r = await simulated(c, { durationMs: 30_000, steadyFromMs: 10_000, delayMs: LATENCY_MS });
  return carry < c.rate ? { ...r, share: (r.share * c.rate) / carry, carried: carry } : r;
}

/** Every cell of the row, one process first. */
export async function latencyCells(): Promise<LatencyCell[]> {
  const cells: LatencyCell[] = [];
  for (const rate of [1, 2, 5, 7, 20, 50, 100, 200]) {
    for (const burst of new Set([1, Math.max(1, Math.round(rate / 2)), rate, 2 * rate])) {
      for (const callers of [5, 50, 500]) cells.push(await cell({ rate, burst, processes: 1, callers }));
    }
  }
  for (const processes of [2, 4, 8]) {
    for (const rate of [5, 7, 20, 50, 200]) cells.push(await cell({ rate, burst: rate, processes, callers: 10 }));
  }
  return cells;
}

/** A cell's figures, as in the other rows, with what its share is of where that is not the plan. */
export const latencyText = (c: LatencyCell): string =>
  `${label(c)}: ${fixed(c.share * 100, 0)} %${c.carried ? ` of ${fixed(c.carried, 0)} req/s carried` : ''} / ${fixed(c.throttled * 100, 1)} %`
  + `${c.failed ? ` / ${c.failed} failed` : ''}${meets(c) ? '' : ' ✗'}`;

/** Row 7p. */
export async function latencyBench(): Promise<BenchResult> {
  const cells = await latencyCells();
  const count = (where: (c: LatencyCell) => boolean): string => `${cells.filter((c) => where(c) && meets(c)).length} of ${cells.filter(where).length}`;
  const one = (c: LatencyCell): boolean => c.processes === 1;
  return {
    id: '7p',
    name: `Default rate at internet latency, virtual time: one-way delays of ${LATENCY_MS[0]}–${LATENCY_MS[1]} ms; one process (7a's plans × 5, 50, 500 callers) and 2–8 processes × 10 callers (median of 3 seeds)`,
    result: `one process ${count(one)} cells meet (a burst of more than one call: ${count((c) => one(c) && c.burst > 1)}); several ${count((c) => !one(c))}. Short: ${cells.filter((c) => !meets(c)).map(latencyText).join('; ') || 'none'}`,
    target: 'one process >= 90 % of the plan (or of what its callers carry), 429s < 2 %; several >= 85 %, < 3 %; none failed',
    met: cells.every(meets),
    details: { latencyMs: LATENCY_MS, cells },
  };
}

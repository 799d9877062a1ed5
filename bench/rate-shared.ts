/**
 * Benchmark 7t: processes sharing one limiter host (`createLimiterHost` + `createSharedLimiter`, opt-in), where
 * processes that each learn alone fall short (rows 7b, 7d, 7m).
 *
 * - In virtual time, row 7b's grid (plans of 1 to 200 req/s, bursts 1 and 1 to 2× the rate, 2 to 8 processes of 1,
 *   10 and 60 callers) with every process on the same limiter, beside the default (each its own), median of seeds
 *   1 to 3; and row 7m's workers through their items the same way. The host's round trips are left out here.
 * - Over sockets, chosen short cells of 7b with a real host (`@hono/node-server`, in the bench's process) and real
 *   client processes (`bench/rate-client.ts` with `RATE_SHARED_URL`), against the emulator in its own process:
 *   the round trips to the host are in. `RATE_RUNS` (default 3) runs a cell, median; the default's figure for the
 *   same cells is row 7d's or `bench/rate-probe.ts sockets`.
 *
 * About 2 minutes in virtual time, and 30 s per socket run.
 */
import { median, type BenchResult } from './support.ts';
import { byProcesses, cellsText, meets, overSockets, planOf, simulated, socketCell, socketWindow, STEADY_FROM_MS, table, type Cell, type CellResult } from './rate-sweep.ts';
import { workersCells, workersKey, workersMeets, workersText } from './rate-workers.ts';

const RATES = [1, 2, 5, 7, 20, 50, 100, 200];

/** 7b's cells, each with every process on one limiter, and as 7b runs it. */
async function virtualGrid(): Promise<{ shared: CellResult[]; alone: CellResult[] }> {
  const shared: CellResult[] = [];
  const alone: CellResult[] = [];
  for (const processes of [2, 4, 8]) {
    for (const rate of RATES) {
      for (const burst of [...new Set([1, rate, 2 * rate])]) {
        for (const callers of [1, 10, 60]) {
          alone.push(await simulated({ rate, burst, processes, callers }));
          shared.push(await simulated({ rate, burst, processes, callers, shared: true }));
        }
      }
    }
  }
  return { shared, alone };
}

/** Short cells of 7b and 7d: slow and one-call plans shared by several processes. */
export const SOCKET_CELLS: Cell[] = [
  { rate: 2, burst: 1, processes: 2, callers: 10 },
  { rate: 2, burst: 1, processes: 8, callers: 10 },
  { rate: 5, burst: 1, processes: 4, callers: 1 },
  { rate: 20, burst: 1, processes: 8, callers: 1 },
  { rate: 5, burst: 5, processes: 8, callers: 10 },
  { rate: 1, burst: 2, processes: 8, callers: 10 },
].map((c) => ({ ...c, shared: true }));

export async function sharedLimiterBench(): Promise<BenchResult[]> {
  const { shared, alone } = await virtualGrid();
  const metShared = shared.filter(meets).length;
  const metAlone = alone.filter(meets).length;
  const workerCells = await workersCells(true);
  const runs = Number(process.env['RATE_RUNS'] ?? 3);
  const seconds = Number(process.env['RATE_SECONDS'] ?? 30);
  const sockets: CellResult[] = [];
  const all: Record<string, CellResult[]> = {};
  for (const cell of SOCKET_CELLS) {
    const measured: CellResult[] = [];
    for (let run = 0; run < runs; run++) measured.push(await socketCell(cell, seconds, 700 + run));
    all[`${planOf(cell)} ${byProcesses(cell)}`] = measured;
    sockets.push({
      ...cell, share: median(measured.map((r) => r.share)), throttled: median(measured.map((r) => r.throttled)),
      failed: Math.max(...measured.map((r) => r.failed)),
    });
  }
  return [
    {
      id: '7t',
      name: 'Processes sharing one limiter host, virtual time: 7b\'s grid with every process on one limiter (median of 3 seeds)',
      result: `${metShared} of ${shared.length} cells meet (each process alone, as 7b: ${metAlone}); short: `
        + cellsText(shared.filter((r) => !meets(r))),
      target: '2 to 8 processes: >= 85 %, < 3 % 429s, none failed',
      met: metShared === shared.length,
      details: { table: table(shared, planOf, byProcesses, 'plan \\ processes × callers'), alone: cellsText(alone) },
    },
    {
      id: '7t-workers',
      name: 'Processes sharing one limiter host, virtual time: 7m\'s workers through their items (20 seeds a cell)',
      result: workerCells.map((c) => `${workersKey(c)}: ${workersText(c)}`).join('; '),
      target: 'every run: >= 85 % over the whole run, < 3 %, none failed',
      met: workerCells.every(workersMeets),
      details: {},
    },
    {
      id: '7t-sockets',
      name: `Processes sharing one limiter host over sockets: short cells of 7b and 7d (${runs} runs of ${seconds} s, median)`,
      result: cellsText(sockets),
      target: '>= 85 %, < 3 % 429s, none failed',
      met: sockets.every(meets),
      details: { runs: Object.fromEntries(Object.entries(all).map(([k, v]) => [k, cellsText(v)])) },
    },
  ];
}

/**
 * Row 7v: a long line at a host behind a proxy with a read timeout (nginx's `proxy_read_timeout`, a load balancer's
 * idle timeout). Two processes of 60 callers on a 5/5 plan keep about 120 calls in the host's line, 24 s of waiting
 * each, behind a proxy that cuts any answer after 10 s. A host that holds a turn 5 s (under the proxy's timeout) is
 * asked again in place; one that holds 15 s (over it) has its long waits cut, and each cut sends that process to pace
 * alone for 5 s, as every wait was before the hold. `RATE_RUNS` runs each (default 2), alternating; 30 s runs.
 */
export async function hostBehindProxyBench(): Promise<BenchResult[]> {
  const runs = Number(process.env['RATE_RUNS'] ?? 2);
  const cell = (holdMs: number): Cell => ({ rate: 5, burst: 5, processes: 2, callers: 60, shared: true, behindProxy: { readTimeoutMs: 10_000, holdMs } });
  const measured: Record<'under' | 'over', (CellResult & { cuts: number })[]> = { under: [], over: [] };
  for (let run = 0; run < runs; run++) {
    for (const [which, holdMs] of [['under', 5_000], ['over', 15_000]] as const) {
      const { api, failed, cuts = 0 } = await overSockets(cell(holdMs), 30, 800 + run);
      measured[which].push({ ...cell(holdMs), ...socketWindow(api, 5, STEADY_FROM_MS, 30_000), failed, cuts });
    }
  }
  const text = (rs: (CellResult & { cuts: number })[]) =>
    `${cellsText(rs)}; proxy cuts ${rs.map((r) => r.cuts).join(', ')}`;
  return [{
    id: '7v',
    name: `A host's long line behind a proxy that cuts answers after 10 s: 5/5 shared by 2 × 60, the host holding a turn 5 s, and 15 s (${runs} runs each, 30 s, steady from 10 s)`,
    result: `held 5 s: ${text(measured.under)}; held 15 s: ${text(measured.over)}`,
    target: 'held under the proxy\'s timeout: >= 85 %, < 3 % 429s, none failed, no cut',
    met: measured.under.every((r) => meets(r) && r.cuts === 0),
    details: { under: measured.under, over: measured.over },
  }];
}

/**
 * Benchmark 7m: workers through their items, in virtual time. Row n8n-5 runs two n8n processes, each its own
 * limiter with one caller (n8n goes through a node's items one after another), 500 registrations each on one 20 req/s
 * plan, and takes the share of the plan over the whole run, from the first call to the last item; over sockets one
 * run takes a minute, and its outcome turns on how the two split the plan in their first seconds (row 7l) and how
 * soon the one left alone uses what the other freed (7k). This is that shape in the simulator (`test/support/rate-sim.ts`,
 * the real limiter and retry loop), over 20 seeds a cell, judged run by run, so a change to the pacing can be judged
 * on it in seconds (`bench/rate-compare.ts`) before n8n-5 is run. A few seconds.
 */
import { createLimiter, type Limiter } from '../core/index.ts';
import { simulate } from '../test/support/rate-sim.ts';
import { fixed, median, type BenchResult } from './support.ts';

const SEEDS = 20;

/** One cell: the plan, the processes and the calls each makes, and how its runs went. */
export interface WorkersCell {
  rate: number;
  burst: number;
  processes: number;
  callsEach: number;
  runs: number;
  /** Runs with at least 85 % of the plan over the whole run, under 3 % 429s and no call failed. */
  met: number;
  /** Median share of the plan over the whole run, and the lowest. */
  share: number;
  lowest: number;
  /** 429s among all the answers of all runs; calls failed in all runs. */
  throttled: number;
  failed: number;
}

/** One cell over 20 seeds; with `shared`, every worker on one limiter (a limiter host, row 7t). */
export async function workersCell(rate: number, burst: number, processes: number, callsEach: number, shared = false): Promise<WorkersCell> {
  const runs = await Promise.all(Array.from({ length: SEEDS }, async (_, i) => {
    let one: Limiter | undefined;
    const run = await simulate({
      plan: { ratePerSecond: rate, burst }, processes, callers: 1, durationMs: 600_000, seed: i + 1, callsPerProcess: callsEach,
      ...(shared ? { limiterFor: (_p, clock) => (one ??= createLimiter({ now: clock.now, sleep: clock.sleep })) } : {}),
    });
    const throttled = run.answers.filter((a) => a.status === 429).length;
    return { share: run.succeeded / ((rate * run.endedAt) / 1000), throttled, answers: run.answers.length, failed: run.failed };
  }));
  const ok = (r: (typeof runs)[number]): boolean => r.share >= 0.85 && r.throttled < 0.03 * r.answers && r.failed === 0;
  const sum = (pick: (r: (typeof runs)[number]) => number): number => runs.reduce((n, r) => n + pick(r), 0);
  return {
    rate, burst, processes, callsEach, runs: runs.length, met: runs.filter(ok).length,
    share: median(runs.map((r) => r.share)), lowest: Math.min(...runs.map((r) => r.share)),
    throttled: sum((r) => r.throttled) / sum((r) => r.answers), failed: sum((r) => r.failed),
  };
}

/** Every cell of row 7m: n8n-5's shape, and beside it a slower and a faster plan, and four workers (`shared`: row 7t's). */
export async function workersCells(shared = false): Promise<WorkersCell[]> {
  const cells: WorkersCell[] = [];
  for (const [rate, burst, processes, callsEach] of [[20, 20, 2, 500], [10, 10, 2, 250], [50, 50, 2, 1250], [20, 20, 4, 250]] as const) {
    cells.push(await workersCell(rate, burst, processes, callsEach, shared));
  }
  return cells;
}

/** The target, per cell: every run meets. */
export const workersMeets = (c: WorkersCell): boolean => c.met === c.runs;

/** A cell's key: "20/20 2×500". */
export const workersKey = (c: WorkersCell): string => `${c.rate}/${c.burst} ${c.processes}×${c.callsEach}`;

/** A cell's figures: "17 of 20 runs, median 96 %, lowest 71 %, 429s 1.6 %, 0 failed". */
export const workersText = (c: WorkersCell): string =>
  `${c.met} of ${c.runs} runs, median ${fixed(c.share * 100, 0)} %, lowest ${fixed(c.lowest * 100, 0)} %, 429s ${fixed(c.throttled * 100, 1)} %, ${c.failed} failed`;

/** Row 7m. */
export async function workersBench(): Promise<BenchResult> {
  const cells = await workersCells();
  return {
    id: '7m',
    name: 'Default rate, workers through their items in virtual time: processes of one caller, each with its share of the calls, on one plan; the share over the whole run (row n8n-5\'s shape), 20 seeds a cell, each run judged alone',
    result: cells.map((c) => `${workersKey(c)}: ${workersText(c)}`).join('; '),
    target: 'every run: >= 85 % of the plan over the whole run, 429s < 3 %, none failed',
    met: cells.every(workersMeets),
    details: { cells },
  };
}

/**
 * Row 7u: n8n-6's shape, workers of one caller on slow plans (5/1, 5/5, 2/2), each alone and all through one limiter
 * (a limiter host, row n8n-6t). Alone, the worker whose first calls met the 429s is cut far below its share and, left
 * alone when the other is done, regrows on its own small share's clock (the README's "A process left behind at a
 * small share"); through one limiter they are one process's callers. A few seconds.
 */
export async function slowWorkersBench(): Promise<BenchResult> {
  const shapes = [[5, 1, 2, 100], [5, 5, 2, 100], [2, 2, 2, 60]] as const;
  const cells: Array<{ alone: WorkersCell; host: WorkersCell }> = [];
  for (const [rate, burst, processes, callsEach] of shapes) {
    cells.push({ alone: await workersCell(rate, burst, processes, callsEach), host: await workersCell(rate, burst, processes, callsEach, true) });
  }
  return {
    id: '7u',
    name: 'Workers of one caller on slow plans in virtual time (n8n-6\'s shape), each alone and through one limiter (host), 20 seeds a cell, the share over the whole run',
    result: cells.map((c) => `${workersKey(c.alone)}: alone ${workersText(c.alone)}; host ${workersText(c.host)}`).join('; '),
    target: 'every run: >= 85 % of the plan over the whole run, 429s < 3 %, none failed',
    met: cells.every((c) => workersMeets(c.alone)),
    details: { cells },
  };
}

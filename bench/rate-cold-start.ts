/**
 * Row 7g: N calls from a cold start, in virtual time (`test/support/rate-sim.ts`). The issue asks that N calls
 * finish within 1.15× of the plan's floor, (N − burst) ÷ rate: how long slow start and the ramp take to find the
 * plan, on top of the steady state's shortfall. Each plan is run with three seeds (network delays), and the worst
 * seed is reported beside the median, because the first 429's timing decides the path.
 *
 * Row 7h: the same N calls from a client that made one call a while before (2 s, 20 s) and sat idle since, as an
 * n8n workflow that reads an organization before it registers its learners, or a process between batches.
 *
 * Row 7i: the same N calls (every plan of 7g) from a client that made one call just before (50 ms, 600 ms): too
 * soon for slow start to begin afresh, so that call is in the burst's spell, and it took a call from the bucket the
 * burst meets.
 *
 * Row 7r: N calls from a cold start where 7g's plans did not look (found 2026-11-29): one caller (a script, an n8n
 * worker) on plans whose burst is half the rate or less, and small buckets (bursts of 1 to 5 calls) with one or ten
 * callers, each with a floor of about 20 s. A lone caller sleeps out each 429's backoff (0.5 to 1 s), so the two or
 * three 429s of learning a plan cost it a second or two, and a cut after such a sleep can read the plan low.
 *
 * Row 7s: 7a's plans with floors of 10 and 5 s (found 2026-11-29): every other row's floors are 13 s or more, and what
 * learning the plan costs is about fixed, so it weighs more against a shorter run (a batch of a few hundred calls).
 */
import { simulate } from '../test/support/rate-sim.ts';
import { SWEEP_RATES, sweepBursts } from './rate-sweep.ts';
import { fixed, median, type BenchResult } from './support.ts';

interface Case {
  rate: number;
  burst: number;
  callers: number;
  calls: number;
}

/** Plans whose floor is 13 to 30 s: bursts from 1 to twice the rate, 5 to 500 callers. */
const CASES: Case[] = [
  { rate: 5, burst: 5, callers: 100, calls: 100 },
  { rate: 20, burst: 20, callers: 20, calls: 600 },
  { rate: 200, burst: 400, callers: 500, calls: 3000 },
  { rate: 7, burst: 3, callers: 50, calls: 150 },
  { rate: 5, burst: 3, callers: 50, calls: 100 },
  { rate: 20, burst: 10, callers: 5, calls: 600 },
  { rate: 50, burst: 25, callers: 50, calls: 1500 },
  { rate: 100, burst: 10, callers: 500, calls: 1500 },
  { rate: 5, burst: 10, callers: 50, calls: 100 },
  { rate: 2, burst: 2, callers: 5, calls: 60 },
  { rate: 1, burst: 2, callers: 50, calls: 30 },
  { rate: 1, burst: 1, callers: 5, calls: 30 },
  { rate: 2, burst: 1, callers: 5, calls: 60 },
  { rate: 7, burst: 1, callers: 5, calls: 150 },
  // The same burst-1 plans with fewer calls: the 1.5 to 2 s slow start and the ramp take to find a one-call bucket
  // weigh more against a floor of 14 to 15 s (found over sockets by hand: 1.17 to 1.20×).
  { rate: 7, burst: 1, callers: 5, calls: 100 },
  { rate: 20, burst: 1, callers: 10, calls: 300 },
  { rate: 20, burst: 1, callers: 50, calls: 600 },
  { rate: 50, burst: 1, callers: 50, calls: 1500 },
];
/** Row 7r: floors of about 20 s (N = 20 × the rate). */
const fewCallers = (callers: number, plans: [rate: number, burst: number][]): Case[] =>
  plans.map(([rate, burst]) => ({ rate, burst, callers, calls: 20 * rate }));
const FEW_CALLERS_CASES: Case[] = [
  ...fewCallers(1, [[7, 3], [10, 5], [20, 10], [50, 25], [100, 50], [200, 100], [20, 20], [200, 200], [20, 40], [200, 400],
    [20, 2], [50, 5], [100, 5], [7, 1], [20, 1]]),
  ...fewCallers(10, [[10, 1], [20, 2], [50, 2], [50, 5], [100, 5], [200, 3]]),
];
/** Row 7s: N = floor × rate + burst, with one, ten and a hundred callers. */
const SHORT_FLOORS_S = [10, 5];
const SHORT_FLOOR_CASES: Case[] = SHORT_FLOORS_S.flatMap((floor) => SWEEP_RATES.flatMap((rate) => sweepBursts(rate).flatMap((burst) =>
  [1, 10, 100].map((callers) => ({ rate, burst, callers, calls: floor * rate + burst })))));
/** The issue's bound on N calls: this many times the plan's floor. */
export const TARGET = 1.15;
const SEEDS = [1, 2, 3];

/** The plans of 7h: one of each shape (burst above, at and below the rate; slow and fast). */
const IDLE_CASES = CASES.filter((c) => ['5/5', '20/20', '200/400', '7/3', '2/2', '20/10'].includes(`${c.rate}/${c.burst}`));
const IDLE_MS = [2000, 20_000];
const JUST_BEFORE_MS = [50, 600];

interface Row {
  case: Case;
  earlierMs?: number;
  ratios: number[];
  median: number;
  worst: number;
}

/** Each seed's ratio of the time N calls took (from the callers' start) to the plan's floor. */
async function measure(c: Case, earlierMs?: number): Promise<Row> {
  const floorMs = ((c.calls - c.burst) / c.rate) * 1000;
  const ratios: number[] = [];
  for (const seed of SEEDS) {
    const run = await simulate({
      plan: { ratePerSecond: c.rate, burst: c.burst }, processes: 1, callers: c.callers, calls: c.calls,
      durationMs: (earlierMs ?? 0) + 10 * floorMs, seed, ...(earlierMs === undefined ? {} : { earlierCallMs: earlierMs }),
    });
    // A call that failed, or a run that never finished, reads as the whole allowance spent.
    ratios.push(run.failed > 0 || run.succeeded < c.calls ? Infinity : (run.endedAt - (earlierMs ?? 0)) / floorMs);
  }
  return { case: c, ...(earlierMs === undefined ? {} : { earlierMs }), ratios, median: median(ratios), worst: Math.max(...ratios) };
}

/** How many rows held the target in every seed. */
const held = (rows: Row[]): number => rows.filter((r) => r.worst <= TARGET).length;

const gap = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${ms / 1000} s`);

const text = (r: Row): string =>
  `${r.case.rate}/${r.case.burst} ×${r.case.callers} N=${r.case.calls}${r.earlierMs ? ` after ${gap(r.earlierMs)}` : ''}: ${fixed(r.median)}× (worst ${fixed(r.worst)}×)${r.worst <= TARGET ? '' : ' ✗'}`;

/**
 * Runs 7g.
 *
 * @returns One table row; its details hold every seed's ratio.
 */
export async function coldStartBench(): Promise<BenchResult> {
  return fromColdStart('7g', CASES, `one process, virtual time (median and worst of ${SEEDS.length} seeds; ratio to (N − burst) ÷ rate)`);
}

/**
 * Runs 7r.
 *
 * @returns One table row; its details hold every seed's ratio.
 */
export async function fewCallersBench(): Promise<BenchResult> {
  return fromColdStart('7r', FEW_CALLERS_CASES,
    `one caller or a small bucket, one process, virtual time (median and worst of ${SEEDS.length} seeds; floors of about 20 s)`);
}

/**
 * Runs 7s. Its result names only the cases that fall short (174 in all).
 *
 * @returns One table row; its details hold every seed's ratio.
 */
export async function shortFloorsBench(): Promise<BenchResult> {
  const floorOf = (r: Row): number => Math.round((r.case.calls - r.case.burst) / r.case.rate);
  return fromColdStart('7s', SHORT_FLOOR_CASES,
    `with floors of ${SHORT_FLOORS_S.join(' and ')} s, 7a's plans × 1, 10 and 100 callers, one process, virtual time (median and worst of ${SEEDS.length} seeds)`,
    (rows) => {
      const byFloor = SHORT_FLOORS_S.map((floor) => {
        const some = rows.filter((r) => floorOf(r) === floor);
        return `${floor} s floors ${held(some)} of ${some.length}`;
      });
      const short = rows.filter((r) => r.worst > TARGET).map((r) => `${floorOf(r)} s ${text(r)}`);
      return `${held(rows)} of ${rows.length} within ${TARGET}× in every seed (${byFloor.join(', ')}); short: ${short.join('; ')}`;
    });
}

/**
 * One row of N calls from a cold start: every case, each over {@link SEEDS}; `result` words the row (by default every
 * case's ratios).
 */
async function fromColdStart(
  id: string, cases: Case[], what: string,
  result = (rows: Row[]): string => `${held(rows)} of ${rows.length} plans within ${TARGET}× in every seed: ${rows.map(text).join('; ')}`,
): Promise<BenchResult> {
  const rows: Row[] = [];
  for (const c of cases) rows.push(await measure(c));
  return benchRow(id, `Default rate, N calls from a cold start, ${what}`, rows, result(rows));
}

/** A row of N-calls cases as the bench table has it; its details hold every case's seeds (and earlier call, if any). */
function benchRow(id: string, name: string, rows: Row[], result: string): BenchResult {
  return {
    id,
    name,
    result,
    target: `<= ${TARGET}× in every seed, no call failed`,
    met: held(rows) === rows.length,
    details: { rows: rows.map((r) => ({ ...r.case, ...(r.earlierMs === undefined ? {} : { earlierMs: r.earlierMs }), ratios: r.ratios })) },
  };
}

/**
 * Runs 7h.
 *
 * @returns One table row; its details hold every seed's ratio.
 */
export async function idleStartBench(): Promise<BenchResult> {
  return afterOneCall('7h', IDLE_CASES, IDLE_MS, 'after one earlier call and an idle spell');
}

/**
 * Runs 7i.
 *
 * @returns One table row; its details hold every seed's ratio.
 */
export async function justAfterOneCallBench(): Promise<BenchResult> {
  return afterOneCall('7i', CASES, JUST_BEFORE_MS, 'just after one call');
}

async function afterOneCall(id: string, cases: Case[], gapsMs: number[], what: string): Promise<BenchResult> {
  const rows: Row[] = [];
  for (const earlierMs of gapsMs) for (const c of cases) rows.push(await measure(c, earlierMs));
  return benchRow(id,
    `Default rate, N calls ${what} (${gapsMs.map(gap).join(', ')}), one process, virtual time (median and worst of ${SEEDS.length} seeds)`,
    rows, `${held(rows)} of ${rows.length} within ${TARGET}× in every seed: ${rows.map(text).join('; ')}`);
}

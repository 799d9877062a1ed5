/**
 * Benchmark 7n: the plan changes under a running client, in virtual time. The provider lowers a partner's usage plan
 * (20/20 to 5/5) or raises it (5/5 to 20/20) 30 s into a run that goes on for four minutes more. Two windows of the
 * new plan: 10 to 60 s after the change (how soon the pace follows) and 150 to 240 s after (what it settles at, once
 * the largest share measured before the change is no longer held: `core/http/peak.ts`). Each cell the median of 5
 * seeds (`test/support/rate-sim.ts`, the real limiter and retry loop). About 15 s.
 */
import { simulate, steady } from '../test/support/rate-sim.ts';
import { fixed, median, type BenchResult } from './support.ts';

const SEEDS = 5;
const CHANGE_MS = 30_000;
/** The two windows, ms after the change. */
const SOON: [number, number] = [10_000, 60_000];
const LATER: [number, number] = [150_000, 240_000];

/** One cell: the plan before and after, the processes and callers, and the new plan's share and 429s in each window. */
export interface PlanChangeCell {
  from: [number, number];
  to: [number, number];
  processes: number;
  callers: number;
  soon: { share: number; throttled: number };
  later: { share: number; throttled: number };
  failed: number;
}

async function planChangeCell(from: [number, number], to: [number, number], processes: number, callers: number): Promise<PlanChangeCell> {
  const runs = await Promise.all(Array.from({ length: SEEDS }, (_, i) => simulate({
    plan: { ratePerSecond: from[0], burst: from[1] }, planFrom: { atMs: CHANGE_MS, ratePerSecond: to[0], burst: to[1] },
    processes, callers, durationMs: CHANGE_MS + LATER[1], seed: i + 1,
  })));
  // The new plan's share and 429s in a window, ms after the change, run by run.
  const pick = ([fromMs, toMs]: [number, number]) => {
    const each = runs.map((r) => steady(r, { ratePerSecond: to[0] }, CHANGE_MS + fromMs, CHANGE_MS + toMs));
    return { share: median(each.map((e) => e.share)), throttled: median(each.map((e) => e.throttled)) };
  };
  return { from, to, processes, callers, soon: pick(SOON), later: pick(LATER), failed: runs.reduce((n, r) => n + r.failed, 0) };
}

/** Every cell of row 7n: plans lowered, then plans raised. */
export async function planChangeCells(): Promise<PlanChangeCell[]> {
  const cells: [[number, number], [number, number], number, number][] = [
    [[20, 20], [5, 5], 1, 10], [[20, 20], [5, 5], 1, 1], [[20, 20], [10, 10], 1, 10], [[50, 50], [10, 10], 1, 10],
    [[100, 200], [20, 40], 1, 50], [[10, 10], [2, 2], 1, 10], [[20, 20], [5, 5], 2, 10],
    [[5, 5], [20, 20], 1, 10], [[5, 5], [20, 20], 1, 1], [[10, 10], [50, 50], 1, 10], [[20, 20], [100, 200], 1, 50],
    [[5, 5], [20, 20], 2, 10],
  ];
  const out: PlanChangeCell[] = [];
  for (const [from, to, processes, callers] of cells) out.push(await planChangeCell(from, to, processes, callers));
  return out;
}

/** The target, once settled (150–240 s after the change): one process >= 90 % and < 2 % 429s, several >= 85 % and < 3 %; none failed. */
export const planChangeMeets = (c: PlanChangeCell): boolean =>
  c.failed === 0 && (c.processes === 1
    ? c.later.share >= 0.9 && c.later.throttled < 0.02
    : c.later.share >= 0.85 && c.later.throttled < 0.03);

/** A cell's key: "20/20 → 5/5 1x10". */
export const planChangeKey = (c: PlanChangeCell): string => `${c.from.join('/')} → ${c.to.join('/')} ${c.processes}x${c.callers}`;

const pct = (share: number, throttled: number): string => `${fixed(share * 100, 0)} % / ${fixed(throttled * 100, 1)} %`;

/** A cell's figures: "10–60 s after: 100 % / 1.6 %; 150–240 s after: 100 % / 0.7 %". */
export const planChangeText = (c: PlanChangeCell): string =>
  `10–60 s after: ${pct(c.soon.share, c.soon.throttled)}; 150–240 s after: ${pct(c.later.share, c.later.throttled)}${c.failed ? `; ${c.failed} failed` : ''}${planChangeMeets(c) ? '' : ' ✗'}`;

/** Row 7n. */
export async function planChangeBench(): Promise<BenchResult> {
  const cells = await planChangeCells();
  return {
    id: '7n',
    name: 'Default rate when the provider changes the plan 30 s into a run, virtual time: share of the new plan / 429s 10–60 s and 150–240 s after the change (median of 5 seeds)',
    result: cells.map((c) => `${planChangeKey(c)}: ${planChangeText(c)}`).join('; '),
    target: '150–240 s after: one process >= 90 %, < 2 %; several >= 85 %, < 3 %; none failed',
    met: cells.every(planChangeMeets),
    details: { cells },
  };
}

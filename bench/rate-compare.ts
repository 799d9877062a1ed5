/**
 * The virtual-time rows of the rate sweep (7a, 7b, 7e), 7g, 7i, 7j, 7k, 7l, 7m, 7n, 7p, 7q, 7r and 7s for one version of
 * `core/http/pacing.ts` against another, cell by cell: how a change to the pacing is judged in three minutes before the
 * 45 min sweep runs.
 *
 *   node --import tsx bench/rate-compare.ts save /tmp/before.json     on the old code (about three minutes)
 *   node --import tsx bench/rate-compare.ts save /tmp/after.json      on the new code
 *   node --import tsx bench/rate-compare.ts diff /tmp/before.json /tmp/after.json
 *   node --import tsx bench/rate-compare.ts tables /tmp/after.json     the sweep's tables (7a, 7b, 7e) as the README shows them
 *
 * `diff` prints each row's count of cells that meet and its cells' mean share and 429s (a change can trade one for the
 * other where cells fall short), every cell that flipped or moved 5 points of share, every 7g, 7i and 7r plan whose
 * ratios changed, 7s's count and its cases that crossed 1.15× or whose worst seed moved 0.05×, 7j's runs that meet
 * (with means as for the rows) and every cell where two or more runs changed sides, 7k's cells that flipped or moved
 * 5 points, and 7l's cells whose smallest process moved 10 points of an even split, 7m's cells whose runs that meet
 * changed, and 7n's cells whose figures changed; 7p and 7q are listed as the sweep's rows are (a file saved before a
 * row existed has none: that row reads as new).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { coldStartBench, fewCallersBench, justAfterOneCallBench, shortFloorsBench, TARGET } from './rate-cold-start.ts';
import { latencyCells } from './rate-latency.ts';
import { leaveCells, leaveMeets, leaveText, type LeaveCell } from './rate-leave.ts';
import { offGridCells, runsMet, type OffGridCell } from './rate-offgrid.ts';
import { splitCells, splitMeets, splitText, type SplitCell } from './rate-split.ts';
import { smallBurstCells } from './rate-small-burst.ts';
import { byCallers, byProcesses, cellsText, label, meets, planOf, simulatedSweep, table, type CellResult } from './rate-sweep.ts';
import { planChangeCells, planChangeKey, planChangeMeets, planChangeText, type PlanChangeCell } from './rate-plan-change.ts';
import { workersCells, workersKey, workersText, type WorkersCell } from './rate-workers.ts';

interface Saved {
  rows: { id: string; cells: CellResult[] }[];
  cold: ColdRow[];
  justAfter?: ColdRow[];
  fewCallers?: ColdRow[];
  shortFloors?: ColdRow[];
  offGrid?: OffGridCell[];
  leave?: LeaveCell[];
  split?: SplitCell[];
  workers?: WorkersCell[];
  planChange?: PlanChangeCell[];
}

interface ColdRow {
  rate: number;
  burst: number;
  callers: number;
  calls: number;
  earlierMs?: number;
  ratios: number[];
}

const [mode, a, b] = process.argv.slice(2);

/** What every row's cells have: a share of the plan and the 429s among answers. */
interface Measured {
  share: number;
  throttled: number;
}

/**
 * The cells' mean share of the plan and mean 429s, before → after. Where cells fall short a change can trade one for
 * the other, and the count of cells that meet shows only what crossed a line: a margin that cut 429s in several
 * processes' learning tail added 5 cells to 7b while their mean share fell 90.7 → 88.3 %.
 */
function means(before: Measured[], after: Measured[]): string {
  const mean = (cells: Measured[], pick: (c: Measured) => number): string =>
    cells.length === 0 ? '–' : `${((cells.reduce((sum, c) => sum + pick(c), 0) / cells.length) * 100).toFixed(1)} %`;
  return `mean share ${mean(before, (c) => c.share)} → ${mean(after, (c) => c.share)}, mean 429s ${mean(before, (c) => c.throttled)} → ${mean(after, (c) => c.throttled)}`;
}

const text = (c: CellResult): string =>
  `${(c.share * 100).toFixed(0)} % / ${(c.throttled * 100).toFixed(1)} %${meets(c) ? '' : ' ✗'}`;

if (mode === 'save' && a) {
  const sweep = await simulatedSweep();
  const cold = await coldStartBench();
  const justAfter = await justAfterOneCallBench();
  const fewCallers = await fewCallersBench();
  const shortFloors = await shortFloorsBench();
  const saved: Saved = {
    // 7p's cells are judged as the sweep's are (a share of what their callers carry where that is less than the plan).
    rows: [
      ...sweep.map((r) => ({ id: r.id, cells: (r.details as { cells: CellResult[] }).cells })),
      { id: '7p', cells: await latencyCells() },
      { id: '7q', cells: await smallBurstCells() },
    ],
    cold: (cold.details as { rows: ColdRow[] }).rows,
    justAfter: (justAfter.details as { rows: ColdRow[] }).rows,
    fewCallers: (fewCallers.details as { rows: ColdRow[] }).rows,
    shortFloors: (shortFloors.details as { rows: ColdRow[] }).rows,
    offGrid: await offGridCells(),
    leave: await leaveCells(),
    split: await splitCells(),
    workers: await workersCells(),
    planChange: await planChangeCells(),
  };
  writeFileSync(a, JSON.stringify(saved));
  for (const r of [...sweep, cold, justAfter, fewCallers, shortFloors]) process.stdout.write(`${r.id}: ${r.result.split(':')[0]}\n`);
  process.stdout.write(`7j: ${runsMet(saved.offGrid ?? [])} runs meet\n7k: ${saved.leave?.filter(leaveMeets).length} of ${saved.leave?.length} cells meet\n`);
  process.stdout.write(`7l: ${saved.split?.filter(splitMeets).length} of ${saved.split?.length} cells with no process below half of an even split\n`);
  process.stdout.write(`7m: ${(saved.workers ?? []).reduce((n, c) => n + c.met, 0)} of ${(saved.workers ?? []).reduce((n, c) => n + c.runs, 0)} runs meet\n`);
  process.stdout.write(`7n: ${saved.planChange?.filter(planChangeMeets).length} of ${saved.planChange?.length} cells meet\n`);
  for (const id of ['7p', '7q']) {
    const cells = saved.rows.find((r) => r.id === id)?.cells ?? [];
    process.stdout.write(`${id}: ${cells.filter(meets).length} of ${cells.length} cells meet\n`);
  }
} else if (mode === 'diff' && a && b) {
  const [before, after] = [a, b].map((f) => JSON.parse(readFileSync(f, 'utf8')) as Saved);
  for (const row of after!.rows) {
    const old = new Map(before!.rows.find((r) => r.id === row.id)?.cells.map((c) => [label(c), c]));
    const count = (cells: CellResult[]): number => cells.filter(meets).length;
    process.stdout.write(`${row.id}: ${count([...old.values()])} → ${count(row.cells)} of ${row.cells.length} cells meet; ${means([...old.values()], row.cells)}\n`);
    for (const cell of row.cells) {
      const was = old.get(label(cell));
      if (was && (meets(was) !== meets(cell) || Math.abs(was.share - cell.share) >= 0.05)) {
        process.stdout.write(`  ${label(cell)}: ${text(was)} → ${text(cell)}\n`);
      }
    }
  }
  const key = (c: ColdRow): string => `${c.rate}/${c.burst} ×${c.callers} N=${c.calls}${c.earlierMs ? ` after ${c.earlierMs} ms` : ''}`;
  const ratios = (c: ColdRow | undefined): string => c?.ratios.map((r) => r.toFixed(2)).join(' ') ?? '';
  for (const [id, was, now] of [['7g', before!.cold, after!.cold], ['7i', before!.justAfter, after!.justAfter], ['7r', before!.fewCallers, after!.fewCallers]] as const) {
    for (const plan of now ?? []) {
      const old = was?.find((c) => key(c) === key(plan));
      if (ratios(old) !== ratios(plan)) process.stdout.write(`${id} ${key(plan)}: ${ratios(old)} → ${ratios(plan)}\n`);
    }
  }
  // 7s has 174 cases: its count, and the cases that crossed the line or whose worst seed moved 0.05× or more.
  const worst = (c: ColdRow): number => Math.max(...c.ratios);
  const within = (rows: ColdRow[]): number => rows.filter((c) => worst(c) <= TARGET).length;
  const [wasShort, nowShort] = [before!.shortFloors ?? [], after!.shortFloors ?? []];
  process.stdout.write(`7s: ${within(wasShort)} → ${within(nowShort)} of ${nowShort.length} within ${TARGET}× in every seed\n`);
  for (const plan of nowShort) {
    const old = wasShort.find((c) => key(c) === key(plan));
    if (old && ((worst(old) <= TARGET) !== (worst(plan) <= TARGET) || Math.abs(worst(old) - worst(plan)) >= 0.05)) {
      process.stdout.write(`  ${key(plan)}: ${ratios(old)} → ${ratios(plan)}\n`);
    }
  }
  const [wasOff, nowOff] = [before!.offGrid ?? [], after!.offGrid ?? []];
  for (const [group, where] of [['one process', (c: OffGridCell) => c.processes === 1], ['several', (c: OffGridCell) => c.processes > 1]] as const) {
    process.stdout.write(`7j ${group}: ${runsMet(wasOff, where)} → ${runsMet(nowOff, where)} runs meet; ${means(wasOff.filter(where), nowOff.filter(where))}\n`);
  }
  const offText = (c: OffGridCell | undefined): string =>
    c ? `${c.met}/${c.runs} (${(c.share * 100).toFixed(0)} %, ${(c.throttled * 100).toFixed(1)} %)` : 'new';
  for (const cell of wasOff.length ? nowOff : []) {
    const was = wasOff.find((c) => label(c) === label(cell));
    if (!was || Math.abs(was.met - cell.met) >= 2) process.stdout.write(`  ${label(cell)}: ${offText(was)} → ${offText(cell)}\n`);
  }
  const leaveKey = (c: LeaveCell): string => `${c.rate}/${c.burst} 2x${c.callers}`;
  const [wasLeave, nowLeave] = [before!.leave ?? [], after!.leave ?? []];
  process.stdout.write(`7k: ${wasLeave.filter(leaveMeets).length} → ${nowLeave.filter(leaveMeets).length} of ${nowLeave.length} cells meet\n`);
  for (const cell of wasLeave.length ? nowLeave : []) {
    const was = wasLeave.find((c) => leaveKey(c) === leaveKey(cell));
    if (!was || leaveMeets(was) !== leaveMeets(cell) || Math.abs(was.later - cell.later) >= 0.05) {
      process.stdout.write(`  ${leaveKey(cell)}: ${was ? leaveText(was) : 'new'} → ${leaveText(cell)}\n`);
    }
  }
  const splitKey = (c: SplitCell): string => `${c.rate}/${c.burst} ${c.processes}x${c.callers}`;
  const [wasSplit, nowSplit] = [before!.split ?? [], after!.split ?? []];
  process.stdout.write(`7l: ${wasSplit.filter(splitMeets).length} → ${nowSplit.filter(splitMeets).length} of ${nowSplit.length} cells with no process below half of an even split\n`);
  for (const cell of wasSplit.length ? nowSplit : []) {
    const was = wasSplit.find((c) => splitKey(c) === splitKey(cell));
    if (!was || Math.abs(was.smallest - cell.smallest) >= 0.1) {
      process.stdout.write(`  ${splitKey(cell)}: ${was ? splitText(was) : 'new'} → ${splitText(cell)}\n`);
    }
  }
  const [wasWorkers, nowWorkers] = [before!.workers ?? [], after!.workers ?? []];
  const runsOf = (cells: WorkersCell[], pick: (c: WorkersCell) => number): number => cells.reduce((n, c) => n + pick(c), 0);
  const wasMet = wasWorkers.length ? runsOf(wasWorkers, (c) => c.met) : 'new';
  process.stdout.write(`7m: ${wasMet} → ${runsOf(nowWorkers, (c) => c.met)} of ${runsOf(nowWorkers, (c) => c.runs)} runs meet\n`);
  for (const cell of nowWorkers) {
    const was = wasWorkers.find((c) => workersKey(c) === workersKey(cell));
    if (!was || was.met !== cell.met) process.stdout.write(`  ${workersKey(cell)}: ${was ? workersText(was) : 'new'} → ${workersText(cell)}\n`);
  }
  const [wasChange, nowChange] = [before!.planChange ?? [], after!.planChange ?? []];
  const wasChangeMet = wasChange.length ? wasChange.filter(planChangeMeets).length : 'new';
  process.stdout.write(`7n: ${wasChangeMet} → ${nowChange.filter(planChangeMeets).length} of ${nowChange.length} cells meet\n`);
  for (const cell of nowChange) {
    const was = wasChange.find((c) => planChangeKey(c) === planChangeKey(cell));
    if (!was || planChangeText(was) !== planChangeText(cell)) {
      process.stdout.write(`  ${planChangeKey(cell)}: ${was ? planChangeText(was) : 'new'} → ${planChangeText(cell)}\n`);
    }
  }
} else if (mode === 'tables' && a) {
  // The sweep as the README shows it: one process by plan and callers (7a); several processes by plan and processes ×
  // callers (7b; its cells with each process configured at the plan's rate listed after); the slow plans over 90 s (7e).
  const saved = JSON.parse(readFileSync(a, 'utf8')) as Saved;
  const cells = (id: string): CellResult[] => saved.rows.find((r) => r.id === id)?.cells ?? [];
  const count = (list: CellResult[]): string => `${list.filter(meets).length} of ${list.length} cells meet`;
  const [single, multi, later] = [cells('7a'), cells('7b'), cells('7e')];
  const shared = multi.filter((c) => !c.configured);
  const configured = multi.filter((c) => c.configured);
  process.stdout.write(`7a, one process (${count(single)}):\n\n${table(single, planOf, byCallers, 'plan \\ callers')}\n\n`);
  process.stdout.write(`7b, processes × callers each (${count(shared)}):\n\n${table(shared, planOf, byProcesses, 'plan \\ processes × callers')}\n\n`);
  process.stdout.write(`7b, each process configured with the plan's rate: ${cellsText(configured)}\n\n`);
  process.stdout.write(`7e, 90 s, steady from 30 s (${count(later)}):\n\n${table(later, planOf, byProcesses, 'plan \\ processes × callers')}\n`);
} else {
  process.stderr.write('usage: rate-compare.ts save FILE | diff BEFORE AFTER | tables FILE\n');
  process.exit(2);
}

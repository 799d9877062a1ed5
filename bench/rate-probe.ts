/**
 * One cell of the rate sweep, by hand, to look into a figure (not part of `npm run bench`):
 *
 *   node --import tsx bench/rate-probe.ts sim 5/5x100 [seeds]        virtual time, 30 s, steady from 10 s
 *   node --import tsx bench/rate-probe.ts sim 8p5/5x10 1,2,3          8 processes
 *   node --import tsx bench/rate-probe.ts calls 5/5x100:100 [seeds]   N calls from a cold start (row 7g)
 *   node --import tsx bench/rate-probe.ts sockets 5/5x100 [runs]      over sockets (rows 7c/7d), 30 s runs
 *   node --import tsx bench/rate-probe.ts sockets 5/5x100:100 [runs]  N calls over sockets (row 5b): time and 429s
 *   node --import tsx bench/rate-probe.ts ceiling 200/200x50 [runs]   over sockets, a client configured at 200/200
 *                                                                    under a plan ten times that: what it sends
 *   node --import tsx bench/rate-probe.ts change 20/20x10 [runs]      over sockets, the plan changed to RATE_TO
 *                                                                    (default 5/5) RATE_CHANGE s in (default 20): row 7n
 *   node --import tsx bench/rate-probe.ts workers 2p20/20x1:1000 [seeds]  processes through their share of N calls
 *                                                                    (row 7m, n8n-5's shape): each one's req/s by 5 s
 *
 * N (after the colon) is the calls made by all processes together.
 *
 * Virtual runs and timed runs over sockets print each second's admitted answers and when the 429s came, which is
 * where a wrong turn of the pacing shows. RATE_SECONDS and RATE_FROM change a run's length and where its steady
 * state begins; with RATE_EARLIER (seconds) each process makes one call that long before its callers start (virtual
 * runs only; times and the N calls' ratio count from the callers' start). RATE_DELAY=10-60 sets a virtual run's one-way
 * network delay in ms (default 0.5-2, as loopback). Over sockets each client reads once before the plan is set (its
 * token); with RATE_COLD=1 it makes no call before its callers start.
 */
import { simulate, steady } from '../test/support/rate-sim.ts';
import { overSockets, socketCalls, socketWindow } from './rate-sweep.ts';

const [mode, spec = '', list] = process.argv.slice(2);
const match = /^(?:(\d+)p)?(\d+)\/(\d+)x(\d+)(?::(\d+))?$/.exec(spec);
if (!match || !['sim', 'calls', 'sockets', 'ceiling', 'change', 'workers'].includes(mode ?? '')) {
  process.stderr.write('usage: rate-probe.ts sim|calls|sockets|ceiling|change|workers [processes p]rate/burstxcallers[:calls] [seeds or runs]\n');
  process.exit(2);
}
const [processes, rate, burst, callers, calls] = [Number(match[1] ?? 1), Number(match[2]), Number(match[3]), Number(match[4]), Number(match[5] ?? 0)];
const seconds = Number(process.env['RATE_SECONDS'] ?? 30);
const fromMs = Number(process.env['RATE_FROM'] ?? 10) * 1000;
const earlierMs = process.env['RATE_EARLIER'] === undefined ? undefined : Number(process.env['RATE_EARLIER']) * 1000;
const delayMs = process.env['RATE_DELAY']?.split('-').map(Number) as [number, number] | undefined;
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

if (mode === 'sockets' && calls) {
  // N is the total, as in virtual time; each client process makes its share.
  const each = Math.ceil(calls / processes);
  const floorMs = ((processes * each - burst) / rate) * 1000;
  for (let run = 0; run < Number(list ?? 3); run++) {
    const r = await socketCalls({ rate, burst, processes, callers }, each, 700 + run);
    process.stdout.write(`run ${run + 1}: ${(r.ms / floorMs).toFixed(2)}× the floor (${(r.ms / 1000).toFixed(1)} s), ${r.throttled} 429s, ${r.failed} failed\n`);
  }
} else if (mode === 'workers') {
  // Row 7m's measure: the share over the whole run, from the first call to the last. Which process was left last, and
  // at what pace, is where a run falls short.
  const each = Math.ceil((calls || 1000) / processes);
  for (const seed of (list ?? '1,2,3').split(',').map(Number)) {
    const run = await simulate({ plan: { ratePerSecond: rate, burst }, processes, callers, seed, durationMs: 600_000, callsPerProcess: each });
    const throttled = run.answers.filter((a) => a.status === 429).length;
    process.stdout.write(`seed ${seed}: ${pct(run.succeeded / ((rate * run.endedAt) / 1000))} of the plan over ${(run.endedAt / 1000).toFixed(1)} s, `
      + `${pct(throttled / run.answers.length)} 429s, ${run.failed} failed\n${perProcess(run.answers, processes, run.endedAt)}`);
  }
} else if (mode === 'change') {
  // Row 7n's windows over sockets: the new plan's share and 429s 10–60 s and 150–210 s after the change.
  const [toRate, toBurst] = (process.env['RATE_TO'] ?? '5/5').split('/').map(Number) as [number, number];
  const changeMs = Number(process.env['RATE_CHANGE'] ?? 20) * 1000;
  const windows: [number, number][] = [[10_000, 60_000], [150_000, 210_000]];
  for (let run = 0; run < Number(list ?? 1); run++) {
    const change = { atMs: changeMs, rate: toRate, burst: toBurst };
    const { api, failed } = await overSockets({ rate, burst, processes, callers }, (changeMs + 210_000) / 1000, 700 + run, 0, change);
    const parts = windows.map(([from, to]) => {
      const { share, throttled } = socketWindow(api, toRate, changeMs + from, changeMs + to);
      return `${from / 1000}–${to / 1000} s after: ${pct(share)} / ${pct(throttled)}`;
    });
    process.stdout.write(`run ${run + 1}: ${rate}/${burst} → ${toRate}/${toBurst}: ${parts.join('; ')}; ${failed} failed\n`);
  }
} else if (mode === 'ceiling') {
  // A configured rate is a ceiling: under a plan that never throttles, the client should send all of it.
  for (let run = 0; run < Number(list ?? 3); run++) {
    const cell = { rate, burst, processes, callers, configured: true, plan: { rate: 10 * rate, burst: 10 * burst } };
    const { api, failed } = await overSockets(cell, seconds, 700 + run);
    const { share, throttled } = socketWindow(api, rate, fromMs, seconds * 1000);
    process.stdout.write(`run ${run + 1}: sent ${pct(share)} of the ceiling, ${pct(throttled)} 429s, ${failed} failed\n`);
  }
} else if (mode === 'sockets') {
  for (let run = 0; run < Number(list ?? 3); run++) {
    const { api, failed } = await overSockets({ rate, burst, processes, callers }, seconds, 700 + run);
    const { share, throttled } = socketWindow(api, rate, fromMs, seconds * 1000);
    process.stdout.write(`run ${run + 1}: ${pct(share)} of the plan, ${pct(throttled)} 429s, ${failed} failed\n`
      + trace(api.map((r) => ({ at: r.atMs, status: r.status })), seconds * 1000));
  }
} else {
  // With RATE_EARLIER, times count from the callers' start (the earlier call is at minus that).
  const t0 = earlierMs ?? 0;
  for (const seed of (list ?? '1,2,3').split(',').map(Number)) {
    const floorMs = ((calls - burst) / rate) * 1000;
    const run = await simulate({
      plan: { ratePerSecond: rate, burst }, processes, callers, seed, ...(earlierMs === undefined ? {} : { earlierCallMs: earlierMs }),
      ...(delayMs ? { delayMs } : {}),
      durationMs: t0 + (mode === 'calls' ? 10 * floorMs : seconds * 1000), ...(mode === 'calls' ? { calls } : {}),
    });
    const answers = run.answers.filter((a) => a.at >= t0).map((a) => ({ ...a, at: a.at - t0 }));
    const endedAt = run.endedAt - t0;
    const head = mode === 'calls'
      ? `${(endedAt / floorMs).toFixed(2)}× the floor`
      : (({ share, throttled }) => `${pct(share)} of the plan, ${pct(throttled)} 429s`)(steady({ ...run, answers }, { ratePerSecond: rate }, fromMs, seconds * 1000));
    process.stdout.write(`seed ${seed}: ${head}, ${run.failed} failed\n${trace(answers, endedAt)}`);
  }
}

/** Each process's admitted req/s in 5 s spans, with its 429s in brackets: who held what, and who was left last. */
function perProcess(answers: { at: number; status: number; process: number }[], processes: number, endedAt: number): string {
  const spans = Math.ceil(endedAt / 5000);
  return Array.from({ length: processes }, (_, p) => {
    const mine = answers.filter((a) => a.process === p);
    const cells = Array.from({ length: spans }, (_, i) => {
      const inSpan = mine.filter((a) => Math.floor(a.at / 5000) === i);
      const throttled = inSpan.filter((a) => a.status === 429).length;
      return `${((inSpan.length - throttled) / 5).toFixed(1)}${throttled ? `(${throttled})` : ''}`;
    });
    return `  process ${p + 1}: ${cells.join(' ')}\n`;
  }).join('');
}

/**
 * Each second's admitted answers and the 429s' times (s from the callers' start), where a wrong turn of the pacing
 * shows; then the steady window's 429s on their own line, which with several processes the slow starts' first
 * 60 would hide (8 × 10 callers on 5/5 meet 60 in the first 0.2 s), with the process that met each where known.
 */
function trace(answers: { at: number; status: number; process?: number }[], endedAt: number): string {
  const perSecond = Array.from({ length: Math.ceil(endedAt / 1000) }, (_, i) =>
    answers.filter((a) => a.status === 200 && Math.floor(a.at / 1000) === i).length);
  const throttled = answers.filter((a) => a.status === 429);
  const at = (a: { at: number; process?: number }): string => `${(a.at / 1000).toFixed(2)}${a.process === undefined ? '' : `p${a.process + 1}`}`;
  const list = (some: typeof throttled): string => `${some.slice(0, 60).map(at).join(' ')}${some.length > 60 ? ' …' : ''}`;
  const steadyOnes = throttled.filter((a) => a.at >= fromMs);
  return `  admitted per second: ${perSecond.join(' ')}\n`
    + `  429s at (s): ${list(throttled)}\n`
    + `  429s from ${fromMs / 1000} s (${steadyOnes.length}): ${list(steadyOnes)}\n`;
}

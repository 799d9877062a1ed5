/**
 * A usage plan and its callers in virtual time: the real limiter and the real retry loop (`runCall`), several
 * "processes" (each its own limiter, as separate n8n workers or isolates have) sharing one token bucket like the
 * emulator's, with a seeded network delay. Seconds of traffic run in milliseconds and the same seed gives the same
 * run, so the pacing's behaviour can be asserted in unit tests (and swept in the benchmark) without waiting.
 */
import { createLimiter, type Limiter, type LimiterOptions } from '../../core/http/limiter.ts';
import type { Ceiling } from '../../core/http/ceiling.ts';
import { CALL_DEFAULTS, runCall, type Attempt } from '../../core/http/run-call.ts';
import { createRedactor } from '../../core/redact.ts';
import { consume, freshCounters } from '../../emulator/usage-plan.ts';

/** What one simulated run looks like. */
export interface SimOptions {
  plan: { ratePerSecond: number; burst: number };
  processes: number;
  /** Concurrent callers in each process, each sending one call after another. */
  callers: number;
  /** Virtual run time, ms. */
  durationMs: number;
  /** Stop once this many calls succeeded (the "N calls" runs); default: run for `durationMs`. */
  calls?: number;
  /** Each process's configured rate; default adaptive. */
  rateLimit?: Ceiling;
  /**
   * Each process makes one call this long before its callers start (a client that made one call, then sat idle);
   * default: none. Times in the result still count from that first call.
   */
  earlierCallMs?: number;
  /** When each process leaves (ms; by index, `undefined`: stays): its callers start no call after that. */
  leaveAtMs?: (number | undefined)[];
  /** Each process starts no more calls than this (an n8n worker with its share of the items); default: no limit. */
  callsPerProcess?: number;
  /** The plan changes to this one at `atMs` (the provider raised or lowered it), with a full bucket as the emulator's control interface gives it. */
  planFrom?: { atMs: number; ratePerSecond: number; burst: number };
  /** One-way network delay, ms: uniform in [min, max]. */
  delayMs?: [number, number];
  seed?: number;
  /**
   * Each process's limiter in place of the default (`bench/rate-oracle.ts`: a pacing that is told the plan, to measure
   * what a pacing that knows more could hold); given the run's clock and seeded random.
   */
  limiterFor?: (process: number, clock: Pick<LimiterOptions, 'now' | 'sleep'>, random: () => number) => Limiter;
}

/** One answer the plan gave. */
export interface SimAnswer {
  at: number;
  status: 200 | 429;
  process: number;
}

/** What a run gave. */
export interface SimResult {
  answers: SimAnswer[];
  /** Calls that ended in an error after their retries. */
  failed: number;
  succeeded: number;
  /** When the run ended, ms from its start. */
  endedAt: number;
}

/** A small seeded PRNG (mulberry32), so a run can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Virtual time: timers fire in order, each after all the promise work the last one caused. */
function virtualTime() {
  let t = 0;
  let seq = 0;
  const timers: { at: number; seq: number; fire: () => void }[] = [];
  const sleep = (ms: number, signal?: AbortSignal): Promise<void> => new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      const at = timers.indexOf(timer);
      if (at >= 0) timers.splice(at, 1);
      reject(signal?.reason);
    };
    // The listener goes when the timer fires, as the default sleep's does: else every sleep a call made (its backoffs,
    // its slots) stayed on its signal until the run ended.
    const timer = { at: t + Math.max(0, ms), seq: seq++, fire: () => (signal?.removeEventListener('abort', onAbort), resolve()) };
    timers.push(timer);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  const runUntil = async (done: () => boolean, end: number): Promise<void> => {
    await settle();
    while (!done() && timers.length > 0) {
      timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = timers[0]!;
      if (next.at > end) break;
      t = next.at;
      while (timers[0] && timers[0].at <= t) timers.shift()!.fire();
      await settle();
    }
  };
  return { now: () => t, sleep, runUntil };
}

/**
 * Runs callers against one plan in virtual time.
 *
 * @param options Plan, processes, callers, duration.
 * @returns Every answer the plan gave, and how the calls ended.
 */
export async function simulate(options: SimOptions): Promise<SimResult> {
  const clock = virtualTime();
  const random = prng(options.seed ?? 1);
  const [minDelay, maxDelay] = options.delayMs ?? [0.5, 2];
  const delay = (): number => minDelay + random() * (maxDelay - minDelay);
  const plan = { ...options.plan, dailyQuota: Number.MAX_SAFE_INTEGER };
  const bucket = freshCounters(plan, 0);
  const later = options.planFrom && { ...options.planFrom, dailyQuota: Number.MAX_SAFE_INTEGER };
  let changed = false;
  const planAt = (now: number) => {
    if (!later || now < later.atMs) return plan;
    if (!changed) Object.assign(bucket, freshCounters(later, later.atMs));
    changed = true;
    return later;
  };
  const answers: SimAnswer[] = [];
  const result: SimResult = { answers, failed: 0, succeeded: 0, endedAt: 0 };
  const target = options.calls ?? Number.POSITIVE_INFINITY;
  let started = 0;
  let stop = false;
  const redactor = createRedactor();

  /** One call through the real retry loop and the process's limiter; the plan's bucket answers it. */
  const callOnce = async (limiter: Limiter, process: number): Promise<void> => {
    const settings = {
      baseUrl: 'https://sim.example/v1', limiter, retry: CALL_DEFAULTS.retry, timeoutMs: CALL_DEFAULTS.timeoutMs,
      deadlineMs: CALL_DEFAULTS.deadlineMs, now: clock.now, redactor, random,
    };
    const attempt = async (): Promise<Attempt> => {
      await clock.sleep(delay());
      const verdict = consume(planAt(clock.now()), bucket, clock.now());
      const status = verdict === 'ok' ? 200 : 429;
      answers.push({ at: clock.now(), status, process });
      await clock.sleep(delay());
      return status === 200
        ? { sent: true, status, headers: new Headers(), data: {} }
        : { sent: true, status, headers: new Headers(), errorBody: { message: 'Too Many Requests' } };
    };
    await runCall({ method: 'GET', path: '/ping' }, settings, { attempt });
  };

  const begun = Array.from({ length: options.processes }, () => 0);
  const perProcess = options.callsPerProcess ?? Number.POSITIVE_INFINITY;
  const caller = async (limiter: Limiter, process: number): Promise<void> => {
    const leaveAt = options.leaveAtMs?.[process] ?? Number.POSITIVE_INFINITY;
    while (!stop && started < target && clock.now() < leaveAt && begun[process]! < perProcess) {
      started += 1;
      begun[process]! += 1;
      try {
        await callOnce(limiter, process);
        result.succeeded += 1;
        if (result.succeeded >= target) {
          result.endedAt = clock.now();
          stop = true;
        }
      } catch {
        result.failed += 1;
      }
    }
  };

  const runs: Promise<void>[] = [];
  for (let p = 0; p < options.processes; p++) {
    const limiter = options.limiterFor?.(p, clock, random)
      ?? createLimiter({ now: clock.now, sleep: clock.sleep, rateLimit: options.rateLimit ?? 'adaptive' });
    const earlier = options.earlierCallMs;
    const ready = earlier === undefined
      ? Promise.resolve()
      : callOnce(limiter, p).catch(() => undefined).then(() => clock.sleep(earlier));
    for (let c = 0; c < options.callers; c++) runs.push(ready.then(() => caller(limiter, p)));
  }
  let finished = false;
  // Callers still waiting when the run ends are left pending: virtual time simply stops for them.
  void Promise.all(runs).then(() => { finished = true; });
  await clock.runUntil(() => finished || stop, options.durationMs);
  stop = true;
  if (!result.endedAt) result.endedAt = Math.min(clock.now(), options.durationMs);
  return result;
}

/** The steady state of a run: share of the plan used and 429s among answers, from `fromMs` to `toMs`. */
export function steady(result: SimResult, plan: { ratePerSecond: number }, fromMs: number, toMs: number): { share: number; throttled: number } {
  const window = result.answers.filter((a) => a.at >= fromMs && a.at < toMs);
  const ok = window.filter((a) => a.status === 200).length;
  return {
    share: ok / (plan.ratePerSecond * ((toMs - fromMs) / 1000)),
    throttled: window.length === 0 ? 0 : (window.length - ok) / window.length,
  };
}

import type { UsagePlan } from './types.ts';

/** Per-key usage: a token bucket for rate and burst, and a per-UTC-day request counter for the quota. */
export interface UsageCounters {
  tokens: number;
  last: number;
  day: number;
  used: number;
}

/** Outcome of one request against a usage plan. */
export type UsageVerdict = 'ok' | 'throttled' | 'quota';

const DAY_MS = 86_400_000;

/**
 * @param plan the key's plan.
 * @param now emulator clock, epoch ms.
 * @returns fresh counters: a full bucket and nothing used today.
 */
export function freshCounters(plan: UsagePlan, now: number): UsageCounters {
  return { tokens: plan.burst, last: now, day: Math.floor(now / DAY_MS), used: 0 };
}

/**
 * Charges one request. Throttling is checked first (a throttled request does not count against the quota),
 * as API Gateway does; the quota resets at UTC midnight of the emulator clock.
 * @param plan the key's plan.
 * @param counters mutated in place.
 * @param now emulator clock, epoch ms.
 * @returns `ok`, `throttled` (429 Too Many Requests) or `quota` (429 Limit Exceeded).
 */
export function consume(plan: UsagePlan, counters: UsageCounters, now: number): UsageVerdict {
  const elapsed = Math.max(0, now - counters.last) / 1000;
  counters.tokens = Math.min(plan.burst, counters.tokens + elapsed * plan.ratePerSecond);
  counters.last = Math.max(counters.last, now);
  if (counters.tokens < 1) return 'throttled';
  counters.tokens -= 1;
  const day = Math.floor(now / DAY_MS);
  if (day !== counters.day) {
    counters.day = day;
    counters.used = 0;
  }
  if (counters.used >= plan.dailyQuota) return 'quota';
  counters.used += 1;
  return 'ok';
}

/**
 * Retries and backoff against emulator faults, on a fake clock: which statuses are retried, how long the client
 * waits (1, 2, 4 … s with jitter, capped at 30 s), giving up after 5 attempts, the daily quota, and the cooldown
 * shared by every client of one API key.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createLimiter, QuotaExceededError, ServerError, ThrottledError } from '../../../core/index.ts';
import { startInProcess } from '../../support/core-harness.ts';
import type { Harness } from '../../support/core-harness.ts';
import { apiRequests, requestsTo } from '../../support/core-control.ts';
import type { LoggedRequest } from '../../support/core-control.ts';

/** Clears the fault before the first backoff wait that follows the `failures`-th failed answer. */
function clearFaultAfter(h: Harness, failures: number, status: number): void {
  h.clock.onSleep = async () => {
    if (h.wire.responses.filter((r) => r.status === status).length >= failures) {
      h.clock.onSleep = undefined;
      await h.control.clearFaults();
    }
  };
}

/** Fake-clock milliseconds between consecutive logged attempts. */
function gaps(entries: LoggedRequest[]): number[] {
  const times = entries.map((e) => Date.parse(e.at));
  return times.slice(1).map((t, i) => t - times[i]!);
}

const CATEGORIES = /\/v1\/categories$/;

describe('retries and backoff', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startInProcess();
  });

  it('503 on a few attempts, then healthy: the call succeeds after retries, waiting about 1 s then 2 s', async () => {
    const client = h.client();
    await client.courses.list().toArray({ max: 1 }); // token and warm-up outside the faulted path
    await h.control.setFaults({ rate: 1, statuses: [503], pathPattern: 'categories' });
    clearFaultAfter(h, 2, 503);
    const categories = await client.categories.list().toArray({ max: 1 });
    expect(categories).toHaveLength(1);
    const attempts = requestsTo(await h.control.requests(), CATEGORIES);
    expect(attempts.map((a) => a.status)).toEqual([503, 503, 200]);
    const [first, second] = gaps(attempts);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(1_250);
    expect(second).toBeGreaterThan(0);
    expect(second).toBeLessThanOrEqual(2_500);
  });

  it('429 Too Many Requests is retried until it succeeds', async () => {
    const client = h.client();
    await h.control.setFaults({ rate: 1, statuses: [429], pathPattern: 'categories' });
    clearFaultAfter(h, 2, 429);
    expect(await client.categories.list().toArray({ max: 1 })).toHaveLength(1);
    expect(requestsTo(await h.control.requests(), CATEGORIES).map((a) => a.status)).toEqual([429, 429, 200]);
  });

  it('5 failing attempts end in a ServerError carrying the last answer', async () => {
    const client = h.client();
    await h.control.setFaults({ rate: 1, statuses: [503], pathPattern: 'categories' });
    const error = await client.categories.list().toArray({ max: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: 'server_error', status: 503, retryable: true });
    const attempts = requestsTo(await h.control.requests(), CATEGORIES);
    expect(attempts.map((a) => a.status)).toEqual([503, 503, 503, 503, 503]);
    const last = h.wire.responses.filter((r) => r.url.includes('/categories')).at(-1);
    expect((error as { requestId?: string }).requestId).toBe(last?.requestId);
  });

  it('backoff delays grow 1, 2, 4, 8 s with jitter: bounded per attempt and growing on average', async () => {
    const client = h.client();
    const perAttempt: number[][] = [[], [], [], []];
    for (let call = 0; call < 10; call++) {
      // A success between the runs: the key-wide failure streak (the client may carry it across calls) ends.
      await client.courses.list().toArray({ max: 1 });
      await h.control.setFaults({ rate: 1, statuses: [500], pathPattern: 'categories' });
      await h.control.clearRequests();
      await expect(client.categories.list().toArray({ max: 1 })).rejects.toBeInstanceOf(ServerError);
      await h.control.clearFaults();
      gaps(requestsTo(await h.control.requests(), CATEGORIES)).forEach((gap, k) => perAttempt[k]!.push(gap));
    }
    perAttempt.forEach((observed, k) => {
      expect(observed).toHaveLength(10);
      for (const gap of observed) {
        expect(gap).toBeGreaterThanOrEqual(0);
        expect(gap).toBeLessThanOrEqual(1_000 * 2 ** k * 1.25);
      }
    });
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(perAttempt[3]!)).toBeGreaterThan(2 * mean(perAttempt[0]!));
    expect(Math.max(...perAttempt[3]!)).toBeGreaterThan(2_000);
    // Jitter: ten runs do not all wait the same.
    expect(new Set(perAttempt[2]!).size).toBeGreaterThan(1);
  });

  it('backoff is capped at 30 s', async () => {
    const client = h.client({ retry: { maxAttempts: 9 } });
    await h.control.setFaults({ rate: 1, statuses: [502], pathPattern: 'categories' });
    await expect(client.categories.list().toArray({ max: 1 })).rejects.toBeInstanceOf(ServerError);
    expect(h.clock.calls.length).toBeGreaterThanOrEqual(8);
    for (const call of h.clock.calls) expect(call.ms).toBeLessThanOrEqual(30_000);
    const observed = gaps(requestsTo(await h.control.requests(), CATEGORIES));
    expect(observed).toHaveLength(8);
    // Attempts 6 to 9 would wait 32, 64, 128 s uncapped: the cap holds, and the waits are still long.
    for (const gap of observed.slice(5)) expect(gap).toBeLessThanOrEqual(30_000 + 50);
    expect(Math.max(...observed.slice(4))).toBeGreaterThan(3_000);
  });

  it('Limit Exceeded (daily quota) is a QuotaExceededError after exactly one request', async () => {
    const c = h.creds();
    await h.control.setUsagePlan(c.apiKey, { ratePerSecond: 1_000, burst: 1_000, dailyQuota: 1 });
    const client = h.client();
    await client.categories.list().toArray({ max: 1 });
    await h.control.clearRequests();
    const error = await client.courses.list().toArray({ max: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).toMatchObject({ code: 'quota_exceeded', status: 429, retryable: false });
    expect(apiRequests(await h.control.requests()).map((r) => r.status)).toEqual([429]);
  });

  it('a 429 seen by one client slows the next call of another client given the same limiter, not other keys', async () => {
    const limiter = createLimiter({ now: h.clock.now, sleep: h.clock.sleep });
    const a = h.client({ retry: { maxAttempts: 1 }, limiter });
    const b = h.client({ sleep: h.clock.sleeper().sleep, limiter });
    const other = h.client({ sleep: h.clock.sleeper().sleep }, { partner: 1 });
    await Promise.all([a, b, other].map((c) => c.courses.list().toArray({ max: 1 }))); // tokens, warm-up
    await h.control.setFaults({ rate: 1, statuses: [429], pathPattern: 'categories' });
    const error = await a.categories.list().toArray({ max: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ThrottledError);
    expect(error).toMatchObject({ code: 'throttled', status: 429, retryable: true });
    await h.control.clearFaults();
    const throttledAt = Date.parse(requestsTo(await h.control.requests(), CATEGORIES).at(-1)!.at);

    await other.modules.list().toArray({ max: 1 });
    await b.modules.list().toArray({ max: 1 });
    const modules = requestsTo(await h.control.requests(), /\/v1\/modules$/);
    const byOther = modules.at(-2)!;
    const byB = modules.at(-1)!;
    expect(byOther.status).toBe(200);
    expect(byB.status).toBe(200);
    expect(Date.parse(byOther.at)).toBe(throttledAt);
    expect(Date.parse(byB.at)).toBeGreaterThan(throttledAt);
  });
});

/**
 * The client with the `sleep` and `now` that callers actually inject: a sleep that only records the delay and
 * returns at once (with the runtime's clock, or with a clock that never moves), and clients built by a helper, each
 * with its own `now` function. The emulator runs on real time; nothing here waits for the backoff it records.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLimiter, ServerError, ThrottledError } from '../../../core/index.ts';
import { startInProcess } from '../../support/core-harness.ts';
import type { Harness } from '../../support/core-harness.ts';
import { requestsTo } from '../../support/core-control.ts';

const CATEGORIES = /\/v1\/categories$/;

/** A sleep that records the delay and returns at once, as tests and dry runs inject it. */
function recordingSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

describe('injected sleep and clock', () => {
  let h: Harness;

  beforeEach(async () => {
    h = await startInProcess({ clock: 'real' });
  });

  afterEach(async () => {
    await h.control.clearFaults();
  });

  it('a sleep that returns at once with the runtime clock: one sleep per retry (1, 2, 4, 8 s), no spinning', async () => {
    const { sleep, delays } = recordingSleep();
    const client = h.client({ sleep, now: () => Date.now() });
    await client.courses.list().toArray({ max: 1 });
    await h.control.setFaults({ rate: 1, statuses: [503], pathPattern: 'categories' });
    const started = Date.now();
    await expect(client.categories.list().toArray({ max: 1 })).rejects.toBeInstanceOf(ServerError);
    expect(Date.now() - started).toBeLessThan(2_000); // the backoff was recorded, not waited for
    expect(delays).toHaveLength(4);
    delays.forEach((ms, k) => {
      expect(ms).toBeGreaterThanOrEqual(500 * 2 ** k);
      expect(ms).toBeLessThanOrEqual(1000 * 2 ** k);
    });
    expect(requestsTo(await h.control.requests(), CATEGORIES).map((r) => r.status)).toEqual([503, 503, 503, 503, 503]);
  });

  it('a clock that never moves and a sleep that returns at once: retries and a concurrent crowd still finish', async () => {
    const frozen = Date.parse('2030-01-01T00:00:00Z');
    const delays: number[] = [];
    // The sleep itself ends the fault once two 429s were answered, so the third attempt is the one that succeeds
    // (polling from outside would race attempts that follow each other within microseconds).
    const sleep = async (ms: number): Promise<void> => {
      delays.push(ms);
      if (h.wire.responses.filter((r) => r.status === 429).length >= 2) await h.control.clearFaults();
    };
    const client = h.client({ sleep, now: () => frozen });
    await h.control.setFaults({ rate: 1, statuses: [429], pathPattern: 'categories' });
    h.wire.responses.length = 0;
    const categories = await client.categories.list().toArray({ max: 1 });
    expect(categories).toHaveLength(1);
    expect(requestsTo(await h.control.requests(), CATEGORIES).map((r) => r.status)).toEqual([429, 429, 200]);
    expect(delays.length).toBeGreaterThanOrEqual(2);
    // After a throttle the adaptive rate paces concurrent calls: on a frozen clock that pacing must still end.
    const all = await Promise.all(Array.from({ length: 60 }, () => client.organizations.list().toArray({ max: 1 })));
    expect(all).toHaveLength(60);
  });

  it('clients built by a helper, each with its own now function, share the API key cooldown through one limiter', async () => {
    const b = recordingSleep();
    const limiter = createLimiter({ now: () => Date.now(), sleep: b.sleep });
    const make = (maxAttempts = 5) => h.client({ sleep: b.sleep, now: () => Date.now(), limiter, retry: { maxAttempts } });
    const a = make(1);
    const clientB = make();
    await Promise.all([a, clientB].map((c) => c.courses.list().toArray({ max: 1 })));
    await h.control.setFaults({ rate: 1, statuses: [429], pathPattern: 'categories' });
    await expect(a.categories.list().toArray({ max: 1 })).rejects.toBeInstanceOf(ThrottledError);
    await h.control.clearFaults();
    expect(b.delays).toEqual([]);
    await clientB.modules.list().toArray({ max: 1 });
    // B never saw a 429 itself: it waited because A's 429 paused every call with the key.
    expect(b.delays.length).toBeGreaterThanOrEqual(1);
    expect(b.delays[0]).toBeGreaterThan(0);
    expect(b.delays[0]).toBeLessThanOrEqual(1_000);
  });
});

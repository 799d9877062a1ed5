import { describe, it, expect } from 'vitest';
import type { ModuleContent } from '../types/records.ts';
import { createContentUrlKeeper, type KeeperDeps } from './keeper.ts';

const T0 = Date.parse('2025-03-01T10:00:00Z');

function record(n: number, expiresAtMs: number): ModuleContent {
  return {
    '@type': 'ModuleContent',
    module_id: 42,
    content_type: 'video',
    content_url: `https://cdn.example.test/v/${n}`,
    expires_at: new Date(expiresAtMs).toISOString(),
    duration_seconds: 600,
    mime_type: 'video/mp4',
  };
}

/** A fake clock and a sleep whose timers the test fires by hand. */
function harness(overrides: Partial<KeeperDeps> = {}) {
  let now = T0;
  let issued = 0;
  const calls: string[] = [];
  const timers: { ms: number; signal?: AbortSignal; fire: () => void }[] = [];
  const deps: KeeperDeps = {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        timers.push({ ms, signal, fire: resolve });
        signal?.addEventListener('abort', () => reject(signal.reason));
      }),
    fetchContent: async () => {
      calls.push('content');
      return record(++issued, now + 3_600_000);
    },
    refreshUrl: async () => {
      calls.push('refresh-url');
      return record(++issued, now + 3_600_000);
    },
    ...overrides,
  };
  return {
    deps,
    calls,
    timers,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('content URL keeper', () => {
  it('requests nothing before the first current(), then fetches content once', async () => {
    const h = harness();
    const keeper = createContentUrlKeeper(h.deps);
    expect(h.calls).toEqual([]);
    const first = await keeper.current();
    expect(first.content_url).toBe('https://cdn.example.test/v/1');
    expect(await keeper.current()).toBe(first);
    expect(h.calls).toEqual(['content']);
  });

  it('keeps the record while 61 s are left', async () => {
    const h = harness();
    const keeper = createContentUrlKeeper(h.deps);
    const first = await keeper.current();
    h.advance(3_600_000 - 61_000);
    expect(await keeper.current()).toBe(first);
    expect(h.calls).toEqual(['content']);
  });

  it('keeps the record at exactly 60 s left (refresh only when under 60 s)', async () => {
    const h = harness();
    const keeper = createContentUrlKeeper(h.deps);
    const first = await keeper.current();
    h.advance(3_600_000 - 60_000);
    expect(await keeper.current()).toBe(first);
    expect(h.calls).toEqual(['content']);
  });

  it('refreshes via refresh-url when 59 s are left, and tells onRefresh', async () => {
    const refreshed: string[] = [];
    const h = harness();
    const keeper = createContentUrlKeeper({ ...h.deps, onRefresh: (c) => refreshed.push(c.content_url) });
    await keeper.current();
    h.advance(3_600_000 - 59_000);
    const second = await keeper.current();
    expect(second.content_url).toBe('https://cdn.example.test/v/2');
    expect(h.calls).toEqual(['content', 'refresh-url']);
    expect(refreshed).toEqual(['https://cdn.example.test/v/2']);
  });

  it('shares one request between concurrent callers', async () => {
    const h = harness();
    const keeper = createContentUrlKeeper(h.deps);
    const [a, b] = await Promise.all([keeper.current(), keeper.current()]);
    expect(a).toBe(b);
    expect(h.calls).toEqual(['content']);
  });

  it('lets a failed call be retried by the next current()', async () => {
    let fail = true;
    const h = harness();
    const keeper = createContentUrlKeeper({
      ...h.deps,
      fetchContent: async () => {
        if (fail) throw new Error('boom');
        return record(1, T0 + 3_600_000);
      },
    });
    await expect(keeper.current()).rejects.toThrow('boom');
    fail = false;
    expect((await keeper.current()).module_id).toBe(42);
  });

  it('without autoRefresh schedules nothing', async () => {
    const h = harness();
    await createContentUrlKeeper(h.deps).current();
    expect(h.timers).toEqual([]);
  });

  it('with autoRefresh refreshes at expires_at - 60 s on the injected sleep', async () => {
    const refreshed: ModuleContent[] = [];
    const h = harness();
    const keeper = createContentUrlKeeper({ ...h.deps, autoRefresh: true, onRefresh: (c) => refreshed.push(c) });
    await keeper.current();
    expect(h.timers.map((t) => t.ms)).toEqual([3_600_000 - 60_000]);
    h.advance(3_600_000 - 60_000);
    h.timers[0]!.fire();
    await settle();
    expect(h.calls).toEqual(['content', 'refresh-url']);
    expect(refreshed).toHaveLength(1);
    expect((await keeper.current()).content_url).toBe(refreshed[0]!.content_url);
    // The refreshed URL got its own timer.
    expect(h.timers.map((t) => t.ms)).toEqual([3_540_000, 3_540_000]);
    keeper.stop();
  });

  it('stop() cancels the scheduled refresh; current() still works on demand', async () => {
    const h = harness();
    const keeper = createContentUrlKeeper({ ...h.deps, autoRefresh: true });
    await keeper.current();
    keeper.stop();
    expect(h.timers[0]!.signal?.aborted).toBe(true);
    h.timers[0]!.fire();
    await settle();
    expect(h.calls).toEqual(['content']);
    h.advance(3_600_000);
    await keeper.current();
    expect(h.calls).toEqual(['content', 'refresh-url']);
    expect(h.timers).toHaveLength(1);
  });

  it('never schedules in a tight loop when the service issues short-lived URLs', async () => {
    const h = harness();
    const keeper = createContentUrlKeeper({
      ...h.deps,
      autoRefresh: true,
      fetchContent: async () => record(1, T0 + 30_000),
    });
    await keeper.current();
    expect(h.timers[0]!.ms).toBe(1_000);
    keeper.stop();
  });
});

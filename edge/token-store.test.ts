import { describe, expect, it } from 'vitest';
import type { StoredToken, TokenStore } from '../core/index.ts';
import { CLAIM_TIMEOUT_MS, kvTokenStore, memoryFrontedStore, type KvNamespaceLike } from './token-store.ts';

const HOUR = 3_600_000;

function fakeKv(): KvNamespaceLike & { puts: { key: string; ttl?: number }[]; data: Map<string, string> } {
  const data = new Map<string, string>();
  const puts: { key: string; ttl?: number }[] = [];
  return {
    data,
    puts,
    get: async (key) => (data.has(key) ? (JSON.parse(data.get(key) ?? 'null') as unknown) : null),
    put: async (key, value, options) => {
      puts.push({ key, ttl: options?.expirationTtl });
      data.set(key, value);
    },
    delete: async (key) => {
      data.delete(key);
    },
  };
}

describe('memoryFrontedStore', () => {
  it('lets one caller of a cold burst fetch; the others wait for its resolved token', async () => {
    let clock = 1_000_000;
    const store = memoryFrontedStore(undefined, { now: () => clock, sleep: async (ms) => { clock += ms; await Promise.resolve(); } });
    const token: StoredToken = { accessToken: 'a', expiresAt: clock + HOUR, scope: 's' };
    const gets = Array.from({ length: 10 }, () => store.get('k'));
    const first = await gets[0];
    expect(first).toBeUndefined();
    await store.set('k', token);
    const rest = await Promise.all(gets.slice(1));
    expect(rest.every((t) => t?.accessToken === 'a')).toBe(true);
  });

  it('lets waiters fetch themselves once a claim lapses (a failed refresh wedges nobody)', async () => {
    let clock = 0;
    const store = memoryFrontedStore(undefined, { now: () => clock, sleep: async (ms) => { clock += ms; await Promise.resolve(); } });
    expect(await store.get('k')).toBeUndefined();
    expect(await store.get('k')).toBeUndefined();
    expect(clock).toBeGreaterThanOrEqual(CLAIM_TIMEOUT_MS);
  });

  it('reads the durable store once, then memory; writes at most once a second per key', async () => {
    const clock = 5_000_000;
    const kv = fakeKv();
    const durable: TokenStore = kvTokenStore(kv, () => clock);
    await durable.set('k', { accessToken: 'kv', expiresAt: clock + HOUR, scope: 's' });
    const store = memoryFrontedStore(durable, { now: () => clock });
    expect((await store.get('k'))?.accessToken).toBe('kv');
    kv.data.clear();
    expect((await store.get('k'))?.accessToken).toBe('kv');
    await store.set('k', { accessToken: 'b', expiresAt: clock + HOUR, scope: 's' });
    await store.set('k', { accessToken: 'c', expiresAt: clock + HOUR, scope: 's' });
    expect(kv.puts).toHaveLength(2);
    expect((await store.get('k'))?.accessToken).toBe('c');
  });
});

describe('kvTokenStore', () => {
  it('stores with an expirationTtl of the remaining life, at least 60 s, under the given key', async () => {
    const kv = fakeKv();
    const store = kvTokenStore(kv, () => 0);
    await store.set('partner-learning:token:abc', { accessToken: 't', expiresAt: 3_600_000, scope: 's' });
    await store.set('short', { accessToken: 't', expiresAt: 10_000, scope: 's' });
    expect(kv.puts).toEqual([{ key: 'partner-learning:token:abc', ttl: 3600 }, { key: 'short', ttl: 60 }]);
    kv.data.set('junk', '"not a token"');
    expect(await store.get('junk')).toBeUndefined();
  });
});

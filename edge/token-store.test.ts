import { describe, expect, it } from 'vitest';
import type { TokenStore } from '../core/index.ts';
import { kvTokenStore, relayTokenStore, type KvNamespaceLike } from './token-store.ts';

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

describe('relayTokenStore', () => {
  it('reads the durable store once, then memory; writes at most once a second per key', async () => {
    const clock = 5_000_000;
    const kv = fakeKv();
    const durable: TokenStore = kvTokenStore(kv, () => clock);
    await durable.set('k', { accessToken: 'kv', expiresAt: clock + HOUR, scope: 's' });
    const store = relayTokenStore(durable, () => clock);
    expect((await store.get('k'))?.accessToken).toBe('kv');
    kv.data.clear();
    expect((await store.get('k'))?.accessToken).toBe('kv');
    await store.set('k', { accessToken: 'b', expiresAt: clock + HOUR, scope: 's' });
    await store.set('k', { accessToken: 'c', expiresAt: clock + HOUR, scope: 's' });
    expect(kv.puts).toHaveLength(2);
    expect((await store.get('k'))?.accessToken).toBe('c');
  });

  it('knows the access tokens it held, so the relay can scrub an answer that echoes one', async () => {
    const store = relayTokenStore(undefined, () => 0);
    expect(await store.get('k')).toBeUndefined();
    for (const t of ['t1', 't2', 't3', 't4', 't5']) await store.set('k', { accessToken: t, expiresAt: HOUR, scope: 's' });
    expect(store.knownTokens()).toEqual(['t2', 't3', 't4', 't5']);
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

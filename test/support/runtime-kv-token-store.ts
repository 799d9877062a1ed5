/**
 * A `TokenStore` on Workers KV, for the workerd runtime test (the edge relay has its own). KV is eventually
 * consistent and wants `expirationTtl` >= 60 s, so the TTL is the token's remaining life, at least 60 s.
 */
import type { StoredToken, TokenStore } from '../../core/index.ts';

/** The subset of the Workers `KVNamespace` binding used here (so this file needs no Workers type package). */
export interface KvLike {
  get(key: string, type: 'json'): Promise<unknown>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Counts of store operations, reported by the worker so the test can see where the token came from. */
export interface KvStoreStats {
  hits: number;
  misses: number;
  writes: number;
  deletes: number;
}

/**
 * Wraps a KV namespace as a token store.
 *
 * @param kv - The KV binding.
 * @param stats - Counters to update.
 * @param now - Clock in epoch ms (default `Date.now`).
 * @returns A `TokenStore` for `createClient({ tokenStore })`.
 * @example
 * const store = kvTokenStore(env.TOKENS, { hits: 0, misses: 0, writes: 0, deletes: 0 });
 */
export function kvTokenStore(kv: KvLike, stats: KvStoreStats, now: () => number = Date.now): TokenStore {
  return {
    async get(key) {
      const value = (await kv.get(key, 'json')) as StoredToken | null;
      if (value) stats.hits += 1;
      else stats.misses += 1;
      return value ?? undefined;
    },
    async set(key, token) {
      stats.writes += 1;
      const ttl = Math.max(60, Math.floor((token.expiresAt - now()) / 1000));
      await kv.put(key, JSON.stringify(token), { expirationTtl: ttl });
    },
    async delete(key) {
      stats.deletes += 1;
      await kv.delete(key);
    },
  };
}

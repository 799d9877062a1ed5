/**
 * Where the relay keeps the service's access token: Workers KV or Deno KV behind the core's `TokenStore`, fronted
 * by isolate memory. Coalescing a cold burst into one token request, and failing the callers that waited on a
 * failed one at once, is the core's `TokenProvider` (its refresh markers are values, never promises, so they are
 * safe across Workers requests): this store only keeps tokens, writes each key at most once a second, and lets the
 * relay know which upstream tokens exist, so an answer that echoes one can be scrubbed.
 */
import type { StoredToken, TokenStore } from '../core/index.ts';
import { REFRESH_MARGIN_MS } from '../core/protocol.ts';

/** Workers KV refuses `expirationTtl` under 60 s. */
export const MIN_KV_TTL_S = 60;
/** Workers KV allows one write per second per key. */
export const MIN_WRITE_INTERVAL_MS = 1000;

/** The relay's token store: a `TokenStore`, plus the upstream access tokens it holds (secrets to scrub). */
export interface RelayTokenStore extends TokenStore {
  /** @returns The access tokens this isolate has stored or read (the current one and, after a refresh, the last). */
  knownTokens(): string[];
}

/**
 * Fronts a durable store with isolate memory and writes at most once a second per key.
 *
 * @param durable Workers KV, Deno KV or another store (`undefined`: memory only, as on Node).
 * @param now Epoch milliseconds.
 * @returns The `TokenStore` to give `createClient`.
 * @example
 * const store = relayTokenStore(kvTokenStore(env.TOKEN_CACHE));
 */
export function relayTokenStore(durable: TokenStore | undefined, now: () => number = Date.now): RelayTokenStore {
  const memory = new Map<string, StoredToken>();
  const lastWrite = new Map<string, number>();
  const seen: string[] = [];
  const remember = (token: StoredToken | undefined): StoredToken | undefined => {
    if (token && !seen.includes(token.accessToken)) {
      seen.push(token.accessToken);
      if (seen.length > 4) seen.shift();
    }
    return token;
  };
  const usable = (t: StoredToken | undefined): t is StoredToken => t !== undefined && now() < t.expiresAt - REFRESH_MARGIN_MS;

  return {
    async get(key) {
      const held = memory.get(key);
      if (usable(held) || !durable) return remember(held);
      const stored = (await durable.get(key)) ?? undefined;
      if (stored) memory.set(key, stored);
      return remember(stored ?? held);
    },
    async set(key, token) {
      memory.set(key, remember(token) as StoredToken);
      if (!durable) return;
      const last = lastWrite.get(key);
      if (last !== undefined && now() - last < MIN_WRITE_INTERVAL_MS) return;
      lastWrite.set(key, now());
      await durable.set(key, token);
    },
    async delete(key) {
      memory.delete(key);
      if (durable) await durable.delete(key);
    },
    knownTokens: () => [...seen],
  };
}

/** The subset of a Workers `KVNamespace` the relay uses. */
export interface KvNamespaceLike {
  get(key: string, type: 'json'): Promise<unknown>;
  put(key: string, value: string, options?: { expirationTtl?: number }): Promise<void>;
  delete(key: string): Promise<void>;
}

function isStoredToken(value: unknown): value is StoredToken {
  const v = value as StoredToken | null;
  return typeof v === 'object' && v !== null && typeof v.accessToken === 'string' && typeof v.expiresAt === 'number' && typeof v.scope === 'string';
}

/**
 * A `TokenStore` on Workers KV. Keys are the core's (no secret in them); the TTL is the token's remaining life, at
 * least 60 s.
 *
 * @param kv The `TOKEN_CACHE` binding.
 * @param now Epoch milliseconds.
 * @returns The store (use it through {@link relayTokenStore}).
 */
export function kvTokenStore(kv: KvNamespaceLike, now: () => number = Date.now): TokenStore {
  return {
    async get(key) {
      const value = await kv.get(key, 'json');
      return isStoredToken(value) ? value : undefined;
    },
    async set(key, token) {
      const ttl = Math.max(MIN_KV_TTL_S, Math.floor((token.expiresAt - now()) / 1000));
      await kv.put(key, JSON.stringify(token), { expirationTtl: ttl });
    },
    async delete(key) {
      await kv.delete(key);
    },
  };
}

/** The subset of `Deno.Kv` the relay uses. */
export interface DenoKvLike {
  get(key: string[]): Promise<{ value: unknown }>;
  set(key: string[], value: unknown, options?: { expireIn?: number }): Promise<unknown>;
  delete(key: string[]): Promise<void>;
}

/**
 * A `TokenStore` on Deno KV (`expireIn` is only the earliest deletion time; the core checks `expiresAt` itself).
 *
 * @param kv From `Deno.openKv()`.
 * @param now Epoch milliseconds.
 * @returns The store (use it through {@link relayTokenStore}).
 */
export function denoKvTokenStore(kv: DenoKvLike, now: () => number = Date.now): TokenStore {
  const path = (key: string): string[] => ['partner-learning-relay', key];
  return {
    async get(key) {
      const { value } = await kv.get(path(key));
      return isStoredToken(value) ? value : undefined;
    },
    async set(key, token) {
      await kv.set(path(key), token, { expireIn: Math.max(MIN_KV_TTL_S * 1000, token.expiresAt - now()) });
    },
    async delete(key) {
      await kv.delete(path(key));
    },
  };
}

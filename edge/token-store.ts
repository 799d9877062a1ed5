/**
 * Where the relay keeps the service's access token: Workers KV or Deno KV behind the core's `TokenStore`, fronted
 * by isolate memory. Only resolved values are shared between requests, never promises (a Worker cancels a request
 * that awaits a promise another request created). A burst that meets an empty cache is still served by one token
 * request: the first request claims the refresh, the others poll memory on their own timers until the token is
 * there (or the claim lapses and they fetch it themselves).
 */
import type { StoredToken, TokenStore } from '../core/index.ts';
import { REFRESH_MARGIN_MS } from '../core/auth/token-provider.ts';

/** How long other requests wait for a claimed refresh before fetching a token themselves. */
export const CLAIM_TIMEOUT_MS = 5000;
/** How often a waiting request looks at memory again. */
const POLL_MS = 20;
/** Workers KV refuses `expirationTtl` under 60 s. */
export const MIN_KV_TTL_S = 60;
/** Workers KV allows one write per second per key. */
export const MIN_WRITE_INTERVAL_MS = 1000;

/** What {@link memoryFrontedStore} needs besides the durable store. */
export interface FrontOptions {
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Fronts a durable store with isolate memory, coalesces cold-cache bursts, and writes at most once a second per key.
 *
 * @param durable Workers KV, Deno KV or another store (`undefined`: memory only, as on Node).
 * @param options Clock and sleep.
 * @returns The `TokenStore` to give `createClient`.
 * @example
 * const store = memoryFrontedStore(kvTokenStore(env.TOKEN_CACHE));
 */
export function memoryFrontedStore(durable: TokenStore | undefined, options: FrontOptions = {}): TokenStore {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const memory = new Map<string, StoredToken>();
  const claims = new Map<string, number>();
  const lastWrite = new Map<string, number>();
  const usable = (t: StoredToken | undefined): t is StoredToken => t !== undefined && now() < t.expiresAt - REFRESH_MARGIN_MS;

  return {
    async get(key) {
      const held = memory.get(key);
      if (usable(held)) return held;
      const stored = durable ? ((await durable.get(key)) ?? undefined) : undefined;
      if (usable(stored)) {
        memory.set(key, stored);
        return stored;
      }
      const claimedAt = claims.get(key);
      if (claimedAt === undefined || now() - claimedAt >= CLAIM_TIMEOUT_MS) {
        claims.set(key, now());
        return stored ?? held;
      }
      // Another request is fetching: wait for its resolved value, on this request's own timer.
      while (claims.get(key) === claimedAt && now() - claimedAt < CLAIM_TIMEOUT_MS) {
        await sleep(POLL_MS);
        const fresh = memory.get(key);
        if (usable(fresh)) return fresh;
      }
      const fresh = memory.get(key);
      if (usable(fresh)) return fresh;
      claims.set(key, now());
      return stored ?? held;
    },
    async set(key, token) {
      memory.set(key, token);
      claims.delete(key);
      if (!durable) return;
      const last = lastWrite.get(key);
      if (last !== undefined && now() - last < MIN_WRITE_INTERVAL_MS) return;
      lastWrite.set(key, now());
      await durable.set(key, token);
    },
    async delete(key) {
      memory.delete(key);
      claims.delete(key);
      if (durable) await durable.delete(key);
    },
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
 * @returns The store (use it through {@link memoryFrontedStore}).
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
 * @returns The store (use it through {@link memoryFrontedStore}).
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

import type { StoredToken, TokenStore } from '../types/options.ts';

/**
 * A `TokenStore` in memory. The client's default is one process-wide instance (see `defaultTokenStore`), so every
 * client with the same token URL, client ID, secret and scopes reuses one token.
 *
 * @example
 * const client = createClient({ ...options, tokenStore: new MemoryTokenStore() }); // a private cache
 */
export class MemoryTokenStore implements TokenStore {
  readonly #tokens = new Map<string, StoredToken>();

  /**
   * @param key Opaque cache key.
   * @returns The token stored under `key`, if any.
   */
  get(key: string): StoredToken | undefined {
    const token = this.#tokens.get(key);
    return token === undefined ? undefined : { ...token };
  }

  /**
   * @param key Opaque cache key.
   * @param token The token to keep (a copy is stored).
   */
  set(key: string, token: StoredToken): void {
    this.#tokens.set(key, { ...token });
  }

  /** @param key Opaque cache key. */
  delete(key: string): void {
    this.#tokens.delete(key);
  }
}

const SHARED_STORE = Symbol.for('partner-learning-client.default-token-store');
const holder = globalThis as typeof globalThis & { [SHARED_STORE]?: TokenStore };

/**
 * The process-wide store used when the options name none. Kept under a registered symbol on `globalThis`, so the
 * ESM and CommonJS builds (or two copies of the package) loaded in one process share one token per credentials.
 */
export const defaultTokenStore: TokenStore = (holder[SHARED_STORE] ??= new MemoryTokenStore());

/**
 * Access tokens for the pipeline: cached in the token store per (token URL, client ID, secret fingerprint, scopes),
 * refreshed 300 s before expiry, fetched once for many concurrent callers, and discarded after a 401 only when the
 * store still holds the very token that failed. Without in-flight sharing (Workers), a caller that finds another
 * caller's refresh under way polls the store for the new token instead of fetching its own.
 */
import type { KyInstance } from 'ky';
import type { StoredToken, TokenStore } from '../types/options.ts';
import { PartnerLearningError } from '../errors/base.ts';
import { sha256Hex } from '../hash.ts';
import type { Log } from '../log.ts';
import type { Redactor } from '../redact.ts';
import { abortReason, raceAbort } from '../signal.ts';
import { REFRESH_MARGIN_MS, requestToken } from './token-endpoint.ts';

export { REFRESH_MARGIN_MS };
/** A token this close to expiry is not used even as a fallback when a refresh fails. */
const FALLBACK_MARGIN_MS = 30_000;
/** How often a caller waiting for another caller's refresh (no in-flight sharing) looks at the store. */
export const REFRESH_POLL_MS = 50;

/** What a {@link TokenProvider} needs (a subset of `NormalizedOptions`, plus the ky instance and log). */
export interface TokenProviderInit {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
  tokenStore: TokenStore;
  now: () => number;
  /** Waits between looks at the store while another caller refreshes (no in-flight sharing). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  timeoutMs: number;
  http: KyInstance;
  /** The client's redactor, for the token endpoint's errors. */
  redactor?: Redactor;
  /** See `ClientOptions.shareInFlight`: `false` inside Cloudflare Workers. */
  shareInFlight: boolean;
  log?: Log;
}

/** A refresh under way (no in-flight sharing). Its failure is recorded on it, for the callers waiting on it. */
interface RefreshMarker {
  since: number;
  /** Set when this refresh failed: its waiters fail with it at once instead of waiting or retrying it. */
  failure?: { error: unknown };
}

interface SharedState {
  /** Resolved tokens (values, never promises), so isolates and processes skip a store read per call. */
  resolved: Map<string, StoredToken>;
  /** Token requests under way, for single-flight. */
  inflight: Map<string, Promise<StoredToken>>;
  /**
   * Without in-flight sharing: when (injected clock) a refresh for the key started. A value, not a promise, so it
   * may be shared across Workers requests; a marker older than the token request's timeout is ignored.
   */
  refreshing: Map<string, RefreshMarker>;
}

// Per store, process-wide: two clients with the same store and credentials share tokens and refreshes, also when
// one was loaded from the ESM build and the other from the CommonJS build (a registered symbol on globalThis).
const SHARED_STATE = Symbol.for('partner-learning-client.token-state');
const holder = globalThis as typeof globalThis & { [SHARED_STATE]?: WeakMap<TokenStore, SharedState> };
const sharedByStore: WeakMap<TokenStore, SharedState> = (holder[SHARED_STATE] ??= new WeakMap());

function sharedState(store: TokenStore): SharedState {
  let state = sharedByStore.get(store);
  if (!state) {
    state = { resolved: new Map(), inflight: new Map(), refreshing: new Map() };
    sharedByStore.set(store, state);
  }
  return state;
}

/**
 * The store key: a SHA-256 over token URL, client ID, sorted scopes and a SHA-256 of the secret. No secret is in it;
 * the secret's fingerprint keeps a client with a wrong secret from riding on another client's cached token.
 *
 * @param init Token URL, client ID, secret and scopes.
 * @returns `partner-learning:token:<64 hex>`.
 */
export async function tokenCacheKey(init: Pick<TokenProviderInit, 'tokenUrl' | 'clientId' | 'clientSecret' | 'scopes'>): Promise<string> {
  const material = JSON.stringify([init.tokenUrl, init.clientId, [...init.scopes].sort(), await sha256Hex(init.clientSecret)]);
  return `partner-learning:token:${await sha256Hex(material)}`;
}

/**
 * Hands out access tokens.
 *
 * @example
 * const tokens = new TokenProvider({ ...normalized, http, log });
 * const { accessToken } = await tokens.getToken(signal);
 */
export class TokenProvider {
  readonly #init: TokenProviderInit;
  readonly #state: SharedState;
  #key: string | undefined;

  /** @param init Credentials, store, clock and HTTP. */
  constructor(init: TokenProviderInit) {
    this.#init = init;
    this.#state = sharedState(init.tokenStore);
  }

  /**
   * A token valid for at least 300 more seconds (or, when a refresh fails transiently, the still-valid old one).
   *
   * @param signal Stops waiting (a shared token request keeps going for the other callers).
   * @returns The cached or a freshly fetched token.
   * @throws {TokenEndpointError | ConfigurationError} The token endpoint refused or answered unusably.
   * @throws {ServerError | ThrottledError | NetworkError | TimeoutError} Transient token-endpoint failures.
   */
  async getToken(signal?: AbortSignal): Promise<StoredToken> {
    if (signal?.aborted) throw abortReason(signal);
    const key = await this.#cacheKey();
    const { resolved, inflight } = this.#state;
    const memory = resolved.get(key);
    if (memory && this.#fresh(memory)) return memory;
    const shared = this.#init.shareInFlight ? inflight.get(key) : undefined;
    if (shared) return raceAbort(shared, signal);

    const stored = await this.#read(key);
    if (stored && this.#fresh(stored)) {
      resolved.set(key, stored);
      return stored;
    }
    const memoryNow = resolved.get(key);
    if (memoryNow && this.#fresh(memoryNow)) return memoryNow;
    const fallback = [stored, memoryNow].find(
      (t): t is StoredToken => t !== undefined && this.#init.now() < t.expiresAt - FALLBACK_MARGIN_MS,
    );

    if (!this.#init.shareInFlight) return this.#refreshOrWait(key, fallback, signal);
    const started = inflight.get(key);
    if (started) return raceAbort(started, signal);
    const request = this.#refresh(key, fallback, undefined);
    inflight.set(key, request);
    const done = (): void => {
      if (inflight.get(key) === request) inflight.delete(key);
    };
    request.then(done, done);
    return raceAbort(request, signal);
  }

  /**
   * Discards `accessToken` after the service rejected it (401), but only if it is still the cached one: a newer
   * token another caller already fetched is kept.
   *
   * @param accessToken The token the failed request carried.
   */
  async invalidate(accessToken: string): Promise<void> {
    const key = await this.#cacheKey();
    if (this.#state.resolved.get(key)?.accessToken === accessToken) this.#state.resolved.delete(key);
    const stored = await this.#read(key);
    if (stored?.accessToken !== accessToken) return;
    try {
      await this.#init.tokenStore.delete(key);
    } catch (error) {
      this.#init.log?.warn('token store delete failed', { error });
    }
  }

  /**
   * Without in-flight sharing: refresh, unless another caller's refresh is under way; then look at the memory cache
   * and the store every {@link REFRESH_POLL_MS} until its token appears, for at most the token request's timeout
   * (then, or when that refresh failed, fetch one here).
   */
  async #refreshOrWait(key: string, fallback: StoredToken | undefined, signal: AbortSignal | undefined): Promise<StoredToken> {
    const { refreshing } = this.#state;
    const { now, timeoutMs } = this.#init;
    const awaited = refreshing.get(key);
    for (let waited = 0; ; waited += REFRESH_POLL_MS) {
      const marker = refreshing.get(key);
      // The refresh this caller waited on failed: fail with it now (a second request would most likely fail the same
      // way, and every waiter trying in turn is what serialised callers behind a failing token endpoint).
      if (awaited?.failure) throw awaited.failure.error;
      const since = marker?.since;
      const underWay = since !== undefined && now() >= since && now() - since < timeoutMs && waited < timeoutMs;
      if (!underWay) break;
      await this.#init.sleep(REFRESH_POLL_MS, signal);
      const memory = this.#state.resolved.get(key);
      if (memory && this.#fresh(memory)) return memory;
      const stored = await this.#read(key);
      if (stored && this.#fresh(stored)) {
        this.#state.resolved.set(key, stored);
        return stored;
      }
    }
    const mine: RefreshMarker = { since: now() };
    refreshing.set(key, mine);
    try {
      return await this.#refresh(key, fallback, signal);
    } catch (error) {
      // A value, not a promise (safe to share across Workers requests): waiters read it on their next look. The next
      // caller to arrive finds no marker and tries afresh.
      mine.failure = { error };
      throw error;
    } finally {
      if (refreshing.get(key) === mine) refreshing.delete(key);
    }
  }

  /** Usable without refresh. (Not a type predicate: a stale token is still a `StoredToken`.) */
  #fresh(token: StoredToken | undefined): boolean {
    return token !== undefined && this.#init.now() < token.expiresAt - REFRESH_MARGIN_MS;
  }

  async #cacheKey(): Promise<string> {
    this.#key ??= await tokenCacheKey(this.#init);
    return this.#key;
  }

  async #read(key: string): Promise<StoredToken | undefined> {
    try {
      return (await this.#init.tokenStore.get(key)) ?? undefined;
    } catch (error) {
      this.#init.log?.warn('token store read failed; fetching a new token', { error });
      return undefined;
    }
  }

  async #refresh(key: string, fallback: StoredToken | undefined, signal: AbortSignal | undefined): Promise<StoredToken> {
    const init = this.#init;
    let token: StoredToken;
    try {
      token = await requestToken({ ...init, signal });
    } catch (error) {
      if (fallback && error instanceof PartnerLearningError && error.retryable) {
        init.log?.warn('token refresh failed; using the cached token until it expires', { code: error.code });
        return fallback;
      }
      throw error;
    }
    this.#state.resolved.set(key, token);
    const missing = init.scopes.filter((s) => !token.scope.split(' ').includes(s));
    init.log?.info('fetched a new access token', { expiresAt: new Date(token.expiresAt).toISOString(), scope: token.scope });
    if (missing.length) init.log?.warn('the token lacks requested scopes', { missing });
    try {
      await init.tokenStore.set(key, token);
    } catch (error) {
      init.log?.warn('token store write failed; the token is cached in memory only', { error });
    }
    return token;
  }
}

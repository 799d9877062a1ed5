import { describe, it, expect } from 'vitest';
import { TokenProvider, tokenCacheKey, REFRESH_MARGIN_MS } from './token-provider.ts';
import { MemoryTokenStore } from './memory-token-store.ts';
import { createHttp } from '../http/send.ts';
import { manualClock } from '../../test/support/fake-clock.ts';
import { fakeAccessToken, jsonResponse } from '../../test/support/fake-tokens.ts';
import { ServerError } from '../errors/index.ts';
import type { StoredToken, TokenStore } from '../types/options.ts';

const tokenUrl = 'https://auth.example.com/oauth2/token';
const secret = 'a-long-client-secret-0123456789abcdefghij';

function setup(options: { shareInFlight?: boolean; store?: TokenStore; fail?: () => boolean; hold?: Promise<void> } = {}) {
  const clock = manualClock();
  let calls = 0;
  const fetchFn = async (): Promise<Response> => {
    calls += 1;
    await options.hold;
    if (options.fail?.()) return jsonResponse(503, { message: 'down' });
    return jsonResponse(200, { access_token: fakeAccessToken({ jti: `t${calls}` }, clock.now()), expires_in: 3600 });
  };
  const init = {
    tokenUrl, clientId: 'client-id-00000000000000000', clientSecret: secret, scopes: ['partner-api/read', 'partner-api/write'],
    tokenStore: options.store ?? new MemoryTokenStore(), now: clock.now, sleep: clock.sleep, timeoutMs: 5000,
    http: createHttp(fetchFn as typeof fetch), shareInFlight: options.shareInFlight ?? true,
  };
  return { clock, provider: new TokenProvider(init), init, calls: () => calls };
}

describe('TokenProvider', () => {
  it('caches the token and refreshes it 300 s before expiry', async () => {
    const { clock, provider, calls } = setup();
    const first = await provider.getToken();
    expect(calls()).toBe(1);
    await clock.advance(3_600_000 - REFRESH_MARGIN_MS - 1000);
    expect((await provider.getToken()).accessToken).toBe(first.accessToken);
    expect(calls()).toBe(1);
    await clock.advance(1000);
    const second = await provider.getToken();
    expect(calls()).toBe(2);
    expect(second.accessToken).not.toBe(first.accessToken);
  });

  it('makes one token request for 1000 concurrent callers', async () => {
    const { provider, calls } = setup();
    const tokens = await Promise.all(Array.from({ length: 1000 }, () => provider.getToken()));
    expect(calls()).toBe(1);
    expect(new Set(tokens.map((t) => t.accessToken)).size).toBe(1);
  });

  it('shares through an async store between two providers', async () => {
    const inner = new MemoryTokenStore();
    const store: TokenStore = { get: async (k) => inner.get(k), set: async (k, v) => inner.set(k, v), delete: async (k) => inner.delete(k) };
    const a = setup({ store });
    const b = new TokenProvider({ ...a.init });
    await Promise.all([...Array.from({ length: 50 }, () => a.provider.getToken()), ...Array.from({ length: 50 }, () => b.getToken())]);
    expect(a.calls()).toBe(1);
  });

  it('with shareInFlight false, callers wait for the store to hold the token another caller is fetching', async () => {
    let release = (): void => undefined;
    const hold = new Promise<void>((resolve) => { release = resolve; });
    const { provider, calls, clock } = setup({ shareInFlight: false, hold });
    const pending = Promise.all([provider.getToken(), provider.getToken(), provider.getToken()]);
    while (calls() < 1) await new Promise((resolve) => setTimeout(resolve, 1));
    // The other two poll the store (no promise of the first caller is awaited). They reach their first sleep after
    // hashing the cache key with crypto.subtle, in real time: wait for it (bounded) rather than race it.
    for (let i = 0; i < 2000 && clock.sleeps.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(clock.sleeps.length).toBeGreaterThan(0);
    await clock.advance(200);
    release();
    const tokens = await clock.run(pending);
    expect(calls()).toBe(1);
    expect(new Set(tokens.map((t) => t.accessToken)).size).toBe(1);
  });

  it('with shareInFlight false, a failed refresh fails its waiters at once, and the next caller tries afresh', async () => {
    let failures = 1;
    let release = (): void => undefined;
    const hold = new Promise<void>((resolve) => { release = resolve; });
    const { provider, calls, clock } = setup({ shareInFlight: false, hold, fail: () => failures-- > 0 });
    const start = clock.now();
    const pending = Promise.allSettled(Array.from({ length: 10 }, () => provider.getToken()));
    // Let the nine others reach their first look at the store (after hashing the key in real time), then fail.
    for (let i = 0; i < 2000 && clock.sleeps.length < 9; i += 1) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(clock.sleeps.length).toBe(9);
    release();
    const results = await clock.run(pending);
    // One token request, and every caller that waited on it got its failure (no second request, no waiting in turn).
    expect(calls()).toBe(1);
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof ServerError)).toBe(true);
    expect(clock.now() - start).toBeLessThan(1000);
    await clock.run(provider.getToken());
    expect(calls()).toBe(2);
  });

  it('invalidate discards only the token that failed', async () => {
    const store = new MemoryTokenStore();
    const { provider, init, calls } = setup({ store });
    const old = await provider.getToken();
    const key = await tokenCacheKey(init);
    const newer: StoredToken = { ...old, accessToken: 'newer-token-from-another-caller' };
    await provider.invalidate(old.accessToken);
    store.set(key, newer);
    await provider.invalidate(old.accessToken); // a late 401 on the old token
    expect(store.get(key)?.accessToken).toBe('newer-token-from-another-caller');
    expect((await provider.getToken()).accessToken).toBe('newer-token-from-another-caller');
    await provider.invalidate('newer-token-from-another-caller');
    expect(store.get(key)).toBeUndefined();
    await provider.getToken();
    expect(calls()).toBe(2);
  });

  it('keeps the cache key free of secrets and distinct per secret', async () => {
    const { init } = setup();
    const key = await tokenCacheKey(init);
    expect(key).toMatch(/^partner-learning:token:[0-9a-f]{64}$/);
    expect(key).not.toContain(secret);
    expect(await tokenCacheKey({ ...init, scopes: [...init.scopes].reverse() })).toBe(key);
    expect(await tokenCacheKey({ ...init, clientSecret: 'another-secret' })).not.toBe(key);
  });

  it('uses the still-valid token when a refresh fails transiently, and fails once it is too old', async () => {
    let failing = false;
    const { clock, provider } = setup({ fail: () => failing });
    const first = await provider.getToken();
    failing = true;
    await clock.advance(3_600_000 - REFRESH_MARGIN_MS + 1000);
    expect((await provider.getToken()).accessToken).toBe(first.accessToken);
    await clock.advance(REFRESH_MARGIN_MS);
    await expect(provider.getToken()).rejects.toBeInstanceOf(ServerError);
  });

  it('stops waiting when the signal aborts', async () => {
    const { provider } = setup();
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(provider.getToken(controller.signal)).rejects.toThrow('stop');
  });
});

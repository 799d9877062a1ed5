/**
 * The ky driver's attempts as the limiter learns from them: one scheduled turn per attempt, and an attempt that
 * failed before its request went out (token request failed, aborted) reports `not-sent`.
 */
import { describe, it, expect, vi } from 'vitest';
import type { Limiter, Outcome } from './key-limiters.ts';

const calls = vi.hoisted(() => ({ acquired: 0, recorded: [] as string[] }));

vi.mock('./key-limiters.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./key-limiters.ts')>();
  return {
    ...real,
    limiterFor: (...args: Parameters<typeof real.limiterFor>): Limiter => {
      const inner = real.limiterFor(...args);
      return Object.assign(Object.create(inner) as Limiter, {
        schedule: <T extends { outcome: Outcome }>(send: () => Promise<T>, signal?: AbortSignal) => inner.schedule(async () => {
          calls.acquired += 1;
          const result = await send();
          calls.recorded.push(result.outcome);
          return result;
        }, signal),
      });
    },
  };
});

const { createTransport } = await import('./ky-transport.ts');
const { normalizeOptions } = await import('../options.ts');
const { MemoryTokenStore } = await import('../auth/memory-token-store.ts');
const { fakeAccessToken, jsonResponse } = await import('../../test/support/fake-tokens.ts');
const { manualClock } = await import('../../test/support/fake-clock.ts');

const tokenUrl = 'https://auth.example.com/oauth2/token';

function transportWith(fetchFn: (request: Request) => Response | Promise<Response>, apiKey: string) {
  const clock = manualClock();
  const transport = createTransport(normalizeOptions({
    tokenUrl, baseUrl: 'https://api.example.com/sandbox/v1', clientId: 'client-id-0000000000000000a',
    clientSecret: 'limiter-contract-secret-0123456789abcdef', apiKey, tokenStore: new MemoryTokenStore(),
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => fetchFn(new Request(input, init))) as typeof fetch,
    now: clock.now, sleep: clock.sleep, retry: { maxAttempts: 3 },
  }), { random: () => 0.5 });
  return { transport, clock };
}

describe('transport and limiter', () => {
  it('reports not-sent when the token request fails, and one outcome per turn throughout', async () => {
    calls.acquired = 0;
    calls.recorded = [];
    let tokenCalls = 0;
    const { transport, clock } = transportWith((request) => {
      if (request.url === tokenUrl) {
        tokenCalls += 1;
        return tokenCalls === 1
          ? jsonResponse(503, { message: 'down' })
          : jsonResponse(200, { access_token: fakeAccessToken({}, Date.UTC(2026, 10, 22, 12)), expires_in: 3600 });
      }
      return calls.recorded.filter((o) => o === 'server-error').length === 0 ? jsonResponse(503, {}) : jsonResponse(200, {});
    }, 'LimiterContractApiKey0123456789abcdefgh');
    await clock.run(transport.request({ method: 'GET', path: '/courses' }));
    expect(calls.recorded).toEqual(['not-sent', 'server-error', 'success']);
    expect(calls.acquired).toBe(calls.recorded.length);
  });

  it('reports not-sent when the call is aborted once its turn came', async () => {
    calls.acquired = 0;
    calls.recorded = [];
    const controller = new AbortController();
    const { transport, clock } = transportWith((request) => {
      if (request.url === tokenUrl) {
        controller.abort(new Error('caller gave up'));
        return jsonResponse(200, { access_token: fakeAccessToken({}, Date.UTC(2026, 10, 22, 12)), expires_in: 3600 });
      }
      return jsonResponse(200, {});
    }, 'LimiterContractApiKey1123456789abcdefgh');
    await expect(clock.run(transport.request({ method: 'GET', path: '/courses', signal: controller.signal }))).rejects.toThrow('caller gave up');
    expect(calls.recorded).toEqual(['not-sent']);
    expect(calls.acquired).toBe(1);
  });
});

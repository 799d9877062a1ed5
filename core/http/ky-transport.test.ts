import { inspect } from 'node:util';
import { describe, it, expect, vi } from 'vitest';
import { createTransport } from './ky-transport.ts';
import { normalizeOptions } from '../options.ts';
import { MemoryTokenStore } from '../auth/memory-token-store.ts';
import { createLimiter } from './limiter.ts';
import { manualClock, type ManualClock } from '../../test/support/fake-clock.ts';
import { fakeAccessToken, jsonResponse } from '../../test/support/fake-tokens.ts';
import {
  ApiKeyError, ApplicationError, AuthenticationError, ConfigurationError, DeadlineError, NotFoundError, QuotaExceededError, ServerError, ThrottledError, TimeoutError,
} from '../errors/index.ts';
import type { LogLevel } from '../types/options.ts';
import { createUsers } from '../resources/users.ts';

const tokenUrl = 'https://auth.example.com/oauth2/token';
const baseUrl = 'https://api.example.com/sandbox/v1';
const secret = 'the-client-secret-0123456789abcdefghijklmnop';
let keySeq = 0;

type Handler = (request: Request, n: number) => Response | Promise<Response>;

function setup(handler: Handler, extra: Record<string, unknown> = {}, clock: ManualClock = manualClock()) {
  const apiKey = (extra.apiKey as string | undefined) ?? `ApiKey${String(keySeq++).padStart(34, '0')}`;
  const requests: Request[] = [];
  const tokens: string[] = [];
  const logs: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
  const fetchFn = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.url === tokenUrl) {
      const token = fakeAccessToken({ jti: `token-${tokens.length}` }, clock.now());
      tokens.push(token);
      return jsonResponse(200, { access_token: token, expires_in: 3600 });
    }
    requests.push(request);
    return handler(request, requests.length);
  };
  const options = normalizeOptions({
    tokenUrl, baseUrl, clientId: 'client-id-0000000000000000a', clientSecret: secret, apiKey,
    fetch: fetchFn as typeof fetch, now: clock.now, sleep: clock.sleep, tokenStore: new MemoryTokenStore(),
    logger: (level, message, fields) => logs.push({ level, message, fields }), ...extra,
  });
  return { transport: createTransport(options, { random: () => 0.5 }), requests, tokens, logs, clock, apiKey };
}

describe('transport: requests', () => {
  it('builds headers from scratch with the exact bearer form', async () => {
    const { transport, requests, tokens, apiKey } = setup(() => jsonResponse(201, { uuid: 'u' }));
    const userId = '3f1c9a52-8f4e-4c1e-9d7b-2a6f0e1b5c3d';
    const response = await transport.request({ method: 'POST', path: '/users/register', json: { email: 'a@b.c' }, userId });
    expect(response.data).toEqual({ uuid: 'u' });
    const [sent] = requests;
    expect(sent?.url).toBe(`${baseUrl}/users/register`);
    expect(sent?.headers.get('authorization')).toBe(`Bearer ${tokens[0]}`);
    expect(sent?.headers.get('x-api-key')).toBe(apiKey);
    expect(sent?.headers.get('accept')).toBe('application/ld+json, application/json');
    expect(sent?.headers.get('content-type')).toBe('application/json');
    expect(sent?.headers.get('x-user-id')).toBe(userId);
    expect(await sent?.text()).toBe('{"email":"a@b.c"}');
  });

  it('sends merge-patch, API-key-only pings and PDF streams as specified', async () => {
    const { transport, requests, clock } = setup((request) =>
      request.url.endsWith('.pdf') || request.url.endsWith('/pdf')
        ? new Response('%PDF-1.7', { headers: { 'content-type': 'application/pdf', 'x-request-id': 'r-pdf' } })
        : jsonResponse(200, { status: 'healthy' }));
    await clock.run(transport.request({ method: 'PATCH', path: '/users/u', mergePatch: { city: 'Oslo' } }));
    await clock.run(transport.request({ method: 'GET', path: '/ping', auth: 'apiKeyOnly' }));
    const pdf = await clock.run(transport.request<ReadableStream<Uint8Array>>({ method: 'GET', path: '/transcript/pdf', responseType: 'stream', userId: 'u' }));
    expect(requests[0]?.headers.get('content-type')).toBe('application/merge-patch+json');
    expect(requests[1]?.headers.get('authorization')).toBeNull();
    expect(requests[1]?.headers.get('x-api-key')).not.toBeNull();
    expect(requests[2]?.headers.get('accept')).toBe('application/pdf');
    expect(pdf.requestId).toBe('r-pdf');
    expect(await new Response(pdf.data).text()).toBe('%PDF-1.7');
  });

  it('refuses a next link on a foreign origin without sending anything', async () => {
    const { transport, requests } = setup(() => jsonResponse(200, {}));
    await expect(transport.request({ method: 'GET', link: 'https://evil.example.net/sandbox/v1/courses?page=2' }))
      .rejects.toBeInstanceOf(ApplicationError);
    expect(requests).toHaveLength(0);
  });
});

describe('transport: bad signal', () => {
  it('refuses a signal that is not an AbortSignal before any work: no token request, no API request', async () => {
    const { transport, requests, tokens } = setup(() => jsonResponse(200, {}));
    for (const signal of [{}, 'abort', { aborted: false }]) {
      const error = await transport.request({ method: 'GET', path: '/courses', signal: signal as AbortSignal }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).message).toMatch(/not an AbortSignal/);
    }
    expect(requests).toHaveLength(0);
    expect(tokens).toHaveLength(0);
  });
});

describe('transport: per-call retry and timeout', () => {
  it('retry: false makes one attempt; retry.maxAttempts overrides the client\'s', async () => {
    const once = setup(() => jsonResponse(503, { message: 'Service Unavailable' }));
    await expect(once.clock.run(once.transport.request({ method: 'GET', path: '/x', retry: false }))).rejects.toBeInstanceOf(ServerError);
    expect(once.requests).toHaveLength(1);
    const twice = setup(() => jsonResponse(503, { message: 'Service Unavailable' }));
    const error = await twice.clock.run(twice.transport.request({ method: 'GET', path: '/x', retry: { maxAttempts: 2 } }).catch((e: unknown) => e));
    expect(twice.requests).toHaveLength(2);
    expect((error as ServerError).attempts).toBe(2);
  });

  it('timeoutMs per call wins over the client\'s', async () => {
    const { transport } = setup((request) => new Promise<Response>((_resolve, reject) => {
      request.signal.addEventListener('abort', () => reject(request.signal.reason));
    }), { timeoutMs: 600_000, retry: { maxAttempts: 1 } });
    const error = await transport.request({ method: 'GET', path: '/slow', timeoutMs: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toContain('20 ms');
  });
});

describe('transport: timers', () => {
  const hang = (request: Request) => new Promise<Response>((_resolve, reject) => {
    request.signal.addEventListener('abort', () => reject(request.signal.reason));
  });
  const timersDuring = async (run: () => Promise<unknown>): Promise<{ result: unknown; delays: number[] }> => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const result = await run().catch((e: unknown) => e);
      return { result, delays: spy.mock.calls.map((args) => Number(args[1])) };
    } finally {
      spy.mockRestore();
    }
  };

  // The token is fetched first: its request has a timer of its own.
  it('runs an attempt on its own timer and the call on its deadline', async () => {
    const { transport } = setup(hang, { timeoutMs: 20, deadlineMs: 60_000, retry: { maxAttempts: 1 } });
    await transport.token();
    const { result, delays } = await timersDuring(() => transport.request({ method: 'GET', path: '/slow' }));
    expect(result).toBeInstanceOf(TimeoutError);
    expect(delays).toEqual([60_000, 20]);
  });

  it('bounds the attempt by the deadline alone when the deadline comes first (one timer a call)', async () => {
    const { transport } = setup(hang, { timeoutMs: 30_000, deadlineMs: 20, retry: { maxAttempts: 1 } });
    await transport.token();
    const { result, delays } = await timersDuring(() => transport.request({ method: 'GET', path: '/slow' }));
    expect(result).toBeInstanceOf(DeadlineError);
    expect(delays).toEqual([20]);
  });
});

describe('transport: 401', () => {
  it('retries once with a fresh token after a 401', async () => {
    const { transport, requests, tokens, clock } = setup((_r, n) => (n === 1 ? jsonResponse(401, { message: 'Unauthorized' }) : jsonResponse(200, { ok: true })));
    await expect(clock.run(transport.request({ method: 'GET', path: '/courses' }))).resolves.toMatchObject({ data: { ok: true } });
    expect(tokens).toHaveLength(2);
    expect(requests[1]?.headers.get('authorization')).toBe(`Bearer ${tokens[1]}`);
  });

  it('a second 401 is an AuthenticationError naming the likely causes, never the token', async () => {
    const { transport, requests, tokens, clock } = setup(() => jsonResponse(401, { message: 'Unauthorized' }));
    const error = await clock.run(transport.request({ method: 'GET', path: '/courses' }).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('authentication_failed');
    expect((error as AuthenticationError).hint).toMatch(/same environment.*oauth2\/token.*clock/s);
    for (const token of tokens) expect((error as Error).message).not.toContain(token);
    expect(requests).toHaveLength(2);
  });
});

describe('transport: retry and throttling', () => {
  it('retries 5xx with backoff 1, 2, 4, 8 s (jittered) and gives up after maxAttempts', async () => {
    const { transport, requests, clock } = setup(() => jsonResponse(503, { message: 'Service Unavailable' }));
    const error = await clock.run(transport.request({ method: 'GET', path: '/courses' }).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(ServerError);
    expect(requests).toHaveLength(5);
    // random() = 0.5 → 3/4 of each step; the limiter's pauses are in the same list, so check the retry sleeps appear
    for (const step of [750, 1500, 3000, 6000]) expect(clock.sleeps).toContain(step);
  });

  it('retries 429 Too Many Requests honouring Retry-After, then succeeds', async () => {
    const { transport, requests, clock } = setup((_r, n) =>
      n === 1 ? jsonResponse(429, { message: 'Too Many Requests' }, { 'retry-after': '3' }) : jsonResponse(200, { ok: 1 }));
    const start = clock.now();
    await clock.run(transport.request({ method: 'GET', path: '/courses' }));
    expect(requests).toHaveLength(2);
    expect(clock.sleeps).toContain(3000);
    expect(clock.now() - start).toBeGreaterThanOrEqual(3000);
  });

  it('honours the Retry-After of a 503 instead of the exponential step', async () => {
    const { transport, requests, clock } = setup((_r, n) =>
      n === 1 ? jsonResponse(503, { message: 'Service Unavailable' }, { 'retry-after': '9' }) : jsonResponse(200, { ok: 1 }));
    const start = clock.now();
    await clock.run(transport.request({ method: 'GET', path: '/courses' }));
    expect(requests).toHaveLength(2);
    expect(clock.sleeps).toContain(9000);
    expect(clock.sleeps).not.toContain(750);
    expect(clock.now() - start).toBeGreaterThanOrEqual(9000);
  });

  it('does not retry Limit Exceeded, 400, 403 or 404', async () => {
    for (const [status, body, type] of [
      [429, { message: 'Limit Exceeded' }, QuotaExceededError],
      [403, undefined, ApiKeyError],
    ] as const) {
      const { transport, requests, clock } = setup(() => jsonResponse(status, body));
      await expect(clock.run(transport.request({ method: 'GET', path: '/courses' }))).rejects.toBeInstanceOf(type);
      expect(requests).toHaveLength(1);
    }
  });

  it('gives up with ThrottledError after maxAttempts of 429', async () => {
    const { transport, requests, clock } = setup(() => jsonResponse(429, { message: 'Too Many Requests' }), { retry: { maxAttempts: 3 } });
    await expect(clock.run(transport.request({ method: 'GET', path: '/x' }))).rejects.toBeInstanceOf(ThrottledError);
    expect(requests).toHaveLength(3);
  });

  it('one 429 pauses another client transport given the same limiter', async () => {
    const clock = manualClock();
    const limiter = createLimiter({ now: clock.now, sleep: clock.sleep });
    const first = setup((_r, n) => (n === 1 ? jsonResponse(429, { message: 'Too Many Requests' }, { 'retry-after': '5' }) : jsonResponse(200, {})), { limiter }, clock);
    const second = setup(() => jsonResponse(200, {}), { apiKey: first.apiKey, limiter }, clock);
    const a = first.transport.request({ method: 'GET', path: '/a' });
    while (first.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 1));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    const start = clock.now();
    const b = second.transport.request({ method: 'GET', path: '/b' });
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(second.requests).toHaveLength(0); // paused by the other client's 429
    await clock.run(Promise.all([a, b]));
    expect(second.requests).toHaveLength(1);
    expect(clock.now() - start).toBeGreaterThanOrEqual(5000);
  });

  it('users.delete resolves on a 404 after a retry whatever the earlier answer was (429, 503), not on a first 404', async () => {
    const learner = '3f1c9a52-8f4e-4c1e-9d7b-2a6f0e1b5c3d';
    const notFound = () => jsonResponse(404, { '@type': 'hydra:Error', 'hydra:description': 'Not Found' });
    for (const first of [() => jsonResponse(429, { message: 'Too Many Requests' }), () => jsonResponse(503, {})]) {
      const { transport, clock, requests } = setup((_r, n) => (n === 1 ? first() : notFound()));
      await expect(clock.run(createUsers(transport).delete(learner))).resolves.toBeUndefined();
      expect(requests).toHaveLength(2);
    }
    const { transport, clock } = setup(notFound);
    const error = await clock.run(createUsers(transport).delete(learner).catch((e: unknown) => e));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).attempts).toBe(1);
  });

  it('maps a hanging request to TimeoutError', async () => {
    const { transport } = setup((request) => new Promise<Response>((_resolve, reject) => {
      request.signal.addEventListener('abort', () => reject(request.signal.reason));
    }), { timeoutMs: 20, retry: { maxAttempts: 1 } });
    await expect(transport.request({ method: 'GET', path: '/slow' })).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe('transport: secrets in errors', () => {
  it('strips the exact API key and secret from what the service or fetch echoes, in message, hint, violations and cause', async () => {
    const echo = (apiKey: string) => `your key ${apiKey} and secret ${secret} ${'z'.repeat(250)} again ${apiKey}`;
    const bodies = [
      (k: string) => new Response(echo(k), { status: 500 }),
      (k: string) => jsonResponse(400, { error: 'validation_failed', violations: [{ propertyPath: 'email', message: echo(k) }] }),
    ];
    for (const body of bodies) {
      const { transport, clock, apiKey } = setup((request) => body(request.headers.get('x-api-key') ?? ''), { retry: { maxAttempts: 1 } });
      const error = await clock.run(transport.request({ method: 'GET', path: '/x' }).catch((e: unknown) => e));
      const printed = `${JSON.stringify(error)} ${inspect(error, { depth: 10 })}`;
      expect(printed).not.toContain(apiKey);
      expect(printed).not.toContain(secret);
      expect(printed).toContain('[REDACTED]');
    }
    const failing = setup((request) => Promise.reject(new TypeError(`fetch failed for key ${request.headers.get('x-api-key') ?? ''}`)), { retry: { maxAttempts: 1 } });
    const error = await failing.clock.run(failing.transport.request({ method: 'GET', path: '/x' }).catch((e: unknown) => e));
    expect(inspect(error, { depth: 10 })).not.toContain(failing.apiKey);
  });
});

describe('transport: logging', () => {
  it('logs every attempt with credentials and tokens redacted', async () => {
    const { transport, logs, tokens, apiKey, clock } = setup((_r, n) => (n === 1 ? jsonResponse(401, { message: 'Unauthorized' }) : jsonResponse(500, {})), { retry: { maxAttempts: 2 } });
    await clock.run(transport.request({ method: 'GET', path: '/courses' }).catch(() => undefined));
    expect(logs.some((l) => l.message === 'request')).toBe(true);
    const text = JSON.stringify(logs);
    for (const value of [...tokens, apiKey, secret, btoa(`client-id-0000000000000000a:${secret}`)]) expect(text).not.toContain(value);
  });
});

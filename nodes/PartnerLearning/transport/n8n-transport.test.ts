import { describe, expect, it } from 'vitest';
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { createN8nTransport } from './n8n-transport.ts';
import { toNodeApiError } from './n8n-errors.ts';
import { errorFromResponse } from '../../../core/protocol.ts';
import { limiterForKey, type LimiterClock } from './key-limiter.ts';
import { createFakeClock } from '../../../test/support/fake-clock.ts';

/**
 * What n8n's helper answers, in order: a status and a JSON body. Like n8n 1.x and 2.x: with `ignoreHttpStatusErrors`
 * set (any value, as 1.x reads it) every status is an answer; without it a non-2xx status is thrown as n8n's
 * `NodeApiError` wrapping the HTTP client's error that carries the answer.
 */
type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

function scripted(answers: Answer[]) {
  const sent: IHttpRequestOptions[] = [];
  const ctx = {
    getNode: () => ({ id: 'n', name: 'Partner Learning', type: 't', typeVersion: 1, position: [0, 0], parameters: {} }),
    helpers: {
      httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
        sent.push(options);
        const answer = answers.shift();
        if (!answer) throw new Error('no more scripted answers');
        const body = answer.body === undefined ? '' : JSON.stringify(answer.body);
        if (!options.ignoreHttpStatusErrors && (answer.status < 200 || answer.status >= 300)) {
          const axiosError = Object.assign(new Error(`Request failed with status code ${answer.status}`), {
            response: { status: answer.status, data: body, headers: { 'content-type': 'application/ld+json', ...answer.headers } },
          });
          throw Object.assign(new Error(axiosError.message), { cause: axiosError });
        }
        return { statusCode: answer.status, body, headers: { 'content-type': 'application/ld+json', ...answer.headers } };
      },
    },
  } as unknown as IExecuteFunctions;
  return { ctx, sent };
}

function transport(ctx: IExecuteFunctions, apiKey: string, clock: LimiterClock) {
  return createN8nTransport(ctx, { baseUrl: 'https://api.example.test/sandbox/v1', apiKey, random: () => 0.5, clock });
}

const ok = { status: 200, body: { id: 1 } };

describe('n8n transport', () => {
  it('retries a 429 with backoff, through n8n\'s sleep, and then returns the answer', async () => {
    const { ctx, sent } = scripted([{ status: 429, body: { message: 'Too Many Requests' } }, ok]);
    const clock = createFakeClock();
    const response = await transport(ctx, 'key-429-'.padEnd(40, 'a'), clock).request({ method: 'GET', path: '/organizations/1' });
    expect(response.data).toEqual({ id: 1 });
    expect(sent).toHaveLength(2);
    expect(clock.calls.map((c) => c.ms).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(500);
    expect(sent[0]).toMatchObject({ disableFollowRedirect: true, returnFullResponse: true });
    // n8n 1.x reads any ignoreHttpStatusErrors as "accept every status" and then never refreshes the token on a 401.
    expect(sent[0]).not.toHaveProperty('ignoreHttpStatusErrors');
  });

  it('a 429 slows every other call with the same API key (shared across transports), not other keys', async () => {
    const key = 'key-shared-'.padEnd(40, 'b');
    const clock = createFakeClock(1_000_000);
    // One call, not retried (retry: false), meets a 429: it fails, and the key's pace is cut.
    const first = scripted([{ status: 429, body: { message: 'Too Many Requests' } }]);
    await expect(transport(first.ctx, key, clock).request({ method: 'GET', path: '/courses/1', retry: false }))
      .rejects.toMatchObject({ code: 'throttled' });
    expect(clock.calls.map((c) => c.ms)).toEqual([]);
    // Another transport (another item, execution or node) with the key waits for its turn at the cut pace.
    const second = scripted([ok]);
    await transport(second.ctx, key, clock).request({ method: 'GET', path: '/courses/1' });
    expect(clock.calls.map((c) => c.ms)[0]).toBeGreaterThan(500);
    const before = clock.calls.length;
    const other = scripted([ok]);
    await transport(other.ctx, 'key-other-'.padEnd(40, 'c'), clock).request({ method: 'GET', path: '/courses/1' });
    expect(clock.calls.map((c) => c.ms).slice(before)).toEqual([]);
  });

  it('Limit Exceeded is not retried and reaches n8n as a quota failure', async () => {
    const { ctx, sent } = scripted([{ status: 429, body: { message: 'Limit Exceeded' } }]);
    const error = await transport(ctx, 'key-quota-'.padEnd(40, 'd'), createFakeClock()).request({ method: 'GET', path: '/courses' })
      .then(() => undefined, (e: unknown) => e);
    expect(sent).toHaveLength(1);
    expect(error).toMatchObject({ code: 'quota_exceeded', status: 429 });
    const nodeError = toNodeApiError(ctx.getNode(), error, 0);
    expect(nodeError.failure).toEqual({ cause: 'quota-exhausted' });
    expect(nodeError.context.itemIndex).toBe(0);
  });

  it('5xx through every attempt reaches n8n as temporarily unavailable; Retry-After is honoured', async () => {
    const answers = Array.from({ length: 5 }, () => ({ status: 503, body: { message: 'down' }, headers: { 'retry-after': '2' } }));
    const { ctx, sent } = scripted(answers);
    const clock = createFakeClock();
    const error = await transport(ctx, 'key-5xx-'.padEnd(40, 'e'), clock).request({ method: 'GET', path: '/courses' })
      .then(() => undefined, (e: unknown) => e);
    expect(sent).toHaveLength(5);
    expect(clock.calls.map((c) => c.ms)).toEqual([2_000, 2_000, 2_000, 2_000]);
    expect(error).toMatchObject({ code: 'server_error', status: 503, attempts: 5 });
    expect(toNodeApiError(ctx.getNode(), error).failure).toEqual({ cause: 'temporarily-unavailable' });
  });

  it('a 401 that survived n8n\'s token refresh is a configuration error, not retried', async () => {
    const { ctx, sent } = scripted([{ status: 401, body: { message: 'Unauthorized' } }]);
    const error = await transport(ctx, 'key-401-'.padEnd(40, 'f'), createFakeClock()).request({ method: 'GET', path: '/courses' })
      .then(() => undefined, (e: unknown) => e);
    expect(sent).toHaveLength(1);
    expect(error).toMatchObject({ code: 'authentication_failed', status: 401 });
    expect(toNodeApiError(ctx.getNode(), error).failure).toEqual({ cause: 'credential-invalid' });
  });

  it('a failed token request (n8n\'s preAuthentication) is no answer of the API: the key\'s 5xx streak stays 0', async () => {
    const key = 'key-token-'.padEnd(40, 'h');
    const clock = createFakeClock();
    const tokenDown = errorFromResponse({
      status: 503, body: { message: 'down' }, headers: new Headers(), origin: 'token-endpoint', method: 'POST',
      url: 'https://auth.example.test/oauth2/token', now: 0,
    });
    const ctx = {
      helpers: { httpRequestWithAuthentication: async () => { throw new Error('preAuthentication failed', { cause: tokenDown }); } },
    } as unknown as IExecuteFunctions;
    const error = await transport(ctx, key, clock).request({ method: 'GET', path: '/courses', retry: false })
      .then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'server_error', status: 503, attempts: 0 });
    expect(limiterForKey(key, clock).failureStreak).toBe(0);
  });

  it('sends JSON and merge-patch bodies with their content types and X-User-ID', async () => {
    const { ctx, sent } = scripted([ok, ok]);
    const t = transport(ctx, 'key-body-'.padEnd(40, 'g'), createFakeClock());
    await t.request({ method: 'POST', path: '/users/register', json: { a: 1 } });
    await t.request({ method: 'PATCH', path: '/users/x', mergePatch: { city: null }, userId: '3f2b8c1e-6a4d-4f7e-9b1a-2c3d4e5f6a7b' });
    expect(sent[0]).toMatchObject({ method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
    expect(sent[1]!.headers).toMatchObject({ 'Content-Type': 'application/merge-patch+json', 'X-User-ID': '3f2b8c1e-6a4d-4f7e-9b1a-2c3d4e5f6a7b' });
    expect(sent[0]!.url).toBe('https://api.example.test/sandbox/v1/users/register');
  });
});

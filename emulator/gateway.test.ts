import { describe, expect, it } from 'vitest';
import { testBed } from '../test/support/emulator-testbed.ts';

describe('gateway order', () => {
  it('checks the API key first: 403 with an empty body, even with no token', async () => {
    const t = testBed();
    for (const headers of [{} as Record<string, string>, { 'x-api-key': 'nope' }, { 'x-api-key': t.emulator.partners('http://x')[0]?.environments.production.apiKey ?? '' }]) {
      const res = await t.send('/sandbox/v1/courses', { headers });
      expect(res.status).toBe(403);
      expect(await res.text()).toBe('');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('ping needs only the API key', async () => {
    const t = testBed();
    const res = await t.send('/sandbox/v1/ping', { headers: { 'x-api-key': t.env.apiKey } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'healthy', checks: { database: 'ok' } });
  });

  it('ping is API-key-only for every method: HEAD answers like GET, POST is 405 without any token', async () => {
    const t = testBed();
    const headers = { 'x-api-key': t.env.apiKey };
    const head = await t.send('/sandbox/v1/ping', { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await t.send('/sandbox/v1/ping', { method: 'POST', headers })).status).toBe(405);
    expect((await t.send('/sandbox/v1/ping', { method: 'HEAD' })).status).toBe(403);
  });

  it('the empty 403 says Content-Length 0', async () => {
    const res = await testBed().send('/sandbox/v1/courses');
    expect(res.headers.get('content-length')).toBe('0');
  });

  it('applies the usage plan before the token: 429 Too Many Requests, then Limit Exceeded', async () => {
    const t = testBed();
    await t.send(`/_emulator/usage-plans/${t.env.apiKey}`, { method: 'PUT', body: JSON.stringify({ ratePerSecond: 0, burst: 1, dailyQuota: 100 }) });
    const h = { headers: { 'x-api-key': t.env.apiKey } };
    expect((await t.send('/sandbox/v1/courses', h)).status).toBe(401);
    const throttled = await t.send('/sandbox/v1/courses', h);
    expect(throttled.status).toBe(429);
    expect(await throttled.json()).toEqual({ message: 'Too Many Requests' });
    await t.send(`/_emulator/usage-plans/${t.env.apiKey}`, { method: 'PUT', body: JSON.stringify({ ratePerSecond: 100, burst: 100, dailyQuota: 1 }) });
    expect((await t.send('/sandbox/v1/ping', h)).status).toBe(200);
    const quota = await t.send('/sandbox/v1/ping', h);
    expect(quota.status).toBe(429);
    expect(await quota.json()).toEqual({ message: 'Limit Exceeded' });
  });

  it('rejects bad bearer headers, expired tokens and other-environment tokens with 401', async () => {
    const t = testBed();
    const token = await t.token();
    const prod = t.emulator.partners('http://emulator.test')[0]?.environments.production;
    if (!prod) throw new Error('no production');
    const prodToken = await t.token(null, 0, prod);
    for (const authorization of ['', `bearer ${token}`, `Bearer  ${token}`, `Bearer ${token}x`, 'Bearer abc', `Bearer ${prodToken}`]) {
      const res = await t.send('/sandbox/v1/courses', { headers: { 'x-api-key': t.env.apiKey, authorization } });
      expect(res.status, authorization.slice(0, 12)).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unauthorized' });
    }
    expect((await t.api('/courses')).status).toBe(200);
    t.emulator.advanceClock(3600);
    expect((await t.api('/courses')).status).toBe(401);
  });

  it('answers 403 empty for a token of another partner than the API key', async () => {
    const t = testBed();
    const other = t.emulator.partners('http://emulator.test')[1]?.environments.sandbox;
    if (!other) throw new Error('no second partner');
    const res = await t.send('/sandbox/v1/courses', { headers: { 'x-api-key': other.apiKey, authorization: `Bearer ${await t.token()}` } });
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('');
  });

  it('checks the scope after the token: 403 hydra:Error naming it', async () => {
    const t = testBed();
    const res = await t.api('/users/register', { method: 'POST', scope: 'partner-api/read', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(403);
    const body = (await res.json()) as Record<string, string>;
    expect(body['@type']).toBe('hydra:Error');
    expect(body['hydra:description']).toBe('This action requires the scope "partner-api/write".');
    expect((await t.api('/courses', { scope: 'partner-api/write' })).status).toBe(403);
  });

  it('answers an unknown route under /v1 with 404 hydra:Error after the gateway', async () => {
    const t = testBed();
    expect((await t.send('/sandbox/v1/nothing-here')).status).toBe(403);
    const res = await t.api('/nothing-here');
    expect(res.status).toBe(404);
    expect(((await res.json()) as Record<string, string>)['@type']).toBe('hydra:Error');
  });
});

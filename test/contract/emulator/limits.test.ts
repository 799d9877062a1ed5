/**
 * Usage plans (429 Too Many Requests / Limit Exceeded, quota reset at UTC midnight) and fault injection over
 * real HTTP (spec: Limits, Errors 429 and 5xx; emulator contract: usage-plans and faults rows).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advanceClock, call, control, openSession, resetHarness, startHarness } from '../../support/emulator-http.ts';
import type { Harness, HttpResult, Session } from '../../support/emulator-http.ts';
import { GatewayMessage, Profile } from '../../support/emulator-schemas.ts';
import { firstOrganizationId, registerLearner, uniqueEmail } from '../../support/emulator-fixtures.ts';

let h: Harness;
let s: Session;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await resetHarness(h);
  s = await openSession(h);
});

async function setPlan(apiKey: string, plan: { ratePerSecond: number; burst: number; dailyQuota: number }): Promise<void> {
  const res = await control(h.origin, 'PUT', `/_emulator/usage-plans/${apiKey}`, plan);
  expect(res.status, 'usage plan accepted').toBeLessThan(300);
}

async function setFaults(body: Record<string, unknown>): Promise<void> {
  const res = await control(h.origin, 'POST', '/_emulator/faults', body);
  expect(res.status, 'faults accepted').toBeLessThan(300);
}

function messageOf(res: HttpResult): string {
  return GatewayMessage.parse(res.body).message;
}

describe('usage plans', () => {
  it('a burst over a tiny rate gets 429 Too Many Requests', async () => {
    await setPlan(s.apiKey, { ratePerSecond: 1, burst: 1, dailyQuota: 1000 });
    const results = await Promise.all(Array.from({ length: 6 }, () => call(s, 'GET', '/organizations')));
    const throttled = results.filter((r) => r.status === 429);
    expect(throttled.length).toBeGreaterThan(0);
    expect(results.some((r) => r.status === 200)).toBe(true);
    for (const r of throttled) expect(messageOf(r)).toBe('Too Many Requests');
  });

  it('the plan is per API key: another partner is not throttled', async () => {
    await setPlan(s.apiKey, { ratePerSecond: 1, burst: 1, dailyQuota: 1000 });
    const other = await openSession(h, 1);
    const results = await Promise.all(Array.from({ length: 6 }, () => call(other, 'GET', '/organizations')));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
  });

  it('the daily quota gets 429 Limit Exceeded once used up, and resets after UTC midnight on the emulator clock', async () => {
    await setPlan(s.apiKey, { ratePerSecond: 1000, burst: 1000, dailyQuota: 3 });
    for (let i = 0; i < 3; i += 1) expect((await call(s, 'GET', '/organizations')).status, `request ${i + 1}`).toBe(200);
    const over = await call(s, 'GET', '/organizations');
    expect(over.status).toBe(429);
    expect(messageOf(over)).toBe('Limit Exceeded');
    expect((await call(s, 'GET', '/categories')).status, 'still exhausted').toBe(429);

    const now = await advanceClock(h.origin, 1);
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    await advanceClock(h.origin, Math.ceil((midnight - now.getTime()) / 1000) + 5);
    const fresh = await openSession(h);
    expect((await call(fresh, 'GET', '/organizations')).status).toBe(200);
  });

  it('the gateway checks the API key before the usage plan: an unknown key is 403, not 429', async () => {
    await setPlan(s.apiKey, { ratePerSecond: 1000, burst: 1000, dailyQuota: 1 });
    await call(s, 'GET', '/organizations');
    const res = await call(s, 'GET', '/organizations', { headers: { 'x-api-key': 'q'.repeat(40) } });
    expect(res.status).toBe(403);
    expect(res.text).toBe('');
  });

  it('the usage plan is checked before the token: an exhausted quota with a bad token is 429', async () => {
    await setPlan(s.apiKey, { ratePerSecond: 1000, burst: 1000, dailyQuota: 1 });
    await call(s, 'GET', '/organizations');
    const res = await call(s, 'GET', '/organizations', { headers: { authorization: 'Bearer garbage' } });
    expect(res.status).toBe(429);
  });
});

describe('faults', () => {
  it('rate 1 with statuses [503] fails every API request with 503', async () => {
    await setFaults({ rate: 1, statuses: [503] });
    for (const path of ['/organizations', '/courses', '/modules']) {
      expect((await call(s, 'GET', path)).status, path).toBe(503);
    }
  });

  it('statuses are drawn from the given list', async () => {
    await setFaults({ rate: 1, statuses: [500, 502], seed: 7 });
    const results = await Promise.all(Array.from({ length: 8 }, () => call(s, 'GET', '/organizations')));
    for (const r of results) expect([500, 502]).toContain(r.status);
  });

  it('rate 0 fails nothing', async () => {
    await setFaults({ rate: 0, statuses: [503] });
    expect((await call(s, 'GET', '/organizations')).status).toBe(200);
  });

  it('pathPattern limits faults to matching paths', async () => {
    await setFaults({ rate: 1, statuses: [503], pathPattern: 'organizations' });
    expect((await call(s, 'GET', '/organizations')).status).toBe(503);
    expect((await call(s, 'GET', '/categories')).status).toBe(200);
    const ping = await fetch(`${s.env.baseUrl}/ping`, { headers: { 'x-api-key': s.apiKey } });
    await ping.arrayBuffer();
    expect(ping.status, '/ping stays healthy while one endpoint struggles').toBe(200);
  });

  it('an anchored pathPattern matches the full path or the path relative to the base address', async () => {
    await setFaults({ rate: 1, statuses: [503], pathPattern: '^/organizations$' });
    expect((await call(s, 'GET', '/organizations')).status).toBe(503);
    expect((await call(s, 'GET', '/organizations/1')).status).toBe(200);
    await setFaults({ rate: 1, statuses: [502], pathPattern: `^${new URL(s.env.baseUrl).pathname}/categories$` });
    expect((await call(s, 'GET', '/categories')).status).toBe(502);
    expect((await call(s, 'GET', '/organizations')).status).toBe(200);
  });

  it('DELETE /_emulator/faults ends fault injection', async () => {
    await setFaults({ rate: 1, statuses: [503] });
    expect((await call(s, 'GET', '/organizations')).status).toBe(503);
    expect((await control(h.origin, 'DELETE', '/_emulator/faults')).status).toBeLessThan(300);
    expect((await call(s, 'GET', '/organizations')).status).toBe(200);
  });

  it('without afterCommit a failed register does not create the learner', async () => {
    const organizationId = await firstOrganizationId(s);
    const email = uniqueEmail('before-commit');
    await setFaults({ rate: 1, statuses: [500], pathPattern: 'users/register' });
    const failed = await call(s, 'POST', '/users/register', { json: { email, firstName: 'A', lastName: 'B', organizationId } });
    expect(failed.status).toBe(500);
    await control(h.origin, 'DELETE', '/_emulator/faults');
    const before = await advanceClock(h.origin, 600);
    const created = Profile.parse((await call(s, 'POST', '/users/register', { json: { email, firstName: 'A', lastName: 'B', organizationId } })).body);
    expect(Date.parse(created.createdAt)).toBeGreaterThanOrEqual(before.getTime() - 1000);
  });

  it('afterCommit: register answers 5xx but the learner exists afterwards', async () => {
    const organizationId = await firstOrganizationId(s);
    const email = uniqueEmail('after-commit');
    await setFaults({ rate: 1, statuses: [503], afterCommit: true, pathPattern: 'users/register' });
    const failed = await call(s, 'POST', '/users/register', { json: { email, firstName: 'A', lastName: 'B', organizationId } });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    await control(h.origin, 'DELETE', '/_emulator/faults');
    // Move the clock so a record created now would carry a later createdAt than one created by the failed call.
    const later = await advanceClock(h.origin, 600);
    const retry = await call(s, 'POST', '/users/register', { json: { email, firstName: 'A', lastName: 'B', organizationId } });
    expect(retry.status).toBe(201);
    expect(Date.parse(Profile.parse(retry.body).createdAt)).toBeLessThan(later.getTime() - 500_000);
  });

  it('faults do not touch the control interface', async () => {
    await setFaults({ rate: 1, statuses: [503] });
    expect((await control(h.origin, 'GET', '/_emulator/partners')).status).toBe(200);
  });

  it('a learner registered before faults is unaffected once faults end', async () => {
    const learner = await registerLearner(s);
    await setFaults({ rate: 1, statuses: [503], pathPattern: 'users' });
    expect((await call(s, 'GET', `/users/${learner.uuid}`)).status).toBe(503);
    await control(h.origin, 'DELETE', '/_emulator/faults');
    expect((await call(s, 'GET', `/users/${learner.uuid}`)).status).toBe(200);
  });
});

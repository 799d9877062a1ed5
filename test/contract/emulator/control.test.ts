/**
 * The emulator control interface, row by row, plus the x-request-id header on every kind of response
 * (emulator contract: Environments, Seed data, Control interface).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { advanceClock, call, control, envOf, openSession, readResult, readWriteClient, requestToken, resetHarness, startHarness, READ, WRITE } from '../../support/emulator-http.ts';
import type { Harness } from '../../support/emulator-http.ts';
import { ClockAnswer, ModuleContent, RequestLogEntry } from '../../support/emulator-schemas.ts';
import { hiddenModuleId, moduleOfType, readCatalog, registerLearner } from '../../support/emulator-fixtures.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => { await resetHarness(h); });

async function requestLog() {
  const res = await control(h.origin, 'GET', '/_emulator/requests');
  expect(res.status).toBe(200);
  return z.array(RequestLogEntry).parse(res.body);
}

describe('GET /_emulator/partners', () => {
  it('lists at least two partners with the contract URLs, 40-char API keys and 26-char client ids', async () => {
    expect(h.partners.length).toBeGreaterThanOrEqual(2);
    for (const p of h.partners) {
      for (const env of ['sandbox', 'production'] as const) {
        const e = p.environments[env];
        expect(e.tokenUrl).toBe(`${h.origin}/${env}/oauth2/token`);
        expect(e.baseUrl).toBe(`${h.origin}/${env}/v1`);
        expect(e.apiKey).toHaveLength(40);
        for (const c of e.clients) {
          expect(c.clientId).toHaveLength(26);
          expect(c.clientSecret.length, 'secrets are long').toBeGreaterThan(26);
        }
        expect([...(e.clients[0]?.scopes ?? [])].sort(), 'first client is read-write').toEqual([READ, WRITE]);
        expect(e.clients.some((c) => c.scopes.length === 1 && c.scopes[0] === READ), 'one client is read-only').toBe(true);
      }
    }
  });

  it('credentials are distinct per partner and per environment', async () => {
    const keys = h.partners.flatMap((p) => [p.environments.sandbox.apiKey, p.environments.production.apiKey]);
    const ids = h.partners.flatMap((p) => [...p.environments.sandbox.clients, ...p.environments.production.clients].map((c) => c.clientId));
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('GET /_emulator/catalog', () => {
  it('lists published and unpublished courses, every content type, assessed and non-assessed modules, a hidden module', async () => {
    for (const env of ['sandbox', 'production'] as const) {
      const catalog = await readCatalog(h.origin, env);
      expect(catalog.some((c) => c.published), env).toBe(true);
      expect(catalog.some((c) => !c.published), env).toBe(true);
      const visible = catalog.filter((c) => c.published).flatMap((c) => c.modules);
      for (const type of ['video', 'document', 'scorm', 'resource']) {
        expect(visible.some((m) => m.contentType === type), `${env} ${type}`).toBe(true);
      }
      expect(visible.some((m) => m.passingScore === null), env).toBe(true);
      expect(visible.some((m) => m.passingScore !== null), env).toBe(true);
      expect(() => hiddenModuleId(catalog), env).not.toThrow();
    }
  });
});

describe('POST /_emulator/clock and /_emulator/reset', () => {
  it('clock answers {now} moved forward by advanceSeconds', async () => {
    const a = await advanceClock(h.origin, 10);
    const res = await control(h.origin, 'POST', '/_emulator/clock', { advanceSeconds: 7200 });
    expect(res.status).toBe(200);
    const b = new Date(ClockAnswer.parse(res.body).now);
    const moved = (b.getTime() - a.getTime()) / 1000;
    expect(moved).toBeGreaterThanOrEqual(7200);
    expect(moved).toBeLessThan(7200 + 30);
  });

  it('reset restores the seed: learners gone, clock back, faults off, usage plans back, log cleared', async () => {
    const s = await openSession(h);
    const learner = await registerLearner(s);
    const start = await advanceClock(h.origin, 1);
    await advanceClock(h.origin, 86_400 * 3);
    await control(h.origin, 'POST', '/_emulator/faults', { rate: 1, statuses: [503] });
    await control(h.origin, 'PUT', `/_emulator/usage-plans/${s.apiKey}`, { ratePerSecond: 1, burst: 1, dailyQuota: 1 });
    expect((await control(h.origin, 'POST', '/_emulator/reset')).status).toBeLessThan(300);

    const afterReset = await advanceClock(h.origin, 1);
    expect(afterReset.getTime()).toBeLessThan(start.getTime() + 86_400_000);
    expect(await requestLog()).toEqual([]);
    const fresh = await openSession(h);
    const results = await Promise.all(Array.from({ length: 4 }, () => call(fresh, 'GET', `/users/${learner.uuid}`)));
    expect(results.map((r) => r.status)).toEqual([404, 404, 404, 404]);
  });

  it('reset keeps the seed catalog and credentials stable', async () => {
    const before = await readCatalog(h.origin);
    const partnersBefore = JSON.stringify(h.partners);
    await resetHarness(h);
    expect(await readCatalog(h.origin)).toEqual(before);
    expect(JSON.stringify(h.partners)).toBe(partnersBefore);
  });
});

describe('GET/DELETE /_emulator/requests', () => {
  it('logs API and token requests oldest first with {method, path, status, env, at}; DELETE clears', async () => {
    const env = envOf(h, 0, 'sandbox');
    await requestToken(env.tokenUrl, readWriteClient(env));
    const s = await openSession(h, 0, 'production');
    await readResult(await fetch(`${envOf(h, 0, 'sandbox').baseUrl}/ping`, { headers: { 'x-api-key': env.apiKey } }));
    await call(s, 'GET', '/organizations');
    await call(s, 'GET', '/users/3f2504e0-4f89-41d3-9a0c-0305e82c3301');

    const log = (await requestLog()).filter((e) => !e.path.startsWith('/_emulator'));
    const summary = log.map((e) => [e.method, e.path, e.status, e.env]);
    expect(summary).toEqual([
      ['POST', '/sandbox/oauth2/token', 200, 'sandbox'],
      ['POST', '/production/oauth2/token', 200, 'production'],
      ['GET', '/sandbox/v1/ping', 200, 'sandbox'],
      ['GET', '/production/v1/organizations', 200, 'production'],
      ['GET', '/production/v1/users/3f2504e0-4f89-41d3-9a0c-0305e82c3301', 404, 'production'],
    ]);
    const times = log.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    expect((await control(h.origin, 'DELETE', '/_emulator/requests')).status).toBeLessThan(300);
    expect((await requestLog()).filter((e) => !e.path.startsWith('/_emulator'))).toEqual([]);
  });

  it('never logs a secret or token', async () => {
    const s = await openSession(h);
    await call(s, 'GET', '/organizations?x=1');
    const text = JSON.stringify(await requestLog());
    expect(text).not.toContain(s.token);
    expect(text).not.toContain(s.apiKey);
    expect(text).not.toContain(readWriteClient(s.env).clientSecret);
  });
});

describe('x-request-id', () => {
  it('is on every kind of response: token, JWKS, content URL, ping, 200, 201, 204, 400, 401, 403, 404, 429, 5xx, control', async () => {
    const env = envOf(h, 0, 'sandbox');
    const s = await openSession(h);
    const learner = await registerLearner(s);
    const catalog = await readCatalog(h.origin);
    const hidden = hiddenModuleId(catalog);
    const content = ModuleContent.parse((await call(s, 'GET', `/modules/${moduleOfType(catalog, 'video')}/content`, { userId: learner.uuid })).body);
    const raw = async (url: string) => readResult(await fetch(url));
    const responses = [
      ['jwks', await raw(`${h.origin}/sandbox/idp/.well-known/jwks.json`)],
      ['content url', await raw(content.content_url)],
      ['tampered content url', await raw(`${content.content_url}0`)],
      ['unknown route', await raw(`${h.origin}/no-such-route`)],
      ['token', await requestToken(env.tokenUrl, readWriteClient(env))],
      ['token error', await requestToken(env.tokenUrl, { ...readWriteClient(env), clientSecret: 'wrong' })],
      ['ping', await readResult(await fetch(`${env.baseUrl}/ping`, { headers: { 'x-api-key': env.apiKey } }))],
      ['200', await call(s, 'GET', '/organizations')],
      ['201', await call(s, 'POST', '/users/register', { json: { email: learner.email, firstName: 'A', lastName: 'B', organizationId: learner.organizationId } })],
      ['400', await call(s, 'GET', '/transcripts')],
      ['401', await call(s, 'GET', '/organizations', { headers: { authorization: 'Bearer x' } })],
      ['403', await call(s, 'GET', '/organizations', { headers: { 'x-api-key': null } })],
      ['404', await call(s, 'GET', `/modules/${hidden}`)],
      ['204', await call(s, 'DELETE', `/users/${learner.uuid}`)],
      ['control', await control(h.origin, 'GET', '/_emulator/partners')],
    ] as const;
    await control(h.origin, 'POST', '/_emulator/faults', { rate: 1, statuses: [503] });
    const failed = await call(s, 'GET', '/organizations');
    await control(h.origin, 'DELETE', '/_emulator/faults');
    await control(h.origin, 'PUT', `/_emulator/usage-plans/${s.apiKey}`, { ratePerSecond: 1000, burst: 1000, dailyQuota: 1 });
    await call(s, 'GET', '/organizations');
    const limited = await call(s, 'GET', '/organizations');
    for (const [name, res] of [...responses, ['5xx', failed], ['429', limited]] as const) {
      expect(res.headers.get('x-request-id'), name).toBeTruthy();
    }
    expect(failed.status).toBe(503);
    expect(limited.status).toBe(429);
    const ids = responses.map(([, r]) => r.headers.get('x-request-id'));
    expect(new Set(ids).size, 'ids are unique').toBe(ids.length);
  });
});

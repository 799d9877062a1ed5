/**
 * Authentication over real HTTP: API key (403 empty), JWT (401 terse JSON), order of checks, scopes, swapped
 * credentials and environment separation (spec: Authentication; Errors by status code; emulator contract).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { advanceClock, basic, call, envOf, fetchToken, openSession, readOnlyClient, readResult, readWriteClient, resetHarness, startHarness, READ, WRITE } from '../../support/emulator-http.ts';
import type { Harness, HttpResult } from '../../support/emulator-http.ts';
import { GatewayMessage, Health, OAuthError } from '../../support/emulator-schemas.ts';
import { moduleOfType, readCatalog, registerLearner } from '../../support/emulator-fixtures.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => { await resetHarness(h); });

function expectEmpty403(res: HttpResult): void {
  expect(res.status).toBe(403);
  expect(res.text).toBe('');
}

function expect401(res: HttpResult): void {
  expect(res.status).toBe(401);
  GatewayMessage.parse(res.body);
}

async function get(url: string, headers: Record<string, string>): Promise<HttpResult> {
  return readResult(await fetch(url, { headers }));
}

describe('API key (gateway, 403 empty body)', () => {
  it('GET /ping with the API key only answers 200 status healthy', async () => {
    const env = envOf(h, 0, 'sandbox');
    const res = await get(`${env.baseUrl}/ping`, { 'x-api-key': env.apiKey });
    expect(res.status).toBe(200);
    Health.parse(res.body);
    expect(Object.keys(res.body as object).length, 'dependency checks beside status').toBeGreaterThan(1);
  });

  it('GET /ping ignores the token: a garbage bearer with a valid API key is still 200', async () => {
    const env = envOf(h, 0, 'sandbox');
    const res = await get(`${env.baseUrl}/ping`, { 'x-api-key': env.apiKey, authorization: 'Bearer garbage' });
    expect(res.status).toBe(200);
  });

  it('GET /ping without an API key is 403 with an empty body', async () => {
    expectEmpty403(await get(`${envOf(h, 0, 'sandbox').baseUrl}/ping`, {}));
  });

  it('GET /ping with a wrong API key is 403 with an empty body', async () => {
    expectEmpty403(await get(`${envOf(h, 0, 'sandbox').baseUrl}/ping`, { 'x-api-key': 'x'.repeat(40) }));
  });

  it('an API call with a valid token but no API key is 403 empty', async () => {
    const s = await openSession(h);
    expectEmpty403(await call(s, 'GET', '/organizations', { headers: { 'x-api-key': null } }));
  });

  it('an API call with a valid token and a wrong API key is 403 empty', async () => {
    const s = await openSession(h);
    expectEmpty403(await call(s, 'GET', '/organizations', { headers: { 'x-api-key': 'y'.repeat(40) } }));
  });

  it('checks the API key before the token: bad key plus bad token is 403 empty, not 401', async () => {
    const s = await openSession(h);
    expectEmpty403(await call(s, 'GET', '/organizations', { headers: { 'x-api-key': 'z'.repeat(40), authorization: 'Bearer garbage' } }));
  });

  it('checks the API key before the token: no key and no token is 403 empty', async () => {
    expectEmpty403(await get(`${envOf(h, 0, 'sandbox').baseUrl}/organizations`, {}));
  });
});

describe('JWT (gateway, 401 terse JSON)', () => {
  it('a valid token and API key proceed (200)', async () => {
    const s = await openSession(h);
    expect((await call(s, 'GET', '/organizations')).status).toBe(200);
  });

  it('no Authorization header is 401 with a message', async () => {
    const s = await openSession(h);
    expect401(await call(s, 'GET', '/organizations', { headers: { authorization: null } }));
  });

  const malformed: Array<[string, (t: string) => string]> = [
    ['token without the Bearer scheme', (t) => t],
    ['Basic scheme', () => 'Basic dXNlcjpwYXNz'],
    ['lowercase bearer (header must be exactly "Bearer <token>")', (t) => `bearer ${t}`],
    ['two spaces after Bearer', (t) => `Bearer  ${t}`],
    ['Bearer with no token', () => 'Bearer'],
    ['Bearer plus garbage', () => 'Bearer not-a-token'],
    ['Bearer plus a three-part non-JWT', () => 'Bearer aaa.bbb.ccc'],
  ];
  for (const [name, make] of malformed) {
    it(`malformed header: ${name} is 401`, async () => {
      const s = await openSession(h);
      expect401(await call(s, 'GET', '/organizations', { headers: { authorization: make(s.token) } }));
    });
  }

  it('a token with a tampered signature is 401', async () => {
    const s = await openSession(h);
    const [head, payload, sig] = s.token.split('.');
    const flipped = `${sig?.startsWith('A') ? 'B' : 'A'}${sig?.slice(1) ?? ''}`;
    expect401(await call(s, 'GET', '/organizations', { headers: { authorization: `Bearer ${head}.${payload}.${flipped}` } }));
  });

  it('a token with the right claims signed by a foreign key is 401', async () => {
    const s = await openSession(h);
    const claims = decodeJwt(s.token);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'forged' }).sign(privateKey);
    expect401(await call(s, 'GET', '/organizations', { headers: { authorization: `Bearer ${forged}` } }));
  });

  it('a token is accepted just before expiry and rejected after 3601 s on the emulator clock', async () => {
    const s = await openSession(h);
    await advanceClock(h.origin, 3500);
    expect((await call(s, 'GET', '/organizations')).status).toBe(200);
    await advanceClock(h.origin, 101);
    expect401(await call(s, 'GET', '/organizations'));
  });

  it('a production token is 401 in sandbox (with the sandbox API key)', async () => {
    const sandbox = await openSession(h, 0, 'sandbox');
    const production = await openSession(h, 0, 'production');
    expect401(await call(sandbox, 'GET', '/organizations', { headers: { authorization: `Bearer ${production.token}` } }));
  });

  it('a sandbox token is 401 in production (with the production API key)', async () => {
    const sandbox = await openSession(h, 0, 'sandbox');
    const production = await openSession(h, 0, 'production');
    expect401(await call(production, 'GET', '/organizations', { headers: { authorization: `Bearer ${sandbox.token}` } }));
  });

  it('the sandbox API key is 403 empty in production', async () => {
    const sandbox = await openSession(h, 0, 'sandbox');
    const production = await openSession(h, 0, 'production');
    expectEmpty403(await call(production, 'GET', '/organizations', { headers: { 'x-api-key': sandbox.apiKey } }));
  });

  it('the 401 body does not echo the token', async () => {
    const s = await openSession(h);
    await advanceClock(h.origin, 3601);
    const res = await call(s, 'GET', '/organizations');
    expect(res.status).toBe(401);
    expect(res.text).not.toContain(s.token);
  });
});

describe('scopes (403 JSON naming the scope)', () => {
  it('a read-only token can read', async () => {
    const ro = await openSession(h, 0, 'sandbox', 'ro');
    expect((await call(ro, 'GET', '/courses')).status).toBe(200);
  });

  it('a read-only token is refused on every write endpoint with 403 JSON naming partner-api/write', async () => {
    const rw = await openSession(h);
    const ro = await openSession(h, 0, 'sandbox', 'ro');
    const learner = await registerLearner(rw);
    const video = moduleOfType(await readCatalog(h.origin), 'video');
    const attempts: Array<[string, string, Parameters<typeof call>[3]]> = [
      ['POST', '/users/register', { json: { email: 'ro@example.com', firstName: 'R', lastName: 'O', organizationId: learner.organizationId } }],
      ['PATCH', `/users/${learner.uuid}`, { raw: '{"city":"Oslo"}', contentType: 'application/merge-patch+json' }],
      ['DELETE', `/users/${learner.uuid}`, {}],
      ['POST', `/modules/${video}/complete`, { userId: learner.uuid }],
    ];
    for (const [method, path, opts] of attempts) {
      const res = await call(ro, method, path, opts);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body, `${method} ${path} body is JSON`).toBeTypeOf('object');
      expect(res.text, `${method} ${path}`).toContain(WRITE);
    }
    // The refused writes changed nothing.
    const after = await call(rw, 'GET', `/users/${learner.uuid}`);
    expect(after.status).toBe(200);
  });

  it('a write-only token is refused on a read endpoint with 403 naming partner-api/read', async () => {
    const env = envOf(h, 0, 'sandbox');
    const token = await fetchToken(env.tokenUrl, readWriteClient(env), WRITE);
    const res = await call({ origin: h.origin, env, apiKey: env.apiKey, token }, 'GET', '/courses');
    expect(res.status).toBe(403);
    expect(res.text).toContain(READ);
  });
});

describe('swapped credentials', () => {
  it('API key used as client id at the token endpoint gives invalid_client', async () => {
    const env = envOf(h, 0, 'sandbox');
    const res = await readResult(await fetch(env.tokenUrl, {
      method: 'POST',
      headers: { authorization: basic(env.apiKey, readWriteClient(env).clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&scope=${encodeURIComponent(READ)}`,
    }));
    expect([400, 401]).toContain(res.status);
    expect(OAuthError.parse(res.body).error).toBe('invalid_client');
    expect(res.text).not.toContain(env.apiKey);
  });

  it('client id used as API key at the API gives 403 empty', async () => {
    const s = await openSession(h);
    expectEmpty403(await call(s, 'GET', '/organizations', { headers: { 'x-api-key': readOnlyClient(s.env).clientId } }));
  });
});

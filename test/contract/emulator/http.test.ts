/**
 * HTTP mechanics over real sockets that the spec's tables imply but do not list: methods a route does not take
 * (405 with Allow, after the gateway), HEAD and OPTIONS, paths with a trailing or doubled slash (spec checklist 4),
 * and empty bodies that say so.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, envOf, openSession, readOnlyClient, fetchToken, readResult, resetHarness, startHarness, READ } from '../../support/emulator-http.ts';
import type { Harness, Session } from '../../support/emulator-http.ts';
import { HydraError, OAuthError } from '../../support/emulator-schemas.ts';
import { registerLearner } from '../../support/emulator-fixtures.ts';

let h: Harness;
let s: Session;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await resetHarness(h);
  s = await openSession(h);
});

describe('a method the route does not take', () => {
  it('is 405 hydra:Error with an Allow header on every kind of API route', async () => {
    const learner = await registerLearner(s);
    const cases: Array<[string, string, string]> = [
      ['PUT', '/courses', 'GET'],
      ['DELETE', '/courses/1', 'GET'],
      ['POST', '/course-progresses', 'GET'],
      ['PATCH', '/transcripts/1', 'GET'],
      ['GET', '/modules/1/complete', 'POST'],
      ['PUT', `/users/${learner.uuid}`, 'PATCH'],
      ['DELETE', '/transcript/pdf', 'GET'],
    ];
    for (const [method, path, allowed] of cases) {
      const res = await call(s, method, path, { userId: learner.uuid });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')?.split(', '), `${method} ${path}`).toContain(allowed);
      HydraError.parse(res.body);
    }
  });

  it('is checked after the gateway: no API key is still 403 empty, no token 401', async () => {
    const env = envOf(h, 0, 'sandbox');
    const noKey = await readResult(await fetch(`${env.baseUrl}/courses`, { method: 'PUT' }));
    expect(noKey.status).toBe(403);
    expect(noKey.text).toBe('');
    const noToken = await readResult(await fetch(`${env.baseUrl}/courses`, { method: 'PUT', headers: { 'x-api-key': env.apiKey } }));
    expect(noToken.status).toBe(401);
  });

  it('is 405 with an OAuth2 error at the token endpoint', async () => {
    const res = await readResult(await fetch(envOf(h, 0, 'sandbox').tokenUrl));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
    expect(OAuthError.parse(res.body).error).toBe('invalid_request');
  });

  it('an unknown path stays 404 whatever the method', async () => {
    for (const method of ['GET', 'PUT']) {
      const res = await call(s, method, '/no-such-thing');
      expect(res.status, method).toBe(404);
      HydraError.parse(res.body);
    }
  });
});

describe('HEAD and OPTIONS', () => {
  it('HEAD answers like GET without a body, read scope suffices', async () => {
    const env = envOf(h, 0, 'sandbox');
    const ro = { ...s, token: await fetchToken(env.tokenUrl, readOnlyClient(env), READ) };
    const get = await call(ro, 'GET', '/courses');
    const head = await call(ro, 'HEAD', '/courses');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('HEAD /ping needs the API key only, like GET /ping', async () => {
    const env = envOf(h, 0, 'sandbox');
    const res = await fetch(`${env.baseUrl}/ping`, { method: 'HEAD', headers: { 'x-api-key': env.apiKey } });
    expect(res.status).toBe(200);
  });

  it('OPTIONS on a known route is 204 with Allow; on an unknown one 404', async () => {
    const options = await call(s, 'OPTIONS', '/users/register');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')?.split(', ')).toContain('POST');
    expect((await call(s, 'OPTIONS', '/no-such-thing')).status).toBe(404);
  });
});

describe('paths', () => {
  it('a trailing slash or a doubled slash after the base address is 404 hydra:Error, not the resource', async () => {
    for (const path of ['/courses/', '/organizations/1/']) {
      const res = await call(s, 'GET', path);
      expect(res.status, path).toBe(404);
      HydraError.parse(res.body);
    }
    const doubled = await readResult(await fetch(`${s.env.baseUrl}//courses`, { headers: { authorization: `Bearer ${s.token}`, 'x-api-key': s.apiKey } }));
    expect(doubled.status).toBe(404);
  });
});

describe('empty bodies', () => {
  it('the gateway 403 and the 202 of /complete carry Content-Length 0', async () => {
    const env = envOf(h, 0, 'sandbox');
    const forbidden = await fetch(`${env.baseUrl}/courses`);
    expect(forbidden.headers.get('content-length')).toBe('0');
    const learner = await registerLearner(s);
    const done = await call(s, 'POST', '/modules/1/complete', { userId: learner.uuid });
    expect(done.status).toBe(202);
    expect(done.headers.get('content-length')).toBe('0');
  });
});

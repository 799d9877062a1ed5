import { describe, expect, it } from 'vitest';
import { allowedMethods } from './methods.ts';
import { testBed } from '../test/support/emulator-testbed.ts';

describe('allowedMethods', () => {
  const routes = [
    { method: 'ALL', path: '/:env/v1/*' },
    { method: 'POST', path: '/:env/v1/users/register' },
    { method: 'GET', path: '/:env/v1/users/:uuid' },
    { method: 'PATCH', path: '/:env/v1/users/:uuid' },
    { method: 'GET', path: '/:env/v1/courses' },
  ];

  it('reads the methods of every route whose pattern matches, ignoring middleware', () => {
    expect(allowedMethods(routes, '/sandbox/v1/courses')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(allowedMethods(routes, '/sandbox/v1/users/abc')).toEqual(['GET', 'HEAD', 'OPTIONS', 'PATCH']);
    expect(allowedMethods(routes, '/sandbox/v1/users/register')).toEqual(['GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST']);
  });

  it('knows no methods for an unknown path, a trailing slash or an extra segment', () => {
    expect(allowedMethods(routes, '/sandbox/v1/nothing')).toEqual([]);
    expect(allowedMethods(routes, '/sandbox/v1/courses/')).toEqual([]);
    expect(allowedMethods(routes, '/sandbox/v1/users/a/b')).toEqual([]);
  });
});

describe('unrouted requests', () => {
  it('a known API path with another method: 405 hydra:Error with Allow, after the gateway', async () => {
    const t = testBed();
    expect((await t.send('/sandbox/v1/courses', { method: 'PUT' })).status).toBe(403);
    const res = await t.api('/courses', { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await res.json()).toMatchObject({ '@type': 'hydra:Error', status: 405 });
    expect((await t.api('/nothing', { method: 'PUT' })).status).toBe(404);
  });

  it('OPTIONS on a known path: 204 with Allow (read scope suffices)', async () => {
    const t = testBed();
    const res = await t.api('/users/register', { method: 'OPTIONS', scope: 'partner-api/read' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toContain('POST');
  });

  it('the token endpoint answers another method 405 with an OAuth2 error; the control interface too', async () => {
    const t = testBed();
    const token = await t.send(t.env.tokenUrl);
    expect(token.status).toBe(405);
    expect(token.headers.get('allow')).toBe('OPTIONS, POST');
    expect(await token.json()).toEqual({ error: 'invalid_request' });
    const control = await t.send('/_emulator/reset');
    expect(control.status).toBe(405);
    expect(control.headers.get('allow')).toBe('OPTIONS, POST');
  });

  it('an unknown environment stays 404', async () => {
    const t = testBed();
    expect((await t.send('/staging/oauth2/token')).status).toBe(404);
  });
});

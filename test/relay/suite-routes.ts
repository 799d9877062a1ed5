/**
 * Shared suite, part 1: every route for both caller kinds, against the emulator.
 */
import { expect, it } from 'vitest';
import { AUDIENCE, PARTNER_ORIGIN, payloadOf, type Seen } from './support/fixture.ts';
import type { SuiteState } from './suite.ts';

const json = { 'content-type': 'application/json' };
const problemCode = (seen: Seen): unknown => (seen.json() as { code?: unknown }).code;

interface HydraPage {
  'hydra:member': unknown[];
  'hydra:view': Record<string, string>;
}

async function register(s: SuiteState, name: string): Promise<string> {
  const seen = await s.http.backend('/v1/users/register', {
    method: 'POST', headers: json,
    body: JSON.stringify({ email: `${name}-${Date.now()}@example.com`, firstName: name, lastName: 'Learner', organizationId: 1 }),
  });
  expect(seen.status).toBe(201);
  const uuid = (seen.json() as { uuid: string }).uuid;
  s.learners[name] = uuid;
  return uuid;
}

async function mint(s: SuiteState, name: string, ttlSeconds?: number): Promise<Seen> {
  return s.http.backend('/v1/learner-tokens', { method: 'POST', headers: json, body: JSON.stringify({ userId: s.learners[name], ttlSeconds }) });
}

/**
 * @param s The suite's shared state.
 */
export function routeChecks(s: SuiteState): void {
  it('backend: ping, register, read, merge-patch and delete learners', async () => {
    expect((await s.http.backend('/v1/ping')).json()).toMatchObject({ status: 'healthy' });
    const a = await register(s, 'ada');
    await register(s, 'bob');
    const gone = await register(s, 'cy');
    expect((await s.http.backend(`/v1/users/${a}`)).json()).toMatchObject({ uuid: a, status: 'active' });
    const patched = await s.http.backend(`/v1/users/${a}`, {
      method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ city: 'Paris' }),
    });
    expect(patched.json()).toMatchObject({ uuid: a, city: 'Paris' });
    const wrongType = await s.http.backend(`/v1/users/${a}`, { method: 'PATCH', headers: json, body: '{"city":"Rome"}' });
    expect([wrongType.status, problemCode(wrongType)]).toEqual([415, 'unsupported_media_type']);
    const invalid = await s.http.backend('/v1/users/register', { method: 'POST', headers: json, body: '{"email":"nope"}' });
    expect([invalid.status, problemCode(invalid)]).toEqual([400, 'validation_failed']);
    expect((invalid.json() as { violations: unknown[] }).violations.length).toBeGreaterThan(0);
    expect((await s.http.backend(`/v1/users/${gone}`, { method: 'DELETE' })).status).toBe(204);
    const after = await s.http.backend(`/v1/users/${gone}`);
    expect([after.status, problemCode(after)]).toEqual([404, 'not_found']);
  });

  it('backend: mints learner tokens (201) only for active learners of the partner', async () => {
    const minted = await mint(s, 'ada');
    expect(minted.status).toBe(201);
    const body = minted.json() as { token: string; userId: string; expiresAt: string };
    expect(body.userId).toBe(s.learners['ada']);
    const claims = payloadOf(body.token);
    expect(claims).toMatchObject({ sub: s.learners['ada'], aud: AUDIENCE });
    expect(Number(claims['exp']) - Number(claims['iat'])).toBe(900);
    expect(new Date(body.expiresAt).getTime()).toBe(Number(claims['exp']) * 1000);
    s.tokens['ada'] = body.token;
    s.tokens['bob'] = ((await mint(s, 'bob', 3600)).json() as { token: string }).token;
    for (const ttl of [59, 3601, 1.5]) expect((await mint(s, 'ada', ttl)).status).toBe(400);
    const stranger = await s.http.backend('/v1/learner-tokens', { method: 'POST', headers: json, body: JSON.stringify({ userId: crypto.randomUUID() }) });
    expect([stranger.status, problemCode(stranger)]).toEqual([404, 'not_found']);
    const dora = await register(s, 'dora');
    await s.http.backend(`/v1/users/${dora}`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"status":"inactive"}' });
    const inactive = await mint(s, 'dora');
    expect([inactive.status, problemCode(inactive)]).toEqual([403, 'inactive_learner']);
  });

  it('both callers read catalog records; links point at the relay', async () => {
    for (const path of ['/v1/organizations/1', '/v1/categories/1', '/v1/courses/1', '/v1/modules/1']) {
      for (const seen of [await s.http.backend(path), await s.http.learner(s.tokens['ada'] ?? '', path)]) {
        expect(seen.status).toBe(200);
        expect(seen.text).not.toContain(s.upstream.server.origin);
        expect(seen.text).not.toContain('/sandbox/v1');
      }
    }
    const course = (await s.http.backend('/v1/courses/1')).json() as { '@id': string };
    expect(course['@id']).toBe(`${s.relay.origin}/v1/courses/1`);
    const missing = await s.http.backend('/v1/courses/999999');
    expect([missing.status, problemCode(missing)]).toEqual([404, 'not_found']);
  });

  it('collections: Hydra pages as the service sends them, links back to the relay, only allowlisted query parameters', async () => {
    for (const name of ['organizations', 'categories', 'courses', 'modules']) {
      for (const seen of [await s.http.backend(`/v1/${name}?itemsPerPage=2`), await s.http.learner(s.tokens['ada'] ?? '', `/v1/${name}`)]) {
        expect([name, seen.status]).toEqual([name, 200]);
        expect(seen.headers.get('content-type')).toMatch(/^application\/ld\+json/);
        expect((seen.json() as Record<string, unknown>)['hydra:member']).toBeInstanceOf(Array);
        expect(seen.text).not.toContain('/sandbox/v1');
      }
    }
    const first = (await s.http.backend('/v1/courses?itemsPerPage=2&foo=bar&url=http%3A%2F%2Fevil.example')).json() as HydraPage;
    expect(first['hydra:member']).toHaveLength(2);
    const next = first['hydra:view']['hydra:next'] ?? '';
    expect(next).toBe(`${s.relay.origin}/v1/courses?itemsPerPage=2&page=2`);
    const log = await s.upstream.requests();
    expect(log.filter((r) => r.path.endsWith('/courses')).map((r) => (r as { query?: string }).query ?? '').join(' ')).not.toMatch(/foo|evil/);
    const second = await s.http.backend(next.slice(s.relay.origin.length));
    expect((second.json() as HydraPage)['hydra:view']['@id']).toBe(`${s.relay.origin}/v1/courses?itemsPerPage=2&page=2`);
    const filtered = await s.http.backend('/v1/courses?updatedAt%5Bafter%5D=2000-01-01T00:00:00Z&updatedAt[strictly_before]=2100-01-01T00:00:00Z');
    expect(filtered.status).toBe(200);
    for (const bad of ['page=abc', 'itemsPerPage=0', 'updatedAt[after]=yesterday', 'itemsPerPage=1000']) {
      const seen = await s.http.backend(`/v1/courses?${bad}`);
      expect([bad, seen.status, problemCode(seen)]).toEqual([bad, 400, 'validation_failed']);
    }
  });

  it('backend acts for the learner named in X-User-ID on user-scoped routes', async () => {
    const ada = s.learners['ada'] ?? '';
    const content = await s.http.backend('/v1/modules/1/content', { userId: ada });
    expect(content.json()).toMatchObject({ module_id: 1, content_type: 'video' });
    expect((await s.http.backend('/v1/modules/1/refresh-url', { userId: ada })).status).toBe(200);
    const noUser = await s.http.backend('/v1/modules/1/content');
    expect([noUser.status, problemCode(noUser)]).toEqual([400, 'validation_failed']);
    expect((await s.http.backend('/v1/modules/1/content', { userId: 'not-a-uuid' })).status).toBe(400);
    expect((await s.http.backend('/v1/modules/1/complete', { method: 'POST', userId: ada })).status).toBe(202);
    const scorm = await s.http.backend('/v1/modules/5/complete', { method: 'POST', userId: ada });
    expect([scorm.status, problemCode(scorm)]).toEqual([409, 'conflict']);
    const me = await s.http.backend('/v1/me');
    expect([me.status, problemCode(me)]).toEqual([403, 'forbidden']);
  });

  it('learner: own profile, content and completion; X-User-ID from the caller is ignored', async () => {
    const token = s.tokens['ada'] ?? '';
    const me = await s.http.learner(token, '/v1/me', { headers: { 'x-user-id': s.learners['bob'] ?? '' } });
    expect(me.json()).toMatchObject({ uuid: s.learners['ada'] });
    expect((await s.http.learner(token, '/v1/modules/2/content')).json()).toMatchObject({ module_id: 2 });
    for (const id of [2, 3]) expect((await s.http.learner(token, `/v1/modules/${id}/complete`, { method: 'POST' })).status).toBe(202);
    for (const path of ['/v1/ping', `/v1/users/${s.learners['bob']}`, '/v1/learner-tokens', '/v1/users/register']) {
      const method = path.includes('register') || path.includes('tokens') ? 'POST' : 'GET';
      const seen = await s.http.learner(token, path, { method, headers: json, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect([path, seen.status, problemCode(seen)]).toEqual([path, 403, 'forbidden']);
    }
  });

  it("progress, transcripts and PDFs: learner A's records, never to learner B", async () => {
    const ada = s.learners['ada'] ?? '';
    const progress = await s.upstream.client.progress.list({ userId: ada }).toArray({ max: 10 });
    const transcripts = await s.upstream.client.transcripts.list({ userId: ada }).toArray({ max: 10 });
    const course = transcripts.find((t) => t.isCourse && t.certificateAvailable);
    expect(progress.length).toBeGreaterThan(0);
    expect(course).toBeDefined();
    for (const list of ['/v1/course-progresses', '/v1/transcripts']) {
      const mine = (await s.http.learner(s.tokens['ada'] ?? '', list)).json() as { 'hydra:member': unknown[] };
      expect(mine['hydra:member'].length).toBeGreaterThan(0);
      expect((await s.http.backend(list, { userId: ada })).json()).toMatchObject({ 'hydra:totalItems': mine['hydra:member'].length });
      const theirs = (await s.http.learner(s.tokens['bob'] ?? '', list, { headers: { 'x-user-id': ada } })).json() as { 'hydra:member': unknown[] };
      expect(theirs['hydra:member']).toEqual([]);
    }
    const paths = [`/v1/course-progresses/${progress[0]?.id}`, `/v1/transcripts/${course?.id}`, `/v1/transcripts/${course?.id}/certificate/pdf`];
    for (const path of paths) {
      expect((await s.http.backend(path, { userId: ada })).status).toBe(200);
      expect((await s.http.learner(s.tokens['ada'] ?? '', path)).status).toBe(200);
      const other = await s.http.learner(s.tokens['bob'] ?? '', path, { headers: { 'x-user-id': ada } });
      expect([path, other.status, problemCode(other)]).toEqual([path, 404, 'not_found']);
    }
    for (const path of ['/v1/transcript/pdf', `/v1/transcripts/${course?.id}/certificate/pdf`]) {
      const pdf = await s.http.learner(s.tokens['ada'] ?? '', path, { headers: { origin: PARTNER_ORIGIN } });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toMatch(/^application\/pdf/);
      expect(pdf.text.startsWith('%PDF-')).toBe(true);
      expect(pdf.headers.get('content-disposition')).toMatch(/filename=/);
      expect(pdf.headers.get('content-security-policy')).toContain(`frame-ancestors ${PARTNER_ORIGIN}`);
      expect(pdf.headers.get('x-frame-options')).toBeNull();
      expect(pdf.headers.get('access-control-allow-origin')).toBe(PARTNER_ORIGIN);
    }
  });
}

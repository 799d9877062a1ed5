import { describe, expect, it } from 'vitest';
import { testBed } from '../../test/support/emulator-testbed.ts';

const merge = { 'content-type': 'application/merge-patch+json' };

describe('users', () => {
  it('registers idempotently per partner and e-mail (case-insensitive), active, 201 both times', async () => {
    const t = testBed();
    const first = await t.register('Grace@Example.com');
    expect(first.status).toBe('active');
    expect(first.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const again = await t.register('grace@example.COM');
    expect(again).toEqual(first);
  });

  it('rejects a wrong content type (415), malformed JSON (400 hydra) and invalid fields (violations)', async () => {
    const t = testBed();
    const post = (body: string, type = 'application/json') => t.api('/users/register', { method: 'POST', headers: { 'content-type': type }, body });
    expect((await post('{}', 'text/plain')).status).toBe(415);
    const malformed = await post('{"email":');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as Record<string, string>)['@type']).toBe('hydra:Error');
    const invalid = await post(JSON.stringify({ email: 'nope', firstName: '', organizationId: 999, extra: 1 }));
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { error: string; violations: { propertyPath: string }[] };
    expect(body.error).toBe('validation_failed');
    expect(body.violations.map((v) => v.propertyPath).sort()).toEqual(['email', 'extra', 'firstName', 'lastName', 'organizationId']);
  });

  it('accepts status "active" at registration (the whole profile may be sent) and rejects any other status', async () => {
    const t = testBed();
    const post = (status: string) =>
      t.api('/users/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `${status}@example.com`, firstName: 'Ada', lastName: 'Lovelace', organizationId: 1, status }),
      });
    const ok = await post('active');
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { status: string }).status).toBe('active');
    const inactive = await post('inactive');
    expect(inactive.status).toBe(400);
    expect(((await inactive.json()) as { violations: { propertyPath: string }[] }).violations.map((v) => v.propertyPath)).toEqual(['status']);
  });

  it('merge-patches with validation, ignores read-only fields and converges', async () => {
    const t = testBed();
    const u = await t.register();
    expect((await t.api(`/users/${u.uuid}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(415);
    const bad = await t.api(`/users/${u.uuid}`, { method: 'PATCH', headers: merge, body: JSON.stringify({ countryCode: 'XX', status: 'gone', organizationId: '1', nickname: 'x' }) });
    expect(((await bad.json()) as { violations: { propertyPath: string }[] }).violations.map((v) => v.propertyPath)).toEqual(['countryCode', 'status', 'organizationId', 'nickname']);
    const patch = JSON.stringify({ city: 'Berlin', countryCode: 'DE', uuid: 'ignored', createdAt: 'ignored' });
    t.clock.ms += 5000;
    const once = await (await t.api(`/users/${u.uuid}`, { method: 'PATCH', headers: merge, body: patch })).json();
    t.clock.ms += 5000;
    const twice = await (await t.api(`/users/${u.uuid}`, { method: 'PATCH', headers: merge, body: patch })).json();
    expect(twice).toEqual(once);
    expect(once).toMatchObject({ uuid: u.uuid, city: 'Berlin', countryCode: 'DE' });
  });

  it('deactivates (user-scoped calls 403), reactivates, and erases (404 after, new learner on re-registration)', async () => {
    const t = testBed();
    const u = await t.register();
    await t.api(`/users/${u.uuid}`, { method: 'PATCH', headers: merge, body: '{"status":"inactive"}' });
    const blocked = await t.api('/transcripts', { user: u.uuid });
    expect(blocked.status).toBe(403);
    expect(JSON.stringify(await blocked.json())).toContain('inactive');
    expect((await t.api(`/users/${u.uuid}`)).status).toBe(200);
    await t.api(`/users/${u.uuid}`, { method: 'PATCH', headers: merge, body: '{"status":"active"}' });
    expect((await t.api('/transcripts', { user: u.uuid })).status).toBe(200);
    expect((await t.api(`/users/${u.uuid}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.api(`/users/${u.uuid}`)).status).toBe(404);
    expect((await t.api(`/users/${u.uuid}`, { method: 'DELETE' })).status).toBe(404);
    expect((await t.api('/transcripts', { user: u.uuid })).status).toBe(404);
    expect((await t.register()).uuid).not.toBe(u.uuid);
  });

  it('answers 404 for another partner\'s learner and for a malformed uuid', async () => {
    const t = testBed();
    const u = await t.register();
    const other = t.emulator.partners('http://emulator.test')[1]?.environments.sandbox;
    if (!other) throw new Error('no partner 2');
    const otherToken = await t.token(null, 0, other);
    const res = await t.send(`${other.baseUrl}/users/${u.uuid}`, { headers: { 'x-api-key': other.apiKey, authorization: `Bearer ${otherToken}` } });
    expect(res.status).toBe(404);
    expect((await t.api('/users/not-a-uuid')).status).toBe(404);
  });
});

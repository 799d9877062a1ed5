/**
 * Learner endpoints and the user status table over real HTTP: register (idempotent), GET, merge-PATCH, DELETE,
 * deactivate/reactivate/erase, registration validation (spec: User, User status, Endpoints rules 2-4, Errors).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, openSession, resetHarness, startHarness } from '../../support/emulator-http.ts';
import type { Harness, Session } from '../../support/emulator-http.ts';
import { Collection, HydraError, Profile, ValidationError } from '../../support/emulator-schemas.ts';
import { firstOrganizationId, moduleOfType, readCatalog, registerLearner, uniqueEmail } from '../../support/emulator-fixtures.ts';
import { z } from 'zod/v4';

let h: Harness;
let s: Session;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await resetHarness(h);
  s = await openSession(h);
});

const MERGE = 'application/merge-patch+json';

describe('POST /users/register', () => {
  it('answers 201 with the profile: 36-char uuid, status active, the sent fields', async () => {
    const organizationId = await firstOrganizationId(s);
    const email = uniqueEmail();
    const res = await call(s, 'POST', '/users/register', { json: { email, firstName: 'Ada', lastName: 'Lovelace', organizationId } });
    expect(res.status).toBe(201);
    const p = Profile.parse(res.body);
    expect(p.uuid).toHaveLength(36);
    expect(p).toMatchObject({ email, firstName: 'Ada', lastName: 'Lovelace', organizationId, status: 'active' });
    // Every field of the User table is in the profile (unset ones may be null).
    for (const key of ['countryCode', 'address', 'address2', 'city', 'stateProv', 'postalCode', 'phone']) {
      expect(p, key).toHaveProperty(key);
    }
  });

  it('accepts application/json with a charset parameter', async () => {
    const organizationId = await firstOrganizationId(s);
    const res = await call(s, 'POST', '/users/register', {
      raw: JSON.stringify({ email: uniqueEmail(), firstName: 'C', lastName: 'S', organizationId }),
      contentType: 'application/json; charset=utf-8',
    });
    expect(res.status).toBe(201);
  });

  it('is idempotent per partner plus email: same uuid, record unchanged', async () => {
    const first = await registerLearner(s, { firstName: 'Original' });
    const again = await call(s, 'POST', '/users/register', {
      json: { email: first.email, firstName: 'Changed', lastName: 'Other', organizationId: first.organizationId },
    });
    expect(again.status).toBe(201);
    const p = Profile.parse(again.body);
    expect(p.uuid).toBe(first.uuid);
    expect(p.firstName).toBe('Original');
    expect(p.lastName).toBe(first.lastName);
    expect(p.updatedAt).toBe(first.updatedAt);
  });

  it('treats the e-mail case-insensitively for idempotency', async () => {
    const first = await registerLearner(s, { email: uniqueEmail('MiXeD') });
    const again = await call(s, 'POST', '/users/register', {
      json: { email: first.email.toUpperCase(), firstName: 'X', lastName: 'Y', organizationId: first.organizationId },
    });
    expect(again.status).toBe(201);
    expect(Profile.parse(again.body).uuid).toBe(first.uuid);
  });

  it('is per partner: the same e-mail at another partner is another learner', async () => {
    const other = await openSession(h, 1);
    const mine = await registerLearner(s);
    const theirs = await registerLearner(other, { email: mine.email });
    expect(theirs.uuid).not.toBe(mine.uuid);
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ['a bad e-mail', { email: 'not-an-email' }, 'email'],
    ['a missing firstName', { firstName: undefined }, 'firstName'],
    ['a missing lastName', { lastName: undefined }, 'lastName'],
    ['an unknown organizationId', { organizationId: 987654321 }, 'organizationId'],
  ];
  for (const [name, override, property] of invalid) {
    it(`rejects ${name} with 400 validation_failed naming ${property}`, async () => {
      const body = { email: uniqueEmail(), firstName: 'A', lastName: 'B', organizationId: await firstOrganizationId(s), ...override };
      const res = await call(s, 'POST', '/users/register', { json: body });
      expect(res.status).toBe(400);
      const err = ValidationError.parse(res.body);
      expect(err.violations.map((v) => v.propertyPath)).toContain(property);
    });
  }

  it('accepts the whole profile at registration, status "active" included', async () => {
    const res = await call(s, 'POST', '/users/register', {
      json: { email: uniqueEmail(), firstName: 'Ada', lastName: 'Lovelace', organizationId: 1, status: 'active', city: 'London', countryCode: 'GB' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'active', city: 'London', countryCode: 'GB' });
  });

  it('rejects malformed JSON with 400 hydra:Error', async () => {
    const res = await call(s, 'POST', '/users/register', { raw: '{"email": "a@example.com", ' });
    expect(res.status).toBe(400);
    HydraError.parse(res.body);
  });
});

describe('GET, PATCH, DELETE /users/{uuid}', () => {
  it('GET answers the profile', async () => {
    const p = await registerLearner(s);
    const res = await call(s, 'GET', `/users/${p.uuid}`);
    expect(res.status).toBe(200);
    expect(Profile.parse(res.body)).toMatchObject({ uuid: p.uuid, email: p.email, status: 'active' });
  });

  it('merge-PATCH changes only the sent fields, returns the profile, and converges on repeat', async () => {
    const p = await registerLearner(s);
    const patch = JSON.stringify({ city: 'Lyon', phone: '+33 1 23 45 67 89', countryCode: 'FR' });
    const first = await call(s, 'PATCH', `/users/${p.uuid}`, { raw: patch, contentType: MERGE });
    expect(first.status).toBe(200);
    const a = Profile.parse(first.body);
    expect(a).toMatchObject({ uuid: p.uuid, city: 'Lyon', countryCode: 'FR', firstName: p.firstName, email: p.email });
    const second = Profile.parse((await call(s, 'PATCH', `/users/${p.uuid}`, { raw: patch, contentType: MERGE })).body);
    const strip = (x: Profile) => ({ ...x, updatedAt: undefined });
    expect(strip(second)).toEqual(strip(a));
    expect(Profile.parse((await call(s, 'GET', `/users/${p.uuid}`)).body)).toMatchObject({ city: 'Lyon' });
  });

  it('merge-PATCH accepts a charset parameter on application/merge-patch+json', async () => {
    const p = await registerLearner(s);
    const res = await call(s, 'PATCH', `/users/${p.uuid}`, { raw: '{"city":"Turin"}', contentType: 'application/merge-patch+json; charset=utf-8' });
    expect(res.status).toBe(200);
    expect(Profile.parse(res.body).city).toBe('Turin');
  });

  it('PATCH ignores read-only fields (uuid, createdAt)', async () => {
    const p = await registerLearner(s);
    const res = await call(s, 'PATCH', `/users/${p.uuid}`, {
      raw: JSON.stringify({ uuid: '00000000-0000-4000-8000-000000000000', createdAt: '2001-01-01T00:00:00Z', city: 'Graz' }),
      contentType: MERGE,
    });
    expect(res.status).toBe(200);
    expect(Profile.parse(res.body)).toMatchObject({ uuid: p.uuid, createdAt: p.createdAt, city: 'Graz' });
  });

  it('PATCH with application/json is rejected with 415 hydra:Error and changes nothing', async () => {
    const p = await registerLearner(s);
    const res = await call(s, 'PATCH', `/users/${p.uuid}`, { json: { city: 'Bern' }, contentType: 'application/json' });
    expect(res.status).toBe(415);
    HydraError.parse(res.body);
    expect(Profile.parse((await call(s, 'GET', `/users/${p.uuid}`)).body).city ?? null).not.toBe('Bern');
  });

  it('PATCH with malformed JSON is 400 hydra:Error', async () => {
    const p = await registerLearner(s);
    const res = await call(s, 'PATCH', `/users/${p.uuid}`, { raw: '{"city":', contentType: MERGE });
    expect(res.status).toBe(400);
    HydraError.parse(res.body);
  });

  it('DELETE answers 204 with no body, then GET and DELETE are 404', async () => {
    const p = await registerLearner(s);
    const del = await call(s, 'DELETE', `/users/${p.uuid}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await call(s, 'GET', `/users/${p.uuid}`)).status).toBe(404);
    expect((await call(s, 'DELETE', `/users/${p.uuid}`)).status).toBe(404);
  });

  it('an unknown uuid is 404 hydra:Error on GET, PATCH and DELETE', async () => {
    const ghost = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
    for (const [method, opts] of [['GET', {}], ['PATCH', { raw: '{"city":"X"}', contentType: MERGE }], ['DELETE', {}]] as const) {
      const res = await call(s, method, `/users/${ghost}`, opts);
      expect(res.status, method).toBe(404);
      HydraError.parse(res.body);
    }
  });
});

describe('user status transitions', () => {
  it('deactivate: user-scoped calls are 403 about the user status; GET /users/{uuid} still works; reactivate restores', async () => {
    const p = await registerLearner(s);
    const video = moduleOfType(await readCatalog(h.origin), 'video');
    const off = await call(s, 'PATCH', `/users/${p.uuid}`, { raw: '{"status":"inactive"}', contentType: MERGE });
    expect(off.status).toBe(200);
    expect(Profile.parse(off.body).status).toBe('inactive');

    for (const path of [`/modules/${video}/content`, `/modules/${video}/refresh-url`, '/course-progresses', '/transcripts', '/transcript/pdf']) {
      const res = await call(s, 'GET', path, { userId: p.uuid });
      expect(res.status, path).toBe(403);
      expect(res.body, `${path} body is JSON`).toBeTypeOf('object');
      expect(res.text, path).toMatch(/inactive/i);
    }
    const complete = await call(s, 'POST', `/modules/${video}/complete`, { userId: p.uuid });
    expect(complete.status).toBe(403);
    expect(complete.text).toMatch(/inactive/i);

    const profile = await call(s, 'GET', `/users/${p.uuid}`);
    expect(profile.status).toBe(200);
    expect(Profile.parse(profile.body).status).toBe('inactive');

    const on = await call(s, 'PATCH', `/users/${p.uuid}`, { raw: '{"status":"active"}', contentType: MERGE });
    expect(Profile.parse(on.body).status).toBe('active');
    expect((await call(s, 'GET', `/modules/${video}/content`, { userId: p.uuid })).status).toBe(200);
  });

  it('deactivation keeps progress and transcripts: both are still there after reactivation', async () => {
    const p = await registerLearner(s);
    const video = moduleOfType(await readCatalog(h.origin), 'video');
    expect((await call(s, 'GET', `/modules/${video}/content`, { userId: p.uuid })).status).toBe(200);
    expect((await call(s, 'POST', `/modules/${video}/complete`, { userId: p.uuid })).status).toBe(202);
    const count = async (path: string) => Collection(z.unknown()).parse((await call(s, 'GET', path, { userId: p.uuid })).body)['hydra:totalItems'];
    const before = [await count('/course-progresses'), await count('/transcripts')];
    expect(before[0]).toBeGreaterThanOrEqual(1);
    expect(before[1]).toBeGreaterThanOrEqual(1);
    await call(s, 'PATCH', `/users/${p.uuid}`, { raw: '{"status":"inactive"}', contentType: MERGE });
    await call(s, 'PATCH', `/users/${p.uuid}`, { raw: '{"status":"active"}', contentType: MERGE });
    expect([await count('/course-progresses'), await count('/transcripts')]).toEqual(before);
  });

  it('an inactive learner can be erased (204), then is 404', async () => {
    const p = await registerLearner(s);
    await call(s, 'PATCH', `/users/${p.uuid}`, { raw: '{"status":"inactive"}', contentType: MERGE });
    expect((await call(s, 'DELETE', `/users/${p.uuid}`)).status).toBe(204);
    expect((await call(s, 'GET', `/users/${p.uuid}`)).status).toBe(404);
  });

  it('erase: 204, then the uuid is unknown everywhere (404) and the e-mail registers as a new learner', async () => {
    const p = await registerLearner(s);
    const video = moduleOfType(await readCatalog(h.origin), 'video');
    await call(s, 'GET', `/modules/${video}/content`, { userId: p.uuid });
    expect((await call(s, 'POST', `/modules/${video}/complete`, { userId: p.uuid })).status).toBe(202);
    expect((await call(s, 'DELETE', `/users/${p.uuid}`)).status).toBe(204);
    expect((await call(s, 'GET', `/users/${p.uuid}`)).status).toBe(404);
    expect((await call(s, 'GET', '/transcripts', { userId: p.uuid })).status).toBe(404);
    expect((await call(s, 'PATCH', `/users/${p.uuid}`, { raw: '{"status":"active"}', contentType: MERGE })).status).toBe(404);
    // Identifying data is removed, so the same e-mail is a fresh learner that does not inherit the old records.
    const again = await registerLearner(s, { email: p.email });
    expect(again.uuid).not.toBe(p.uuid);
    const t = await call(s, 'GET', '/transcripts', { userId: again.uuid });
    expect(Collection(z.unknown()).parse(t.body)['hydra:totalItems']).toBe(0);
  });
});

/**
 * Content URLs, completion and course progress over real HTTP (spec: ModuleContent, Course progress status,
 * Endpoints rules 7-10; emulator contract: signed content URLs stop working once expires_at has passed).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { z } from 'zod/v4';
import { advanceClock, call, control, openSession, readResult, resetHarness, startHarness } from '../../support/emulator-http.ts';
import type { Harness, Session } from '../../support/emulator-http.ts';
import { Collection, HydraError, ModuleContent, Progress } from '../../support/emulator-schemas.ts';
import { moduleOfType, readCatalog, registerLearner, smallestPublishedCourse } from '../../support/emulator-fixtures.ts';
import type { CatalogCourse } from '../../support/emulator-schemas.ts';

let h: Harness;
let s: Session;
let catalog: CatalogCourse[];
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await resetHarness(h);
  s = await openSession(h);
  catalog = await readCatalog(h.origin);
});

/** Emulator "now" at token issue, so no real clock is assumed. */
function issuedAt(token: string): number {
  return (decodeJwt(token).iat ?? 0) * 1000;
}

describe('GET /modules/{id}/content and /refresh-url', () => {
  for (const type of ['video', 'document', 'scorm', 'resource'] as const) {
    it(`answers a snake_case ModuleContent for a ${type} module`, async () => {
      const learner = await registerLearner(s);
      const id = moduleOfType(catalog, type);
      const res = await call(s, 'GET', `/modules/${id}/content`, { userId: learner.uuid });
      expect(res.status).toBe(200);
      const c = ModuleContent.parse(res.body);
      expect(c.module_id).toBe(id);
      expect(c.content_type).toBe(type);
      for (const camel of ['moduleId', 'contentType', 'contentUrl', 'expiresAt', 'durationSeconds', 'mimeType']) {
        expect(res.body, camel).not.toHaveProperty(camel);
      }
    });
  }

  it('expires_at is ISO 8601 UTC about 60 minutes after issue', async () => {
    const learner = await registerLearner(s);
    const res = await call(s, 'GET', `/modules/${moduleOfType(catalog, 'video')}/content`, { userId: learner.uuid });
    const c = ModuleContent.parse(res.body);
    expect(c.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|\+00:00)$/);
    const delta = (Date.parse(c.expires_at) - issuedAt(s.token)) / 1000;
    expect(delta).toBeGreaterThan(3600 - 120);
    expect(delta).toBeLessThan(3600 + 120);
  });

  it('content_url serves 200 without credentials, then 403 once the emulator clock passes expires_at', async () => {
    const learner = await registerLearner(s);
    const c = ModuleContent.parse((await call(s, 'GET', `/modules/${moduleOfType(catalog, 'document')}/content`, { userId: learner.uuid })).body);
    const before = await fetch(c.content_url);
    await before.arrayBuffer();
    expect(before.status).toBe(200);
    await advanceClock(h.origin, 3601);
    const after = await fetch(c.content_url);
    await after.arrayBuffer();
    expect(after.status).toBe(403);
  });

  it('content_url is signed: a tampered URL is refused', async () => {
    const learner = await registerLearner(s);
    const c = ModuleContent.parse((await call(s, 'GET', `/modules/${moduleOfType(catalog, 'video')}/content`, { userId: learner.uuid })).body);
    const url = new URL(c.content_url);
    const params = [...url.searchParams.keys()];
    expect(params.length, 'a signed URL carries its signature and expiry in the query').toBeGreaterThan(0);
    for (const key of params) {
      const bad = new URL(url);
      bad.searchParams.set(key, `${url.searchParams.get(key) ?? ''}0`);
      const res = await fetch(bad);
      await res.arrayBuffer();
      expect(res.status, `tampered ${key}`).toBe(403);
    }
  });

  it('refresh-url answers the same shape with a later expires_at and a working URL', async () => {
    const learner = await registerLearner(s);
    const id = moduleOfType(catalog, 'video');
    const first = ModuleContent.parse((await call(s, 'GET', `/modules/${id}/content`, { userId: learner.uuid })).body);
    await advanceClock(h.origin, 3550);
    const res = await call(s, 'GET', `/modules/${id}/refresh-url`, { userId: learner.uuid });
    expect(res.status).toBe(200);
    const next = ModuleContent.parse(res.body);
    expect(next.module_id).toBe(id);
    expect(next.content_type).toBe(first.content_type);
    expect(Date.parse(next.expires_at)).toBeGreaterThan(Date.parse(first.expires_at) + 3000_000);
    await advanceClock(h.origin, 100);
    expect((await readResult(await fetch(first.content_url))).status).toBe(403);
    expect((await readResult(await fetch(next.content_url))).status).toBe(200);
  });
});

describe('POST /modules/{id}/complete', () => {
  for (const type of ['video', 'document', 'resource'] as const) {
    it(`${type}: 202, and 202 again on repeat`, async () => {
      const learner = await registerLearner(s);
      const id = moduleOfType(catalog, type);
      await call(s, 'GET', `/modules/${id}/content`, { userId: learner.uuid });
      expect((await call(s, 'POST', `/modules/${id}/complete`, { userId: learner.uuid })).status).toBe(202);
      const snapshot = async () => [
        (await call(s, 'GET', '/transcripts', { userId: learner.uuid })).body,
        (await call(s, 'GET', '/course-progresses', { userId: learner.uuid })).body,
      ];
      const before = await snapshot();
      expect((await call(s, 'POST', `/modules/${id}/complete`, { userId: learner.uuid })).status).toBe(202);
      expect(await snapshot(), 'a repeat is a no-op').toEqual(before);
    });
  }

  it('a SCORM module is 409 hydra:Error', async () => {
    const learner = await registerLearner(s);
    const id = moduleOfType(catalog, 'scorm');
    await call(s, 'GET', `/modules/${id}/content`, { userId: learner.uuid });
    const res = await call(s, 'POST', `/modules/${id}/complete`, { userId: learner.uuid });
    expect(res.status).toBe(409);
    HydraError.parse(res.body);
  });

  it('an unknown module is 404', async () => {
    const learner = await registerLearner(s);
    expect((await call(s, 'POST', '/modules/987654321/complete', { userId: learner.uuid })).status).toBe(404);
  });
});

describe('course progress', () => {
  async function progresses(userId: string) {
    const res = await call(s, 'GET', '/course-progresses', { userId });
    expect(res.status).toBe(200);
    return Collection(Progress).parse(res.body);
  }

  it('no record before first content access; in_progress after it; readable by its @id', async () => {
    const learner = await registerLearner(s);
    expect((await progresses(learner.uuid))['hydra:totalItems']).toBe(0);
    const course = smallestPublishedCourse(catalog);
    const first = course.modules.find((m) => m.published);
    expect((await call(s, 'GET', `/modules/${first?.id}/content`, { userId: learner.uuid })).status).toBe(200);
    const list = await progresses(learner.uuid);
    expect(list['hydra:totalItems']).toBe(1);
    const record = list['hydra:member'][0];
    expect(record?.status).toBe('in_progress');
    expect(record?.startedAt).not.toBeNull();
    const one = await call(s, 'GET', record?.['@id'] ?? '', { userId: learner.uuid });
    expect(one.status).toBe(200);
    expect(Progress.parse(one.body).status).toBe('in_progress');
  });

  it('a second content access does not create a second record', async () => {
    const learner = await registerLearner(s);
    const id = moduleOfType(catalog, 'video');
    await call(s, 'GET', `/modules/${id}/content`, { userId: learner.uuid });
    await call(s, 'GET', `/modules/${id}/content`, { userId: learner.uuid });
    await call(s, 'GET', `/modules/${id}/refresh-url`, { userId: learner.uuid });
    expect((await progresses(learner.uuid))['hydra:totalItems']).toBe(1);
  });

  it('becomes completed only after every module of the course is completed (derived from the transcript)', async () => {
    const learner = await registerLearner(s);
    const course = smallestPublishedCourse(catalog);
    const modules = course.modules.filter((m) => m.published);
    for (const [i, m] of modules.entries()) {
      await call(s, 'GET', `/modules/${m.id}/content`, { userId: learner.uuid });
      if (m.contentType === 'scorm') {
        const r = await control(h.origin, 'POST', '/_emulator/scorm-completions', { env: 'sandbox', userUuid: learner.uuid, moduleId: m.id, score: 100 });
        expect(r.status, 'scorm-completions').toBeLessThan(300);
      } else {
        expect((await call(s, 'POST', `/modules/${m.id}/complete`, { userId: learner.uuid })).status).toBe(202);
      }
      const status = (await progresses(learner.uuid))['hydra:member'][0]?.status;
      expect(status, `after module ${i + 1} of ${modules.length}`).toBe(i + 1 < modules.length ? 'in_progress' : 'completed');
    }
    const done = (await progresses(learner.uuid))['hydra:member'][0];
    expect(done?.completedAt).not.toBeNull();
    expect(done?.completionPercent).toBe(100);
  });

  it('another learner\'s progress record is 404 by @id', async () => {
    const a = await registerLearner(s);
    const b = await registerLearner(s);
    await call(s, 'GET', `/modules/${moduleOfType(catalog, 'video')}/content`, { userId: a.uuid });
    const id = (await progresses(a.uuid))['hydra:member'][0]?.['@id'] ?? '';
    expect((await call(s, 'GET', id, { userId: b.uuid })).status).toBe(404);
  });

  it('progress and content are per learner: a fresh learner has no records', async () => {
    const a = await registerLearner(s);
    const b = await registerLearner(s);
    await call(s, 'GET', `/modules/${moduleOfType(catalog, 'video')}/content`, { userId: a.uuid });
    expect(Collection(z.unknown()).parse((await call(s, 'GET', '/course-progresses', { userId: b.uuid })).body)['hydra:totalItems']).toBe(0);
  });
});

/**
 * The errors table over real HTTP: X-User-ID rules on every user-scoped endpoint, partner isolation (404, never
 * 403) on every user route, unpublished content (404), unknown ids (404 hydra:Error).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { call, openSession, resetHarness, startHarness } from '../../support/emulator-http.ts';
import type { CallOptions, Harness, Session } from '../../support/emulator-http.ts';
import { Collection, CourseDetail, HydraError, Module } from '../../support/emulator-schemas.ts';
import type { CatalogCourse } from '../../support/emulator-schemas.ts';
import { hiddenModuleId, moduleOfType, readCatalog, registerLearner } from '../../support/emulator-fixtures.ts';

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

/** Every user-scoped endpoint of the spec table, with a visible video module. */
function userScoped(): Array<[string, string]> {
  const video = moduleOfType(catalog, 'video');
  return [
    ['GET', `/modules/${video}/content`],
    ['GET', `/modules/${video}/refresh-url`],
    ['POST', `/modules/${video}/complete`],
    ['GET', '/course-progresses'],
    ['GET', '/course-progresses/1'],
    ['GET', '/transcripts'],
    ['GET', '/transcripts/1'],
    ['GET', '/transcript/pdf'],
    ['GET', '/transcripts/1/certificate/pdf'],
  ];
}

describe('X-User-ID', () => {
  it('missing on any user-scoped endpoint: 400 whose text names the header', async () => {
    for (const [method, path] of userScoped()) {
      const res = await call(s, method, path);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.text.toLowerCase(), `${method} ${path}`).toContain('x-user-id');
    }
  });

  it('not a well-formed 36-character UUID: 400', async () => {
    const bad = ['abc', '3f2504e0-4f89-41d3-9a0c-0305e82c330', '3f2504e04f8941d39a0c0305e82c3301', '3f2504e0-4f89-41d3-9a0c-0305e82c330z'];
    for (const [method, path] of userScoped()) {
      for (const userId of bad) {
        const res = await call(s, method, path, { userId });
        expect(res.status, `${method} ${path} with ${userId}`).toBe(400);
      }
    }
  });

  it('well-formed but never registered: 404', async () => {
    for (const [method, path] of userScoped()) {
      const res = await call(s, method, path, { userId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });
});

describe('partner isolation: another partner\'s learner is 404, never 403', () => {
  it('on every X-User-ID route and every /users/{uuid} route', async () => {
    const other = await openSession(h, 1);
    const foreign = await registerLearner(other);
    for (const [method, path] of userScoped()) {
      const res = await call(s, method, path, { userId: foreign.uuid });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const routes: Array<[string, CallOptions]> = [
      ['GET', {}],
      ['PATCH', { raw: '{"city":"Nowhere"}', contentType: 'application/merge-patch+json' }],
      ['DELETE', {}],
    ];
    for (const [method, opts] of routes) {
      const res = await call(s, method, `/users/${foreign.uuid}`, opts);
      expect(res.status, `${method} /users/{uuid}`).toBe(404);
      HydraError.parse(res.body);
    }
    // Nothing happened to the other partner's learner.
    const still = await call(other, 'GET', `/users/${foreign.uuid}`);
    expect(still.status).toBe(200);
    expect(JSON.stringify(still.body)).not.toContain('Nowhere');
  });

  it('a deactivated foreign learner is still 404 (not the 403 of inactive users)', async () => {
    const other = await openSession(h, 1);
    const foreign = await registerLearner(other);
    await call(other, 'PATCH', `/users/${foreign.uuid}`, { raw: '{"status":"inactive"}', contentType: 'application/merge-patch+json' });
    const res = await call(s, 'GET', '/transcripts', { userId: foreign.uuid });
    expect(res.status).toBe(404);
  });

  it('a learner of the same partner in the other environment is 404', async () => {
    const learner = await registerLearner(s);
    const production = await openSession(h, 0, 'production');
    expect((await call(production, 'GET', `/users/${learner.uuid}`)).status).toBe(404);
    expect((await call(production, 'GET', '/transcripts', { userId: learner.uuid })).status).toBe(404);
  });
});

describe('only published content is visible', () => {
  it('a module reachable only through an unpublished course is 404 on /modules/{id}, /content, /refresh-url, /complete', async () => {
    const hidden = hiddenModuleId(catalog);
    const learner = await registerLearner(s);
    const detail = await call(s, 'GET', `/modules/${hidden}`);
    expect(detail.status).toBe(404);
    HydraError.parse(detail.body);
    for (const [method, path] of [['GET', 'content'], ['GET', 'refresh-url'], ['POST', 'complete']] as const) {
      const res = await call(s, method, `/modules/${hidden}/${path}`, { userId: learner.uuid });
      expect(res.status, path).toBe(404);
    }
  });

  it('the hidden module and unpublished courses are absent from the lists', async () => {
    const hidden = hiddenModuleId(catalog);
    const modules = Collection(Module).parse((await call(s, 'GET', '/modules?itemsPerPage=100')).body);
    expect(modules['hydra:member'].map((m) => m.id)).not.toContain(hidden);
    const courses = Collection(z.looseObject({ id: z.union([z.number(), z.string()]) })).parse((await call(s, 'GET', '/courses?itemsPerPage=100')).body);
    const listed = courses['hydra:member'].map((c) => String(c.id));
    for (const c of catalog) {
      expect(listed.includes(String(c.id)), `course ${c.id} published=${c.published}`).toBe(c.published);
    }
  });

  it('an unpublished course is 404 by id; a published one answers its detail with modules', async () => {
    const unpublished = catalog.find((c) => !c.published);
    const published = catalog.find((c) => c.published);
    expect(unpublished, 'seed has an unpublished course').toBeDefined();
    expect((await call(s, 'GET', `/courses/${unpublished?.id}`)).status).toBe(404);
    const ok = await call(s, 'GET', `/courses/${published?.id}`);
    expect(ok.status).toBe(200);
    CourseDetail.parse(ok.body);
  });
});

describe('unknown ids', () => {
  it('are 404 hydra:Error on every catalog detail route', async () => {
    for (const path of ['/organizations/987654321', '/categories/987654321', '/courses/987654321', '/modules/987654321']) {
      const res = await call(s, 'GET', path);
      expect(res.status, path).toBe(404);
      HydraError.parse(res.body);
    }
  });

  it('an unknown module is 404 for content', async () => {
    const learner = await registerLearner(s);
    expect((await call(s, 'GET', '/modules/987654321/content', { userId: learner.uuid })).status).toBe(404);
  });
});

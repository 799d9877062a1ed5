/**
 * Catalog and health through the client: organizations, categories, courses (detail with modules), modules
 * (list, get, sync), and ping (API key only).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../core/index.ts';
import type { PartnerLearningClient } from '../../../core/types/client-api.ts';
import type { Module } from '../../../core/types/records.ts';
import { startInProcess } from '../../support/core-harness.ts';
import type { Harness } from '../../support/core-harness.ts';
import { apiRequests, tokenRequests } from '../../support/core-control.ts';
import { pickCatalog } from '../../support/core-fixtures.ts';

const ALL = { max: 10_000 };

function expectPassingScore(module: Module): void {
  if (module.passingScore !== null) {
    expect(Number.isInteger(module.passingScore)).toBe(true);
    expect(module.passingScore).toBeGreaterThanOrEqual(0);
    expect(module.passingScore).toBeLessThanOrEqual(100);
  }
}

describe('catalog through the client', () => {
  let h: Harness;
  let client: PartnerLearningClient;

  beforeEach(async () => {
    h = await startInProcess();
    client = h.client();
  });

  it('ping answers healthy with the API key only: no token is requested', async () => {
    const wrongSecret = h.client({ clientSecret: 'not-the-secret-at-all-but-long-enough-to-look-real' });
    const health = await wrongSecret.ping();
    expect(health.status).toBe('healthy');
    const log = await h.control.requests();
    expect(tokenRequests(log)).toHaveLength(0);
    expect(apiRequests(log).map((r) => [r.method, r.status])).toEqual([['GET', 200]]);
  });

  it('lists and gets organizations', async () => {
    const organizations = await client.organizations.list().toArray(ALL);
    expect(organizations.length).toBeGreaterThan(0);
    const first = organizations[0]!;
    expect(Number.isInteger(first.id)).toBe(true);
    expect((await client.organizations.get(first.id)).id).toBe(first.id);
  });

  it('lists, gets and syncs categories', async () => {
    const categories = await client.categories.list().toArray(ALL);
    expect(categories.length).toBeGreaterThan(0);
    const first = categories[0]!;
    expect((await client.categories.get(first.id)).id).toBe(first.id);
    const synced = [];
    for await (const category of client.categories.sync()) synced.push(category.id);
    expect(synced.sort()).toEqual(categories.map((c) => c.id).sort());
  });

  it('lists only published courses, and a course detail includes its modules', async () => {
    const picks = await pickCatalog(h.control);
    const courses = await client.courses.list().toArray(ALL);
    expect(courses.map((c) => c.id).sort()).toEqual(picks.courses.map((c) => c.id).sort());
    const expected = picks.courses[0]!;
    const detail = await client.courses.get(expected.id);
    expect(detail.id).toBe(expected.id);
    expect(Array.isArray(detail.modules)).toBe(true);
    expect(detail.modules.map((m) => m.id).sort()).toEqual(
      expected.modules.filter((m) => m.published !== false).map((m) => m.id).sort(),
    );
    detail.modules.forEach(expectPassingScore);
    const synced = [];
    for await (const course of client.courses.sync()) synced.push(course.id);
    expect(synced.sort()).toEqual(courses.map((c) => c.id).sort());
  });

  it('lists, gets and syncs modules with passingScore; a module only in an unpublished course is 404', async () => {
    const picks = await pickCatalog(h.control);
    const modules = await client.modules.list().toArray(ALL);
    modules.forEach(expectPassingScore);
    expect(modules.some((m) => m.passingScore === null)).toBe(true);
    expect(modules.some((m) => m.passingScore !== null)).toBe(true);
    const ids = modules.map((m) => m.id);
    expect(ids).toContain(picks.completable.id);
    expect(ids).toContain(picks.scorm.id);
    const one = await client.modules.get(picks.scorm.id);
    expect(one.id).toBe(picks.scorm.id);
    expect(one.passingScore).toBe(picks.scorm.passingScore);
    if (picks.hidden) {
      expect(ids).not.toContain(picks.hidden.id);
      await expect(client.modules.get(picks.hidden.id)).rejects.toBeInstanceOf(NotFoundError);
    }
    const synced = [];
    for await (const module of client.modules.sync()) synced.push(module.id);
    expect(synced.sort()).toEqual([...ids].sort());
  });

  it('an unknown id is a NotFoundError for every catalog collection', async () => {
    await expect(client.organizations.get(987_654)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.categories.get(987_654)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.courses.get(987_654)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.modules.get(987_654)).rejects.toBeInstanceOf(NotFoundError);
  });
});

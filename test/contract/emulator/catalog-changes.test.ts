/**
 * Catalog changes through the control interface (`PATCH /_emulator/catalog/{courses|modules}/{id}`), seen by a
 * delta sync (`updatedAt[after]`) over real HTTP, and refused whole when the body is wrong.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { advanceClock, call, control, openSession, resetHarness, startHarness } from '../../support/emulator-http.ts';
import type { Harness, Session } from '../../support/emulator-http.ts';
import { readCatalog } from '../../support/emulator-fixtures.ts';

let h: Harness;
let s: Session;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await resetHarness(h);
  s = await openSession(h, 0, 'sandbox', 'ro');
});

interface Item { id: number; title: string; updatedAt: string }
const members = async (path: string): Promise<Item[]> => {
  const res = await call(s, 'GET', path);
  expect(res.status, path).toBe(200);
  return (res.body as { 'hydra:member': Item[] })['hydra:member'];
};
const since = (at: Date) => `updatedAt%5Bafter%5D=${encodeURIComponent(at.toISOString())}`;
/** The emulator clock runs on real time over a socket: a change made between two readings lies between them. */
const clockNow = async () => Date.parse(((await control(h.origin, 'GET', '/_emulator/clock')).body as { now: string }).now);
const expectBetween = (iso: string | undefined, from: Date, to: number) => {
  expect(Date.parse(iso ?? '')).toBeGreaterThanOrEqual(from.getTime());
  expect(Date.parse(iso ?? '')).toBeLessThanOrEqual(to);
};

describe('PATCH /_emulator/catalog/courses/{id}', () => {
  it('unpublish, republish and retitle a course: delta sync sees each change at the emulator clock', async () => {
    const catalog = await readCatalog(h.origin);
    const course = catalog.find((c) => c.published && c.modules.some((m) => m.published));
    if (!course) throw new Error('seed has no published course with modules');
    const mark = await advanceClock(h.origin, 60);
    expect(await members(`/courses?${since(mark)}`)).toEqual([]);

    const hidden = await control(h.origin, 'PATCH', `/_emulator/catalog/courses/${course.id}?env=sandbox`, { published: false });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toEqual({ ...course, published: false, modules: course.modules.map((m) => ({ ...m, published: false })) });
    expect((await call(s, 'GET', `/courses/${course.id}`)).status).toBe(404);
    expect((await members('/courses?itemsPerPage=100')).map((c) => c.id)).not.toContain(course.id);

    const later = await advanceClock(h.origin, 600);
    const shown = await control(h.origin, 'PATCH', `/_emulator/catalog/courses/${course.id}`, { published: true, title: 'Workplace Safety 2027' });
    const after = await clockNow();
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ ...course, title: 'Workplace Safety 2027' });
    const changed = await members(`/courses?${since(later)}`);
    expect(changed.map((c) => [c.id, c.title])).toEqual([[course.id, 'Workplace Safety 2027']]);
    expectBetween(changed[0]?.updatedAt, later, after);
    // The course's modules came back into /modules with it, so a module delta sync picks them up too.
    const modules = await members(`/modules?${since(later)}`);
    expect(modules.map((m) => m.id).sort()).toEqual(course.modules.filter((m) => m.published).map((m) => m.id).sort());
    const detail = await call(s, 'GET', `/courses/${course.id}`);
    expect((detail.body as Item).title).toBe('Workplace Safety 2027');
  });

  it('publishes an unpublished course: it appears in /courses and in a delta sync', async () => {
    const catalog = await readCatalog(h.origin);
    const hiddenCourse = catalog.find((c) => !c.published);
    if (!hiddenCourse) throw new Error('seed has no unpublished course');
    expect((await call(s, 'GET', `/courses/${hiddenCourse.id}`)).status).toBe(404);
    const mark = await advanceClock(h.origin, 5);
    expect((await control(h.origin, 'PATCH', `/_emulator/catalog/courses/${hiddenCourse.id}?env=sandbox`, { published: true })).status).toBe(200);
    expect((await members(`/courses?${since(mark)}`)).map((c) => c.id)).toEqual([hiddenCourse.id]);
    expect((await call(s, 'GET', `/courses/${hiddenCourse.id}`)).status).toBe(200);
    // The other environment keeps its own copy.
    const prod = await openSession(h, 0, 'production', 'ro');
    expect((await call(prod, 'GET', `/courses/${hiddenCourse.id}`)).status).toBe(404);
  });
});

describe('PATCH /_emulator/catalog/modules/{id}', () => {
  it('retitles and unpublishes a module: delta sync of /modules sees the retitle; unpublished it is gone', async () => {
    const catalog = await readCatalog(h.origin);
    const course = catalog.find((c) => c.published && c.modules.filter((m) => m.published).length > 1);
    const module = course?.modules.find((m) => m.published);
    if (!module) throw new Error('seed has no visible module');
    const mark = await advanceClock(h.origin, 30);
    const retitled = await control(h.origin, 'PATCH', `/_emulator/catalog/modules/${module.id}?env=sandbox`, { title: 'Renamed module' });
    const after = await clockNow();
    expect(retitled.body).toEqual({ ...module, title: 'Renamed module' });
    const changed = await members(`/modules?${since(mark)}`);
    expect(changed.map((m) => [m.id, m.title])).toEqual([[module.id, 'Renamed module']]);
    expectBetween(changed[0]?.updatedAt, mark, after);
    expect((await control(h.origin, 'PATCH', `/_emulator/catalog/modules/${module.id}`, { published: false })).body).toMatchObject({ published: false });
    expect((await call(s, 'GET', `/modules/${module.id}`)).status).toBe(404);
    const detail = (await call(s, 'GET', `/courses/${course?.id}`)).body as { modules: { id: number }[] };
    expect(detail.modules.map((m) => m.id)).not.toContain(module.id);
  });
});

describe('bad catalog changes are refused whole', () => {
  it('unknown fields, wrong types, an empty change, a bad env or id: 400 {error}; unknown id: 404; nothing changed', async () => {
    const before = await readCatalog(h.origin);
    const stampsBefore = (await members('/modules?itemsPerPage=100')).map((m) => m.updatedAt);
    const cases: [string, unknown, number, RegExp][] = [
      ['/courses/1', { published: false, price: 3 }, 400, /unknown field\(s\) "price"/],
      ['/courses/1', { published: 'no' }, 400, /published must be a boolean/],
      ['/courses/1', { title: 7 }, 400, /title must be a string/],
      ['/courses/1', { title: '   ' }, 400, /title must have 1 to 255 characters/],
      ['/courses/1', { title: 'x'.repeat(256) }, 400, /title must have 1 to 255 characters/],
      ['/courses/1', { title: 'bad\u0000title' }, 400, /control characters/],
      ['/modules/1', { published: false, title: null }, 400, /title must be a string/],
      ['/modules/1', {}, 400, /nothing to change/],
      ['/modules/1', [true], 400, /JSON object/],
      ['/courses/abc', { published: false }, 400, /positive integer/],
      ['/courses/1?env=staging', { published: false }, 400, /env must be/],
      ['/courses/999', { published: false }, 404, /unknown course 999 in sandbox/],
      ['/modules/999?env=production', { published: false }, 404, /unknown module 999 in production/],
    ];
    for (const [path, body, status, message] of cases) {
      const res = await control(h.origin, 'PATCH', `/_emulator/catalog${path}`, body);
      expect(res.status, path + JSON.stringify(body)).toBe(status);
      expect((res.body as { error: string }).error, path).toMatch(message);
    }
    const malformed = await fetch(`${h.origin}/_emulator/catalog/courses/1`, { method: 'PATCH', body: '{"published":' });
    expect(malformed.status).toBe(400);
    expect(await readCatalog(h.origin)).toEqual(before);
    expect((await members('/modules?itemsPerPage=100')).map((m) => m.updatedAt)).toEqual(stampsBefore);
  });
});

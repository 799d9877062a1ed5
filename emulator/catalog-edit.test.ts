import { describe, expect, it } from 'vitest';
import { parseCatalogChange } from './catalog-edit.ts';
import { testBed } from '../test/support/emulator-testbed.ts';

describe('catalog changes (in-process API)', () => {
  it('patchCourse and patchModule change the record and move updatedAt to the emulator clock', async () => {
    const t = testBed();
    t.clock.ms += 60_000;
    const now = new Date(t.clock.ms).toISOString();
    expect(t.emulator.patchCourse(1, { title: 'Safety 2027' })).toMatchObject({ id: 1, title: 'Safety 2027', published: true });
    const course = (await (await t.api('/courses/1')).json()) as { title: string; updatedAt: string; modules: { updatedAt: string }[] };
    expect([course.title, course.updatedAt]).toEqual(['Safety 2027', now]);
    expect(course.modules.every((m) => m.updatedAt < now), 'a retitle leaves the modules alone').toBe(true);

    expect(t.emulator.patchModule(2, { published: false }, 'sandbox')).toEqual({ id: 2, title: 'Safety handbook', contentType: 'document', passingScore: null, published: false });
    expect((await t.api('/modules/2')).status).toBe(404);
    expect(t.emulator.patchModule(2, { published: true }).published).toBe(true);
    const module = (await (await t.api('/modules/2')).json()) as { updatedAt: string };
    expect(module.updatedAt).toBe(now);
  });

  it('publishing a course moves its modules too, so they reach a /modules delta sync', async () => {
    const t = testBed();
    t.clock.ms += 1000;
    const mark = new Date(t.clock.ms).toISOString();
    t.emulator.patchCourse(4, { published: true }, 'production');
    const env = t.emulator.partners('http://emulator.test')[0]?.environments.production;
    const token = await t.token(null, 0, env);
    const res = await t.send(`${env?.baseUrl}/modules?updatedAt[after]=${mark}`, { headers: { 'x-api-key': env?.apiKey ?? '', authorization: `Bearer ${token}` } });
    const ids = ((await res.json()) as { 'hydra:member': { id: number }[] })['hydra:member'].map((m) => m.id);
    expect(ids).toEqual([10, 11]);
    expect((await t.api('/courses/4')).status, 'sandbox keeps its own copy').toBe(404);
  });

  it('throws typed errors and changes nothing for a bad change, env or id', async () => {
    const t = testBed();
    const before = await (await t.send('/_emulator/catalog')).text();
    expect(() => t.emulator.patchCourse(1, { published: 'yes' } as never)).toThrow(new TypeError('patchCourse: published must be a boolean, got "yes"'));
    expect(() => t.emulator.patchModule(1, { title: 'x', extra: 1 } as never)).toThrow(TypeError);
    expect(() => t.emulator.patchCourse(1, { published: false }, 'staging' as never)).toThrow(TypeError);
    expect(() => t.emulator.patchCourse(99, { published: false })).toThrow(new RangeError('patchCourse: unknown course 99 in sandbox'));
    expect(() => t.emulator.patchModule(1.5, { published: false })).toThrow(RangeError);
    expect(await (await t.send('/_emulator/catalog')).text()).toBe(before);
  });

  it('parseCatalogChange names what to fix', () => {
    expect(parseCatalogChange({ published: false, title: 'New' })).toEqual({ published: false, title: 'New' });
    expect(parseCatalogChange(null)).toMatch(/JSON object/);
    expect(parseCatalogChange({ Published: true })).toBe('unknown field(s) "Published": only "published" and "title" can be changed');
    expect(parseCatalogChange({ title: 'tab\there' })).toMatch(/control characters/);
  });
});

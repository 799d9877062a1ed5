/**
 * Catalog endpoints and collection mechanics over real HTTP: Hydra envelope, page/itemsPerPage (default 30,
 * max 100), hydra:view links, updatedAt date filters (spec: Endpoints rule 5; emulator contract: collections).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { call, openSession, resetHarness, startHarness } from '../../support/emulator-http.ts';
import type { Harness, Session } from '../../support/emulator-http.ts';
import { CatalogItem, Collection, CourseDetail, HydraError, Module, Organization } from '../../support/emulator-schemas.ts';
import { collectAll, readCatalog } from '../../support/emulator-fixtures.ts';

let h: Harness;
let s: Session;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await resetHarness(h);
  s = await openSession(h, 0, 'sandbox', 'ro');
});

const collections = ['/categories', '/courses', '/modules'] as const;
const Item = z.looseObject({ '@id': z.string(), updatedAt: z.string() });

describe('catalog endpoints', () => {
  it('GET /organizations and /organizations/{id}', async () => {
    const list = Collection(Organization).parse((await call(s, 'GET', '/organizations')).body);
    const first = list['hydra:member'][0];
    expect(first).toBeDefined();
    const one = await call(s, 'GET', `/organizations/${first?.id}`);
    expect(one.status).toBe(200);
    expect(Organization.parse(one.body).id).toBe(first?.id);
  });

  it('GET /categories and /categories/{id}', async () => {
    const list = Collection(CatalogItem).parse((await call(s, 'GET', '/categories')).body);
    const first = list['hydra:member'][0];
    expect(first).toBeDefined();
    const one = await call(s, 'GET', `/categories/${first?.id}`);
    expect(one.status).toBe(200);
    expect(CatalogItem.parse(one.body).id).toBe(first?.id);
  });

  it('GET /courses/{id}: detail includes modules with passingScore, matching the catalog', async () => {
    const catalog = await readCatalog(h.origin);
    const list = Collection(CatalogItem).parse((await call(s, 'GET', '/courses?itemsPerPage=100')).body);
    expect(list['hydra:member'].length).toBeGreaterThan(0);
    for (const c of list['hydra:member']) {
      const res = await call(s, 'GET', `/courses/${c.id}`);
      expect(res.status).toBe(200);
      const detail = CourseDetail.parse(res.body);
      const seeded = catalog.find((x) => String(x.id) === String(c.id));
      const visible = seeded?.modules.filter((m) => m.published) ?? [];
      expect(detail.modules.map((m) => m.id).sort()).toEqual(visible.map((m) => m.id).sort());
      for (const m of detail.modules) expect(m.passingScore).toBe(visible.find((v) => v.id === m.id)?.passingScore);
    }
  });

  it('GET /modules and /modules/{id}: passingScore integer 0..100 or null, both kinds present', async () => {
    const all = (await collectAll(s, '/modules?itemsPerPage=100')).members.map((m) => Module.parse(m));
    expect(all.some((m) => m.passingScore === null)).toBe(true);
    expect(all.some((m) => m.passingScore !== null)).toBe(true);
    const first = all[0];
    const one = await call(s, 'GET', `/modules/${first?.id}`);
    expect(one.status).toBe(200);
    expect(Module.parse(one.body)).toMatchObject({ id: first?.id, passingScore: first?.passingScore });
  });
});

describe('collections', () => {
  for (const path of collections) {
    it(`${path}: default page size 30 and hydra:view with first and last`, async () => {
      const page = Collection(Item).parse((await call(s, 'GET', path)).body);
      const total = page['hydra:totalItems'];
      expect(page['hydra:member']).toHaveLength(Math.min(30, total));
      expect(page['@id']).toContain(path);
      if (total > 30) {
        expect(page['hydra:view']?.['hydra:next']).toBeDefined();
        expect(page['hydra:view']?.['hydra:last']).toBeDefined();
      }
    });

    it(`${path}: itemsPerPage=2 pages visit every item exactly once; next absent on the last page`, async () => {
      const full = Collection(Item).parse((await call(s, 'GET', `${path}?itemsPerPage=100`)).body);
      const total = full['hydra:totalItems'];
      expect(total, 'need more than one page of 2').toBeGreaterThan(2);
      const walked = await collectAll(s, `${path}?itemsPerPage=2`);
      expect(walked.pages).toBe(Math.ceil(total / 2));
      const ids = walked.members.map((m) => Item.parse(m)['@id']);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(full['hydra:member'].map((m) => m['@id']).sort());
      const first = Collection(Item).parse((await call(s, 'GET', `${path}?itemsPerPage=2`)).body);
      expect(first['hydra:view']).toMatchObject({ '@type': 'hydra:PartialCollectionView' });
      expect(first['hydra:view']?.['hydra:first']).toBeDefined();
      const lastLink = first['hydra:view']?.['hydra:last'] ?? '';
      expect(lastLink.startsWith('/'), 'links are origin-relative paths').toBe(true);
      const last = Collection(Item).parse((await call(s, 'GET', lastLink)).body);
      expect(last['hydra:view']?.['hydra:next']).toBeUndefined();
      expect(last['hydra:member'].length).toBe(total - 2 * (Math.ceil(total / 2) - 1));
    });

    it(`${path}: page=2 holds the items after page 1`, async () => {
      const full = Collection(Item).parse((await call(s, 'GET', `${path}?itemsPerPage=100`)).body)['hydra:member'];
      const p2 = Collection(Item).parse((await call(s, 'GET', `${path}?itemsPerPage=2&page=2`)).body)['hydra:member'];
      expect(p2.map((m) => m['@id'])).toEqual(full.slice(2, 4).map((m) => m['@id']));
    });

    it(`${path}: itemsPerPage above 100 is clamped to 100`, async () => {
      const page = Collection(Item).parse((await call(s, 'GET', `${path}?itemsPerPage=1000`)).body);
      expect(page['hydra:member']).toHaveLength(Math.min(100, page['hydra:totalItems']));
    });

    it(`${path}: updatedAt[after] is inclusive, strictly_after exclusive, before/strictly_before mirror them`, async () => {
      const all = (await collectAll(s, `${path}?itemsPerPage=100`)).members.map((m) => Item.parse(m));
      const times = [...new Set(all.map((m) => Date.parse(m.updatedAt)))].sort((a, b) => a - b);
      const pivot = times[Math.floor(times.length / 2)] ?? 0;
      const bound = all.find((m) => Date.parse(m.updatedAt) === pivot)?.updatedAt ?? '';
      const cases: Array<[string, (t: number) => boolean]> = [
        ['after', (t) => t >= pivot],
        ['strictly_after', (t) => t > pivot],
        ['before', (t) => t <= pivot],
        ['strictly_before', (t) => t < pivot],
      ];
      for (const [op, keep] of cases) {
        const q = new URLSearchParams({ [`updatedAt[${op}]`]: bound, itemsPerPage: '100' });
        const got = (await collectAll(s, `${path}?${q.toString()}`)).members.map((m) => Item.parse(m)['@id']).sort();
        const want = all.filter((m) => keep(Date.parse(m.updatedAt))).map((m) => m['@id']).sort();
        expect(got, `updatedAt[${op}]=${bound}`).toEqual(want);
      }
      const after = (await collectAll(s, `${path}?${new URLSearchParams({ 'updatedAt[after]': bound }).toString()}`)).members;
      expect(after.map((m) => Item.parse(m).updatedAt), 'the item at the bound is included').toContain(bound);
    });

    it(`${path}: a bad date in updatedAt[after] is 400`, async () => {
      const res = await call(s, 'GET', `${path}?${new URLSearchParams({ 'updatedAt[after]': 'not-a-date' }).toString()}`);
      expect(res.status).toBe(400);
      HydraError.parse(res.body);
    });
  }

  it('the envelope has exactly the contract\'s keys, on the first, a middle and the last page', async () => {
    const total = Collection(Item).parse((await call(s, 'GET', '/modules?itemsPerPage=100')).body)['hydra:totalItems'];
    const pages = Math.ceil(total / 2);
    expect(pages, 'need at least three pages of 2').toBeGreaterThanOrEqual(3);
    for (const page of [1, 2, pages]) {
      const body = (await call(s, 'GET', `/modules?itemsPerPage=2&page=${page}`)).body as Record<string, unknown>;
      expect(Object.keys(body).sort(), `page ${page}`).toEqual(['@context', '@id', '@type', 'hydra:member', 'hydra:totalItems', 'hydra:view']);
      const view = Object.keys(body['hydra:view'] as object).sort();
      const want = ['@id', '@type', 'hydra:first', 'hydra:last', ...(page < pages ? ['hydra:next'] : [])].sort();
      expect(view, `page ${page}`).toEqual(want);
    }
  });

  it('an offset whose + was not percent-encoded (so it arrives as a space) still filters', async () => {
    const all = Collection(Item).parse((await call(s, 'GET', '/modules?itemsPerPage=100')).body)['hydra:member'];
    const bound = all[0]?.updatedAt ?? '';
    const shifted = new Date(Date.parse(bound) + 3_600_000).toISOString().replace('Z', '+01:00');
    const raw = await call(s, 'GET', `/modules?itemsPerPage=100&updatedAt[after]=${shifted}`);
    expect(raw.status).toBe(200);
    const encoded = await call(s, 'GET', `/modules?itemsPerPage=100&updatedAt[after]=${encodeURIComponent(shifted)}`);
    expect(Collection(Item).parse(raw.body)['hydra:member']).toEqual(Collection(Item).parse(encoded.body)['hydra:member']);
    expect(Collection(Item).parse(raw.body)['hydra:member'].map((m) => m.updatedAt)).toContain(bound);
  });

  it('a bound far in the future gives an empty collection, one in the past the whole one', async () => {
    const total = Collection(Item).parse((await call(s, 'GET', '/modules')).body)['hydra:totalItems'];
    const future = Collection(Item).parse((await call(s, 'GET', `/modules?${new URLSearchParams({ 'updatedAt[after]': '2999-01-01T00:00:00Z' }).toString()}`)).body);
    expect(future['hydra:totalItems']).toBe(0);
    const past = Collection(Item).parse((await call(s, 'GET', `/modules?${new URLSearchParams({ 'updatedAt[after]': '1970-01-01T00:00:00Z' }).toString()}`)).body);
    expect(past['hydra:totalItems']).toBe(total);
  });
});

import { describe, expect, it } from 'vitest';
import { collectionResponse, parseIsoDate } from './collection.ts';

interface Item {
  id: number;
  updatedAt: number;
}
const base = Date.parse('2026-01-01T00:00:00.000Z');
const items: Item[] = Array.from({ length: 7 }, (_, i) => ({ id: i + 1, updatedAt: base + (7 - i) * 1000 }));
const spec = { type: 'Thing', env: 'sandbox' as const, id: (x: Item) => x.id, updatedAt: (x: Item) => x.updatedAt, serialize: (x: Item) => ({ id: x.id }) };
const get = async (query: string) => {
  const res = collectionResponse(new URL(`http://e.test/sandbox/v1/things${query}`), items, spec);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { 'hydra:member': { id: number }[]; 'hydra:view': Record<string, string> } };
};

describe('collections', () => {
  it('pages with Hydra links that keep the other parameters', async () => {
    const { body } = await get('?itemsPerPage=3&page=2&order[id]=asc');
    expect(body['hydra:member'].map((x) => x.id)).toEqual([4, 5, 6]);
    expect(body['hydra:totalItems']).toBe(7);
    expect(body['@id']).toBe('/sandbox/v1/things');
    expect(body['hydra:view']).toEqual({
      '@id': '/sandbox/v1/things?itemsPerPage=3&page=2&order[id]=asc',
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': '/sandbox/v1/things?itemsPerPage=3&page=1&order[id]=asc',
      'hydra:last': '/sandbox/v1/things?itemsPerPage=3&page=3&order[id]=asc',
      'hydra:next': '/sandbox/v1/things?itemsPerPage=3&page=3&order[id]=asc',
    });
    const last = await get('?itemsPerPage=3&page=3');
    expect(last.body['hydra:view']['hydra:next']).toBeUndefined();
    expect(last.body['hydra:member'].map((x) => x.id)).toEqual([7]);
  });

  it('defaults to 30 per page, clamps at 100 and rejects page 0 or non-integers', async () => {
    expect((await get('')).body['hydra:member']).toHaveLength(7);
    const many = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, updatedAt: base }));
    const res = collectionResponse(new URL('http://e.test/x?itemsPerPage=500'), many, spec);
    expect(((await res.json()) as { 'hydra:member': unknown[] })['hydra:member']).toHaveLength(100);
    expect((await get('?page=0')).status).toBe(400);
    expect((await get('?page=abc')).status).toBe(400);
    expect((await get('?itemsPerPage=1.5')).status).toBe(400);
  });

  it('filters updatedAt inclusively and strictly, and rejects a bad date', async () => {
    const at = new Date(base + 4000).toISOString();
    const ids = async (q: string) => (await get(q)).body['hydra:member'].map((x) => x.id);
    expect(await ids(`?updatedAt[after]=${at}`)).toEqual([1, 2, 3, 4]);
    expect(await ids(`?updatedAt[strictly_after]=${at}`)).toEqual([1, 2, 3]);
    expect(await ids(`?updatedAt%5Bbefore%5D=${encodeURIComponent(at)}`)).toEqual([4, 5, 6, 7]);
    expect(await ids(`?updatedAt[strictly_before]=${at}`)).toEqual([5, 6, 7]);
    const bad = await get('?updatedAt[after]=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body['@type']).toBe('hydra:Error');
  });

  it('orders by updatedAt and id', async () => {
    const ids = async (q: string) => (await get(q)).body['hydra:member'].map((x) => x.id);
    expect(await ids('?order[updatedAt]=asc')).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(await ids('?order[id]=desc')).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(await ids('?order[updatedAt]=desc')).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('parses ISO 8601 variants as UTC', () => {
    expect(parseIsoDate('2026-01-01')).toBe(base);
    expect(parseIsoDate('2026-01-01T00:00:00')).toBe(base);
    expect(parseIsoDate('2026-01-01T01:00:00+01:00')).toBe(base);
    expect(parseIsoDate('2026-01-01T00:00:00.123456Z')).toBe(base + 123);
    expect(parseIsoDate('01/01/2026')).toBeNull();
  });

  it('reads a space before the offset as the `+` an unencoded query string turned into it', async () => {
    expect(parseIsoDate('2026-01-01T01:00:00 01:00')).toBe(base);
    expect(parseIsoDate('2026-01-01T01:00:00.000 0100')).toBe(base);
    const ids = (await get(`?updatedAt[after]=${new Date(base + 4000).toISOString().replace('Z', '+00:00')}`)).body['hydra:member'].map((x) => x.id);
    expect(ids).toEqual([1, 2, 3, 4]);
  });
});

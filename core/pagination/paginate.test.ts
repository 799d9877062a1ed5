import { describe, it, expect } from 'vitest';
import { ApplicationError, ValidationError } from '../errors/index.ts';
import { fakeTransport, hydraPage, LEARNER } from '../../test/support/fake-transport.ts';
import type { ApiRequest } from '../transport.ts';
import { paginate } from './paginate.ts';

/** Three pages of two items each, linked by `page` links; keys prefixed or not. */
function threePages(prefixed = true) {
  return fakeTransport((request: ApiRequest) => {
    const page = request.link ? Number(new URL(request.link, 'http://x').searchParams.get('page')) : 1;
    const items = [{ id: page * 10 + 1 }, { id: page * 10 + 2 }];
    return { data: hydraPage(items, page < 3 ? `/sandbox/v1/courses?page=${page + 1}` : undefined, prefixed) };
  });
}

const first: ApiRequest = { method: 'GET', path: '/courses', query: { itemsPerPage: 2 } };

describe('paginate', () => {
  it('sends nothing until iterated', () => {
    const transport = threePages();
    paginate(transport, first);
    expect(transport.requests).toHaveLength(0);
  });

  it.each([true, false])('follows next links to the end (prefixed keys: %s)', async (prefixed) => {
    const transport = threePages(prefixed);
    const ids: unknown[] = [];
    for await (const item of paginate<{ id: number }>(transport, first)) ids.push(item.id);
    expect(ids).toEqual([11, 12, 21, 22, 31, 32]);
    expect(transport.requests).toEqual([
      first,
      { method: 'GET', link: '/sandbox/v1/courses?page=2', userId: undefined, signal: undefined },
      { method: 'GET', link: '/sandbox/v1/courses?page=3', userId: undefined, signal: undefined },
    ]);
  });

  it('carries userId and signal over to next links', async () => {
    const transport = threePages();
    const signal = new AbortController().signal;
    const pages = [];
    for await (const page of paginate(transport, { ...first, userId: LEARNER, signal }).pages()) pages.push(page);
    expect(pages).toHaveLength(3);
    expect(pages[0]!.next).toBe('/sandbox/v1/courses?page=2');
    expect(transport.requests.every((r) => r.userId === LEARNER && r.signal === signal)).toBe(true);
  });

  it('is re-iterable: each iteration starts from the first page', async () => {
    const transport = threePages();
    const list = paginate(transport, first);
    expect(await list.toArray({ max: 100 })).toHaveLength(6);
    expect(await list.toArray({ max: 100 })).toHaveLength(6);
    expect(transport.requests.filter((r) => r.path === '/courses')).toHaveLength(2);
  });

  it('toArray stops requesting once it has max items', async () => {
    const transport = threePages();
    const items = await paginate<{ id: number }>(transport, first).toArray({ max: 3 });
    expect(items.map((i) => i.id)).toEqual([11, 12, 21]);
    expect(transport.requests).toHaveLength(2);
  });

  it('toArray with max equal to the first page size fetches one page', async () => {
    const transport = threePages();
    await paginate(transport, first).toArray({ max: 2 });
    expect(transport.requests).toHaveLength(1);
  });

  it.each([0, -1, 1.5, undefined, Number.NaN, Number.NEGATIVE_INFINITY])('toArray refuses max %s before any request', async (max) => {
    const transport = threePages();
    await expect(paginate(transport, first).toArray({ max: max as number })).rejects.toBeInstanceOf(ValidationError);
    expect(transport.requests).toHaveLength(0);
  });

  it('stops with an error when a next link repeats', async () => {
    const transport = fakeTransport((request) => ({
      data: hydraPage([{ id: 1 }], request.link === '/v1/c?page=3' ? '/v1/c?page=2' : request.link ? '/v1/c?page=3' : '/v1/c?page=2'),
    }));
    const seen: unknown[] = [];
    await expect(async () => {
      for await (const item of paginate(transport, first)) seen.push(item);
    }).rejects.toThrow(ApplicationError);
    // page 1, page 2, page 3, then page 3 links back to page 2: stopped without requesting it again.
    expect(transport.requests).toHaveLength(3);
    expect(seen).toHaveLength(3);
  });

  it('stops at an empty page even when it carries a next link', async () => {
    // Each empty page links to a new one: without the stop this would page on (the handler gives up after 5).
    const transport = fakeTransport((request, index) => {
      if (index >= 5) throw new Error('kept paging past an empty page');
      const page = request.link ? Number(new URL(request.link, 'http://x').searchParams.get('page')) : 1;
      return { data: hydraPage(page === 1 ? [{ id: 1 }] : [], `/sandbox/v1/courses?page=${page + 1}`) };
    });
    expect(await paginate(transport, first).toArray({ max: 100 })).toEqual([{ id: 1 }]);
    expect(transport.requests).toHaveLength(2);
  });

  it('a next link back to the first page is a loop, however its query is ordered', async () => {
    const transport = fakeTransport(() => ({
      data: hydraPage([{ id: 1 }], 'https://api.example.test/sandbox/v1/courses?updatedAt[after]=2025-01-01T00:00:00Z&itemsPerPage=2'),
    }));
    const start: ApiRequest = { ...first, query: { itemsPerPage: 2, 'updatedAt[after]': '2025-01-01T00:00:00Z' } };
    const seen: unknown[] = [];
    await expect(async () => {
      for await (const item of paginate(transport, start)) seen.push(item);
    }).rejects.toThrow(/already fetched/);
    expect(transport.requests).toHaveLength(1);
    expect(seen).toEqual([{ id: 1 }]);
  });

  it('resolves a query-only next link against the page that gave it', async () => {
    const transport = fakeTransport((request) => ({ data: hydraPage([{ id: request.link ? 2 : 1 }], request.link ? undefined : '?itemsPerPage=2&page=2') }));
    expect(await paginate(transport, first).toArray({ max: 10 })).toEqual([{ id: 1 }, { id: 2 }]);
    expect(transport.requests[1]!.link).toBe('https://api.example.test/sandbox/v1/courses?itemsPerPage=2&page=2');
  });

  it('passes origin-relative and absolute next links on as given', async () => {
    const links = ['/sandbox/v1/courses?page=2', 'https://api.example.test/sandbox/v1/courses?page=3'];
    const transport = fakeTransport((_request, index) => ({ data: hydraPage([{ id: index }], links[index]) }));
    expect(await paginate(transport, first).toArray({ max: 10 })).toHaveLength(3);
    expect(transport.requests.map((r) => r.link)).toEqual([undefined, ...links]);
  });

  it('accepts a plain array answer as a single page', async () => {
    const transport = fakeTransport(() => ({ data: [{ id: 1 }, { id: 2 }] }));
    expect(await paginate(transport, first).toArray({ max: 10 })).toEqual([{ id: 1 }, { id: 2 }]);
    expect(transport.requests).toHaveLength(1);
  });
});

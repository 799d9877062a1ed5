import { describe, it, expect } from 'vitest';
import { clientOnTransport } from '../client.ts';
import { ApplicationError, ValidationError } from '../errors/index.ts';
import type { ApiRequest } from '../transport.ts';
import { fakeTransport, hydraPage, LEARNER } from '../../test/support/fake-transport.ts';

/** Pages of one item each, page 3 the last; next links as the emulator writes them (origin-relative). */
function threePages(path = '/courses') {
  return fakeTransport((request: ApiRequest) => {
    const url = new URL(request.link ?? `${path}?${new URLSearchParams(request.query as Record<string, string>)}`, 'https://api.example.test/sandbox/v1/');
    const page = Number(url.searchParams.get('page') ?? 1);
    return { data: hydraPage([{ id: page }], page < 3 ? `/sandbox/v1${path}?itemsPerPage=1&page=${page + 1}` : undefined) };
  });
}

async function rejection(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

function paths(error: unknown): string[] {
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).violations.map((v) => v.propertyPath);
}

describe('page(): one page at a time, resuming from a cursor', () => {
  it('walks a collection with the cursor and ends without one', async () => {
    const transport = threePages();
    const courses = clientOnTransport(transport).courses;
    const first = await courses.page({ pageSize: 1 });
    expect(first).toEqual({ items: [{ id: 1 }], totalItems: 999, next: '/sandbox/v1/courses?itemsPerPage=1&page=2' });
    const second = await courses.page({ cursor: first.next });
    const third = await courses.page({ cursor: second.next, timeoutMs: 50 });
    expect([second.items, third.items, third.next]).toEqual([[{ id: 2 }], [{ id: 3 }], undefined]);
    expect(transport.requests).toEqual([
      { method: 'GET', path: '/courses', query: { itemsPerPage: 1 }, signal: undefined },
      { method: 'GET', link: first.next, signal: undefined },
      { method: 'GET', link: second.next, signal: undefined, timeoutMs: 50 },
    ]);
  });

  it('learner collections send X-User-ID with the cursor too', async () => {
    const transport = threePages('/transcripts');
    const transcripts = clientOnTransport(transport).transcripts;
    const first = await transcripts.page({ userId: LEARNER });
    await transcripts.page({ userId: LEARNER, cursor: first.next });
    expect(transport.requests.map((r) => [r.userId, r.link])).toEqual([
      [LEARNER, undefined],
      [LEARNER, '/sandbox/v1/transcripts?itemsPerPage=1&page=2'],
    ]);
  });

  it('a query-only next link becomes an absolute cursor', async () => {
    const transport = fakeTransport(() => ({ data: hydraPage([{ id: 1 }], '?page=2') }));
    const page = await clientOnTransport(transport).categories.page();
    expect(page.next).toBe('https://api.example.test/sandbox/v1/categories?page=2');
  });

  it('a next link to the same page is refused rather than handed out as an endless cursor', async () => {
    const transport = fakeTransport(() => ({ data: hydraPage([{ id: 1 }], '/sandbox/v1/courses?page=1') }));
    const error = await rejection(() => clientOnTransport(transport).courses.page({ page: 1 }));
    expect(error).toBeInstanceOf(ApplicationError);
  });

  it('page and the date filters go into the query under API Platform names', async () => {
    const transport = fakeTransport(() => ({ data: hydraPage([]) }));
    await clientOnTransport(transport).modules.page({
      page: 4,
      updatedAfter: '2025-01-01T00:00:00Z',
      updatedStrictlyAfter: '2025-01-02T00:00:00Z',
      updatedBefore: '2025-02-01T00:00:00+01:00',
      updatedStrictlyBefore: '2025-02-02T00:00:00Z',
    });
    expect(transport.requests[0]!.query).toEqual({
      itemsPerPage: undefined,
      page: 4,
      'updatedAt[after]': '2025-01-01T00:00:00Z',
      'updatedAt[strictly_after]': '2025-01-02T00:00:00Z',
      'updatedAt[before]': '2025-02-01T00:00:00+01:00',
      'updatedAt[strictly_before]': '2025-02-02T00:00:00Z',
    });
  });

  it('list({ page }) starts there and follows the next links', async () => {
    const transport = threePages();
    const ids = (await clientOnTransport(transport).courses.list({ page: 2 }).toArray({ max: 9 })).map((c) => c.id);
    expect(ids).toEqual([2, 3]);
  });

  describe('refuses bad input without a request', () => {
    const transport = fakeTransport();
    const client = clientOnTransport(transport);
    it.each([
      ['a cursor of another collection', () => client.courses.page({ cursor: '/sandbox/v1/users/x' }), ['cursor']],
      [
        'a cursor to another origin',
        () => client.courses.page({ cursor: 'https://evil.test/sandbox/v1/courses?page=2' }),
        ['cursor'],
      ],
      ['a relative cursor', () => client.courses.page({ cursor: '?page=2' }), ['cursor']],
      ['a cursor that is a number', () => client.courses.page({ cursor: 2 as never }), ['cursor']],
      [
        'a cursor with query options',
        () => client.courses.page({ cursor: '/sandbox/v1/courses?page=2', page: 3, pageSize: 5 }),
        ['pageSize', 'page'],
      ],
      [
        "a learner's cursor of another path",
        () => client.progress.page({ userId: LEARNER, cursor: '/sandbox/v1/transcripts?page=2' }),
        ['cursor'],
      ],
      ['page 0', () => client.courses.page({ page: 0 }), ['page']],
      ['page 1.5 in a list', () => client.courses.list({ page: 1.5 }), ['page']],
      ['a date without a time', () => client.courses.list({ updatedBefore: '2025-01-01' }), ['updatedBefore']],
      ['a bare year', () => client.categories.page({ updatedStrictlyAfter: '2025' }), ['updatedStrictlyAfter']],
      ['a number for a date', () => client.courses.list({ updatedStrictlyBefore: 1 as never }), ['updatedStrictlyBefore']],
    ] as const)('%s', async (_name, call, expected) => {
      expect(paths(await rejection(call))).toEqual(expected);
    });
    it('sent nothing', () => {
      expect(transport.requests).toHaveLength(0);
    });
  });
});

import { describe, it, expect } from 'vitest';
import { ValidationError } from '../errors/index.ts';
import { createCategories } from './categories.ts';
import { createCourses } from './courses.ts';
import { fakeTransport, hydraPage } from '../../test/support/fake-transport.ts';
import { createOrganizations } from './organizations.ts';

describe('catalog collections', () => {
  it.each([
    ['organizations', createOrganizations, '/organizations'],
    ['categories', createCategories, '/categories'],
    ['courses', createCourses, '/courses'],
  ] as const)('%s.list sends GET %s with page size and date filter', async (_name, create, path) => {
    const transport = fakeTransport(() => ({ data: hydraPage([{ id: 1 }]) }));
    const items = await create(transport)
      .list({ pageSize: 25, updatedAfter: '2025-01-01T00:00:00Z' })
      .toArray({ max: 10 });
    expect(items).toEqual([{ id: 1 }]);
    expect(transport.requests).toEqual([
      {
        method: 'GET',
        path,
        query: { itemsPerPage: 25, 'updatedAt[after]': '2025-01-01T00:00:00Z' },
        userId: undefined,
        signal: undefined,
      },
    ]);
  });

  it('list without options leaves the query parameters out', async () => {
    const transport = fakeTransport(() => ({ data: hydraPage([]) }));
    await createCategories(transport).list().toArray({ max: 1 });
    expect(transport.requests[0]!.query).toEqual({ itemsPerPage: undefined, 'updatedAt[after]': undefined });
  });

  it('courses.get returns the detail with its modules', async () => {
    const detail = { id: 7, title: 'Safety', modules: [{ id: 70, passingScore: 80 }] };
    const transport = fakeTransport(() => ({ data: detail }));
    expect(await createCourses(transport).get(7)).toEqual(detail);
    expect(transport.requests).toEqual([{ method: 'GET', path: '/courses/7', signal: undefined }]);
  });

  it('sync sends the watermark as updatedAt[after]', async () => {
    const transport = fakeTransport(() => ({ data: hydraPage([{ id: 3, updatedAt: '2025-02-01T00:00:00Z' }]) }));
    const sync = createCategories(transport).sync({ since: { updatedAt: '2025-01-01T00:00:00Z', seenIds: [] }, pageSize: 50 });
    for await (const _ of sync) void _;
    expect(transport.requests[0]!.query).toEqual({ itemsPerPage: 50, 'updatedAt[after]': '2025-01-01T00:00:00Z' });
    expect(sync.watermark).toEqual({ updatedAt: '2025-02-01T00:00:00Z', seenIds: ['3'] });
  });

  it('organizations have no sync', () => {
    expect('sync' in createOrganizations(fakeTransport())).toBe(false);
  });

  describe('refuses bad input without a request', () => {
    const transport = fakeTransport();
    const courses = createCourses(transport);
    it.each([0, -3, 1.5, '7', Number.NaN])('get(%s)', async (id) => {
      await expect(courses.get(id as number)).rejects.toBeInstanceOf(ValidationError);
    });
    it.each([{ pageSize: 0 }, { pageSize: 101 }, { updatedAfter: '2025-01-01' }, { updatedAfter: 'now' }])(
      'list(%j) throws at once',
      (options) => {
        expect(() => courses.list(options)).toThrow(ValidationError);
      },
    );
    it('sync with a broken watermark', () => {
      expect(() => courses.sync({ since: { updatedAt: 'never', seenIds: [] } })).toThrow(ValidationError);
    });
    it('sent nothing', () => {
      expect(transport.requests).toHaveLength(0);
    });
  });
});

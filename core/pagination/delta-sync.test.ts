import { describe, it, expect } from 'vitest';
import { fakeTransport, hydraPage } from '../../test/support/fake-transport.ts';
import type { ApiRequest } from '../transport.ts';
import { deltaSync, recordId } from './delta-sync.ts';

const first: ApiRequest = { method: 'GET', path: '/courses', query: { itemsPerPage: 100 } };

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

describe('recordId', () => {
  it('uses id, else @id, else uuid', () => {
    expect(recordId({ id: 7, '@id': '/courses/7' })).toBe('7');
    expect(recordId({ '@id': '/transcripts/9', uuid: 'u' })).toBe('/transcripts/9');
    expect(recordId({ uuid: 'u' })).toBe('u');
    expect(recordId({ name: 'x' })).toBeUndefined();
  });
});

describe('deltaSync', () => {
  it('without a watermark sends no date filter and ends with the newest instant', async () => {
    const transport = fakeTransport(() => ({
      data: hydraPage([
        { id: 1, updatedAt: '2025-01-01T00:00:00+00:00' },
        { id: 2, updatedAt: '2025-01-03T00:00:00+00:00' },
        { id: 3, updatedAt: '2025-01-02T00:00:00+00:00' },
        { id: 4, updatedAt: '2025-01-03T00:00:00+00:00' },
      ]),
    }));
    const sync = deltaSync<{ id: number }>(transport, first, undefined);
    expect(sync.watermark).toBeUndefined();
    expect((await collect(sync)).map((i) => i.id)).toEqual([1, 2, 3, 4]);
    expect(transport.requests[0]!.query).toEqual({ itemsPerPage: 100 });
    expect(sync.watermark).toEqual({ updatedAt: '2025-01-03T00:00:00+00:00', seenIds: ['2', '4'] });
  });

  it('sends updatedAt[after] = the watermark and skips the ids already seen at that instant (inclusive edge)', async () => {
    const at = '2025-01-03T00:00:00+00:00';
    const transport = fakeTransport(() => ({
      data: hydraPage([
        { id: 2, updatedAt: at }, // seen last run: skipped
        { id: 4, updatedAt: at }, // seen last run: skipped
        { id: 5, updatedAt: at }, // same instant, new: delivered
        { id: 6, updatedAt: '2025-01-02T23:59:59Z' }, // older than the bound (a service quirk): still delivered
      ]),
    }));
    const sync = deltaSync<{ id: number }>(transport, first, { updatedAt: at, seenIds: ['2', '4'] });
    expect((await collect(sync)).map((i) => i.id)).toEqual([5, 6]);
    expect(transport.requests[0]!.query).toEqual({ itemsPerPage: 100, 'updatedAt[after]': at });
    expect(sync.watermark).toEqual({ updatedAt: at, seenIds: ['2', '4', '5'] });
  });

  it('compares instants, not strings, and keeps the service string in the watermark', async () => {
    const transport = fakeTransport(() => ({
      data: hydraPage([
        { id: 1, updatedAt: '2025-01-03T00:00:00.000Z' }, // same instant as the watermark: seen
        { id: 9, updatedAt: '2025-01-03T01:00:00+01:00' }, // also the same instant, new
      ]),
    }));
    const sync = deltaSync<{ id: number }>(transport, first, {
      updatedAt: '2025-01-03T00:00:00+00:00',
      seenIds: ['1'],
    });
    expect((await collect(sync)).map((i) => i.id)).toEqual([9]);
    expect(sync.watermark).toEqual({ updatedAt: '2025-01-03T00:00:00+00:00', seenIds: ['1', '9'] });
  });

  it('moves the watermark forward and forgets the older ids', async () => {
    const transport = fakeTransport(() => ({
      data: hydraPage([
        { id: 3, updatedAt: '2025-01-05T00:00:00Z' },
        { '@id': '/courses/8', updatedAt: '2025-01-05T00:00:00Z' },
      ]),
    }));
    const sync = deltaSync(transport, first, { updatedAt: '2025-01-03T00:00:00Z', seenIds: ['1', '2'] });
    await collect(sync);
    expect(sync.watermark).toEqual({ updatedAt: '2025-01-05T00:00:00Z', seenIds: ['3', '/courses/8'] });
  });

  it('keeps the old watermark when nothing changed', async () => {
    const since = { updatedAt: '2025-01-03T00:00:00Z', seenIds: ['1'] };
    const transport = fakeTransport(() => ({ data: hydraPage([{ id: 1, updatedAt: since.updatedAt }]) }));
    const sync = deltaSync(transport, first, since);
    expect(await collect(sync)).toEqual([]);
    expect(sync.watermark).toEqual(since);
  });

  it('follows next links and stays flat over 100,000 records', async () => {
    const pageSize = 100;
    const total = 100_000;
    const base = Date.parse('2025-01-01T00:00:00Z');
    const transport = fakeTransport((request) => {
      const page = request.link ? Number(request.link.split('page=')[1]) : 1;
      const items = Array.from({ length: pageSize }, (_, i) => {
        const n = (page - 1) * pageSize + i;
        // Ten records share each instant.
        return { id: n, updatedAt: new Date(base + Math.floor(n / 10) * 1000).toISOString() };
      });
      return { data: hydraPage(items, page * pageSize < total ? `/v1/courses?page=${page + 1}` : undefined) };
    });
    const sync = deltaSync<{ id: number }>(transport, first, undefined);
    let count = 0;
    for await (const _item of sync) count += 1;
    expect(count).toBe(total);
    expect(transport.requests).toHaveLength(total / pageSize);
    expect(sync.watermark!.seenIds).toEqual(['99990', '99991', '99992', '99993', '99994', '99995', '99996', '99997', '99998', '99999']);
    expect(sync.watermark!.updatedAt).toBe(new Date(base + 9999 * 1000).toISOString());
  });
});

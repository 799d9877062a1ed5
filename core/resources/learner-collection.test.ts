import { describe, it, expect } from 'vitest';
import { ValidationError } from '../errors/index.ts';
import { fakeTransport, hydraPage, LEARNER } from '../../test/support/fake-transport.ts';
import { createProgress } from './progress.ts';
import { createTranscripts } from './transcripts.ts';

describe('learner collections', () => {
  it.each([
    ['progress', createProgress, '/course-progresses'],
    ['transcripts', createTranscripts, '/transcripts'],
  ] as const)('%s.list sends X-User-ID on every page', async (_name, create, path) => {
    const transport = fakeTransport((r) => ({
      data: hydraPage([{ id: r.link ? 2 : 1 }], r.link ? undefined : `/sandbox/v1${path}?page=2`),
    }));
    const items = await create(transport).list({ userId: LEARNER, pageSize: 10 }).toArray({ max: 10 });
    expect(items).toEqual([{ id: 1 }, { id: 2 }]);
    expect(transport.requests[0]).toEqual({
      method: 'GET',
      path,
      query: { itemsPerPage: 10, 'updatedAt[after]': undefined },
      userId: LEARNER,
      signal: undefined,
    });
    expect(transport.requests[1]).toMatchObject({ method: 'GET', link: `/sandbox/v1${path}?page=2`, userId: LEARNER });
  });

  it('get sends GET {path}/{id} with X-User-ID; string ids are encoded', async () => {
    const transport = fakeTransport(() => ({ data: { id: 5 } }));
    await createProgress(transport).get(5, { userId: LEARNER });
    await createTranscripts(transport).get('abc_9', { userId: LEARNER });
    expect(transport.requests).toEqual([
      { method: 'GET', path: '/course-progresses/5', userId: LEARNER, signal: undefined },
      { method: 'GET', path: '/transcripts/abc_9', userId: LEARNER, signal: undefined },
    ]);
  });

  it('sync sends the watermark and X-User-ID', async () => {
    const transport = fakeTransport(() => ({ data: hydraPage([]) }));
    const sync = createTranscripts(transport).sync({
      userId: LEARNER,
      since: { updatedAt: '2025-01-01T00:00:00Z', seenIds: ['/transcripts/1'] },
    });
    for await (const _ of sync) void _;
    expect(transport.requests[0]).toMatchObject({
      path: '/transcripts',
      userId: LEARNER,
      query: { 'updatedAt[after]': '2025-01-01T00:00:00Z' },
    });
  });

  describe('refuses bad input without a request', () => {
    const transport = fakeTransport();
    const progress = createProgress(transport);
    it('list without userId', () => {
      expect(() => progress.list({} as never)).toThrow(ValidationError);
    });
    it('sync with a bad userId', () => {
      expect(() => progress.sync({ userId: 'me' })).toThrow(ValidationError);
    });
    it.each([0, '', '../users', 'a/b', 'x'.repeat(129)])('get(%s)', async (id) => {
      await expect(progress.get(id, { userId: LEARNER })).rejects.toBeInstanceOf(ValidationError);
    });
    it('sent nothing', () => {
      expect(transport.requests).toHaveLength(0);
    });
  });
});

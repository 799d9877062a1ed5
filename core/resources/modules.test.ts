import { describe, it, expect } from 'vitest';
import { ApplicationError, ConfigurationError, ValidationError } from '../errors/index.ts';
import { fakeTransport, hydraPage, LEARNER } from '../../test/support/fake-transport.ts';
import { createModules } from './modules.ts';

const content = {
  '@type': 'ModuleContent',
  module_id: 42,
  content_type: 'video',
  content_url: 'https://cdn.example.test/v/42?sig=abc',
  expires_at: '2025-03-01T11:00:00Z',
  duration_seconds: 600,
  mime_type: 'video/mp4',
};

describe('modules', () => {
  it('list and get are the catalog calls', async () => {
    const transport = fakeTransport((r) => ({ data: r.path === '/modules' ? hydraPage([{ id: 42 }]) : { id: 42, passingScore: null } }));
    const modules = createModules(transport);
    expect(await modules.list().toArray({ max: 5 })).toEqual([{ id: 42 }]);
    expect(await modules.get(42)).toEqual({ id: 42, passingScore: null });
    expect(transport.requests.map((r) => r.path)).toEqual(['/modules', '/modules/42']);
  });

  it.each([
    ['content', '/modules/42/content'],
    ['refreshUrl', '/modules/42/refresh-url'],
  ] as const)('%s sends GET %s with X-User-ID and returns the snake_case record as is', async (method, path) => {
    const transport = fakeTransport(() => ({ data: content }));
    expect(await createModules(transport)[method](42, { userId: LEARNER })).toEqual(content);
    expect(transport.requests).toEqual([{ method: 'GET', path, userId: LEARNER, signal: undefined }]);
  });

  it('content refuses an answer without content_url or expires_at', async () => {
    const transport = fakeTransport(() => ({ data: { ...content, content_url: undefined } }));
    await expect(createModules(transport).content(42, { userId: LEARNER })).rejects.toBeInstanceOf(ApplicationError);
    const noExpiry = fakeTransport(() => ({ data: { ...content, expires_at: 'later' } }));
    await expect(createModules(noExpiry).refreshUrl(42, { userId: LEARNER })).rejects.toBeInstanceOf(ApplicationError);
  });

  it('complete POSTs with no body and discards the 202 answer', async () => {
    const transport = fakeTransport(() => ({ status: 202 }));
    await expect(createModules(transport).complete(42, { userId: LEARNER })).resolves.toBeUndefined();
    expect(transport.requests).toEqual([
      { method: 'POST', path: '/modules/42/complete', userId: LEARNER, responseType: 'none', signal: undefined },
    ]);
  });

  it('keepFresh uses content first, then refresh-url under 60 s, on the transport clock', async () => {
    let now = Date.parse('2025-03-01T10:00:00Z');
    const transport = fakeTransport(() => ({ data: content }), { now: () => now });
    const keeper = createModules(transport).keepFresh(42, { userId: LEARNER });
    expect(transport.requests).toHaveLength(0);
    await keeper.current();
    now = Date.parse('2025-03-01T10:59:00Z'); // 60 s left: still fresh
    await keeper.current();
    now += 1; // under 60 s
    await keeper.current();
    expect(transport.requests.map((r) => [r.path, r.userId])).toEqual([
      ['/modules/42/content', LEARNER],
      ['/modules/42/refresh-url', LEARNER],
    ]);
  });

  describe('refuses bad input without a request', () => {
    const transport = fakeTransport(() => ({ data: content }));
    const modules = createModules(transport);
    it.each([
      ['content without userId', () => modules.content(42, {} as never), ['userId']],
      ['refreshUrl with a bad UUID', () => modules.refreshUrl(42, { userId: 'abc' }), ['userId']],
      ['complete with a bad id and UUID', () => modules.complete(-1, { userId: 'abc' }), ['moduleId', 'userId']],
      ['content with a string id', () => modules.content('42/../1' as never, { userId: LEARNER }), ['moduleId']],
    ] as const)('%s', async (_name, call, paths) => {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).violations.map((v) => v.propertyPath)).toEqual(paths);
    });
    it('keepFresh throws at once', () => {
      expect(() => modules.keepFresh(42, { userId: 'x' })).toThrow(ValidationError);
    });
    it('keepFresh refuses a signal that is not an AbortSignal as a ConfigurationError, not a bare TypeError', () => {
      expect(() => modules.keepFresh(42, { userId: LEARNER, signal: {} as AbortSignal })).toThrow(ConfigurationError);
    });
    it('sent nothing', () => {
      expect(transport.requests).toHaveLength(0);
    });
  });
});

import { describe, it, expect } from 'vitest';
import { clientOnTransport } from './client-on-transport.ts';
import { ValidationError } from './errors/index.ts';
import { fakeTransport, hydraPage, LEARNER } from '../test/support/fake-transport.ts';

const content = {
  '@type': 'ModuleContent',
  module_id: 4,
  content_type: 'video',
  content_url: 'https://cdn.example.test/v/4',
  expires_at: '2099-01-01T00:00:00Z',
  duration_seconds: 1,
  mime_type: 'video/mp4',
};

function answering() {
  return fakeTransport((r) => {
    if (r.responseType === 'stream') {
      return { headers: { 'content-type': 'application/pdf' }, data: new Blob(['%PDF']).stream() };
    }
    if (r.path?.endsWith('/content') || r.path?.endsWith('/refresh-url')) return { data: content };
    if (r.path === '/course-progresses' || r.path === '/transcripts') return { data: hydraPage([{ id: 1 }]) };
    return { data: { id: 1, uuid: LEARNER } };
  });
}

describe('client.forLearner(uuid)', () => {
  it('binds X-User-ID once: every learner-scoped call sends it', async () => {
    const transport = answering();
    const learner = clientOnTransport(transport).forLearner(LEARNER);
    expect(learner.userId).toBe(LEARNER);
    await learner.modules.content(4);
    await learner.modules.refreshUrl(4, { timeoutMs: 10 });
    await learner.modules.complete(4);
    await (await learner.modules.keepFresh(4).current());
    await learner.progress.list().toArray({ max: 5 });
    await learner.progress.page({ pageSize: 5 });
    await learner.progress.get(1);
    for await (const _ of learner.progress.sync()) void _;
    await learner.transcripts.list({ pageSize: 3 }).toArray({ max: 5 });
    await learner.transcripts.page();
    await learner.transcripts.get('t_1');
    for await (const _ of learner.transcripts.sync()) void _;
    await learner.transcripts.pdf();
    await learner.transcripts.certificatePdf(1);
    expect(transport.requests).toHaveLength(14);
    expect(transport.requests.every((r) => r.userId === LEARNER)).toBe(true);
    expect(transport.requests[1]).toMatchObject({ path: '/modules/4/refresh-url', timeoutMs: 10 });
  });

  it('me() is the learner profile, read without X-User-ID', async () => {
    const transport = answering();
    expect(await clientOnTransport(transport).forLearner(LEARNER).me()).toEqual({ id: 1, uuid: LEARNER });
    expect(transport.requests).toEqual([{ method: 'GET', path: `/users/${LEARNER}`, signal: undefined }]);
  });

  it('checks the UUID once, at creation', () => {
    const client = clientOnTransport(fakeTransport());
    for (const bad of ['me', '', 42, null, undefined]) {
      let error: unknown;
      try {
        client.forLearner(bad as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).violations.map((v) => v.propertyPath)).toEqual(['uuid']);
    }
  });

  it('refuses another userId in the options and options that are no object, without a request', async () => {
    const transport = fakeTransport();
    const learner = clientOnTransport(transport).forLearner(LEARNER);
    const other = '0f2504e0-4f89-41d3-9a0c-0305e82c3301';
    await expect(learner.transcripts.get(1, { userId: other } as never)).rejects.toBeInstanceOf(ValidationError);
    expect(() => learner.progress.list({ userId: other } as never)).toThrow(/bound by forLearner/);
    await expect(learner.modules.content(4, null as never)).rejects.toThrow(/options/);
    expect(() => learner.transcripts.sync(7 as never)).toThrow(ValidationError);
    expect(transport.requests).toHaveLength(0);
  });
});

import { describe, it, expect } from 'vitest';
import type { ResponseInfo } from '../types/calls.ts';
import { ValidationError } from '../errors/index.ts';
import { clientOnTransport } from '../client.ts';
import { fakeTransport, hydraPage, LEARNER } from '../../test/support/fake-transport.ts';

const headers = {
  'content-type': 'application/ld+json; charset=utf-8',
  'x-request-id': 'req-1',
  'set-cookie': 'session=secret',
  'x-amzn-remapped-authorization': 'Bearer leaked',
  'cache-control': 'no-store',
};

function violationsOf(error: unknown): string[] {
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).violations.map((v) => v.propertyPath);
}

async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  return call().then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('per-call options', () => {
  it('retry and timeoutMs ride on the request of single calls', async () => {
    const transport = fakeTransport(() => ({ data: { id: 1, uuid: LEARNER } }));
    const client = clientOnTransport(transport);
    await client.courses.get(1, { retry: false, timeoutMs: 2000 });
    await client.users.get(LEARNER, { retry: { maxAttempts: 2 } });
    await client.progress.get(3, { userId: LEARNER, timeoutMs: 5 });
    await client.ping({ retry: false });
    expect(transport.requests.map((r) => [r.path, r.retry, r.timeoutMs])).toEqual([
      ['/courses/1', false, 2000],
      [`/users/${LEARNER}`, { maxAttempts: 2 }, undefined],
      ['/course-progresses/3', undefined, 5],
      ['/ping', false, undefined],
    ]);
  });

  it('retry and timeoutMs carry over to every page of a list', async () => {
    const transport = fakeTransport((r) => ({
      data: hydraPage([{ id: r.link ? 2 : 1 }], r.link ? undefined : '/sandbox/v1/courses?page=2'),
    }));
    await clientOnTransport(transport).courses.list({ retry: false, timeoutMs: 100 }).toArray({ max: 10 });
    expect(transport.requests.map((r) => [r.retry, r.timeoutMs])).toEqual([
      [false, 100],
      [false, 100],
    ]);
  });

  it('onResponse gets status, request id, allowlisted headers and the parsed body, once per call', async () => {
    const seen: ResponseInfo[] = [];
    const transport = fakeTransport(() => ({ status: 200, headers, requestId: 'req-1', data: { id: 7 } }));
    const course = await clientOnTransport(transport).courses.get(7, { onResponse: (r) => seen.push(r) });
    expect(course).toEqual({ id: 7 });
    expect(seen).toEqual([
      {
        status: 200,
        requestId: 'req-1',
        headers: {
          'content-type': 'application/ld+json; charset=utf-8',
          'x-request-id': 'req-1',
          'cache-control': 'no-store',
        },
        body: { id: 7 },
      },
    ]);
  });

  it('onResponse gets the whole Hydra page of each collection page, hydra:view included', async () => {
    const seen: ResponseInfo[] = [];
    const pages = [hydraPage([{ id: 1 }], '/sandbox/v1/transcripts?page=2'), hydraPage([{ id: 2 }])];
    const transport = fakeTransport((_r, i) => ({ status: 200, data: pages[i] }));
    const client = clientOnTransport(transport);
    await client.transcripts.list({ userId: LEARNER, onResponse: (r) => seen.push(r) }).toArray({ max: 10 });
    expect(seen.map((r) => r.body)).toEqual(pages);
    expect((seen[0]!.body as Record<string, unknown>)['hydra:view']).toMatchObject({
      'hydra:next': '/sandbox/v1/transcripts?page=2',
    });
  });

  it('onResponse has no body for a stream or an empty answer', async () => {
    const seen: ResponseInfo[] = [];
    const transport = fakeTransport((r) =>
      r.responseType === 'stream'
        ? { status: 200, headers: { 'content-type': 'application/pdf' }, data: new Blob(['%PDF']).stream() }
        : { status: 202 },
    );
    const client = clientOnTransport(transport);
    await client.transcripts.pdf({ userId: LEARNER, onResponse: (r) => seen.push(r) });
    await client.modules.complete(4, { userId: LEARNER, onResponse: (r) => seen.push(r) });
    expect(seen).toEqual([
      { status: 200, headers: { 'content-type': 'application/pdf' } },
      { status: 202, headers: {} },
    ]);
  });

  describe('bad per-call options are a ValidationError naming them, and nothing is sent', () => {
    const transport = fakeTransport();
    const client = clientOnTransport(transport);
    it.each([
      ['retry.maxAttempts 0', () => client.courses.get(1, { retry: { maxAttempts: 0 } }), ['retry.maxAttempts']],
      ['retry true', () => client.ping({ retry: true as never }), ['retry']],
      ['an unknown retry field', () => client.ping({ retry: { tries: 2 } as never }), ['retry.tries']],
      ['timeoutMs -1', () => client.users.get(LEARNER, { timeoutMs: -1 }), ['timeoutMs']],
      ['timeoutMs as text', () => client.modules.content(1, { userId: LEARNER, timeoutMs: '5' as never }), ['timeoutMs']],
      ['onResponse not a function', () => client.courses.get(1, { onResponse: 'log' as never }), ['onResponse']],
      ['with a bad id too', () => client.courses.get(0, { timeoutMs: 0 }), ['id', 'timeoutMs']],
    ] as const)('%s', async (_name, call, paths) => {
      expect(violationsOf(await rejection(call))).toEqual(paths);
    });
    it('a bad list option throws at list()', () => {
      let error: unknown;
      try {
        client.categories.list({ timeoutMs: 1.5 });
      } catch (e) {
        error = e;
      }
      expect(violationsOf(error)).toEqual(['timeoutMs']);
    });
    it('sent nothing', () => {
      expect(transport.requests).toHaveLength(0);
    });
  });
});

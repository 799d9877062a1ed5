import { describe, it, expect } from 'vitest';
import { NotFoundError, ValidationError } from '../errors/index.ts';
import { withAttempts } from '../errors/base.ts';
import { fakeTransport, LEARNER } from '../../test/support/fake-transport.ts';
import { createUsers } from './users.ts';

const profile = { uuid: LEARNER, email: 'ada@example.com', status: 'active' };

describe('users', () => {
  it('register POSTs JSON to /users/register and returns the profile', async () => {
    const transport = fakeTransport(() => ({ status: 201, data: profile }));
    const input = { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', organizationId: 3, city: 'London' };
    expect(await createUsers(transport).register(input)).toEqual(profile);
    expect(transport.requests).toEqual([
      { method: 'POST', path: '/users/register', json: input, signal: undefined },
    ]);
  });

  it('get sends GET /users/{uuid}', async () => {
    const transport = fakeTransport(() => ({ data: profile }));
    await createUsers(transport).get(LEARNER);
    expect(transport.requests).toEqual([{ method: 'GET', path: `/users/${LEARNER}`, signal: undefined }]);
  });

  it('update sends a merge patch of only the given fields', async () => {
    const transport = fakeTransport(() => ({ data: profile }));
    await createUsers(transport).update(LEARNER, { city: null, countryCode: 'FR' });
    expect(transport.requests).toEqual([
      { method: 'PATCH', path: `/users/${LEARNER}`, mergePatch: { city: null, countryCode: 'FR' }, signal: undefined },
    ]);
    expect(transport.requests[0]!.json).toBeUndefined();
  });

  it.each([
    ['deactivate', 'inactive'],
    ['reactivate', 'active'],
  ] as const)('%s PATCHes the status %s', async (method, status) => {
    const transport = fakeTransport(() => ({ data: profile }));
    await createUsers(transport)[method](LEARNER);
    expect(transport.requests).toEqual([
      { method: 'PATCH', path: `/users/${LEARNER}`, mergePatch: { status }, signal: undefined },
    ]);
  });

  it('delete sends DELETE and discards the body', async () => {
    const signal = new AbortController().signal;
    const transport = fakeTransport(() => ({ status: 204, data: undefined }));
    await expect(createUsers(transport).delete(LEARNER, { signal })).resolves.toBeUndefined();
    expect(transport.requests).toEqual([{ method: 'DELETE', path: `/users/${LEARNER}`, responseType: 'none', signal }]);
  });

  it('delete resolves on a 404 only when an earlier attempt was sent', async () => {
    const notFound = (attempts: number) => withAttempts(new NotFoundError({ message: 'Not found', origin: 'api', status: 404 }), attempts);
    await expect(createUsers(fakeTransport(() => { throw notFound(2); })).delete(LEARNER)).resolves.toBeUndefined();
    await expect(createUsers(fakeTransport(() => { throw notFound(1); })).delete(LEARNER)).rejects.toBeInstanceOf(NotFoundError);
  });

  describe('refuses bad input without a request', () => {
    const transport = fakeTransport();
    const users = createUsers(transport);
    const cases: [string, () => Promise<unknown>, string[]][] = [
      ['get with a short UUID', () => users.get('3f2504e0'), ['uuid']],
      ['a path-traversal UUID', () => users.delete('../organizations'), ['uuid']],
      ['deactivate with no UUID', () => users.deactivate(undefined as unknown as string), ['uuid']],
      [
        'register with a bad e-mail and id',
        () => users.register({ email: 'x', firstName: 'A', lastName: 'B', organizationId: -2 }),
        ['email', 'organizationId'],
      ],
      ['update with read-only fields', () => users.update(LEARNER, { uuid: 'x' } as never), ['uuid']],
      ['update with an empty patch and a bad UUID', () => users.update('nope', {}), ['uuid', '']],
    ];
    it.each(cases)('%s', async (_name, call, paths) => {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).violations.map((v) => v.propertyPath)).toEqual(paths);
      expect(transport.requests).toHaveLength(0);
    });
  });
});

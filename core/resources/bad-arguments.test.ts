/**
 * Every public call, given wrong arguments (null, a number where text goes, text where a number goes, an array),
 * fails with a `ValidationError` that names the argument, never a bare `TypeError`, and sends nothing.
 */
import { describe, it, expect } from 'vitest';
import { clientOnTransport } from '../client-on-transport.ts';
import { ValidationError } from '../errors/index.ts';
import { fakeTransport, hydraPage, LEARNER } from '../../test/support/fake-transport.ts';

const transport = fakeTransport(() => ({ data: hydraPage([{ id: 1 }]) }));
const client = clientOnTransport(transport);
const scope = { userId: LEARNER };

/** Runs a call to its end: iterates a collection, awaits a promise. Returns what was thrown. */
async function failure(call: () => unknown): Promise<unknown> {
  try {
    const result = call();
    if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
      for await (const _ of result as AsyncIterable<unknown>) void _;
    }
    await result;
  } catch (error) {
    return error;
  }
  return undefined;
}

/** Wrong values for an options object, a text argument (UUID), a catalog id and a record id. */
const OPTIONS = [null, 42, 'text', [], true];
const TEXT = [null, 42, {}, [], true];
const ID = [null, 'text', '1', 1.5, {}, [], true];
const RECORD_ID = [null, 1.5, {}, [], true, 'a/b'];

/** [name, call with a bad value in one place, the bad values]: each argument position of each call. */
const calls: [string, (bad: unknown) => unknown, unknown[]][] = [
  ['ping(options)', (b) => client.ping(b as never), OPTIONS],
  ['users.register(input)', (b) => client.users.register(b as never), OPTIONS],
  ['users.get(uuid)', (b) => client.users.get(b as never), TEXT],
  ['users.get(_, options)', (b) => client.users.get(LEARNER, b as never), OPTIONS],
  ['users.update(_, patch)', (b) => client.users.update(LEARNER, b as never), OPTIONS],
  ['users.deactivate(uuid)', (b) => client.users.deactivate(b as never), TEXT],
  ['users.reactivate(_, options)', (b) => client.users.reactivate(LEARNER, b as never), OPTIONS],
  ['users.delete(uuid)', (b) => client.users.delete(b as never), TEXT],
  ['courses.list(options)', (b) => client.courses.list(b as never), OPTIONS],
  ['courses.page(options)', (b) => client.courses.page(b as never), OPTIONS],
  ['courses.get(id)', (b) => client.courses.get(b as never), ID],
  ['courses.get(_, options)', (b) => client.courses.get(1, b as never), OPTIONS],
  ['courses.sync(options)', (b) => client.courses.sync(b as never), OPTIONS],
  ['categories.sync({ since })', (b) => client.categories.sync({ since: b as never }), OPTIONS],
  ['organizations.list(options)', (b) => client.organizations.list(b as never), OPTIONS],
  ['modules.content(id)', (b) => client.modules.content(b as never, scope), ID],
  ['modules.content(_, options)', (b) => client.modules.content(1, b as never), OPTIONS],
  ['modules.complete(_, options)', (b) => client.modules.complete(1, b as never), OPTIONS],
  ['modules.keepFresh(_, options)', (b) => client.modules.keepFresh(1, b as never), OPTIONS],
  ['progress.list(options)', (b) => client.progress.list(b as never), OPTIONS],
  ['progress.page(options)', (b) => client.progress.page(b as never), OPTIONS],
  ['progress.get(id)', (b) => client.progress.get(b as never, scope), RECORD_ID],
  ['transcripts.list(options)', (b) => client.transcripts.list(b as never), OPTIONS],
  ['transcripts.list({ userId })', (b) => client.transcripts.list({ userId: b as never }), TEXT],
  ['transcripts.sync(options)', (b) => client.transcripts.sync(b as never), OPTIONS],
  ['transcripts.pdf(options)', (b) => client.transcripts.pdf(b as never), OPTIONS],
  ['transcripts.certificatePdf(id)', (b) => client.transcripts.certificatePdf(b as never, scope), RECORD_ID],
  ['forLearner(uuid)', (b) => client.forLearner(b as never), TEXT],
  ['toArray(options)', (b) => client.courses.list().toArray(b as never), OPTIONS],
  ['list({ pageSize })', (b) => client.courses.list({ pageSize: b as never }), ID],
  ['list({ page })', (b) => client.courses.list({ page: b as never }), ID],
  ['list({ updatedAfter })', (b) => client.courses.list({ updatedAfter: b as never }), TEXT],
  ['page({ cursor })', (b) => client.courses.page({ cursor: b as never }), TEXT],
  ['get(_, { timeoutMs })', (b) => client.courses.get(1, { timeoutMs: b as never }), ID],
  ['get(_, { retry })', (b) => client.courses.get(1, { retry: b as never }), OPTIONS],
  ['keepFresh(_, { onRefresh })', (b) => client.modules.keepFresh(1, { ...scope, onRefresh: b as never }), OPTIONS],
];

describe('bad arguments are ValidationErrors naming the argument', () => {
  const cases = calls.flatMap(([name, call, bads]) => bads.map((bad) => [name, JSON.stringify(bad), call, bad] as const));
  it.each(cases)('%s with %s', async (_name, _shown, call, bad) => {
    const error = await failure(() => call(bad));
    expect(error).toBeInstanceOf(ValidationError);
    const violations = (error as ValidationError).violations;
    expect(violations.length).toBeGreaterThan(0);
    for (const v of violations) expect(v.message).not.toMatch(/undefined|\[object/);
  });

  it('sent nothing', () => {
    expect(transport.requests).toEqual([]);
  });
});

describe('the cases of issue 7', () => {
  const names = async (call: () => unknown) =>
    ((await failure(call)) as ValidationError).violations.map((v) => v.propertyPath);

  it('courses.list(null), courses.sync(null), transcripts.list(null) name the options', async () => {
    expect(await names(() => client.courses.list(null as never))).toEqual(['options']);
    expect(await names(() => client.courses.sync(null as never))).toEqual(['options']);
    expect(await names(() => client.transcripts.list(null as never))).toEqual(['options', 'userId']);
  });

  it.each(['1', '2025', '2025-01-01', 'yesterday', '2025-13-01T00:00:00Z'])(
    "a watermark's updatedAt of %s is refused",
    async (updatedAt) => {
      expect(await names(() => client.courses.sync({ since: { updatedAt, seenIds: [] } }))).toEqual([
        'since.updatedAt',
      ]);
    },
  );

  it.each(['2025-01-31T10:00:00Z', '2025-01-31T10:00:00.123+02:00', '2025-01-31T10:00:00'])(
    "a watermark's updatedAt of %s is accepted",
    (updatedAt) => {
      expect(() => client.courses.sync({ since: { updatedAt, seenIds: [] } })).not.toThrow();
    },
  );

  it('status in a registration is named for what it is', async () => {
    const error = (await failure(() =>
      client.users.register({ email: 'a@example.com', firstName: 'A', lastName: 'B', organizationId: 1, status: 'inactive' } as never),
    )) as ValidationError;
    expect(error.violations).toEqual([{ propertyPath: 'status', message: expect.stringMatching(/at registration/) }]);
    expect(error.message).not.toMatch(/not a writable profile field/);
  });

  it('toArray({ max: Infinity }) collects everything (returnAll)', async () => {
    const pages = fakeTransport((r) => ({ data: hydraPage([{ id: r.link ? 2 : 1 }], r.link ? undefined : '/sandbox/v1/courses?page=2') }));
    expect(await clientOnTransport(pages).courses.list().toArray({ max: Infinity })).toEqual([{ id: 1 }, { id: 2 }]);
    for (const max of [0, -1, 1.5, Number.NaN, -Infinity]) {
      expect(await names(() => client.courses.list().toArray({ max }))).toEqual(['max']);
    }
  });
});

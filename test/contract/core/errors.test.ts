/**
 * Every error class the emulator can provoke through the client, with its `code`, `status`, `requestId` (the
 * answer's `x-request-id`) and `retryable`; answers that are never retried make exactly one request; invalid input
 * is refused locally without any request.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ApiKeyError,
  ConfigurationError,
  InactiveLearnerError,
  NetworkError,
  NotFoundError,
  PartnerLearningError,
  TimeoutError,
  ValidationError,
} from '../../../core/index.ts';
import type { PartnerLearningClient } from '../../../core/types/client-api.ts';
import { createClient } from '../../../core/index.ts';
import { RecordingTokenStore, startInProcess } from '../../support/core-harness.ts';
import type { Harness } from '../../support/core-harness.ts';
import { apiRequests } from '../../support/core-control.ts';
import { firstOrganizationId, pickCatalog, registerLearner } from '../../support/core-fixtures.ts';

const ABSENT_UUID = '0b8f7c1e-5d2a-4c3b-9e8f-7a6b5c4d3e2f';

async function failure(promise: Promise<unknown>): Promise<PartnerLearningError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PartnerLearningError);
  return error as PartnerLearningError;
}

describe('errors from the emulator, through the client', () => {
  let h: Harness;
  let client: PartnerLearningClient;

  beforeEach(async () => {
    h = await startInProcess();
    client = h.client();
  });

  /** The API answers of the last call: exactly one, with the status given; its request id is on the error. */
  async function expectSingleAnswer(error: PartnerLearningError, status: number): Promise<void> {
    const api = apiRequests(await h.control.requests());
    expect(api.map((r) => r.status)).toEqual([status]);
    const answer = h.wire.responses.filter((r) => r.url.includes('/v1/')).at(-1)!;
    expect(answer.status).toBe(status);
    expect(answer.requestId).toBeTruthy();
    expect(error.requestId).toBe(answer.requestId);
  }

  it('service validation (400 violations) is a ValidationError with the violations, sent once', async () => {
    await firstOrganizationId(client);
    await h.control.clearRequests();
    const error = await failure(
      client.users.register({ email: 'v@example.com', firstName: 'V', lastName: 'W', organizationId: 987_654 }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: 'validation_failed', status: 400, retryable: false });
    const violations = (error as ValidationError).violations;
    expect(violations.some((v) => v.propertyPath === 'organizationId' && v.message.length > 0)).toBe(true);
    await expectSingleAnswer(error, 400);
  });

  it('local validation makes no request at all: malformed userId or user path, bad e-mail, bad patch fields', async () => {
    await h.control.clearRequests();
    const picks = await pickCatalog(h.control);
    // Thunks: a method may refuse synchronously or with a rejected promise; both are fine, neither may send.
    const cases: (() => Promise<unknown>)[] = [
      () => client.modules.content(picks.completable.id, { userId: 'not-a-uuid' }),
      () => client.modules.complete(picks.completable.id, { userId: `${ABSENT_UUID}x` }),
      () => client.transcripts.list({ userId: '12345' }).toArray({ max: 1 }),
      () => client.progress.get(1, { userId: '' }),
      () => client.transcripts.pdf({ userId: 'ZZZZZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZZZZZZZZZ' }),
      () => client.users.get('../organizations'),
      () => client.users.register({ email: 'not-an-email', firstName: 'A', lastName: 'B', organizationId: 1 }),
      () => client.users.update(ABSENT_UUID, { email: 'still-not-an-email' }),
      () => client.users.update(ABSENT_UUID, { countryCode: 'France' }),
    ];
    for (const call of cases) {
      const error = await failure(Promise.resolve().then(call));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ code: 'validation_failed', retryable: false });
      expect((error as ValidationError).violations.length).toBeGreaterThan(0);
    }
    expect(await h.control.requests()).toEqual([]);
    expect(h.wire.calls).toEqual([]);
  });

  it('NotFoundError: an unknown learner, sent once', async () => {
    await client.categories.list().toArray({ max: 1 });
    await h.control.clearRequests();
    const error = await failure(client.users.get(ABSENT_UUID));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: 'not_found', status: 404, retryable: false });
    await expectSingleAnswer(error, 404);
  });

  it("NotFoundError (never 403) for another partner's learner, on user and learner-scoped paths", async () => {
    const picks = await pickCatalog(h.control);
    const theirs = await registerLearner(h.client({}, { partner: 1 }));
    await expect(client.users.get(theirs.uuid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.users.delete(theirs.uuid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.modules.content(picks.completable.id, { userId: theirs.uuid })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('InactiveLearnerError after deactivate, for every learner-scoped call, sent once each', async () => {
    const picks = await pickCatalog(h.control);
    const learner = await registerLearner(client);
    await client.users.deactivate(learner.uuid);
    await h.control.clearRequests();
    const error = await failure(client.modules.content(picks.completable.id, { userId: learner.uuid }));
    expect(error).toBeInstanceOf(InactiveLearnerError);
    expect(error).toMatchObject({ code: 'inactive_learner', status: 403, retryable: false });
    await expectSingleAnswer(error, 403);
    const scope = { userId: learner.uuid };
    await expect(client.modules.complete(picks.completable.id, scope)).rejects.toBeInstanceOf(InactiveLearnerError);
    await expect(client.transcripts.list(scope).toArray({ max: 1 })).rejects.toBeInstanceOf(InactiveLearnerError);
    await expect(client.transcripts.pdf(scope)).rejects.toBeInstanceOf(InactiveLearnerError);
    await client.users.reactivate(learner.uuid);
    await expect(client.modules.content(picks.completable.id, scope)).resolves.toMatchObject({
      module_id: picks.completable.id,
    });
  });

  it('ApiKeyError: an unknown API key is a 403 with empty body, sent once', async () => {
    const wrongKey = h.client({ apiKey: 'K'.repeat(40) });
    const error = await failure(wrongKey.categories.list().toArray({ max: 1 }));
    expect(error).toBeInstanceOf(ApiKeyError);
    expect(error).toMatchObject({ code: 'api_key_rejected', status: 403, retryable: false });
    await expectSingleAnswer(error, 403);
    expect(error.message).not.toContain('K'.repeat(40));
  });

  it('NetworkError when the connection keeps dropping, after the retries', async () => {
    await client.categories.list().toArray({ max: 1 });
    await h.control.setFaults({ rate: 1, statuses: [0], pathPattern: 'courses' });
    const error = await failure(client.courses.list().toArray({ max: 1 }));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: 'network_error', retryable: true });
    expect(error.status).toBeUndefined();
    expect(h.wire.calls.filter((c) => c.url.includes('/courses'))).toHaveLength(5);
  });

  it('TimeoutError when the service answers later than timeoutMs', async () => {
    // The token comes from a warm client, so only the delayed calls run under the short timeout.
    const store = new RecordingTokenStore();
    await h.client({ tokenStore: store }).categories.list().toArray({ max: 1 });
    const slow = h.client({ tokenStore: store, timeoutMs: 250, retry: { maxAttempts: 2 } });
    await h.control.setFaults({ rate: 0, statuses: [503], latencyMs: 1_500, pathPattern: 'courses' });
    const error = await failure(slow.courses.list().toArray({ max: 1 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'timeout', retryable: true });
    expect(h.wire.calls.filter((c) => c.url.includes('/courses'))).toHaveLength(2);
  });

  it('ConfigurationError for bad options, before any request', async () => {
    const c = h.creds();
    const options = {
      tokenUrl: c.tokenUrl,
      baseUrl: c.baseUrl,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      apiKey: c.apiKey,
      fetch: h.wire.fetch,
    };
    expect(() => createClient({ ...options, baseUrl: `${c.baseUrl}/` })).toThrow(ConfigurationError);
    expect(() => createClient({ ...options, tokenUrl: 'not a url' })).toThrow(ConfigurationError);
    const thrown = (() => {
      try {
        createClient({ ...options, clientSecret: '' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect((thrown as Error).message).not.toContain(c.apiKey);
    expect(h.wire.calls).toEqual([]);
  });
});

/**
 * Retried writes whose first attempt was applied although its answer was lost (emulator fault with
 * `afterCommit: true`): nothing is lost and nothing is duplicated, for register, complete, patch and delete.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../core/index.ts';
import type { PartnerLearningClient } from '../../../core/types/client-api.ts';
import { startInProcess } from '../../support/core-harness.ts';
import type { Harness } from '../../support/core-harness.ts';
import { requestsTo } from '../../support/core-control.ts';
import { firstOrganizationId, pickCatalog, registerLearner } from '../../support/core-fixtures.ts';

/** Every request matching `pathPattern` is applied and then answered 503, until the client's first backoff wait. */
async function failAfterCommitOnce(h: Harness, pathPattern: string, method?: string): Promise<void> {
  await h.control.setFaults({ rate: 1, statuses: [503], afterCommit: true, pathPattern });
  h.clock.onSleep = async () => {
    if (h.wire.responses.some((r) => r.status === 503 && (method === undefined || r.method === method))) {
      h.clock.onSleep = undefined;
      await h.control.clearFaults();
    }
  };
}

describe('writes retried after a lost answer', () => {
  let h: Harness;
  let client: PartnerLearningClient;

  beforeEach(async () => {
    h = await startInProcess();
    client = h.client();
  });

  it('register: the retry returns the learner the first attempt created; there is exactly one', async () => {
    const organizationId = await firstOrganizationId(client);
    await failAfterCommitOnce(h, 'users/register$');
    const input = { email: 'lost.answer@example.com', firstName: 'Lost', lastName: 'Answer', organizationId };
    const user = await client.users.register(input);
    const attempts = requestsTo(await h.control.requests(), /\/users\/register$/);
    expect(attempts.map((a) => a.status)).toEqual([503, 201]);
    // Registering the e-mail again finds the same learner: the failed attempt did not leave a second one.
    const again = await client.users.register(input);
    expect(again.uuid).toBe(user.uuid);
    expect((await client.users.get(user.uuid)).email).toBe(input.email);
  });

  it('complete: the retry is a no-op; the learner has exactly one completion of the module', async () => {
    const picks = await pickCatalog(h.control);
    const learner = await registerLearner(client);
    await failAfterCommitOnce(h, '/complete$');
    await client.modules.complete(picks.completable.id, { userId: learner.uuid });
    expect(requestsTo(await h.control.requests(), /\/complete$/).map((a) => a.status)).toEqual([503, 202]);
    const transcripts = await client.transcripts.list({ userId: learner.uuid }).toArray({ max: 100 });
    expect(transcripts.filter((t) => !t.isCourse)).toHaveLength(1);
  });

  it('patch: the retry converges on the patched values', async () => {
    const learner = await registerLearner(client);
    await failAfterCommitOnce(h, `/users/${learner.uuid}$`, 'PATCH');
    const patched = await client.users.update(learner.uuid, { city: 'Turin', phone: '+39 011 000000' });
    expect(patched).toMatchObject({ city: 'Turin', phone: '+39 011 000000' });
    const patches = requestsTo(await h.control.requests(), new RegExp(`/users/${learner.uuid}$`)).filter(
      (r) => r.method === 'PATCH',
    );
    expect(patches.map((a) => a.status)).toEqual([503, 200]);
    expect(await client.users.get(learner.uuid)).toMatchObject({ city: 'Turin', phone: '+39 011 000000' });
  });

  it('delete: the retry finds the learner gone (404) and the delete resolves', async () => {
    const learner = await registerLearner(client);
    await failAfterCommitOnce(h, `/users/${learner.uuid}$`, 'DELETE');
    await expect(client.users.delete(learner.uuid)).resolves.toBeUndefined();
    const deletes = requestsTo(await h.control.requests(), new RegExp(`/users/${learner.uuid}$`)).filter(
      (r) => r.method === 'DELETE',
    );
    expect(deletes.map((a) => a.status)).toEqual([503, 404]);
    await expect(client.users.get(learner.uuid)).rejects.toBeInstanceOf(NotFoundError);
  });
});

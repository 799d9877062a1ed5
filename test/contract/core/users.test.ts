/**
 * Users through the client against the emulator: register (idempotent), get, merge-patch update, deactivate,
 * reactivate, delete.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../core/index.ts';
import type { PartnerLearningClient } from '../../../core/types/client-api.ts';
import { startInProcess } from '../../support/core-harness.ts';
import type { Harness } from '../../support/core-harness.ts';
import { requestsTo } from '../../support/core-control.ts';
import { firstOrganizationId, registerLearner } from '../../support/core-fixtures.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe('users through the client', () => {
  let h: Harness;
  let client: PartnerLearningClient;

  beforeEach(async () => {
    h = await startInProcess();
    client = h.client();
  });

  it('registers a learner: a 36-character uuid, status active, the fields sent', async () => {
    const organizationId = await firstOrganizationId(client);
    const user = await client.users.register({
      email: 'grace.hopper@example.com',
      firstName: 'Grace',
      lastName: 'Hopper',
      organizationId,
    });
    expect(user.uuid).toMatch(UUID);
    expect(user.uuid).toHaveLength(36);
    expect(user).toMatchObject({ email: 'grace.hopper@example.com', firstName: 'Grace', lastName: 'Hopper', organizationId });
    expect(user.status).toBe('active');
    const registers = requestsTo(await h.control.requests(), /\/v1\/users\/register$/);
    expect(registers.map((r) => [r.method, r.status])).toEqual([['POST', 201]]);
  });

  it('registration is idempotent per e-mail: the same learner comes back, unchanged', async () => {
    const first = await registerLearner(client, { email: 'same.person@example.com', firstName: 'First' });
    const again = await registerLearner(client, { email: 'same.person@example.com', firstName: 'Second' });
    expect(again.uuid).toBe(first.uuid);
    expect(again.firstName).toBe('First');
    expect(again.createdAt).toBe(first.createdAt);
  });

  it('gets the profile by uuid', async () => {
    const user = await registerLearner(client);
    const fetched = await client.users.get(user.uuid);
    expect(fetched.uuid).toBe(user.uuid);
    expect(fetched.email).toBe(user.email);
  });

  it('updates with a merge patch: only the fields sent change, and the same patch converges', async () => {
    const user = await registerLearner(client, { lastName: 'Kept' });
    const patched = await client.users.update(user.uuid, { city: 'Lyon', countryCode: 'FR' });
    expect(patched).toMatchObject({ city: 'Lyon', countryCode: 'FR', lastName: 'Kept', uuid: user.uuid });
    const twice = await client.users.update(user.uuid, { city: 'Lyon', countryCode: 'FR' });
    expect(twice).toMatchObject({ city: 'Lyon', countryCode: 'FR', lastName: 'Kept' });
    expect(await client.users.get(user.uuid)).toMatchObject({ city: 'Lyon', countryCode: 'FR' });
    const patches = requestsTo(await h.control.requests(), new RegExp(`/v1/users/${user.uuid}$`)).filter(
      (r) => r.method === 'PATCH',
    );
    // 200s prove the client sent application/merge-patch+json: the service rejects any other content type.
    expect(patches.map((r) => r.status)).toEqual([200, 200]);
  });

  it('deactivates and reactivates', async () => {
    const user = await registerLearner(client);
    expect((await client.users.deactivate(user.uuid)).status).toBe('inactive');
    expect((await client.users.get(user.uuid)).status).toBe('inactive');
    expect((await client.users.reactivate(user.uuid)).status).toBe('active');
    expect((await client.users.get(user.uuid)).status).toBe('active');
  });

  it('deletes: resolves, then get answers NotFoundError', async () => {
    const user = await registerLearner(client);
    await expect(client.users.delete(user.uuid)).resolves.toBeUndefined();
    await expect(client.users.get(user.uuid)).rejects.toBeInstanceOf(NotFoundError);
    const deletes = requestsTo(await h.control.requests(), /\/v1\/users\//).filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.status)).toEqual([204]);
  });

  it('deleting a learner that is already gone, on a first attempt, is a NotFoundError', async () => {
    const user = await registerLearner(client);
    await client.users.delete(user.uuid);
    await expect(client.users.delete(user.uuid)).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });
});

import { describe, it, expect } from 'vitest';
import { clientOnTransport } from './client.ts';
import { fakeTransport } from '../test/support/fake-transport.ts';

describe('clientOnTransport', () => {
  it('ping sends GET /ping with the API key only', async () => {
    const transport = fakeTransport(() => ({ data: { status: 'healthy', checks: { db: 'ok' } } }));
    const client = clientOnTransport(transport, 'sandbox');
    expect(await client.ping()).toEqual({ status: 'healthy', checks: { db: 'ok' } });
    expect(transport.requests).toEqual([{ method: 'GET', path: '/ping', auth: 'apiKeyOnly', signal: undefined }]);
    expect(client.environment).toBe('sandbox');
  });

  it('wires every resource group to the one transport', async () => {
    const transport = fakeTransport(() => ({ data: { id: 1 } }));
    const client = clientOnTransport(transport);
    await client.organizations.get(1);
    await client.categories.get(1);
    await client.courses.get(1);
    await client.modules.get(1);
    await client.users.get('3f2504e0-4f89-41d3-9a0c-0305e82c3301');
    await client.progress.get(1, { userId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' });
    await client.transcripts.get(1, { userId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' });
    expect(transport.requests.map((r) => r.path)).toEqual([
      '/organizations/1',
      '/categories/1',
      '/courses/1',
      '/modules/1',
      '/users/3f2504e0-4f89-41d3-9a0c-0305e82c3301',
      '/course-progresses/1',
      '/transcripts/1',
    ]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulatorServer, type EmulatorServer } from '../../emulator/server.ts';
import { searchModules } from '../../nodes/PartnerLearning/methods/listSearch.ts';
import { loadOptionsContext, outputJson, runChain, type StoredCredential } from './support/workflow-harness.ts';

const rl = (value: number | string) => ({ __rl: true, mode: 'id', value: String(value) });
let server: EmulatorServer;

function credential(): StoredCredential {
  const sandbox = server.emulator.partners(server.origin)[0]!.environments.sandbox;
  return {
    tokenRequests: 0,
    data: {
      tokenUrl: sandbox.tokenUrl, baseUrl: sandbox.baseUrl, clientId: sandbox.clients[0]!.clientId,
      clientSecret: sandbox.clients[0]!.clientSecret, apiKey: sandbox.apiKey, scope: 'readWrite', accessToken: '',
    },
  };
}

beforeAll(async () => {
  server = await startEmulatorServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

describe("workflows on n8n-core's WorkflowExecute (n8n's HTTP helpers, emulator on a socket)", () => {
  it('onboarding chain: register, the course, the first module link; one token for the whole run', async () => {
    const stored = credential();
    const run = await runChain(stored, [
      { name: 'Register', parameters: { resource: 'user', operation: 'register', email: 'wf.ada@example.com', firstName: 'Ada', lastName: 'Lovelace', organizationId: rl(1), additionalFields: {} } },
      { name: 'Course', parameters: { resource: 'course', operation: 'get', courseId: rl(1) } },
      { name: 'Link', parameters: { resource: 'content', operation: 'get', moduleId: rl('={{ $json.modules[0].id }}'), userId: "={{ $('Register').item.json.uuid }}" } },
    ]);
    expect(run.data.resultData.error).toBeUndefined();
    const [learner] = outputJson(run, 'Register');
    expect(learner!.email).toBe('wf.ada@example.com');
    const [link] = outputJson(run, 'Link');
    expect(link).toMatchObject({ module_id: 1 });
    expect(String(link!.content_url)).toMatch(/^https?:\/\//);
    expect(stored.tokenRequests).toBe(1);
  });

  it('after the stored token is rejected (401), n8n fetches a new one through preAuthentication and retries', async () => {
    const stored = credential();
    stored.data.accessToken = 'not-a-valid-token';
    const run = await runChain(stored, [
      { name: 'Organizations', parameters: { resource: 'organization', operation: 'getAll', returnAll: false, limit: 2 } },
    ]);
    expect(run.data.resultData.error).toBeUndefined();
    expect(outputJson(run, 'Organizations')).toHaveLength(2);
    expect(stored.tokenRequests).toBe(1);
    expect(stored.data.accessToken).not.toBe('not-a-valid-token');
  });

  it('a failing item with "continue" error output keeps the contract shape and the run goes on', async () => {
    const run = await runChain(credential(), [
      { name: 'Missing', parameters: { resource: 'module', operation: 'get', moduleId: rl(424242) }, onError: 'continueRegularOutput' },
      { name: 'Categories', parameters: { resource: 'category', operation: 'getAll', returnAll: true }, executeOnce: true },
    ]);
    expect(outputJson(run, 'Missing')).toEqual([expect.objectContaining({ code: 'not_found', status: 404 })]);
    expect(outputJson(run, 'Categories')).toHaveLength(5);
  });

  it('without it, the run stops with the node error and the item index', async () => {
    const run = await runChain(credential(), [
      { name: 'Bad', parameters: { resource: 'user', operation: 'get', userId: 'not-a-uuid' } },
    ]);
    const error = run.data.resultData.error as { message?: string; context?: { itemIndex?: number }; description?: string } | undefined;
    expect(error?.message).toMatch(/uuid/i);
    expect(error?.context?.itemIndex).toBe(0);
  });

  it("module list search in n8n-core's load-options context: only the course chosen in the editor's parameters", async () => {
    const ctx = loadOptionsContext(credential(), { resource: 'content', operation: 'get', courseId: { __rl: true, mode: 'list', value: '2' } });
    const only = await searchModules.call(ctx);
    expect(only.results.map((r) => r.value)).toEqual(['4', '5', '6']);
    expect(only.paginationToken).toBeUndefined();
  });
});

/**
 * A partner backend's journey through the relay (issue 18): every answer must have a status and media type that
 * the relay's own OpenAPI document lists for that operation.
 */
import { describe, expect, it } from 'vitest';
import { createRelay } from '../../edge/app.ts';
import { openApiPath, relayOpenApiDocument } from '../../edge/openapi/document.ts';
import { createEmulator } from '../../emulator/index.ts';

const KEY = 'unit-relay-key-0123456789abcdefghijklmnopqrstu';
type Responses = Record<string, { content?: Record<string, unknown> }>;
const doc = relayOpenApiDocument() as { paths: Record<string, Record<string, { responses: Responses }>> };

function relay() {
  const emu = createEmulator();
  const env = emu.partners('http://emulator.test')[0]!.environments.sandbox;
  return createRelay({
    settings: {
      PARTNER_LEARNING_TOKEN_URL: env.tokenUrl, PARTNER_LEARNING_BASE_URL: env.baseUrl,
      PARTNER_LEARNING_CLIENT_ID: env.clients[0]!.clientId, PARTNER_LEARNING_CLIENT_SECRET: env.clients[0]!.clientSecret,
      PARTNER_LEARNING_API_KEY: env.apiKey, ALLOWED_ORIGINS: '', RELAY_KEYS: KEY, LEARNER_TOKEN_SECRET: 'unit-learner-secret-0123456789abcdefghijklmno',
    },
    fetch: (input, init) => emu.fetch(input as Request, init),
    retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
  });
}

describe('journey answers are documented', () => {
  it('register, learner token, catalog, content, completion, transcript PDF', async () => {
    const app = relay();
    const call = async (method: string, pattern: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const res = await app.request(path, {
        method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const responses = doc.paths[openApiPath(pattern)]?.[method.toLowerCase()]?.responses ?? {};
      const documented = responses[String(res.status)];
      expect(documented, `${method} ${path} answered an undocumented ${res.status}`).toBeDefined();
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!;
      if (documented?.content) expect(Object.keys(documented.content), `${method} ${path}`).toContain(type);
      return res;
    };
    const backend = { 'x-relay-key': KEY };
    const orgsText = await (await call('GET', '/v1/organizations', '/v1/organizations', backend)).text();
    const orgs = JSON.parse(orgsText) as { 'hydra:member': { id: number }[] };
    const user = (await (await call('POST', '/v1/users/register', '/v1/users/register', backend, {
      email: 'journey@example.com', firstName: 'Ada', lastName: 'Lovelace', organizationId: orgs['hydra:member'][0]!.id,
    })).json()) as { uuid: string };
    const minted = await call('POST', '/v1/learner-tokens', '/v1/learner-tokens', backend, { userId: user.uuid });
    expect(minted.status).toBe(201);
    const learner = { authorization: `Bearer ${((await minted.json()) as { token: string }).token}` };
    const modules = (await (await call('GET', '/v1/modules', '/v1/modules', learner)).json()) as { 'hydra:member': { id: number }[] };
    const id = modules['hydra:member'][0]!.id;
    await call('GET', '/v1/courses', '/v1/courses', learner);
    await call('GET', '/v1/modules/:id/content', `/v1/modules/${id}/content`, learner);
    await call('POST', '/v1/modules/:id/complete', `/v1/modules/${id}/complete`, learner);
    await call('GET', '/v1/transcript/pdf', '/v1/transcript/pdf', learner);
    await call('GET', '/v1/modules/:id', '/v1/modules/0', learner);
    await call('GET', '/v1/me', '/v1/me', backend);
  });
});

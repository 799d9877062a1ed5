import { describe, expect, it } from 'vitest';
import { createEmulator } from './index.ts';
import { SERVICE_OPERATIONS } from './openapi-operations.ts';

type Doc = { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, { operationId: string }>>; components: { schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }> } };

describe('the emulator\'s OpenAPI document (GET /{env}/v1/docs.json)', () => {
  it('is served without credentials, as 3.1 and (spec_version=3.0.0) as 3.0, naming this origin and environment', async () => {
    const emu = createEmulator();
    const res = await emu.fetch(new Request('http://emu.test/sandbox/v1/docs.json'));
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]!.url).toBe('http://emu.test/sandbox/v1');
    const old = (await (await emu.fetch(new Request('http://emu.test/production/v1/docs.json?spec_version=3.0.0'))).json()) as Doc;
    expect(old.openapi).toBe('3.0.3');
    expect(JSON.stringify(old)).not.toContain('"examples"');
    expect((await emu.fetch(new Request('http://emu.test/staging/v1/docs.json'))).status).toBe(404);
  });

  it('describes records field by field, from the core\'s models', async () => {
    const doc = (await (await createEmulator().fetch(new Request('http://emu.test/sandbox/v1/docs.json'))).json()) as Doc;
    expect(doc.components.schemas['User']!.required).toEqual(expect.arrayContaining(['uuid', 'email', 'organizationId', 'status']));
    expect(Object.keys(doc.components.schemas['ModuleContent']!.properties!)).toEqual(expect.arrayContaining(['module_id', 'content_url', 'expires_at']));
    expect(doc.components.schemas['RegisterUser']!.required).toEqual(['email', 'firstName', 'lastName', 'organizationId']);
  });

  it('lists exactly the API routes the emulator serves under /{env}/v1', () => {
    const emu = createEmulator();
    const served = emu.app.routes
      .filter((r) => r.path.startsWith('/:env/v1/') && !/docs\.json|contexts|\*/.test(r.path) && r.method !== 'ALL' && r.method !== 'OPTIONS')
      .map((r) => `${r.method} ${r.path.replace('/:env/v1', '').replace(/:(\w+)/g, '{$1}')}`);
    const documented = SERVICE_OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect([...new Set(served)].sort()).toEqual([...documented].sort());
  });
});

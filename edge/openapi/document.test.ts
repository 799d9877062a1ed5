import { describe, expect, it } from 'vitest';
import { MAX_LIFETIME_SECONDS, MIN_TTL_SECONDS } from '../learner-token.ts';
import { routes } from '../routes.ts';
import { openApiPath, relayOpenApiDocument } from './document.ts';
import { operationDocs } from './operations.ts';

describe('relay OpenAPI document', () => {
  const doc = relayOpenApiDocument() as { openapi: string; paths: Record<string, Record<string, { operationId: string; security: unknown[] }>> };

  it('is OpenAPI 3.1 and describes every route and method of the route table, and nothing else', () => {
    expect(doc.openapi).toBe('3.1.0');
    const served = routes.flatMap((r) => Object.keys(r.methods).map((m) => `${m} ${openApiPath(r.path)}`)).sort();
    const described = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`)).sort();
    expect(described).toEqual(served);
    expect(Object.keys(operationDocs).sort()).toEqual(served);
  });

  it('fails loudly when a route has no description', () => {
    routes.push({ path: '/v1/undocumented', methods: { GET: { access: 'backend', run: () => Promise.resolve(new Response()) } } });
    try {
      expect(() => relayOpenApiDocument()).toThrow(/No OpenAPI description for GET \/v1\/undocumented/);
    } finally {
      routes.pop();
    }
  });

  it('has unique operationIds and a security requirement on every operation', () => {
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    for (const o of ops) expect(o.security.length).toBeGreaterThan(0);
  });

  it('renders bodies and records field by field from the schemas the relay and the core check with', () => {
    const schemas = (relayOpenApiDocument() as { components: { schemas: Record<string, { required?: string[]; properties: Record<string, Record<string, unknown>>; additionalProperties?: unknown }> } }).components.schemas;
    const token = schemas['LearnerTokenRequest']!;
    expect(token.required).toEqual(['userId']);
    expect(token.properties['ttlSeconds']).toMatchObject({ type: 'integer', minimum: MIN_TTL_SECONDS, maximum: MAX_LIFETIME_SECONDS });
    expect(schemas['RegisterUser']!.required).toEqual(['email', 'firstName', 'lastName', 'organizationId']);
    expect(schemas['RegisterUser']!.additionalProperties).toBe(false);
    expect(schemas['User']!.properties['uuid']!['pattern']).toMatch(/^\^\[0-9a-fA-F\]\{8\}/);
    expect(schemas['CourseDetail']!.properties['modules']).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Module' } });
    expect(schemas['TranscriptCollection']!.required).toEqual(['hydra:member']);
  });

  it('renders a 3.0 document of the same operations for tools that read only 3.0', () => {
    const old = relayOpenApiDocument('3.0') as typeof doc;
    expect(old.openapi).toBe('3.0.3');
    expect(Object.keys(old.paths)).toEqual(Object.keys(doc.paths));
    const text = JSON.stringify(old);
    expect(text).not.toMatch(/"examples"|"type":\["/);
  });
});

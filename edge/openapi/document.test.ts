import { describe, expect, it } from 'vitest';
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
});

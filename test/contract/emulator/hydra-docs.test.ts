/**
 * The emulator's Hydra API documentation read by API Platform's own parser, over a real socket:
 * `parseHydraDocumentation` follows the `Link` header of the entrypoint to `docs.jsonld`, expands both with jsonld
 * and lists every resource of the spec with its fields and operations.
 */
import { parseHydraDocumentation } from '@api-platform/api-doc-parser';
import type { Resource } from '@api-platform/api-doc-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openSession, readResult, startHarness } from '../../support/emulator-http.ts';
import type { Harness, Session } from '../../support/emulator-http.ts';

let h: Harness;
let s: Session;
beforeAll(async () => {
  h = await startHarness();
  s = await openSession(h, 0, 'sandbox', 'ro');
});
afterAll(async () => { await h.close(); });

const HYDRA_DOCS = 'http://www.w3.org/ns/hydra/core#apiDocumentation';

/** The spec's resources ("Resources and their fields") and the entrypoint name each is listed under. */
const SPEC_RESOURCES: Record<string, string> = {
  User: 'users',
  Organization: 'organizations',
  Category: 'categories',
  Course: 'courses',
  Module: 'modules',
  ModuleContent: 'modules/{id}/content',
  CourseProgress: 'course-progresses',
  Transcript: 'transcripts',
};

describe('Hydra API documentation (@api-platform/api-doc-parser)', () => {
  it('every API response links the documentation, as API Platform does', async () => {
    const docs = `${s.env.baseUrl}/docs.jsonld`;
    for (const path of ['', '/courses', '/courses/1', '/organizations', '/courses/999', '/transcripts']) {
      const res = await call(s, 'GET', path);
      expect(res.headers.get('link'), path).toBe(`<${docs}>; rel="${HYDRA_DOCS}"`);
    }
    const ping = await readResult(await fetch(`${s.env.baseUrl}/ping`, { headers: { 'x-api-key': s.apiKey } }));
    expect(ping.headers.get('link')).toBe(`<${docs}>; rel="${HYDRA_DOCS}"`);
    // The documentation itself needs no credentials; the gateway's own answers (no key: 403) carry no Link.
    const open = await fetch(docs);
    expect([open.status, open.headers.get('content-type')]).toEqual([200, 'application/ld+json; charset=utf-8']);
    const refused = await call(s, 'GET', '/courses', { headers: { 'x-api-key': null } });
    expect([refused.status, refused.headers.get('link')]).toEqual([403, null]);
  });

  it('parseHydraDocumentation lists every resource of the spec with its fields and operations', async () => {
    const { api, status } = await parseHydraDocumentation(s.env.baseUrl, {
      headers: new Headers({ authorization: `Bearer ${s.token}`, 'x-api-key': s.apiKey }),
    });
    expect(status).toBe(200);
    expect(api.title).toBe('Partner Learning Service (sandbox)');
    const resources = api.resources ?? [];
    const byTitle = new Map<string, Resource>(resources.map((r) => [r.title ?? '', r]));
    expect([...byTitle.keys()].sort()).toEqual(Object.keys(SPEC_RESOURCES).sort());
    for (const [title, name] of Object.entries(SPEC_RESOURCES)) {
      const r = byTitle.get(title);
      expect(r?.name, title).toBe(name);
      expect(r?.url, title).toBe(`${s.env.baseUrl}/${name}`);
      expect(r?.id, title).toBe(`${s.env.baseUrl}/docs.jsonld#${title}`);
      expect(r?.fields?.length, title).toBeGreaterThan(0);
      expect(r?.operations?.length, title).toBeGreaterThan(0);
    }
    const fields = (title: string) => (byTitle.get(title)?.fields ?? []).map((f) => f.name);
    expect(fields('Module')).toEqual(expect.arrayContaining(['id', 'passingScore', 'updatedAt', 'course']));
    expect(fields('ModuleContent')).toEqual(['module_id', 'content_type', 'content_url', 'expires_at', 'duration_seconds', 'mime_type']);
    const user = byTitle.get('User');
    expect((user?.writableFields ?? []).map((f) => f.name)).not.toContain('uuid');
    expect((user?.fields ?? []).filter((f) => f.required).map((f) => f.name).sort()).toEqual(['email', 'firstName', 'lastName', 'organizationId']);
    expect((user?.operations ?? []).map((o) => [o.type, o.method])).toEqual([['create', 'POST'], ['show', 'GET'], ['edit', 'PATCH'], ['delete', 'DELETE']]);
    expect((byTitle.get('Course')?.operations ?? []).map((o) => [o.type, o.method])).toEqual([['list', 'GET'], ['show', 'GET']]);
    // Links between resources resolve to the parsed resources.
    const courseField = byTitle.get('Module')?.fields?.find((f) => f.name === 'course');
    expect(courseField?.reference).toBe(byTitle.get('Course'));
  });

  it('each environment documents itself', async () => {
    const prod = await openSession(h, 0, 'production', 'ro');
    const { api } = await parseHydraDocumentation(prod.env.baseUrl, { headers: new Headers({ authorization: `Bearer ${prod.token}`, 'x-api-key': prod.apiKey }) });
    expect(api.title).toBe('Partner Learning Service (production)');
    expect(api.resources?.every((r) => r.url?.startsWith(`${h.origin}/production/v1/`))).toBe(true);
  });
});

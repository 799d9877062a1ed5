/**
 * Issue 18: a partner backend in TypeScript whose client is generated from the relay's OpenAPI document
 * (`openapi-typescript` → test/openapi/relay-api.d.ts, checked fresh by scripts/openapi-check.sh; `openapi-fetch`
 * at run time) runs the journey over sockets, through Prism's validating proxy in front of a relay in Node in front
 * of the emulator: register, mint a learner token, read the catalog, the learner's content, complete, transcript
 * PDF. Prism (`--errors`) turns any request or answer that breaks the document into an error, so the journey
 * passing is the document holding.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from './relay-api.d.ts';
import { prismViolations, RELAY_KEY, startStack, type Stack } from './support/stack.ts';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ prism: true });
}, 180_000);
afterAll(async () => stack?.stop());

function auth(header: string, value: string): Middleware {
  return { onRequest: ({ request }) => { request.headers.set(header, value); return request; } };
}

describe('a TypeScript client generated from the relay document', () => {
  it('runs the partner journey through Prism without a violation', async () => {
    const backend = createClient<paths>({ baseUrl: stack.origin });
    backend.use(auth('X-Relay-Key', RELAY_KEY));

    const orgs = await backend.GET('/v1/organizations', { params: { query: { itemsPerPage: '5' } } });
    expect(orgs.response.status, JSON.stringify(orgs.error)).toBe(200);
    const organizationId = orgs.data!['hydra:member'][0]!.id;

    const registered = await backend.POST('/v1/users/register', {
      body: { email: 'openapi-ts@example.com', firstName: 'Grace', lastName: 'Hopper', organizationId },
    });
    expect(registered.response.status, JSON.stringify(registered.error)).toBe(201);
    const uuid = registered.data!.uuid;
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);

    const minted = await backend.POST('/v1/learner-tokens', { body: { userId: uuid, ttlSeconds: 600 } });
    expect(minted.response.status, JSON.stringify(minted.error)).toBe(201);
    expect(minted.data!.userId).toBe(uuid);

    const learner = createClient<paths>({ baseUrl: stack.origin });
    learner.use(auth('Authorization', `Bearer ${minted.data!.token}`));
    const me = await learner.GET('/v1/me');
    expect(me.data?.email).toBe('openapi-ts@example.com');

    const courses = await learner.GET('/v1/courses');
    expect(courses.response.status).toBe(200);
    const course = await learner.GET('/v1/courses/{id}', { params: { path: { id: String(courses.data!['hydra:member'][0]!.id) } } });
    expect(course.response.status, JSON.stringify(course.error)).toBe(200);
    const module = course.data!.modules.find((m) => m.contentType !== 'scorm')!;

    const content = await learner.GET('/v1/modules/{id}/content', { params: { path: { id: String(module.id) } } });
    expect(content.response.status, JSON.stringify(content.error)).toBe(200);
    expect(content.data!.content_url).toMatch(/^http/);

    const completed = await learner.POST('/v1/modules/{id}/complete', { params: { path: { id: String(module.id) } }, parseAs: 'text' });
    expect(completed.response.status, JSON.stringify(completed.error)).toBe(202);

    const transcripts = await backend.GET('/v1/transcripts', { params: { header: { 'X-User-ID': uuid } } });
    expect(transcripts.data!['hydra:member'].some((t) => t.moduleId === module.id)).toBe(true);

    const pdf = await learner.GET('/v1/transcript/pdf', { parseAs: 'arrayBuffer' });
    expect(pdf.response.status).toBe(200);
    expect(pdf.response.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(new TextDecoder().decode(new Uint8Array(pdf.data!).slice(0, 5))).toBe('%PDF-');

    expect(prismViolations(stack.prismLines)).toEqual([]);
  }, 120_000);
});

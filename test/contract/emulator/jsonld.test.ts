/**
 * API bodies expanded by the `jsonld` library over a real socket: the `@context` IRIs in collections, items, the
 * entrypoint and errors resolve at `/{env}/v1/contexts/{Resource}`, fetched by jsonld's own node document loader
 * without any credentials (the contexts are public, as API Platform serves them). That loader is jsonld's default
 * in Node and takes http on loopback unless its `secure` option is set, so the test configures nothing.
 */
import jsonld from 'jsonld';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, openSession, resetHarness, startHarness } from '../../support/emulator-http.ts';
import type { Harness, Session } from '../../support/emulator-http.ts';
import { moduleOfType, readCatalog, registerLearner } from '../../support/emulator-fixtures.ts';

let h: Harness;
let s: Session;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await resetHarness(h);
  s = await openSession(h);
});

const HYDRA = 'http://www.w3.org/ns/hydra/core#';
type Node = Record<string, { '@value'?: unknown; '@id'?: string }[] | string[] | string | undefined> & { '@id'?: string; '@type'?: string[] };

/** Fetches an API body with credentials, then expands it the way a partner's JSON-LD code would. */
async function expand(path: string, userId?: string): Promise<{ doc: Record<string, unknown>; expanded: Node[]; url: string }> {
  const res = await call(s, 'GET', path, userId ? { userId } : {});
  expect(res.status, path).toBe(200);
  const url = `${s.env.baseUrl}${path}`;
  const doc = res.body as Record<string, unknown>;
  const expanded = (await jsonld.expand(doc as jsonld.JsonLdDocument, { base: url })) as Node[];
  return { doc, expanded, url };
}

const value = (node: Node | undefined, iri: string) => (node?.[iri] as { '@value'?: unknown }[] | undefined)?.[0]?.['@value'];

describe('jsonld.expand of API bodies', () => {
  it('a collection: members become typed nodes with absolute @id and vocabulary IRIs from docs.jsonld', async () => {
    const vocab = `${s.env.baseUrl}/docs.jsonld#`;
    const { doc, expanded } = await expand('/courses?itemsPerPage=2');
    expect(doc['@context']).toBe('/sandbox/v1/contexts/Course');
    const [collection] = expanded;
    expect(collection?.['@type']).toEqual([`${HYDRA}Collection`]);
    expect(value(collection, `${HYDRA}totalItems`)).toBe((doc['hydra:totalItems'] as number));
    const members = collection?.[`${HYDRA}member`] as Node[];
    expect(members).toHaveLength(2);
    const first = members[0];
    expect(first?.['@id']).toBe(`${h.origin}/sandbox/v1/courses/1`);
    expect(first?.['@type']).toEqual([`${vocab}Course`]);
    expect(value(first, `${vocab}Course/title`)).toBe('Workplace Safety Essentials');
    expect((first?.[`${vocab}Course/category`] as { '@id': string }[])[0]?.['@id']).toBe(`${h.origin}/sandbox/v1/categories/2`);
  });

  it('items of every kind: course detail, module, organization, user, progress, transcript, module content', async () => {
    const vocab = `${s.env.baseUrl}/docs.jsonld#`;
    const learner = await registerLearner(s);
    const video = moduleOfType(await readCatalog(h.origin), 'video');
    await call(s, 'GET', `/modules/${video}/content`, { userId: learner.uuid });
    expect((await call(s, 'POST', `/modules/${video}/complete`, { userId: learner.uuid })).status).toBe(202);
    const progressId = ((await call(s, 'GET', '/course-progresses', { userId: learner.uuid })).body as { 'hydra:member': { id: number }[] })['hydra:member'][0]?.id;
    const transcriptId = ((await call(s, 'GET', '/transcripts', { userId: learner.uuid })).body as { 'hydra:member': { id: number }[] })['hydra:member'][0]?.id;

    const cases: [string, string, string, unknown][] = [
      ['/courses/1', 'Course', 'title', 'Workplace Safety Essentials'],
      [`/modules/${video}`, 'Module', 'contentType', 'video'],
      ['/organizations/1', 'Organization', 'countryCode', 'US'],
      [`/users/${learner.uuid}`, 'User', 'email', learner.email],
      [`/course-progresses/${progressId}`, 'CourseProgress', 'status', 'in_progress'],
      [`/transcripts/${transcriptId}`, 'Transcript', 'moduleId', video],
      [`/modules/${video}/content`, 'ModuleContent', 'module_id', video],
    ];
    for (const [path, type, field, expected] of cases) {
      const { doc, expanded } = await expand(path, learner.uuid);
      expect(doc['@context'], path).toBe(`/sandbox/v1/contexts/${type}`);
      expect(expanded[0]?.['@type'], path).toEqual([`${vocab}${type}`]);
      expect(value(expanded[0], `${vocab}${type}/${field}`), path).toBe(expected);
    }
  });

  it('the entrypoint and an error expand too; an unknown context is 404', async () => {
    const vocab = `${s.env.baseUrl}/docs.jsonld#`;
    const { expanded } = await expand('');
    expect((expanded[0]?.[`${vocab}Entrypoint/course`] as { '@id': string }[])[0]?.['@id']).toBe(`${h.origin}/sandbox/v1/courses`);

    const missing = await call(s, 'GET', '/courses/999');
    expect(missing.status).toBe(404);
    expect((missing.body as Record<string, unknown>)['@context']).toBe('/sandbox/v1/contexts/Error');
    const error = (await jsonld.expand(missing.body as jsonld.JsonLdDocument, { base: `${s.env.baseUrl}/courses/999` })) as Node[];
    expect(error[0]?.['@type']).toEqual([`${HYDRA}Error`]);
    expect(value(error[0], `${HYDRA}description`)).toBe('Course not found.');

    expect((await fetch(`${s.env.baseUrl}/contexts/Nothing`)).status).toBe(404);
    expect((await fetch(`${h.origin}/contexts/Course`)).status, 'contexts live under /{env}/v1 only').toBe(404);
  });
});

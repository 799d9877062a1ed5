import { describe, expect, it } from 'vitest';
import { RESOURCES } from './api-model.ts';
import { ORIGIN, testBed } from '../test/support/emulator-testbed.ts';

const LINK = `<${ORIGIN}/sandbox/v1/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`;

describe('Hydra documentation and contexts', () => {
  it('docs.jsonld lists a class per resource, each field a property of it, and the entrypoint class', async () => {
    const t = testBed();
    const res = await t.send('/sandbox/v1/docs.jsonld');
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(LINK);
    const docs = (await res.json()) as { '@context': Record<string, unknown>; 'hydra:supportedClass': { '@id': string; 'hydra:supportedProperty': { 'hydra:property': { '@id': string } }[] }[] };
    expect(docs['@context']['@vocab']).toBe(`${ORIGIN}/sandbox/v1/docs.jsonld#`);
    const classes = docs['hydra:supportedClass'];
    expect(classes.map((c) => c['@id'])).toEqual([...RESOURCES.map((r) => `#${r.name}`), '#Entrypoint']);
    for (const r of RESOURCES) {
      const properties = classes.find((c) => c['@id'] === `#${r.name}`)?.['hydra:supportedProperty'].map((p) => p['hydra:property']['@id']);
      expect(properties).toEqual(r.fields.map((f) => `#${r.name}/${f.name}`));
    }
    expect((await t.send('/staging/v1/docs.jsonld')).status).toBe(404);
    const head = await t.send('/sandbox/v1/docs.jsonld', { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    for (const path of ['/sandbox/v1/docs.jsonld', '/sandbox/v1/contexts/Course']) {
      const options = await t.send(path, { method: 'OPTIONS' });
      expect([options.status, options.headers.get('allow')], path).toEqual([204, 'GET, HEAD, OPTIONS']);
    }
    expect((await t.send('/sandbox/v1/docs.jsonld', { method: 'POST' })).status, 'other methods meet the gateway').toBe(403);
  });

  it('each context maps the fields the bodies carry; links are typed @id; unknown names are 404', async () => {
    const t = testBed();
    const context = async (name: string) => ((await (await t.send(`/production/v1/contexts/${name}`)).json()) as { '@context': Record<string, unknown> })['@context'];
    const course = await context('Course');
    expect(course.title).toBe('Course/title');
    expect(course.category).toEqual({ '@id': 'Course/category', '@type': '@id' });
    expect(course['@vocab']).toBe(`${ORIGIN}/production/v1/docs.jsonld#`);
    const body = (await (await t.api('/courses/1')).json()) as Record<string, unknown>;
    const fields = Object.keys(body).filter((k) => !k.startsWith('@'));
    expect(fields.filter((k) => !(k in course))).toEqual([]);
    expect(Object.keys(await context('Entrypoint'))).toContain('moduleContent');
    expect((await t.send('/production/v1/contexts/Nope')).status).toBe(404);
  });

  it('the entrypoint is an API resource: behind the gateway, one IRI per resource', async () => {
    const t = testBed();
    expect((await t.send('/sandbox/v1')).status).toBe(403);
    const res = await t.api('');
    expect(res.headers.get('link')).toBe(LINK);
    expect(await res.json()).toMatchObject({ '@context': '/sandbox/v1/contexts/Entrypoint', '@id': '/sandbox/v1', '@type': 'Entrypoint', course: '/sandbox/v1/courses', user: '/sandbox/v1/users' });
  });

  it('errors of the application point at this environment\'s Error context and carry the Link; the gateway\'s do not', async () => {
    const t = testBed();
    const denied = await t.api('/users/register', { method: 'POST', scope: 'partner-api/read', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(denied.status).toBe(403);
    expect(denied.headers.get('link')).toBe(LINK);
    expect(((await denied.json()) as Record<string, unknown>)['@context']).toBe('/sandbox/v1/contexts/Error');
    const unrouted = await t.api('/nowhere');
    expect([unrouted.status, unrouted.headers.get('link')]).toEqual([404, LINK]);
    const unauthorized = await t.api('/courses', { headers: { authorization: 'Bearer a.b.c' } });
    expect([unauthorized.status, unauthorized.headers.get('link')]).toEqual([401, null]);
  });
});

/**
 * The three third-party libraries against the emulator as `npm run emulator` starts it (the CLI as a child
 * process), unchanged: openid-client discovery and grant, api-doc-parser, jsonld.expand; and a catalog change made
 * through the control interface seen by a delta sync. The per-library suites beside this file go into detail.
 */
import { parseHydraDocumentation } from '@api-platform/api-doc-parser';
import jsonld from 'jsonld';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../../support/emulator-cli.ts';
import type { CliEmulator } from '../../support/emulator-cli.ts';
import { call, control, READ } from '../../support/emulator-http.ts';
import type { Session } from '../../support/emulator-http.ts';
import { Partners } from '../../support/emulator-schemas.ts';

let cli: CliEmulator;
let s: Session;
beforeAll(async () => {
  cli = await startCli();
  const env = Partners.parse((await control(cli.origin, 'GET', '/_emulator/partners')).body)[0]?.environments.sandbox;
  const client = env?.clients[1];
  if (!env || !client) throw new Error('no sandbox credentials');
  const config = await oidc.discovery(new URL(`${cli.origin}/sandbox/idp`), client.clientId, undefined, oidc.ClientSecretBasic(client.clientSecret), {
    execute: [oidc.allowInsecureRequests],
  });
  const tokens = await oidc.clientCredentialsGrant(config, { scope: READ });
  s = { origin: cli.origin, env, apiKey: env.apiKey, token: tokens.access_token };
}, 40_000);
afterAll(async () => { await cli.stop(); });

describe('third-party libraries against npm run emulator', () => {
  it('a token from openid-client discovery opens the API; api-doc-parser lists the eight resources', async () => {
    expect((await call(s, 'GET', '/courses')).status).toBe(200);
    const { api } = await parseHydraDocumentation(s.env.baseUrl, { headers: new Headers({ authorization: `Bearer ${s.token}`, 'x-api-key': s.apiKey }) });
    expect(api.resources?.map((r) => r.title).sort()).toEqual(['Category', 'Course', 'CourseProgress', 'Module', 'ModuleContent', 'Organization', 'Transcript', 'User']);
  });

  it('jsonld.expand of a collection; a catalog change through the control interface reaches a delta sync', async () => {
    const list = await call(s, 'GET', '/courses');
    const [expanded] = (await jsonld.expand(list.body as jsonld.JsonLdDocument, { base: `${s.env.baseUrl}/courses` })) as Record<string, unknown>[];
    expect(expanded?.['@type']).toEqual(['http://www.w3.org/ns/hydra/core#Collection']);

    const mark = ((await control(cli.origin, 'GET', '/_emulator/clock')).body as { now: string }).now;
    expect((await control(cli.origin, 'PATCH', '/_emulator/catalog/courses/2', { title: 'Data Protection 2027' })).status).toBe(200);
    const delta = await call(s, 'GET', `/courses?updatedAt[after]=${encodeURIComponent(mark)}`);
    expect((delta.body as { 'hydra:member': { id: number; title: string }[] })['hydra:member'].map((c) => [c.id, c.title])).toEqual([[2, 'Data Protection 2027']]);
  });
});

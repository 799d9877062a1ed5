/**
 * The page API, date filters and onResponse against the in-process emulator: what the relay and the n8n list
 * search rely on, checked on the real Hydra answers rather than on hand-written pages.
 */
import { describe, it, expect } from 'vitest';
import { createEmulator } from '../../emulator/index.ts';
import { MemoryTokenStore } from '../auth/memory-token-store.ts';
import { createClient } from '../client.ts';
import type { ResponseInfo } from '../types/calls.ts';
import type { Module } from '../types/records.ts';

const origin = 'http://emulator.test';
const emulator = createEmulator({ seed: 5 });
const env = emulator.partners(origin)[0]!.environments.sandbox;
const client = createClient({
  tokenUrl: env.tokenUrl,
  baseUrl: env.baseUrl,
  clientId: env.clients[0]!.clientId,
  clientSecret: env.clients[0]!.clientSecret,
  apiKey: env.apiKey,
  fetch: (input, init) => emulator.fetch(input, init),
  now: () => emulator.now(),
  tokenStore: new MemoryTokenStore(),
});

describe('page API against the emulator', () => {
  it('walking page() by cursor yields what list() yields', async () => {
    const all = await client.modules.list({ pageSize: 100 }).toArray({ max: 10_000 });
    const walked: Module[] = [];
    let page = await client.modules.page({ pageSize: 3 });
    walked.push(...page.items);
    let pages = 1;
    while (page.next !== undefined) {
      page = await client.modules.page({ cursor: page.next });
      walked.push(...page.items);
      pages += 1;
    }
    expect(all.length).toBeGreaterThan(3);
    expect(pages).toBe(Math.ceil(all.length / 3));
    expect(walked.map((m) => m.id)).toEqual(all.map((m) => m.id));
    expect(page.totalItems).toBe(all.length);
  });

  it('page: n gives the nth page', async () => {
    const all = await client.courses.list({ pageSize: 100 }).toArray({ max: 10_000 });
    const second = await client.courses.page({ pageSize: 1, page: 2 });
    expect(second.items.map((c) => c.id)).toEqual([all[1]!.id]);
  });

  it('the date filters bound updatedAt as API Platform does (inclusive and strict)', async () => {
    const all = await client.modules.list({ pageSize: 100 }).toArray({ max: 10_000 });
    const at = [...all].sort((a, b) => Date.parse(a.updatedAt!) - Date.parse(b.updatedAt!))[Math.floor(all.length / 2)]!
      .updatedAt!;
    const count = async (options: Record<string, string>) =>
      (await client.modules.list({ pageSize: 100, ...options }).toArray({ max: 10_000 })).length;
    const ms = Date.parse(at);
    const expected = (keep: (t: number) => boolean) => all.filter((m) => keep(Date.parse(m.updatedAt!))).length;
    expect(await count({ updatedAfter: at })).toBe(expected((t) => t >= ms));
    expect(await count({ updatedStrictlyAfter: at })).toBe(expected((t) => t > ms));
    expect(await count({ updatedBefore: at })).toBe(expected((t) => t <= ms));
    expect(await count({ updatedStrictlyBefore: at })).toBe(expected((t) => t < ms));
  });

  it('onResponse hands over the whole Hydra page, the request id and allowlisted headers', async () => {
    const seen: ResponseInfo[] = [];
    await client.categories.page({ pageSize: 1, onResponse: (r) => seen.push(r) });
    expect(seen).toHaveLength(1);
    const [info] = seen;
    expect(info!.status).toBe(200);
    expect(info!.requestId).toBeTruthy();
    expect(info!.headers['x-request-id']).toBe(info!.requestId);
    expect(info!.headers['content-type']).toMatch(/json/);
    expect(Object.keys(info!.headers).every((h) => h === h.toLowerCase())).toBe(true);
    const body = info!.body as Record<string, unknown>;
    expect(body['hydra:member']).toHaveLength(1);
    expect(body['hydra:view']).toMatchObject({ 'hydra:next': expect.any(String) });
  });
});

describe('forLearner against the emulator', () => {
  it('runs the learner calls with X-User-ID bound once', async () => {
    const [org] = await client.organizations.list().toArray({ max: 1 });
    const user = await client.users.register({
      email: 'bound@example.com', firstName: 'Bound', lastName: 'Learner', organizationId: org!.id,
    });
    const learner = client.forLearner(user.uuid);
    expect((await learner.me()).email).toBe('bound@example.com');
    const video = (await client.modules.list({ pageSize: 100 }).toArray({ max: 1000 })).find(
      (m) => m.contentType !== 'scorm',
    )!;
    expect((await learner.modules.content(video.id)).module_id).toBe(video.id);
    await learner.modules.complete(video.id);
    const transcripts = await learner.transcripts.page();
    expect(transcripts.items.length).toBeGreaterThan(0);
    expect((await learner.progress.list().toArray({ max: 10 })).length).toBeGreaterThan(0);
  });
});

/**
 * A smoke test of the whole chain in one process: createClient -> pipeline -> the emulator's fetch. The contract
 * suites under test/ go much further; this proves the two halves of the core fit together.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { createEmulator } from '../emulator/index.ts';
import { MemoryTokenStore } from './auth/memory-token-store.ts';
import { createClient } from './client.ts';
import { ConflictError, InactiveLearnerError, NotFoundError, ValidationError } from './errors/index.ts';
import type { Module } from './types/records.ts';

const origin = 'http://emulator.test';
const emulator = createEmulator({ seed: 11 });
const [partner] = emulator.partners(origin);
const env = partner!.environments.sandbox;
const rw = env.clients[0]!;

const client = createClient({
  tokenUrl: env.tokenUrl,
  baseUrl: env.baseUrl,
  clientId: rw.clientId,
  clientSecret: rw.clientSecret,
  apiKey: env.apiKey,
  environment: 'sandbox',
  fetch: (input, init) => emulator.fetch(input, init),
  now: () => emulator.now(),
  tokenStore: new MemoryTokenStore(),
});

async function requestCount(): Promise<number> {
  const log = (await (await emulator.fetch(`${origin}/_emulator/requests`)).json()) as unknown[];
  return log.length;
}

let learner: string;
const modules: Module[] = [];

describe('createClient against the emulator', () => {
  beforeAll(async () => {
    const [org] = await client.organizations.list().toArray({ max: 1 });
    const user = await client.users.register({
      email: 'smoke@example.com',
      firstName: 'Smoke',
      lastName: 'Test',
      organizationId: org!.id,
    });
    learner = user.uuid;
    for await (const course of client.courses.list({ pageSize: 100 })) {
      modules.push(...(await client.courses.get(course.id)).modules);
    }
  });

  it('pings with the API key only', async () => {
    expect((await client.ping()).status).toBe('healthy');
  });

  it('registers idempotently and updates the profile by merge patch', async () => {
    const again = await client.users.register({
      email: 'smoke@example.com',
      firstName: 'Smoke',
      lastName: 'Test',
      organizationId: (await client.organizations.list().toArray({ max: 1 }))[0]!.id,
    });
    expect(again.uuid).toBe(learner);
    expect((await client.users.update(learner, { city: 'Lyon', countryCode: 'FR' })).city).toBe('Lyon');
  });

  it('pages the same collection the same way at any page size', async () => {
    const small = await client.modules.list({ pageSize: 2 }).toArray({ max: 10_000 });
    const large = await client.modules.list({ pageSize: 100 }).toArray({ max: 10_000 });
    expect(small.length).toBeGreaterThan(2);
    expect(small.map((m) => m.id)).toEqual(large.map((m) => m.id));
  });

  it('syncs categories by watermark: a second run returns nothing new', async () => {
    const first = client.categories.sync();
    let count = 0;
    for await (const _ of first) count += 1;
    expect(count).toBeGreaterThan(0);
    const second = client.categories.sync({ since: first.watermark! });
    const again: unknown[] = [];
    for await (const item of second) again.push(item);
    expect(again).toEqual([]);
    expect(second.watermark).toEqual(first.watermark);
  });

  it('gets content, completes a module, reads progress, transcripts and the transcript PDF', async () => {
    const video = modules.find((m) => m.contentType !== 'scorm')!;
    const content = await client.modules.content(video.id, { userId: learner });
    expect(content.module_id).toBe(video.id);
    await client.modules.complete(video.id, { userId: learner });
    await client.modules.complete(video.id, { userId: learner });
    expect(await client.progress.list({ userId: learner }).toArray({ max: 10 })).not.toHaveLength(0);
    expect(await client.transcripts.list({ userId: learner }).toArray({ max: 10 })).not.toHaveLength(0);
    const pdf = await client.transcripts.pdf({ userId: learner });
    expect(pdf.contentType).toMatch(/^application\/pdf/);
    expect(pdf.fileName).toBe(`transcript-${learner}.pdf`);
    const head = new TextDecoder().decode((await pdf.body.getReader().read()).value!.slice(0, 5));
    expect(head).toBe('%PDF-');
  });

  it('maps a SCORM completion to ConflictError', async () => {
    const scorm = modules.find((m) => m.contentType === 'scorm')!;
    await expect(client.modules.complete(scorm.id, { userId: learner })).rejects.toBeInstanceOf(ConflictError);
  });

  it('keeps a content URL fresh on the emulator clock', async () => {
    const video = modules.find((m) => m.contentType === 'video')!;
    const keeper = client.modules.keepFresh(video.id, { userId: learner });
    const first = await keeper.current();
    emulator.advanceClock(Math.ceil((Date.parse(first.expires_at) - emulator.now()) / 1000) - 59);
    const second = await keeper.current();
    expect(second.content_url).not.toBe(first.content_url);
    expect(Date.parse(second.expires_at)).toBeGreaterThan(Date.parse(first.expires_at));
  });

  it('refuses invalid input without a request', async () => {
    const before = await requestCount();
    await expect(client.users.get('not-a-uuid')).rejects.toBeInstanceOf(ValidationError);
    expect(() => client.progress.list({ userId: 'x' })).toThrow(ValidationError);
    expect(await requestCount()).toBe(before);
  });

  it('deactivates (user-scoped calls then fail), reactivates, and deletes', async () => {
    expect((await client.users.deactivate(learner)).status).toBe('inactive');
    await expect(client.transcripts.list({ userId: learner }).toArray({ max: 1 })).rejects.toBeInstanceOf(
      InactiveLearnerError,
    );
    expect((await client.users.reactivate(learner)).status).toBe('active');
    await client.users.delete(learner);
    await expect(client.users.get(learner)).rejects.toBeInstanceOf(NotFoundError);
  });
});

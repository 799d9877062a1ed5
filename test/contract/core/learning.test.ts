/**
 * Learner-scoped endpoints through the client: content and refresh-url (snake_case), complete (202, repeat, SCORM
 * 409), course progress, transcripts, the transcript PDF and a course certificate PDF as streams.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ConflictError } from '../../../core/index.ts';
import type { PartnerLearningClient } from '../../../core/types/client-api.ts';
import type { ModuleContent, PdfDownload, User } from '../../../core/types/records.ts';
import { startInProcess } from '../../support/core-harness.ts';
import type { Harness } from '../../support/core-harness.ts';
import { requestsTo } from '../../support/core-control.ts';
import type { CatalogPicks } from '../../support/core-fixtures.ts';
import { pickCatalog, readAll, registerLearner } from '../../support/core-fixtures.ts';

function expectModuleContent(content: ModuleContent, moduleId: number, now: number): void {
  expect(content['@type']).toBe('ModuleContent');
  expect(content.module_id).toBe(moduleId);
  expect(['video', 'document', 'scorm', 'resource']).toContain(content.content_type);
  expect(() => new URL(content.content_url)).not.toThrow();
  expect(Number.isInteger(content.duration_seconds)).toBe(true);
  expect(typeof content.mime_type).toBe('string');
  // "about 60 minutes after issue", on the clock the client and the emulator share
  const lifetime = Date.parse(content.expires_at) - now;
  expect(lifetime).toBeGreaterThan(55 * 60_000);
  expect(lifetime).toBeLessThanOrEqual(65 * 60_000);
  expect(content).not.toHaveProperty('contentUrl');
}

async function expectPdf(download: PdfDownload): Promise<void> {
  expect(download.contentType).toMatch(/^application\/pdf/);
  expect(download.fileName).toMatch(/\.pdf$/);
  const bytes = await readAll(download.body);
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
  if (download.contentLength !== undefined) expect(download.contentLength).toBe(bytes.byteLength);
}

describe('learner-scoped endpoints through the client', () => {
  let h: Harness;
  let client: PartnerLearningClient;
  let learner: User;
  let picks: CatalogPicks;

  beforeEach(async () => {
    h = await startInProcess();
    client = h.client();
    picks = await pickCatalog(h.control);
    learner = await registerLearner(client);
  });

  it('content returns the snake_case ModuleContent record and starts progress', async () => {
    const content = await client.modules.content(picks.completable.id, { userId: learner.uuid });
    expectModuleContent(content, picks.completable.id, h.clock.now());
    const progress = await client.progress.list({ userId: learner.uuid }).toArray({ max: 100 });
    expect(progress).toHaveLength(1);
    expect(progress[0]!.status).toBe('in_progress');
  });

  it('refreshUrl returns the same shape with a fresh expiry', async () => {
    const first = await client.modules.content(picks.completable.id, { userId: learner.uuid });
    h.clock.advance(30 * 60_000);
    const refreshed = await client.modules.refreshUrl(picks.completable.id, { userId: learner.uuid });
    expectModuleContent(refreshed, picks.completable.id, h.clock.now());
    expect(Date.parse(refreshed.expires_at)).toBeGreaterThan(Date.parse(first.expires_at));
    const log = await h.control.requests();
    expect(requestsTo(log, /\/refresh-url$/).map((r) => r.status)).toEqual([200]);
  });

  it('complete answers 202 and a repeat is a no-op 202; the module transcript appears once', async () => {
    const scope = { userId: learner.uuid };
    await expect(client.modules.complete(picks.completable.id, scope)).resolves.toBeUndefined();
    await expect(client.modules.complete(picks.completable.id, scope)).resolves.toBeUndefined();
    const completes = requestsTo(await h.control.requests(), /\/complete$/);
    expect(completes.map((r) => [r.method, r.status])).toEqual([
      ['POST', 202],
      ['POST', 202],
    ]);
    const transcripts = await client.transcripts.list(scope).toArray({ max: 100 });
    const moduleRecords = transcripts.filter((t) => !t.isCourse);
    expect(moduleRecords).toHaveLength(1);
    expect(moduleRecords[0]!.certificateAvailable).toBe(false);
  });

  it('completing a SCORM module is a ConflictError with code conflict, sent once', async () => {
    const failure = client.modules.complete(picks.scorm.id, { userId: learner.uuid });
    await expect(failure).rejects.toBeInstanceOf(ConflictError);
    await expect(failure).rejects.toMatchObject({ code: 'conflict', status: 409, retryable: false });
    expect(requestsTo(await h.control.requests(), /\/complete$/)).toHaveLength(1);
  });

  it('progress list and get', async () => {
    await client.modules.content(picks.completable.id, { userId: learner.uuid });
    const [record] = await client.progress.list({ userId: learner.uuid }).toArray({ max: 10 });
    expect(record).toBeDefined();
    const id = (record as { id?: number | string }).id;
    expect(id).toBeDefined();
    const fetched = await client.progress.get(id!, { userId: learner.uuid });
    expect(fetched.status).toBe('in_progress');
    expect(fetched['@id']).toBe(record!['@id']);
  });

  it('transcripts list and get', async () => {
    await client.modules.complete(picks.completable.id, { userId: learner.uuid });
    const [record] = await client.transcripts.list({ userId: learner.uuid }).toArray({ max: 10 });
    expect(record).toBeDefined();
    expect(record!.isCourse).toBe(false);
    const id = (record as { id?: number | string }).id;
    const fetched = await client.transcripts.get(id!, { userId: learner.uuid });
    expect(fetched['@id']).toBe(record!['@id']);
    expect(typeof fetched.completionDate).toBe('string');
  });

  it('the full transcript PDF is a stream of a real PDF', async () => {
    await client.modules.complete(picks.completable.id, { userId: learner.uuid });
    await expectPdf(await client.transcripts.pdf({ userId: learner.uuid }));
    expect(requestsTo(await h.control.requests(), /\/v1\/transcript\/pdf$/).map((r) => r.status)).toEqual([200]);
  });

  it('a course certificate PDF is a stream of a real PDF once the course is complete', async () => {
    const course = [...picks.courses]
      .filter((c) => c.modules.some((m) => m.published !== false))
      .sort((a, b) => a.modules.length - b.modules.length)[0]!;
    for (const module of course.modules.filter((m) => m.published !== false)) {
      if (module.contentType === 'scorm') {
        await h.control.scormCompletion({ env: 'sandbox', userUuid: learner.uuid, moduleId: module.id, score: 90 });
      } else {
        await client.modules.complete(module.id, { userId: learner.uuid });
      }
    }
    const transcripts = await client.transcripts.list({ userId: learner.uuid }).toArray({ max: 100 });
    const certified = transcripts.find((t) => t.isCourse && t.certificateAvailable);
    expect(certified).toBeDefined();
    const id = (certified as { id?: number | string }).id!;
    await expectPdf(await client.transcripts.certificatePdf(id, { userId: learner.uuid }));
  });
});

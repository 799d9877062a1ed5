/**
 * Transcripts, transcript PDF and certificate PDF over real HTTP (spec: Transcript, Endpoints rules 11-12;
 * emulator contract: real PDFs naming the learner and the course, unavailable certificate 404 hydra:Error,
 * scorm-completions control row).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { z } from 'zod/v4';
import { call, control, openSession, resetHarness, startHarness } from '../../support/emulator-http.ts';
import type { Harness, HttpResult, Session } from '../../support/emulator-http.ts';
import { Collection, HydraError, Transcript } from '../../support/emulator-schemas.ts';
import type { CatalogCourse, Profile } from '../../support/emulator-schemas.ts';
import { collectAll, moduleOfType, readCatalog, registerLearner, smallestPublishedCourse } from '../../support/emulator-fixtures.ts';
import { pdfMentions } from '../../support/emulator-pdf.ts';

let h: Harness;
let s: Session;
let catalog: CatalogCourse[];
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.close(); });
beforeEach(async () => {
  await resetHarness(h);
  s = await openSession(h);
  catalog = await readCatalog(h.origin);
});

/** Completes every visible module of the smallest published course for a learner. */
async function completeCourse(learner: Profile): Promise<CatalogCourse> {
  const course = smallestPublishedCourse(catalog);
  for (const m of course.modules.filter((x) => x.published)) {
    await call(s, 'GET', `/modules/${m.id}/content`, { userId: learner.uuid });
    if (m.contentType === 'scorm') {
      await control(h.origin, 'POST', '/_emulator/scorm-completions', { env: 'sandbox', userUuid: learner.uuid, moduleId: m.id, score: 100 });
    } else {
      await call(s, 'POST', `/modules/${m.id}/complete`, { userId: learner.uuid });
    }
  }
  return course;
}

async function transcripts(userId: string) {
  const res = await call(s, 'GET', '/transcripts', { userId });
  expect(res.status).toBe(200);
  return Collection(Transcript).parse(res.body)['hydra:member'];
}

/** GETs a PDF path and returns its bytes after checking the type. */
async function getPdf(path: string, userId: string): Promise<{ res: HttpResult; bytes: Uint8Array }> {
  const res = await fetch(path.startsWith('/') && !path.startsWith(new URL(s.env.baseUrl).pathname) ? `${s.env.baseUrl}${path}` : `${h.origin}${path}`, {
    headers: { authorization: `Bearer ${s.token}`, 'x-api-key': s.apiKey, 'x-user-id': userId },
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { res: { status: res.status, headers: res.headers, text: Buffer.from(bytes).toString('latin1'), body: undefined }, bytes };
}

async function expectPdf(bytes: Uint8Array, res: HttpResult): Promise<void> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/pdf/);
  expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  const doc = await PDFDocument.load(bytes);
  expect(doc.getPageCount()).toBeGreaterThan(0);
}

describe('GET /transcripts', () => {
  it('is an empty collection for a new learner', async () => {
    const learner = await registerLearner(s);
    expect(await transcripts(learner.uuid)).toEqual([]);
  });

  it('a completed module yields a module transcript with completionDate, isCourse false', async () => {
    const learner = await registerLearner(s);
    const id = moduleOfType(catalog, 'document');
    await call(s, 'GET', `/modules/${id}/content`, { userId: learner.uuid });
    await call(s, 'POST', `/modules/${id}/complete`, { userId: learner.uuid });
    const list = await transcripts(learner.uuid);
    const moduleRecords = list.filter((t) => !t.isCourse);
    expect(moduleRecords.length).toBeGreaterThanOrEqual(1);
    expect(moduleRecords[0]?.completionDate).not.toBeNull();
  });

  it('a SCORM completion statement (control interface) shows its score in the transcript', async () => {
    const learner = await registerLearner(s);
    const id = moduleOfType(catalog, 'scorm');
    await call(s, 'GET', `/modules/${id}/content`, { userId: learner.uuid });
    const r = await control(h.origin, 'POST', '/_emulator/scorm-completions', { env: 'sandbox', userUuid: learner.uuid, moduleId: id, score: 87 });
    expect(r.status).toBeLessThan(300);
    const scored = (await transcripts(learner.uuid)).filter((t) => t.score === 87);
    expect(scored).toHaveLength(1);
    expect(scored[0]?.isCourse).toBe(false);
  });

  it('a completed course yields a course transcript (isCourse true) with a certificate, readable by @id', async () => {
    const learner = await registerLearner(s);
    await completeCourse(learner);
    const course = (await transcripts(learner.uuid)).find((t) => t.isCourse);
    expect(course).toBeDefined();
    expect(course?.completionDate).not.toBeNull();
    expect(course?.certificateAvailable).toBe(true);
    const one = await call(s, 'GET', course?.['@id'] ?? '', { userId: learner.uuid });
    expect(one.status).toBe(200);
    expect(Transcript.parse(one.body).isCourse).toBe(true);
  });

  it('supports updatedAt filters', async () => {
    const learner = await registerLearner(s);
    await completeCourse(learner);
    const all = await transcripts(learner.uuid);
    expect(all.length).toBeGreaterThan(0);
    const past = await call(s, 'GET', `/transcripts?${new URLSearchParams({ 'updatedAt[after]': '1970-01-01T00:00:00Z' }).toString()}`, { userId: learner.uuid });
    expect(Collection(Transcript).parse(past.body)['hydra:totalItems']).toBe(all.length);
    const future = await call(s, 'GET', `/transcripts?${new URLSearchParams({ 'updatedAt[after]': '2999-01-01T00:00:00Z' }).toString()}`, { userId: learner.uuid });
    expect(Collection(Transcript).parse(future.body)['hydra:totalItems']).toBe(0);
    const newest = all.map((t) => t.updatedAt).sort((a, b) => Date.parse(b) - Date.parse(a))[0] ?? '';
    const atBound = await call(s, 'GET', `/transcripts?${new URLSearchParams({ 'updatedAt[after]': newest }).toString()}`, { userId: learner.uuid });
    expect(Collection(Transcript).parse(atBound.body)['hydra:member'].map((t) => t.updatedAt)).toContain(newest);
  });

  it('another learner\'s transcript is 404 by @id', async () => {
    const a = await registerLearner(s);
    const b = await registerLearner(s);
    await completeCourse(a);
    const id = (await transcripts(a.uuid))[0]?.['@id'] ?? '';
    const res = await call(s, 'GET', id, { userId: b.uuid });
    expect(res.status).toBe(404);
    HydraError.parse(res.body);
  });
});

describe('PDFs', () => {
  it('GET /transcript/pdf is a real PDF naming the learner', async () => {
    const learner = await registerLearner(s, { firstName: 'Zephyrine', lastName: 'Quillfeather' });
    await completeCourse(learner);
    const { res, bytes } = await getPdf('/transcript/pdf', learner.uuid);
    await expectPdf(bytes, res);
    expect(pdfMentions(bytes, 'Quillfeather')).toBe(true);
  });

  it('the certificate PDF of an available course transcript is a real PDF naming the learner', async () => {
    const learner = await registerLearner(s, { firstName: 'Isembard', lastName: 'Brunelsson' });
    await completeCourse(learner);
    const cert = (await transcripts(learner.uuid)).find((t) => t.certificateAvailable);
    expect(cert).toBeDefined();
    const { res, bytes } = await getPdf(`${cert?.['@id'] ?? ''}/certificate/pdf`, learner.uuid);
    await expectPdf(bytes, res);
    expect(pdfMentions(bytes, 'Brunelsson')).toBe(true);
  });

  it('both PDFs name the completed course', async () => {
    const learner = await registerLearner(s);
    const course = await completeCourse(learner);
    const detail = z.looseObject({ title: z.string().optional(), name: z.string().optional() }).parse((await call(s, 'GET', `/courses/${course.id}`)).body);
    const courseName = detail.title ?? detail.name;
    expect(courseName, 'course detail carries a title or name').toBeDefined();
    const cert = (await transcripts(learner.uuid)).find((t) => t.certificateAvailable);
    const certificate = await getPdf(`${cert?.['@id'] ?? ''}/certificate/pdf`, learner.uuid);
    expect(pdfMentions(certificate.bytes, courseName ?? '')).toBe(true);
    const transcript = await getPdf('/transcript/pdf', learner.uuid);
    expect(pdfMentions(transcript.bytes, courseName ?? '')).toBe(true);
  });

  it('the names are in the PDFs\' plain bytes too, so a reader that does not inflate streams finds them', async () => {
    const learner = await registerLearner(s, { firstName: 'Ottoline', lastName: 'Marchbanks' });
    const course = await completeCourse(learner);
    const title = z.looseObject({ title: z.string() }).parse((await call(s, 'GET', `/courses/${course.id}`)).body).title;
    const cert = (await transcripts(learner.uuid)).find((t) => t.certificateAvailable);
    for (const path of [`${cert?.['@id'] ?? ''}/certificate/pdf`, '/transcript/pdf']) {
      const raw = Buffer.from((await getPdf(path, learner.uuid)).bytes).toString('latin1');
      expect(raw, path).toContain('Ottoline Marchbanks');
      expect(raw, path).toContain(title);
    }
  });

  it('a transcript PDF with module completions only still names their course', async () => {
    const learner = await registerLearner(s);
    const id = moduleOfType(catalog, 'document');
    const course = catalog.find((c) => c.modules.some((m) => m.id === id));
    await call(s, 'POST', `/modules/${id}/complete`, { userId: learner.uuid });
    const title = z.looseObject({ title: z.string() }).parse((await call(s, 'GET', `/courses/${course?.id}`)).body).title;
    expect(pdfMentions((await getPdf('/transcript/pdf', learner.uuid)).bytes, title)).toBe(true);
  });

  it('the certificate of a transcript without certificateAvailable is 404 hydra:Error', async () => {
    const learner = await registerLearner(s);
    const id = moduleOfType(catalog, 'video');
    await call(s, 'GET', `/modules/${id}/content`, { userId: learner.uuid });
    await call(s, 'POST', `/modules/${id}/complete`, { userId: learner.uuid });
    const none = (await transcripts(learner.uuid)).find((t) => !t.certificateAvailable);
    expect(none).toBeDefined();
    const res = await call(s, 'GET', `${none?.['@id'] ?? ''}/certificate/pdf`, { userId: learner.uuid });
    expect(res.status).toBe(404);
    HydraError.parse(res.body);
  });

  it('the certificate of another learner\'s transcript is 404', async () => {
    const a = await registerLearner(s);
    const b = await registerLearner(s);
    await completeCourse(a);
    const cert = (await transcripts(a.uuid)).find((t) => t.certificateAvailable);
    expect(cert).toBeDefined();
    const res = await call(s, 'GET', `${cert?.['@id'] ?? ''}/certificate/pdf`, { userId: b.uuid });
    expect(res.status).toBe(404);
  });

  it('the certificate of an unknown transcript id is 404', async () => {
    const learner = await registerLearner(s);
    expect((await call(s, 'GET', '/transcripts/987654321/certificate/pdf', { userId: learner.uuid })).status).toBe(404);
  });
});

describe('page size on a large collection', () => {
  // The seed catalog is too small to show the default (30) and the cap (100); the emulator's documented
  // extension POST /_emulator/bulk-transcripts makes a learner with 150 transcripts.
  it('/transcripts: 30 items by default, itemsPerPage 1000 clamped to 100, next links cover all 150 once', async () => {
    const learner = await registerLearner(s);
    const bulk = await control(h.origin, 'POST', '/_emulator/bulk-transcripts', { env: 'sandbox', userUuid: learner.uuid, count: 150 });
    expect(bulk.status, 'bulk-transcripts extension').toBeLessThan(300);
    const page = async (q: string) => Collection(Transcript).parse((await call(s, 'GET', `/transcripts${q}`, { userId: learner.uuid })).body);
    const first = await page('');
    expect(first['hydra:totalItems']).toBe(150);
    expect(first['hydra:member']).toHaveLength(30);
    expect(first['hydra:view']?.['hydra:next']).toBeDefined();
    const big = await page('?itemsPerPage=1000');
    expect(big['hydra:member']).toHaveLength(100);
    expect(big['hydra:view']?.['hydra:next']).toBeDefined();
    const all = await collectAll(s, '/transcripts?itemsPerPage=1000', learner.uuid);
    expect(all.pages).toBe(2);
    const ids = all.members.map((m) => Transcript.parse(m)['@id']);
    expect(new Set(ids).size).toBe(150);
  });
});


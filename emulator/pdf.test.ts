import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { pdfSearchText } from '../test/support/emulator-pdf.ts';
import { certificatePdf, paddedPdf, transcriptPdf } from './pdf.ts';
import { testBed } from '../test/support/emulator-testbed.ts';
import type { Transcript, User } from './types.ts';

const user: User = {
  uuid: '11111111-2222-4333-8444-555555555555',
  partnerId: 'partner-1',
  email: 'zoë@example.com',
  firstName: 'Zoë',
  lastName: 'Łukasiewicz',
  organizationId: 1,
  countryCode: null,
  address: null,
  address2: null,
  city: null,
  stateProv: null,
  postalCode: null,
  phone: null,
  status: 'active',
  createdAt: 0,
  updatedAt: 0,
};

async function drain(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe('PDFs', () => {
  it('renders a transcript PDF even for names outside WinAnsi', async () => {
    const pdf = await transcriptPdf(user, [], Date.UTC(2026, 0, 1));
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1);
  });

  it('carries the learner and course names in plain bytes too (document information, literal strings)', async () => {
    const ada = { ...user, firstName: 'Ada', lastName: 'Lovelace (Byron)' };
    const record = (over: Partial<Transcript>): Transcript => ({
      id: 1, learnerUuid: ada.uuid, isCourse: true, courseId: 2, moduleId: null, title: 'Data Protection Fundamentals',
      completionDate: 0, score: null, certificateAvailable: true, createdAt: 0, updatedAt: 0, ...over,
    });
    const raw = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes);
    const certificate = raw(await certificatePdf(ada, record({}), 0));
    expect(certificate).toContain('(Ada Lovelace \\(Byron\\))');
    expect(certificate).toContain('(Data Protection Fundamentals)');
    const moduleOnly = [record({ isCourse: false, moduleId: 5, title: 'Data protection quiz', certificateAvailable: false })];
    const transcript = await transcriptPdf(ada, moduleOnly, 0, (id) => (id === 2 ? 'Data Protection Fundamentals' : undefined));
    expect(raw(transcript)).toContain('Ada Lovelace');
    expect(raw(transcript)).toContain('Data Protection Fundamentals');
    const doc = await PDFDocument.load(transcript);
    expect(doc.getTitle()).toBe('Transcript of Ada Lovelace (Byron)');
    expect(doc.getKeywords()).toBe('Data Protection Fundamentals');
  });

  it('embeds DejaVu subsets so Greek and Cyrillic names render (ToUnicode maps their code points)', async () => {
    const greek = { ...user, firstName: 'Ζωή', lastName: 'Достоевская' };
    const record: Transcript = {
      id: 9, learnerUuid: greek.uuid, isCourse: true, courseId: 2, moduleId: null, title: 'Основы защиты данных',
      completionDate: 0, score: 88, certificateAvailable: true, createdAt: 0, updatedAt: 0,
    };
    const pdf = await certificatePdf(greek, record, 0);
    const text = pdfSearchText(pdf);
    expect(text).toMatch(/\/BaseFont \/DejaVuSerif-Bold/);
    expect(text).not.toMatch(/\/BaseFont \/(Helvetica|Times)/);
    // pdf-lib writes one bfchar/bfrange entry per glyph used: Ж-free name, so check Ζ (U+0396) and Д (U+0414).
    expect(text).toMatch(/<0396>/i);
    expect(text).toMatch(/<0414>/i);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getAuthor()).toBe('Ζωή Достоевская');
    expect(doc.getSubject()).toBe('Основы защиты данных');
    // Subset, not the whole 700 KB face.
    expect(pdf.length).toBeLessThan(150_000);
  });

  it('draws the certificate landscape and the transcript as a table over as many pages as it needs', async () => {
    const record = (i: number): Transcript => ({
      id: i, learnerUuid: user.uuid, isCourse: i % 10 === 0, courseId: 2, moduleId: i % 10 === 0 ? null : i,
      title: `Item ${i}`, completionDate: i * 86_400_000, score: i % 2 ? i : null, certificateAvailable: false, createdAt: 0, updatedAt: 0,
    });
    const certificate = await PDFDocument.load(await certificatePdf(user, record(10), 0));
    const [page] = certificate.getPages();
    expect(page!.getWidth()).toBeGreaterThan(page!.getHeight());
    const one = await PDFDocument.load(await transcriptPdf(user, [record(1)], 0));
    const many = await PDFDocument.load(await transcriptPdf(user, Array.from({ length: 120 }, (_, i) => record(i + 1)), 0));
    expect(one.getPageCount()).toBe(1);
    expect(many.getPageCount()).toBeGreaterThanOrEqual(3);
  });

  it('pads a PDF with a valid incremental update of exactly the announced length', async () => {
    const pdf = await transcriptPdf(user, [], 0);
    const padded = paddedPdf(pdf, 300_000);
    const bytes = await drain(padded.stream);
    expect(bytes.length).toBe(padded.length);
    expect(Math.abs(bytes.length - 300_000)).toBeLessThan(100);
    const text = new TextDecoder('latin1').decode(bytes.subarray(bytes.length - 300));
    const xref = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(new TextDecoder().decode(bytes.subarray(xref, xref + 4))).toBe('xref');
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
  });

  it('serves the transcript PDF with the spec headers, padded when asked', async () => {
    const t = testBed();
    const u = await t.register();
    const res = await t.api('/transcript/pdf', { user: u.uuid });
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="transcript-${u.uuid}.pdf"`);
    expect(new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
    await t.send('/_emulator/pdf-padding', { method: 'PUT', body: '{"bytes":1000000}' });
    const big = await t.api('/transcript/pdf', { user: u.uuid });
    const length = Number(big.headers.get('content-length'));
    expect(length).toBeGreaterThan(999_000);
    expect((await big.arrayBuffer()).byteLength).toBe(length);
  });
});

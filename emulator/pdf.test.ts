import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { certificatePdf, paddedPdf, transcriptPdf } from './pdf.ts';
import { testBed } from './test-support.ts';
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

import { describe, it, expect } from 'vitest';
import { ApplicationError } from './errors/index.ts';
import { fakeTransport, LEARNER } from '../test/support/fake-transport.ts';
import { downloadPdf, fileNameFromDisposition } from './pdf.ts';

function pdfStream(onCancel?: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('%PDF-1.7\n'));
    },
    cancel() {
      onCancel?.();
    },
  });
}

describe('fileNameFromDisposition', () => {
  it.each([
    ['attachment; filename="transcript.pdf"', 'transcript.pdf'],
    ['attachment; filename=cert-12.pdf', 'cert-12.pdf'],
    ["attachment; filename*=UTF-8''Zertifikat%20K%C3%B6ln.pdf", 'Zertifikat Köln.pdf'],
    ['attachment; filename="fallback.pdf"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf', 'résumé.pdf'],
    ['inline; FILENAME="Upper.pdf"', 'Upper.pdf'],
    ['attachment; filename="a \\"quoted\\" name.pdf"', 'a "quoted" name.pdf'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment; filename="C:\\\\temp\\\\x.pdf"', 'x.pdf'],
  ])('%s -> %s', (header, expected) => {
    expect(fileNameFromDisposition(header)).toBe(expected);
  });

  it.each([null, '', 'attachment', 'attachment; filename=""', 'attachment; filename=".."'])(
    'gives undefined for %s',
    (header) => {
      expect(fileNameFromDisposition(header)).toBeUndefined();
    },
  );

  it('falls back to filename= when filename* is not decodable', () => {
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%E0%A4%A; filename=\"plain.pdf\"")).toBe('plain.pdf');
  });
});

describe('downloadPdf', () => {
  it('streams the body unread with type, name and length from the headers', async () => {
    const body = pdfStream();
    const transport = fakeTransport(() => ({
      data: body,
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': 'attachment; filename="transcript-ada.pdf"',
        'content-length': '1234',
      },
    }));
    const download = await downloadPdf(transport, { method: 'GET', path: '/transcript/pdf', userId: LEARNER }, 'x.pdf');
    expect(download.body).toBe(body);
    expect(download).toMatchObject({ contentType: 'application/pdf', fileName: 'transcript-ada.pdf', contentLength: 1234 });
    expect(transport.requests[0]).toEqual({
      method: 'GET',
      path: '/transcript/pdf',
      userId: LEARNER,
      responseType: 'stream',
    });
  });

  it('uses the default name and no length when the headers give none', async () => {
    const transport = fakeTransport(() => ({ data: pdfStream(), headers: { 'content-type': 'application/pdf; qs=1' } }));
    const download = await downloadPdf(transport, { method: 'GET', path: '/transcript/pdf' }, 'transcript-u.pdf');
    expect(download.fileName).toBe('transcript-u.pdf');
    expect(download.contentLength).toBeUndefined();
  });

  it('refuses a non-PDF answer, says what came back and cancels the body', async () => {
    let cancelled = false;
    const transport = fakeTransport(() => ({
      data: pdfStream(() => {
        cancelled = true;
      }),
      headers: { 'content-type': 'text/html; charset=utf-8' },
    }));
    const failure = downloadPdf(transport, { method: 'GET', path: '/transcript/pdf' }, 'x.pdf');
    await expect(failure).rejects.toBeInstanceOf(ApplicationError);
    await expect(failure).rejects.toThrow(/application\/pdf.*"text\/html"/);
    expect(cancelled).toBe(true);
  });

  it('refuses an answer without a body', async () => {
    const transport = fakeTransport(() => ({ data: null, headers: { 'content-type': 'application/pdf' } }));
    await expect(downloadPdf(transport, { method: 'GET', path: '/transcript/pdf' }, 'x.pdf')).rejects.toBeInstanceOf(
      ApplicationError,
    );
  });
});

import { describe, it, expect } from 'vitest';
import { ValidationError } from '../errors/index.ts';
import { fakeTransport, LEARNER } from '../../test/support/fake-transport.ts';
import { createTranscripts } from './transcripts.ts';

const pdf = () => new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new Uint8Array([37, 80, 68, 70])) });

describe('transcript PDFs', () => {
  it('pdf GETs /transcript/pdf (singular) as a stream, default name from the learner', async () => {
    const transport = fakeTransport(() => ({ data: pdf(), headers: { 'content-type': 'application/pdf' } }));
    const download = await createTranscripts(transport).pdf({ userId: LEARNER });
    expect(download.fileName).toBe(`transcript-${LEARNER}.pdf`);
    expect(transport.requests).toEqual([
      { method: 'GET', path: '/transcript/pdf', userId: LEARNER, signal: undefined, responseType: 'stream' },
    ]);
  });

  it('certificatePdf GETs /transcripts/{id}/certificate/pdf, named by Content-Disposition', async () => {
    const transport = fakeTransport(() => ({
      data: pdf(),
      headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="cert.pdf"' },
    }));
    const download = await createTranscripts(transport).certificatePdf(12, { userId: LEARNER });
    expect(download.fileName).toBe('cert.pdf');
    expect(transport.requests[0]).toMatchObject({ path: '/transcripts/12/certificate/pdf', userId: LEARNER });
  });

  it('certificatePdf defaults to certificate-<id>.pdf', async () => {
    const transport = fakeTransport(() => ({ data: pdf(), headers: { 'content-type': 'application/pdf' } }));
    expect((await createTranscripts(transport).certificatePdf(12, { userId: LEARNER })).fileName).toBe('certificate-12.pdf');
  });

  it('refuses a bad userId or id without a request', async () => {
    const transport = fakeTransport();
    const transcripts = createTranscripts(transport);
    await expect(transcripts.pdf({ userId: 'nope' })).rejects.toBeInstanceOf(ValidationError);
    await expect(transcripts.certificatePdf('1/2', { userId: LEARNER })).rejects.toBeInstanceOf(ValidationError);
    expect(transport.requests).toHaveLength(0);
  });
});

/**
 * `/transcripts`: a learner's completion records, plus the two PDFs (`/transcript/pdf`, singular in the spec, and
 * `/transcripts/{id}/certificate/pdf`).
 */
import type { LearnerScope, TranscriptsApi } from '../client-types.ts';
import type { PdfDownload, Transcript } from '../types.ts';
import type { Transport } from '../transport.ts';
import { downloadPdf } from '../pdf.ts';
import { createLearnerCollection } from './learner-collection.ts';
import { checkUuid, learnerTarget } from './query.ts';

/**
 * @param transport Sends the requests.
 * @returns The transcripts group: `list`, `get`, `sync`, `pdf`, `certificatePdf` (all need `userId`).
 */
export function createTranscripts(transport: Transport): TranscriptsApi {
  return {
    ...createLearnerCollection<Transcript>(transport, '/transcripts'),
    async pdf(options: LearnerScope): Promise<PdfDownload> {
      const userId = checkUuid(options?.userId);
      return downloadPdf(
        transport,
        { method: 'GET', path: '/transcript/pdf', userId, signal: options.signal },
        `transcript-${userId}.pdf`,
      );
    },
    async certificatePdf(transcriptId: number | string, options: LearnerScope): Promise<PdfDownload> {
      const { segment, userId } = learnerTarget(transcriptId, options?.userId, 'record', 'transcriptId');
      return downloadPdf(
        transport,
        { method: 'GET', path: `/transcripts/${segment}/certificate/pdf`, userId, signal: options.signal },
        `certificate-${String(transcriptId)}.pdf`,
      );
    },
  };
}

/**
 * `/transcripts`: a learner's completion records, plus the two PDFs (`/transcript/pdf`, singular in the spec, and
 * `/transcripts/{id}/certificate/pdf`).
 */
import type { LearnerScope } from '../types/calls.ts';
import type { TranscriptsApi } from '../types/resources.ts';
import type { PdfDownload, Transcript } from '../types/records.ts';
import type { Transport } from '../transport.ts';
import { downloadPdf } from '../pdf.ts';
import { createLearnerCollection } from './learner-collection.ts';
import { checkCall } from './call.ts';
import { learnerTarget } from './query.ts';
import { uuidSchema } from '../validation/schemas.ts';

/**
 * @param transport Sends the requests.
 * @returns The transcripts group: `list`, `get`, `sync`, `pdf`, `certificatePdf` (all need `userId`).
 */
export function createTranscripts(transport: Transport): TranscriptsApi {
  return {
    ...createLearnerCollection<Transcript>(transport, '/transcripts'),
    async pdf(options: LearnerScope): Promise<PdfDownload> {
      const checked = checkCall(options, [[uuidSchema, options?.userId, 'userId']]);
      const userId = checked.userId!;
      return downloadPdf(
        transport,
        { method: 'GET', path: '/transcript/pdf', userId },
        `transcript-${userId}.pdf`,
        checked,
      );
    },
    async certificatePdf(transcriptId: number | string, options: LearnerScope): Promise<PdfDownload> {
      const { segment, userId } = learnerTarget(transcriptId, options, 'record', 'transcriptId');
      return downloadPdf(
        transport,
        { method: 'GET', path: `/transcripts/${segment}/certificate/pdf`, userId },
        `certificate-${String(transcriptId)}.pdf`,
        options,
      );
    },
  };
}

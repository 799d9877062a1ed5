import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../../core/protocol.ts';
import { userIdField, userIdOf } from '../common.ts';
import { binaryPropertyField, pdfItem } from './binary.ts';

export const description = updateDisplayOptions(
  { show: { resource: ['transcript'], operation: ['downloadCertificate'] } },
  [
    userIdField,
    { displayName: 'Transcript ID', name: 'transcriptId', type: 'string', default: '', required: true, description: 'The transcript record whose certificate to download' },
    binaryPropertyField,
  ],
);

/** The certificate PDF of one transcript record. */
export async function execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
  const transcriptId = String(this.getNodeParameter('transcriptId', i, '')).trim();
  return pdfItem(this, await client.transcripts.certificatePdf(transcriptId, { userId: userIdOf(this, i) }), i);
}

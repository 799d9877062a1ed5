import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../../core/protocol.ts';
import { userIdField, userIdOf } from '../common.ts';
import { binaryPropertyField, pdfItem } from './binary.ts';

export const description = updateDisplayOptions(
  { show: { resource: ['transcript'], operation: ['downloadPdf'] } },
  [userIdField, binaryPropertyField],
);

/** The learner's full transcript as a PDF file. */
export async function execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
  return pdfItem(this, await client.transcripts.pdf({ userId: userIdOf(this, i) }), i);
}

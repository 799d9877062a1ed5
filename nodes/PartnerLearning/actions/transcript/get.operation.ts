import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../../core/protocol.ts';
import { item, userIdField, userIdOf } from '../common.ts';

const properties: INodeProperties[] = [
  userIdField,
  { displayName: 'Transcript ID', name: 'transcriptId', type: 'string', default: '', required: true, description: 'The record ID, as Get Many returns it' },
];

export const description = updateDisplayOptions({ show: { resource: ['transcript'], operation: ['get'] } }, properties);

/** Reads one of the learner's transcripts records. */
export async function execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
  const id = String(this.getNodeParameter('transcriptId', i, '')).trim();
  return item(await client.transcripts.get(id, { userId: userIdOf(this, i) }));
}

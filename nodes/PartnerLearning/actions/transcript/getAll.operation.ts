import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../../core/protocol.ts';
import { collect, getManyFields, getManyOptions, pageSizeFor, userIdField, userIdOf } from '../common.ts';

export const description = updateDisplayOptions(
  { show: { resource: ['transcript'], operation: ['getAll'] } },
  [userIdField, ...getManyFields(true)],
);

/** Lists the learner's transcripts records: all, or up to a limit, optionally only those updated after an instant. */
export async function execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
  const options = getManyOptions(this, i, true);
  const list = client.transcripts.list({ userId: userIdOf(this, i), pageSize: pageSizeFor(options), updatedAfter: options.updatedAfter });
  return collect(list, options);
}

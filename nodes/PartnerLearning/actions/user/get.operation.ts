import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../../core/protocol.ts';
import { item, userIdField, userIdOf } from '../common.ts';

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['get'] } }, [userIdField]);

/** Reads a learner's profile. */
export async function execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
  const userId = userIdOf(this, i);
  return item(await client.users.get(userId));
}

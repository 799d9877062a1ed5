import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../../core/protocol.ts';
import { item, userIdField, userIdOf } from '../common.ts';

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['delete'] } }, [userIdField]);

/** Erases a learner (not reversible); also done when a retry finds the learner already gone. */
export async function execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
  const userId = userIdOf(this, i);
  await client.users.delete(userId);
  return item({ userId, deleted: true });
}

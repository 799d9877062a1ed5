import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../../core/protocol.ts';
import { item, locatorId, moduleLocators, userIdField, userIdOf } from '../common.ts';

export const description = updateDisplayOptions(
  { show: { resource: ['content'], operation: ['refresh'] } },
  [...moduleLocators(), userIdField],
);

/** A fresh content URL for a module the learner is already playing. */
export async function execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
  return item(await client.modules.refreshUrl(locatorId(this, 'moduleId', i), { userId: userIdOf(this, i) }));
}

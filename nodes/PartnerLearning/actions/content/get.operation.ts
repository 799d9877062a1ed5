import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../../core/protocol.ts';
import { item, locatorId, moduleLocators, userIdField, userIdOf } from '../common.ts';

export const description = updateDisplayOptions(
  { show: { resource: ['content'], operation: ['get'] } },
  [...moduleLocators(), userIdField],
);

/** The module's content URL for the learner (signed, short-lived: use it at once, never store it). First access starts the learner's progress. */
export async function execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
  return item(await client.modules.content(locatorId(this, 'moduleId', i), { userId: userIdOf(this, i) }));
}

import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../../core/protocol.ts';
import { item, locatorId, moduleLocators, userIdField, userIdOf } from '../common.ts';

export const description = updateDisplayOptions(
  { show: { resource: ['completion'], operation: ['complete'] } },
  [...moduleLocators(), userIdField],
);

/** Marks a module completed for the learner (repeat calls are fine; a SCORM module reports its own completion). */
export async function execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
  const moduleId = locatorId(this, 'moduleId', i);
  const userId = userIdOf(this, i);
  await client.modules.complete(moduleId, { userId });
  return item({ moduleId, userId, completed: true });
}

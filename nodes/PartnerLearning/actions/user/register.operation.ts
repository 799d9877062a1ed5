import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../../core/protocol.ts';
import type { RegisterUserInput } from '../../../../core/protocol.ts';
import { item, locatorId, recordLocator } from '../common.ts';
import { filled, profileFields } from './fields.ts';

const properties: INodeProperties[] = [
  // Every parameter is described: an AI agent using the node as a tool reads these descriptions.
  {
    displayName: 'Email',
    name: 'email',
    type: 'string',
    placeholder: 'name@email.com',
    default: '',
    required: true,
    description: "The learner's e-mail address; registering an e-mail again returns the learner already registered with it",
  },
  { displayName: 'First Name', name: 'firstName', type: 'string', default: '', required: true, description: "The learner's first name" },
  { displayName: 'Last Name', name: 'lastName', type: 'string', default: '', required: true, description: "The learner's last name" },
  recordLocator('organizationId', 'Organization', 'searchOrganizations'),
  {
    displayName: 'Additional Fields',
    name: 'additionalFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    options: profileFields,
  },
];

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['register'] } }, properties);

/** Registers a learner (idempotent per e-mail: registering again returns the existing learner). */
export async function execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
  const input = {
    email: String(this.getNodeParameter('email', i)).trim(),
    firstName: String(this.getNodeParameter('firstName', i)),
    lastName: String(this.getNodeParameter('lastName', i)),
    organizationId: locatorId(this, 'organizationId', i),
    ...filled(this.getNodeParameter('additionalFields', i, {}) as Record<string, string>),
  } as RegisterUserInput;
  return item(await client.users.register(input));
}

import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../../../core/protocol.ts';
import type { UserPatch } from '../../../../core/protocol.ts';
import { item, userIdField, userIdOf } from '../common.ts';
import { filled, profileFields } from './fields.ts';

const properties: INodeProperties[] = [
  userIdField,
  {
    displayName: 'Update Fields',
    name: 'updateFields',
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    options: [
      ...profileFields.slice(0, 4),
      { displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '' },
      { displayName: 'First Name', name: 'firstName', type: 'string', default: '' },
      { displayName: 'Last Name', name: 'lastName', type: 'string', default: '' },
      { displayName: 'Organization ID', name: 'organizationId', type: 'number', default: 0, description: 'The numeric ID of the organization' },
      ...profileFields.slice(4),
      {
        displayName: 'Status',
        name: 'status',
        type: 'options',
        options: [
          { name: 'Active', value: 'active' },
          { name: 'Inactive', value: 'inactive' },
        ],
        default: 'active',
      },
    ],
  },
];

export const description = updateDisplayOptions({ show: { resource: ['user'], operation: ['update'] } }, properties);

/** Changes the given profile fields (a JSON merge patch: only what is set is sent). */
export async function execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
  const userId = userIdOf(this, i);
  const changes = filled(this.getNodeParameter('updateFields', i, {}) as Record<string, unknown>) as UserPatch;
  return item(await client.users.update(userId, changes));
}

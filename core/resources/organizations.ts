/** `/organizations`: reference data for the registration choice list (no `updatedAt`, so no delta sync). */
import type { ReadCollection } from '../types/resources.ts';
import type { Organization } from '../types/records.ts';
import type { Transport } from '../transport.ts';
import { createReadCollection } from './read-collection.ts';

/**
 * @param transport Sends the requests.
 * @returns `list`, `page` and `get` of organizations.
 */
export function createOrganizations(transport: Transport): Omit<ReadCollection<Organization>, 'sync'> {
  const { list, page, get } = createReadCollection<Organization>(transport, '/organizations');
  return { list, page, get };
}
